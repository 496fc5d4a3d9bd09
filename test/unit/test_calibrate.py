"""Calibration recovers planted cost parameters: profiles generated from the simulator with a
known cost model (an msprof op_summary CSV of the SuperKernel-off run, a device trace of the
SuperKernel-on run, written in their published formats) are fitted starting from the defaults."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import skir
from skir.profiles import load_profiles, measure
from skir.sim.calibrate import calibrate
from skir.sim.costs import default_costs, load_costs
from skir.sim.engine import durations_of, simulate

ROOT = Path(__file__).resolve().parents[2]

# four SuperKernels, cut apart by kernels that cannot fuse: aiv->aiv (one all-AIV barrier),
# aic->aic (all-AIC), aiv->aic (SyncAll) and aiv->aiv->aiv (two all-AIV barriers), so that the
# entry and the three barrier costs are each determined
_K = {"v": ("aiv_only", 8, 3.0), "c": ("aic_only", 8, 4.0), "x": ("aic_only", 4, 2.0)}
_ORDER = ["v", "v", "x", "c", "c", "x", "v", "c", "x", "v", "v", "v"]
PLANTED = {"dispatch_gap_us": 2.0, "sk_entry_us": 0.8, "barrier_all_aiv_us": 0.6, "barrier_all_aic_us": 0.45,
           "sync_all_us": 1.1}


def model() -> dict:  # type: ignore[type-arg]
    kernels = {name: {"kernel_type": kind, "params": 0, "code_bytes": 0, **({"sk_capable": False} if name == "x"
                                                                          else {})}
               for name, (kind, _, _) in _K.items()}
    tasks = [{"type": "kernel", "kernel": k, "blocks": _K[k][1], "duration_us": _K[k][2]} for k in _ORDER]
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "cal", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels, "streams": [{"name": "s0", "tasks": tasks}]}


def write_profiles(tmp_path: Path, result: skir.CompileResult, costs) -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    """The off run as msprof rows and the on run as the vendor's device trace, from the simulator."""
    assert result.original is not None
    before = next(op for op in result.original.ops if op.name == "aclgraph.model")
    after = next(op for op in result.module.ops if op.name == "aclgraph.model")
    off = simulate(before, "aclgraph", costs, durations_of(before))
    header = "Device_id,Model Name,Task ID,Stream ID,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us)"
    rows = [header] + [f"0,cal,{i},2,{t.name},{t.name},AI_CORE,{1000 + t.start:.4f},{t.end - t.start:.4f}"
                       for i, t in enumerate(off.tasks) if t.kind == "kernel"]
    off_path = tmp_path / "op_summary_off.csv"
    off_path.write_text("\n".join(rows) + "\n")
    on = simulate(after, "superkernel", costs, durations_of(before))
    events = []
    for sk, t in enumerate(x for x in on.tasks if x.kind == "superkernel"):
        events.append({"name": f"[0/1] sk_{sk}_{t.name}", "ph": "X", "pid": "AIV", "tid": 25, "ts": t.start,
                       "dur": t.end - t.start, "args": {"modelId": 1, "skId": sk}})
        for p in t.program:
            if p.kind == "subtask":
                events.append({"name": f"[0/1]{p.label}", "ph": "X", "pid": p.core.value.upper(), "tid": 0,
                               "ts": p.start, "dur": p.end - p.start, "args": {"modelId": 1, "skId": sk,
                                                                              "nodeId": p.seq}})
    on_path = tmp_path / "sk_prof_device_0.json"
    on_path.write_text(json.dumps(events))
    return off_path, on_path


def test_calibration_recovers_planted_costs(tmp_path: Path) -> None:
    result = skir.compile(model(), options="preload-code=none")
    assert len(result.superkernels) == 4
    planted = replace(default_costs(), **PLANTED)
    off_path, on_path = write_profiles(tmp_path, result, planted)
    assert result.original is not None
    off = measure(load_profiles([off_path]), result.original)
    on = measure(load_profiles([on_path]), result.original)
    fit = calibrate(result.original, result.module, off, on)
    for name, value in PLANTED.items():
        assert getattr(fit.costs, name) == pytest.approx(value, abs=0.02), name
    assert fit.before["superkernel duration (on)"][1] > 0.2  # the defaults were off ...
    for count, rms in fit.residuals.values():
        assert count and rms < 0.01  # ... the fit is not
    assert fit.costs.lock_wait_us == default_costs().lock_wait_us  # nothing measured it: unchanged
    # hand-derived: four SuperKernels with three barrier kinds, and kernel starts, determine the five
    # planted parameters one by one; no event, flag or lock is in the model
    assert (fit.rank, set(fit.fitted), fit.not_separable) == (5, set(PLANTED), ())
    assert set(fit.unobserved) == {"event_us", "flag_wait_us", "lock_notify_us", "lock_wait_us"}
    doc = fit.document("test")
    assert load_costs(doc).sk_entry_us == pytest.approx(PLANTED["sk_entry_us"], abs=0.02)
    assert doc["parameters"]["sk_entry_us"]["assumption"] is False


def test_the_command_line_writes_the_fitted_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skir.tools import sk_compile

    data = model()
    result = skir.compile(data, options="preload-code=none")
    off_path, on_path = write_profiles(tmp_path, result, replace(default_costs(), **PLANTED))
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "out"
    assert sk_compile.main([str(path), "-o", str(out), "--options", "preload-code=none",
                            "--calibrate", str(off_path), str(on_path)]) == 0
    text = capsys.readouterr().out
    assert "calibration: rank 5 of 9 (20 observations); measured: dispatch_gap_us 2.000" in text
    assert "superkernel duration (on): 4 observations" in text and "not separable" not in text
    fitted = load_costs(out / "costs.calibrated.json")
    from skir.schemas import validate

    validate("costs", json.loads((out / "costs.calibrated.json").read_text()))  # the written contract
    assert fitted.barrier_all_aiv_us == pytest.approx(PLANTED["barrier_all_aiv_us"], abs=0.02)
    # the fitted costs in turn: the simulator now reproduces the planted runs of both modes
    from skir.sim import compare

    assert result.original is not None
    planted = compare(result.original, result.module, replace(default_costs(), **PLANTED))
    again = compare(result.original, result.module, fitted)
    for mode in ("aclgraph", "superkernel"):
        assert again.runs[mode].makespan == pytest.approx(planted.runs[mode].makespan, abs=0.1)


def _fork_join(tmp_path: Path) -> tuple[Path, Path, Path, skir.CompileResult]:
    """Two vector kernels on s0 and two cube kernels on s1, forked and joined by events, fused into
    one SuperKernel between two kernels that cannot fuse. The kernel starts of the off run fix the
    dispatch gap and the event cost; the one SuperKernel duration sees only its longest path, the
    cube one: its all-AIC barriers and the notify of the join record, as one sum."""
    data = model()

    def k(name: str, seq: int) -> dict:  # type: ignore[type-arg]
        return {"type": "kernel", "kernel": name, "seq": seq, "blocks": 8, "duration_us": 3.0 if name != "x" else 2.0}

    data["events"] = ["fork", "join"]
    data["streams"] = [
        {"name": "s0", "tasks": [k("x", 0), {"type": "event_record", "event": "fork", "seq": 1}, k("v", 3), k("v", 5),
                                 {"type": "event_wait", "event": "join", "seq": 8}, k("x", 9),
                                 {"type": "event_reset", "event": "fork", "seq": 10},
                                 {"type": "event_reset", "event": "join", "seq": 11}]},
        {"name": "s1", "tasks": [{"type": "event_wait", "event": "fork", "seq": 2}, k("c", 4), k("c", 6),
                                 {"type": "event_record", "event": "join", "seq": 7}]}]
    result = skir.compile(data, options="preload-code=none")
    assert [len(sk.members) for sk in result.superkernels] == [4]
    off_path, on_path = write_profiles(tmp_path, result, replace(default_costs(), **PLANTED))
    path = tmp_path / "fork_join.json"
    path.write_text(json.dumps(data))
    return path, off_path, on_path, result


def test_parameters_the_profiles_cannot_separate_stay_assumptions(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from skir.tools import sk_compile

    path, off_path, on_path, result = _fork_join(tmp_path)
    assert result.original is not None
    fit = calibrate(result.original, result.module, measure(load_profiles([off_path]), result.original),
                    measure(load_profiles([on_path]), result.original))
    pair = ("barrier_all_aic_us", "lock_notify_us")
    assert fit.rank == 3 and set(fit.fitted) == {"dispatch_gap_us", "event_us"} and fit.not_separable == (pair,)
    assert "barrier_all_aiv_us" in fit.unobserved  # the vector path is not the longest: nothing sees it
    assert fit.costs.dispatch_gap_us == pytest.approx(PLANTED["dispatch_gap_us"], abs=0.02)
    # only the cube path's sum is determined (two all-AIC barriers, after each cube kernel, and the
    # notify): it is the planted one, whatever the split
    planted = replace(default_costs(), **PLANTED)
    assert 2 * fit.costs.barrier_all_aic_us + fit.costs.lock_notify_us == pytest.approx(
        2 * planted.barrier_all_aic_us + planted.lock_notify_us, abs=0.02)
    out = tmp_path / "out"
    assert sk_compile.main([str(path), "-o", str(out), "--options", "preload-code=none",
                            "--calibrate", str(off_path), str(on_path)]) == 0
    text = capsys.readouterr().out
    assert "calibration: rank 3 of 9" in text
    assert "(default costs)" not in text  # a warning after calibration is judged under the calibrated costs
    assert "not separable, left assumptions: barrier_all_aic_us + lock_notify_us" in text
    doc = json.loads((out / "costs.calibrated.json").read_text())
    assert doc["fit"]["not_separable"] == [list(pair)] and doc["fit"]["rank"] == 3
    assert doc["parameters"]["dispatch_gap_us"]["assumption"] is False
    for name in pair:
        assert doc["parameters"][name]["assumption"] is True
        assert ". Not separable" in doc["parameters"][name]["description"]  # a sentence of its own
    assert load_costs(out / "costs.calibrated.json").dispatch_gap_us == pytest.approx(2.0, abs=0.02)


@pytest.mark.parametrize("case", ["other model", "swapped", "other superkernels"])
def test_profiles_that_cannot_calibrate_are_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      case: str) -> None:
    from skir.tools import sk_compile

    path, off_path, on_path, _ = _fork_join(tmp_path)
    if case == "other model":
        text = off_path.read_text()
        for kernel, other in (("v", "rope"), ("x", "gelu"), ("c", "matmul")):
            text = text.replace(f",{kernel},{kernel},", f",{other},{other},")
        off_path.write_text(text)
        expected = (f"{off_path}: not a profile of @cal: none of its samples names a task or kernel of it "
                    "(it names gelu, matmul, rope)")
    elif case == "swapped":
        off_path, on_path = on_path, off_path
        expected = f"{off_path}: no kernel start times of the model"
    else:
        events = json.loads(on_path.read_text())
        for e in events:
            if "nodeId" in e["args"]:
                e["args"]["nodeId"] = 0  # the trace's SuperKernel fused other tasks
        on_path.write_text(json.dumps(events))
        expected = f"{on_path}: none of its 1 SuperKernels has the sub-tasks of a SuperKernel of this compile"
    out = tmp_path / "out"
    assert sk_compile.main([str(path), "-o", str(out), "--calibrate", str(off_path), str(on_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert not out.exists()


def test_calibration_judges_the_predicted_slower_warnings_again() -> None:
    """A `predicted_slower` warning after `calibrate()` is the calibrated costs' verdict, named so;
    the numbers are those a compile with the calibrated costs file predicts (a second reader)."""
    par = ROOT / "test" / "unit" / "models" / "parallel_matmuls.json"
    profiles = ROOT / "test" / "unit" / "profiles"
    result = skir.compile(par)
    [before] = [w for w in result.warnings if w.warning == "predicted_slower"]
    assert before.costs == "default"
    result.calibrate(profiles / "op_summary_par_off.csv", profiles / "sk_prof_device_par_on.json")
    [after] = [w for w in result.warnings if w.warning == "predicted_slower"]
    assert after.costs == "costs.calibrated.json" and after.after_us != before.after_us
    assert result.calibration is not None
    again = skir.compile(par, costs=result.calibration.document("test"))
    [same] = [w for w in again.warnings if w.warning == "predicted_slower"]
    assert (same.before_us, same.after_us) == pytest.approx((after.before_us, after.after_us))
