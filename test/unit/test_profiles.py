"""Measured profiles in (`skir.profiles`): skir's own JSON and msprof's op_summary CSV (test data
written from msprof's published columns), matched to the model's tasks; measured durations
drive `--report` and `select=gain`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import skir
from skir.profiles import load_profiles, measure
from skir.tools import sk_compile

ROOT = Path(__file__).resolve().parents[2]
PARALLEL = ROOT / "test" / "unit" / "models" / "parallel_matmuls.json"
MSPROF = ROOT / "test" / "unit" / "profiles" / "op_summary_par.csv"
# the model's launches: v at (s0, 0) and (s0, 7); mm at (s0, 2) and (s1, 4)


def test_msprof_rows_go_to_launches_by_name_and_order() -> None:
    measured = measure(load_profiles([MSPROF]), skir.load_model(PARALLEL))
    # by hand: the v rows in start order 2.1 1.9 | 2.0 2.0, the mm rows 0.5 0.6 | 0.7 0.5, two rounds
    assert measured.durations == pytest.approx({("s0", 0): 2.05, ("s0", 7): 1.95, ("s0", 2): 0.6, ("s1", 4): 0.55})
    assert (measured.measured, measured.estimated, measured.unmatched) == (4, 0, 1)  # the memcpy row


def test_skir_profile_tasks_and_kernels(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "skir.profile", "version": 1,
                                "tasks": [{"stream": "s1", "seq": 4, "us": [9.0, 11.0, 10.0]},
                                          {"stream": "s9", "seq": 1, "us": [1.0]}],
                                "kernels": {"mm": [40.0, 44.0], "gone": [3.0]}}))
    measured = measure(load_profiles([path]), skir.load_model(PARALLEL))
    # the task's own samples win over its kernel's; the other mm launch takes the kernel's P50
    assert measured.durations == {("s1", 4): 10.0, ("s0", 2): 42.0}
    assert (measured.measured, measured.estimated, measured.unmatched) == (2, 2, 2)


def test_measured_durations_are_the_simulators(tmp_path: Path) -> None:
    """The oracle: the same model with the measured values written as its own durations."""
    with_profile = skir.compile(PARALLEL, profiles=[MSPROF]).simulate()
    data = json.loads(PARALLEL.read_text())
    # the kernel tasks in JSON order: v and mm on s0, v on s0 again, mm on s1
    kernels = [t for s in data["streams"] for t in s["tasks"] if t["type"] == "kernel"]
    for task, value in zip(kernels, [2.05, 0.6, 1.95, 0.55], strict=True):
        task["duration_us"] = value
    written = skir.compile(data).simulate()
    for mode in ("eager", "aclgraph", "superkernel"):
        assert with_profile.report.comparison.runs[mode].makespan == pytest.approx(
            written.report.comparison.runs[mode].makespan)


def test_measured_durations_decide_the_selection() -> None:
    estimated = skir.compile(PARALLEL, options="select=gain")
    assert not estimated.superkernels  # 50 us matmuls: the queue SuperKernel serialises them
    measured = skir.compile(PARALLEL, options="select=gain", profiles=[MSPROF]).check()
    assert len(measured.superkernels) == 1 and measured.selection[0].kept  # 0.6 us: dispatch dominates


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = sk_compile.main([str(PARALLEL), "-o", str(tmp_path / "out"), "--profile", str(MSPROF), "--report"])
    assert code == 0
    out = capsys.readouterr().out
    assert ("profile (op_summary_par.csv): 4 kernel tasks measured, 0 estimated; 1 samples matched no task "
            "of the model (MemcpyAsync 1)") in out


def test_the_summary_names_what_matched_nothing(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "skir.profile", "version": 1, "model": "par",
                                "tasks": [{"stream": "s9", "seq": 1, "us": [1.0, 2.0]}, {"stream": "s0", "seq": 0,
                                                                                        "us": [2.0]}],
                                "kernels": {"gone": [3.0], "a1": [1.0], "a2": [1.0], "a3": [1.0], "a4": [1.0]}}))
    measured = measure(load_profiles([path]), skir.load_model(PARALLEL))
    assert measured.unmatched == 7
    assert measured.summary().endswith("7 samples matched no task of the model (task s9:1 2, kernel a1 1, "
                                       "kernel a2 1, kernel a3 1, kernel a4 1, 1 more)")


@pytest.mark.parametrize(("profile", "message"), [
    ({"format": "skir.profile", "version": 1, "model": "decode", "kernels": {"mm": [1.0]}},
     "p.json: model: a profile of @decode, not of @par"),
    ({"format": "skir.profile", "version": 1, "kernels": {"matmul": [1.0]}, "tasks": [{"stream": "s4", "seq": 9,
                                                                                      "us": [1.0]}]},
     "p.json: not a profile of @par: none of its samples names a task or kernel of it (it names kernel matmul, "
     "task s4:9)"),
])
def test_a_profile_of_another_model_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 profile: dict, message: str) -> None:  # type: ignore[type-arg]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(profile))
    out = tmp_path / "out"
    assert sk_compile.main([str(PARALLEL), "-o", str(out), "--profile", str(MSPROF), "--profile", str(path),
                            "--report"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{tmp_path}/{message}" in err, err
    assert not out.exists()


@pytest.mark.parametrize(("name", "text", "message"), [
    ("a.json", '{"format": "other", "version": 1}', "a.json: format: expected 'skir.profile', got 'other'"),
    ("a.json", '{"format": "skir.profile"}', "a.json: version: required key is missing"),
    ("a.json", '{"format": "skir.profile", "version": 1, "tasks": [{"stream": "s0", "seq": 0, "us": [-1]}]}',
     "a.json: tasks[0].us[0]: expected a duration in us"),
    ("a.json", '{"format": "skir.profile", "version": 2}', "a.json: version: profile version 2 is not supported"),
    ("a.csv", "Op Name,OP Type\nx,y\n", "a.csv:1: not msprof's op_summary CSV (no column 'Task Duration(us)')"),
    ("a.csv", "Op Name,OP Type,Task Duration(us)\nv,v,fast\n", "a.csv:2: Task Duration(us) 'fast' is not a number"),
    ("a.csv", "", "a.csv: empty file"),
])
def test_bad_profiles_are_one_located_line(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(skir.SkirError) as err:
        skir.compile(PARALLEL, profiles=[path])
    assert str(err.value).startswith(str(tmp_path / message.split(":")[0]) + message[len(message.split(":")[0]):])
    assert "\n" not in str(err.value)


def test_the_trace_gains_a_measured_process(tmp_path: Path) -> None:
    from skir.sim.trace import MEASURED_PID, check_trace

    skir.compile(PARALLEL, profiles=[MSPROF]).simulate().write(tmp_path / "out")
    doc = json.loads((tmp_path / "out" / "timeline.json").read_text())
    assert check_trace(doc) == []
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["pid"] == MEASURED_PID
             and e["name"] in ("process_name", "thread_name")}
    assert names == {"measured", "op_summary_par.csv stream 2", "op_summary_par.csv stream 4"}
    rows = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["pid"] == MEASURED_PID]
    assert len(rows) == 9 and min(e["ts"] for e in rows) == 0.0  # every row, the first at 0
    first_mm = min((e for e in rows if e["name"] == "mm"), key=lambda e: e["ts"])
    assert (first_mm["ts"], first_mm["dur"]) == (3.0, 0.5)  # 1003.0 - 1000.0, as the CSV says


def test_the_vendors_device_trace() -> None:
    """Two runs of one SuperKernel (block-0 spans at 100 and 500 us); a child's sample per run is
    its spans' extent over blocks and cores; its node id is the task's seq."""
    trace = ROOT / "test" / "unit" / "profiles" / "sk_prof_device_0.json"
    measured = measure(load_profiles([trace]), skir.load_model(PARALLEL))
    # by hand: v@0 2.2 (101 .. 103.2) and 2.0; mm@2 0.7 (104 .. 104.7) and 0.9; mm@4 0.4, 0.6; v@7 1.0, 1.2
    assert measured.durations == pytest.approx({("s0", 0): 2.1, ("s0", 2): 0.8, ("s1", 4): 0.5, ("s0", 7): 1.1})
    assert (measured.measured, measured.unmatched) == (4, 1)  # node 99 is no task of the model


def test_a_bad_device_trace_span_name(tmp_path: Path) -> None:
    path = tmp_path / "sk_prof_device_0.json"
    path.write_text('[{"name": "matmul", "ph": "X", "ts": 1, "dur": 1, "args": {"skId": 0, "nodeId": 1}}]')
    with pytest.raises(skir.SkirError, match=r"sk_prof_device_0.json: \[0\].name: expected '\[blockIdx/blockNum\]"):
        skir.compile(PARALLEL, profiles=[path])
