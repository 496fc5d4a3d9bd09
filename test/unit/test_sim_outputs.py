"""`--report`: the table, SK meta's profiling, the trace JSON, the charts, and failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import skir
from skir.sim import estimate
from skir.sim.trace import check_trace, dump_trace, trace_events
from skir.tools import sk_compile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DECODE = str(EXAMPLES / "decode_layer.json")


@pytest.fixture(scope="module")
def decode_report() -> skir.sim.Report:  # type: ignore[name-defined]
    result = skir.compile(DECODE)
    return estimate(result.original, result.module)


def test_the_trace_validates_against_the_trace_event_format(decode_report) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(dump_trace(trace_events(decode_report.comparison, "decode_layer")))
    assert check_trace(doc) == []
    assert doc["otherData"]["format"] == "skir.timeline" and doc["otherData"]["version"] == 1
    names = {(e["pid"], e["args"]["name"]) for e in doc["traceEvents"] if e["name"] == "process_name"}
    assert names == {(1, "eager"), (2, "aclgraph"), (3, "superkernel"), (5, "aclgraph_es")}
    threads = {(e["pid"], e["args"]["name"]) for e in doc["traceEvents"] if e["name"] == "thread_name"}
    assert {(2, "stream s0"), (2, "stream s1"), (3, "AIC"), (3, "AIV")} <= threads
    assert not any(pid == 2 and name.startswith("AI") for pid, name in threads)
    subtasks = [e for e in doc["traceEvents"] if e.get("cat") == "subtask"]
    assert {e["args"]["seq"] for e in subtasks} >= {3, 4, 7, 9, 11, 12, 13, 14, 15, 16, 17, 18}


@pytest.mark.parametrize(("event", "problem"), [
    ({"name": "k", "ph": "X", "ts": 1, "pid": 1, "tid": 1}, "needs dur"),
    ({"name": "k", "ph": "X", "ts": -1, "dur": 1, "pid": 1, "tid": 1}, "ts must be"),
    ({"name": "k", "ph": "Q", "ts": 1}, "unknown phase"),
    ({"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {}}, "needs args.name"),
    ({"name": 3, "ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 1}, "name must be a string"),
])
def test_the_checker_finds_malformed_events(event: dict, problem: str) -> None:
    problems = check_trace({"traceEvents": [event]})
    assert problems and problem in problems[0]


def test_the_checker_finds_misnested_slices() -> None:
    doc = {"traceEvents": [{"name": "a", "ph": "X", "ts": 0, "dur": 5, "pid": 1, "tid": 1},
                           {"name": "b", "ph": "X", "ts": 3, "dur": 5, "pid": 1, "tid": 1},
                           {"name": "c", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}]}
    problems = check_trace(doc)
    assert len(problems) == 1 and "without nesting" in problems[0]
    assert check_trace({"events": []}) and check_trace({"traceEvents": [], "displayTimeUnit": "s"})


def test_the_charts_are_pngs(decode_report) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    from skir.sim.charts import gantt_png, modes_png

    for data in (gantt_png(decode_report.comparison, "decode_layer"),
                 modes_png(decode_report.comparison, "decode_layer")):
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
        assert b"Software" not in data and b"tIME" not in data


def _many_kernels(n: int) -> dict:  # type: ignore[type-arg]
    """One stream of `n` different kernels, kernel i lasting i + 1 us."""
    kernels = {f"k{i}": {"kernel_type": "aiv_only", "params": 0, "code_bytes": 0} for i in range(n)}
    tasks = [{"type": "kernel", "kernel": f"k{i}", "blocks": 8, "duration_us": float(i + 1)} for i in range(n)]
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "many", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels, "streams": [{"name": "s0", "tasks": tasks}]}


def test_every_kernel_in_the_legend_has_a_colour_of_its_own() -> None:
    pytest.importorskip("matplotlib")
    from skir.sim.charts import LEGEND_KERNELS, gantt_figure, kernel_colors

    result = skir.compile(_many_kernels(30))
    report = estimate(result.original, result.module)
    own, others = kernel_colors(report.comparison)
    assert LEGEND_KERNELS == 24 and len(own) == 24 and len(set(own.values())) == 24  # no colour twice
    assert sorted(others, key=lambda k: int(k[1:])) == [f"k{i}" for i in range(6)]  # the six shortest
    labels = [t.get_text() for t in gantt_figure(report.comparison, "many").legends[0].get_texts()]
    assert labels[:24] == [f"k{i}" for i in range(6, 30)] and labels[24] == "+6 more kernels"
    # a model with fewer kernels than colours: every one shown, none in the grey
    small = skir.compile(_many_kernels(20))
    own, others = kernel_colors(estimate(small.original, small.module).comparison)
    assert len(set(own.values())) == 20 and not others


def test_the_gantt_rows_and_the_host_enqueue_stand_apart(decode_report) -> None:  # type: ignore[no-untyped-def]
    """A stream whose slots all became disabled (decode_layer's s1 under the SuperKernel) has no
    row of its own in that panel; the host enqueue is hatched, unlike every kernel's fill."""
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_hex

    from skir.sim.charts import gantt_figure, kernel_colors

    cmp = decode_report.comparison
    fig = gantt_figure(cmp, "decode_layer")
    rows = {mode: [t.get_text() for t in ax.get_yticklabels()] for mode, ax in zip(cmp.runs, fig.axes, strict=False)}
    drawn = {mode: {f"stream {t.stream}" for t in run.tasks if t.end > t.start} for mode, run in cmp.runs.items()}
    for mode, labels in rows.items():  # every stream row holds a drawn task (computed here from the runs)
        assert {r for r in labels if r.startswith("stream")} == drawn[mode], mode
    assert "stream s1" in rows["aclgraph"] and "stream s1" not in rows["superkernel"]
    [host] = [h for h in fig.legends[0].legend_handles if h.get_label() == "host enqueue (eager)"]
    assert host.get_hatch() and to_hex(host.get_facecolor()) == "#ffffff"
    assert "#ffffff" not in {c.lower() for c in kernel_colors(cmp)[0].values()}


def test_the_modes_say_critical_path_compute_and_device_op_time(decode_report) -> None:  # type: ignore[no-untyped-def]
    table = decode_report.table()
    lines = table.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("mode "))
    assert "critical-path compute" in lines[at] and "device op time us" in lines[at]
    for mode, run in decode_report.comparison.runs.items():
        row = next(line for line in lines[at:] if line.lstrip().startswith(mode + " "))
        assert f"{run.device_op_time():.2f}" in row.split()
    # the oracle: the device op time summed here from the tasks
    run = decode_report.comparison.runs["aclgraph"]
    assert run.device_op_time() == pytest.approx(sum(t.end - t.start for t in run.tasks if t.kind == "kernel"))
    pytest.importorskip("matplotlib")
    from skir.sim.charts import modes_figure

    fig = modes_figure(decode_report.comparison, "decode_layer")
    ax = fig.axes[0]
    assert "critical-path compute" in [t.get_text() for t in ax.get_legend().get_texts()]
    texts = [t.get_text() for t in ax.texts]
    assert any(f"device op time {run.device_op_time():.1f} us" in t for t in texts)


def test_sk_compile_report_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    assert sk_compile.main([DECODE, "-o", str(out), "--report"]) == 0
    printed = capsys.readouterr().out
    assert "decode_layer_sk0" in printed and "before us" in printed and "lower bound" in printed
    for mode in ("eager", "aclgraph", "superkernel"):
        assert f"  {mode} " in printed
    assert (out / "README.txt").read_text() == printed
    for name in ("timeline.json", "timeline.png", "modes.png"):
        assert (out / name).stat().st_size > 1000
    meta = json.loads((out / "sk_meta.json").read_text())
    profiling = meta["profiling"]
    assert profiling["costs"] == "default"
    assert set(profiling["modes"]) == {"eager", "aclgraph", "aclgraph_es", "superkernel"}
    sk = profiling["superkernels"][0]
    assert sk["name"] == "decode_layer_sk0" and sk["members"] == 12
    assert sk["lower_bound_us"] <= sk["after_us"] < sk["before_us"]
    bound = profiling["lower_bound"]["lower_bound_us"]
    assert all(m["makespan_us"] >= bound for m in profiling["modes"].values())
    assert check_trace(json.loads((out / "timeline.json").read_text())) == []
    again = tmp_path / "again"
    assert sk_compile.main([DECODE, "-o", str(again), "--report", "-q"]) == 0
    for path in out.rglob("*"):
        if path.is_file():
            assert path.read_bytes() == (again / path.relative_to(out)).read_bytes(), path.name


def test_without_report_sk_meta_is_unchanged(tmp_path: Path) -> None:
    assert sk_compile.main([DECODE, "-o", str(tmp_path / "plain"), "-q"]) == 0
    assert sk_compile.main([DECODE, "-o", str(tmp_path / "rep"), "-q", "--report"]) == 0
    plain = json.loads((tmp_path / "plain" / "sk_meta.json").read_text())
    rep = json.loads((tmp_path / "rep" / "sk_meta.json").read_text())
    assert "profiling" not in plain
    rep.pop("profiling")
    assert rep.pop("provenance")["arguments"][-1] == "--report"  # the command differs, and says so
    plain.pop("provenance")
    assert rep == plain
    assert not (tmp_path / "plain" / "timeline.json").exists()


def test_a_costs_file_is_named_in_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    costs = tmp_path / "slow.json"
    costs.write_text(json.dumps({"format": "skir.sim.costs", "version": 1, "parameters": {"dispatch_gap_us": 3}}))
    assert sk_compile.main([DECODE, "-o", str(tmp_path / "o"), "--costs", str(costs)]) == 0
    assert "costs from slow.json" in capsys.readouterr().out
    profiling = json.loads((tmp_path / "o" / "sk_meta.json").read_text())["profiling"]
    assert profiling["costs"] == "slow.json" and profiling["parameters"]["dispatch_gap_us"] == 3.0


def test_a_bad_costs_file_fails_with_exit_1_and_writes_nothing(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    costs = tmp_path / "bad.json"
    costs.write_text('{"format": "skir.sim.costs", "version": 1, "parameters": {"gap_us": 1}}')
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    assert sk_compile.main([DECODE, "-o", str(out), "--report", "--costs", str(costs)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.json: parameters.gap_us: unknown cost parameter (one of" in err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "out"]


def test_without_matplotlib_the_trace_is_still_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import skir.sim.charts

    monkeypatch.setattr(skir.sim.charts, "have_matplotlib", lambda: False)
    out = tmp_path / "out"
    assert sk_compile.main([str(EXAMPLES / "chain.mlir"), "-o", str(out), "--report"]) == 0
    printed = capsys.readouterr().out
    assert "pip install 'skir[report]'" in printed
    assert (out / "timeline.json").exists()
    assert not (out / "timeline.png").exists() and not (out / "modes.png").exists()


def test_the_timeline_draws_each_sync_edge_as_an_arrow(tmp_path: Path) -> None:
    """By hand: decode_layer's two event waits (fork0, join1) each get an arrow from their record
    in eager, aclgraph and aclgraph_es; in superkernel mode every in-kernel flag wait gets one from
    the set whose credit it took."""
    skir.compile(DECODE).simulate().write(tmp_path)
    doc = json.loads((tmp_path / "timeline.json").read_text())
    assert check_trace(doc) == [] and doc["displayTimeUnit"] == "ms"
    names = {e["pid"]: e["args"]["name"] for e in doc["traceEvents"] if e["name"] == "process_name"}
    starts: dict[str, int] = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "s":
            starts[names[e["pid"]]] = starts.get(names[e["pid"]], 0) + 1
    for mode in ("eager", "aclgraph", "aclgraph_es"):
        assert starts[mode] == 2, (mode, starts)
    program = (tmp_path / "model.rewritten.mlir").read_text()
    waits = program.count("sk.wait_flag ")
    assert waits > 0 and starts["superkernel"] >= waits
    labels = {e["id"]: e for e in doc["traceEvents"] if e["ph"] in "sf"}
    assert len(labels) == sum(starts.values())
