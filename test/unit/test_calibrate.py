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
    assert "calibration: dispatch_gap_us 2.000" in text and "superkernel duration (on): 4 observations" in text
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
