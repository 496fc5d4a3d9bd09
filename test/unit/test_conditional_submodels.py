"""Conditional sub-models (docs/design.md §3 "Conditional sub-models"): the capture JSON and IR
forms, the bad inputs (one located line each), formation inside each sub-model on its own, the
plan and SK meta per sub-model, sk-check, emulation and the simulator. The independent oracle:
each sub-model compiled as a capture of its own forms the same SuperKernels."""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skir
from skir.dialects.aclgraph import CondOp, StreamOp
from skir.dialects.model_lookup import all_submodels, models, the_model
from skir.frontends.capture import dumps
from skir.runtime import apply_plan, model_view
from skir.targets.plan import plan as plan_of
from skir.targets.sk_meta import sk_meta
from skir.testing import random_model
from skir.tools import sk_compile


def kernel(seq: int, args: list[str]) -> dict[str, Any]:
    return {"seq": seq, "type": "kernel", "kernel": "k", "blocks": 8, "args": args, "duration_us": 3.0}


MODEL = {
    "format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
    "kernels": {"k": {"kernel_type": "aiv_only", "params": ["in", "out"]}},
    "cells": ["flag"], "events": ["e"],
    "submodels": [
        {"name": "then_b", "streams": [
            {"name": "s1", "tasks": [kernel(2, ["x", "y"]), {"seq": 3, "type": "event_record", "event": "e"},
                                     kernel(4, ["y", "x"])]},
            {"name": "s3", "tasks": [{"seq": 5, "type": "event_wait", "event": "e"}, kernel(6, ["y", "z"]),
                                     {"seq": 7, "type": "event_reset", "event": "e"}]}]},
        {"name": "else_b", "streams": [{"name": "s2", "tasks": [kernel(8, ["x", "y"]), kernel(9, ["y", "x"])]}]}],
    "streams": [{"name": "s0", "tasks": [
        kernel(0, ["x", "y"]),
        {"seq": 1, "type": "cond", "kind": "if", "cell": "flag", "submodels": ["then_b", "else_b"]},
        kernel(10, ["x", "y"]), kernel(11, ["y", "z"])]}],
}


def members(result: skir.CompileResult) -> dict[str, list[int]]:
    return {sk.name: sorted(m.seq for m in sk.members) for sk in result.superkernels}


# ---- input -----------------------------------------------------------------------------


def test_the_json_and_the_ir_keep_sub_models() -> None:
    module = skir.load_model(copy.deepcopy(MODEL))
    model = the_model(module)
    (cond,) = [t for s in model.body.block.ops if isinstance(s, StreamOp) for t in s.body.block.ops
               if isinstance(t, CondOp)]
    assert [sub.sym_name.data for sub in cond.submodels()] == ["then_b", "else_b"]
    assert [m.sym_name.data for m in models(module)] == ["m", "then_b", "else_b"]
    text = str(module)
    assert "aclgraph.cond seq 1 if @flag {" in text and str(skir.parse(text)) == text
    again = json.loads(dumps(module))
    assert [s["name"] for s in again["submodels"]] == ["then_b", "else_b"]
    assert again["streams"][0]["tasks"][1] == MODEL["streams"][0]["tasks"][1]
    assert str(skir.load_model(again)) == text


def _edit(path: str, value: Any) -> Any:
    def edit(d: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        target: Any = d
        for k in keys:
            target = target[int(k)] if k.isdigit() else target[k]
        if last.isdigit() and int(last) == len(target):
            target.append(value)
        else:
            target[int(last) if last.isdigit() else last] = value
    return edit


COND = "streams.0.tasks.1"


@pytest.mark.parametrize(("edit", "message"), [
    (_edit(f"{COND}.submodels", ["then_b", "nope"]), "streams[0].tasks[1].submodels[1]: unknown submodel 'nope'"),
    (_edit(f"{COND}.cell", "nocell"), "streams[0].tasks[1].cell: unknown cell 'nocell'"),
    (_edit(f"{COND}.submodels", ["then_b", "then_b"]),
     "streams[0].tasks[1].submodels[1]: sub-model 'then_b' is already run by the condition task"),
    (_edit(f"{COND}.kind", "while"),
     "streams[0].tasks[1].submodels: a 'while' condition runs exactly one sub-model (its body), got 2"),
    (_edit(f"{COND}.kind", "maybe"), "streams[0].tasks[1].kind: expected a condition kind"),
    (_edit(f"{COND}.submodels", ["then_b"]), "submodels[1]: sub-model 'else_b' is run by no condition task"),
    (_edit("submodels.0.streams.0.tasks.3", {"seq": 20, "type": "cond", "kind": "while", "cell": "flag",
                                             "submodels": ["then_b"]}),
     "submodels[0].streams[0].tasks[3].submodels[0]: sub-model 'then_b' runs itself"),
    (_edit("submodels.1.streams.0.name", "s0"), "submodels[1].streams[0].name: name 's0' is declared twice"),
    (_edit("submodels.1.streams.0.tasks.0.seq", 0), "seq 0 is also used by"),
    (_edit(f"{COND}.cell", "e"), "streams[0].tasks[1].cell: 'e' is an event"),
])
def test_bad_sub_models_are_one_located_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any,
                                             message: str) -> None:
    data = copy.deepcopy(MODEL)
    edit(data)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    assert sk_compile.main([str(path), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert not (tmp_path / "out").exists()


def test_a_capture_with_sub_models_gives_every_task_a_seq() -> None:
    data = copy.deepcopy(MODEL)
    for task in data["submodels"][1]["streams"][0]["tasks"]:
        del task["seq"]
    with pytest.raises(skir.SkirError, match=r"submodels\[1\]\.streams\[0\]\.tasks\[0\]: a capture with submodels"):
        skir.load_model(data)


# ---- formation and outputs -----------------------------------------------------------------


def test_each_sub_model_forms_its_own_superkernels() -> None:
    result = skir.compile(copy.deepcopy(MODEL)).check()
    assert result.proof.ok
    # by hand: the parent's kernel before the condition is cut by it; then and else fuse inside
    assert members(result) == {"m_sk0": [10, 11], "m_then_b_sk0": [2, 4, 6], "m_else_b_sk0": [8, 9]}
    assert [(u.seq, u.reason) for u in result.fail_reasons] == [(0, "default_node")]


def _alone(data: dict[str, Any], name: str) -> dict[str, Any]:
    """Sub-model `name` of capture `data` as a capture of its own (the second reading)."""
    sub = next(s for s in data["submodels"] if s["name"] == name)
    own = copy.deepcopy({k: v for k, v in data.items() if k not in ("submodels", "streams", "model")})
    used = {t["kernel"] for s in sub["streams"] for t in s["tasks"] if "kernel" in t}
    own["kernels"] = {k: v for k, v in own.get("kernels", {}).items() if k in used}
    return {**own, "model": name, "streams": copy.deepcopy(sub["streams"])}


def test_a_sub_model_forms_as_it_would_alone() -> None:
    result = skir.compile(copy.deepcopy(MODEL))
    for name in ("then_b", "else_b"):
        alone = skir.compile(_alone(MODEL, name))
        assert {k.replace(f"m_{name}_", f"{name}_"): v for k, v in members(result).items()
                if k.startswith(f"m_{name}_")} == members(alone)


def test_plan_and_meta_describe_each_sub_model() -> None:
    result = skir.compile(copy.deepcopy(MODEL))
    meta = sk_meta(result.module, result.original)
    plan = plan_of(result.module, meta)
    assert [(s["name"], s["cond"], s["branch"]) for s in plan["submodels"]] == [
        ("then_b", {"stream": "s0", "seq": 1}, 0), ("else_b", {"stream": "s0", "seq": 1}, 1)]
    assert [sk["name"] for sk in plan["submodels"][0]["superkernels"]] == ["m_then_b_sk0"]
    assert {s["stream"] for s in plan["submodels"][0]["slots"]} == {"s1", "s3"}
    assert [s["summary"]["kernel_tasks"] for s in meta["submodels"]] == [3, 2]
    assert meta["summary"]["kernel_tasks"] == 3  # the model's own
    applied = apply_plan(result.original, plan)  # type: ignore[arg-type]
    assert model_view(applied) == model_view(result.module)
    plan["submodels"] = plan["submodels"][:1]
    with pytest.raises(skir.SkirError, match="sub-model 'else_b' has no plan"):
        apply_plan(result.original, plan)  # type: ignore[arg-type]


def test_the_simulator_runs_the_first_branch_and_reports_each() -> None:
    result = skir.compile(copy.deepcopy(MODEL)).simulate()
    cmp = result.report.comparison
    assert [name for name, _ in cmp.submodels] == ["then_b", "else_b"]
    then_b = dict(cmp.submodels)["then_b"]
    for mode, run in cmp.runs.items():
        cond = next(t for t in run.tasks if t.seq == 1)
        assert cond.end - cond.start == pytest.approx(then_b.runs[mode].makespan)
    assert "sub-models, each on its own" in result.report.table()


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_every_superkernel_of_every_sub_model_emulates() -> None:
    result = skir.compile(copy.deepcopy(MODEL)).emulate()
    # the top model's SuperKernel and the else branch's are identical: their one shared entry
    # runs once (docs/design.md §5 "Shared entries")
    from skir.targets.shared_entries import shared_entries

    (shared,) = [g for g in shared_entries(result.module).groups if g.shared]
    assert shared.member_names == ["m_sk0", "m_else_b_sk0"]
    assert sorted(e.name for e in result.emulation) == sorted([shared.name, "m_then_b_sk0"])
    assert all(e.ok for e in result.emulation)


# ---- random models ------------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), spare=st.booleans())
def test_random_models_with_conditions(seed: int, spare: bool) -> None:
    data = random_model(random.Random(seed), max_streams=3, max_tasks=24, spare_slots=spare, with_conds=True)
    result = skir.compile(data).check()
    assert result.proof.ok
    meta = sk_meta(result.module, result.original)
    plan = plan_of(result.module, meta)
    assert model_view(apply_plan(result.original, plan)) == model_view(result.module)  # type: ignore[arg-type]
    subs = all_submodels(the_model(result.module))
    assert {s.sym_name.data for s in subs} == {s["name"] for s in data.get("submodels", [])}
    for sub in data.get("submodels", [])[:2]:  # formation inside a sub-model is formation on it alone
        alone = skir.compile(_alone(data, sub["name"]))
        prefix = f"{data['model']}_{sub['name']}_"
        assert sorted(v for k, v in members(result).items() if k.startswith(prefix)) == sorted(members(alone).values())


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_models_with_conditions_emulate_clean(seed: int) -> None:
    data = random_model(random.Random(seed), max_streams=3, max_tasks=20, spare_slots=True, with_conds=True)
    for emu in skir.compile(data).emulate().emulation:
        assert emu.ok, (emu.verdict, emu.problems)
