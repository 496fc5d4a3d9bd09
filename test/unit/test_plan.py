"""The rewrite plan: replaying it on the original model gives the rewritten model; bad plans are refused."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skir
from skir.runtime import apply_plan, load_plan, model_view
from skir.targets.plan import dump_plan, plan
from skir.targets.sk_meta import sk_meta
from skir.testing.random_models import random_model

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OPTION_STRINGS = ["", "stream-fusion=0", "early-start=1", "feed-sync-all=1:profiling=1", "sync-mode=data"]


def plan_of(result: skir.CompileResult) -> dict[str, Any]:
    """The plan as a reader gets it: printed, then parsed."""
    return json.loads(dump_plan(plan(result.module, sk_meta(result.module, result.original))))


@pytest.mark.parametrize("model", ["decode_layer.json", "chain.mlir", "torch/attention_moe.json"])
@pytest.mark.parametrize("options", OPTION_STRINGS)
def test_applying_the_plan_gives_the_rewritten_model(model: str, options: str) -> None:
    result = skir.compile(EXAMPLES / model, options=options)
    assert result.original is not None
    applied = apply_plan(result.original, plan_of(result))
    assert model_view(applied) == model_view(result.module)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=st.sampled_from(OPTION_STRINGS))
def test_random_models_replay(seed: int, options: str) -> None:
    data = random_model(random.Random(seed), max_streams=4, max_tasks=30, spare_slots=seed % 3 == 0)
    result = skir.compile(data, options=options)
    assert result.original is not None
    the_plan = plan_of(result)
    assert model_view(apply_plan(result.original, the_plan)) == model_view(result.module)
    assert the_plan["update"]["changed"] == sum(s["action"] != "keep" for s in the_plan["slots"])


def test_a_wrong_plan_gives_another_model() -> None:
    result = skir.compile(EXAMPLES / "decode_layer.json")
    assert result.original is not None
    bad = plan_of(result)
    members = {(a["stream"], a["seq"]) for sk in bad["superkernels"] for a in sk["args"] if a["source"] == "task"}
    disabled = next(s for s in bad["slots"] if s["action"] == "disable" and (s["stream"], s["seq"]) not in members)
    disabled["action"] = "keep"
    assert model_view(apply_plan(result.original, bad)) != model_view(result.module)


def test_sk_compile_writes_the_plan(tmp_path: Path) -> None:
    result = skir.compile(EXAMPLES / "decode_layer.json").write(tmp_path)
    written = load_plan(tmp_path / "plan.json")
    assert written.pop("provenance")["tool"] == "skir.compile"  # the file says where it came from
    assert written == plan_of(result)
    assert written["superkernels"][0]["sched_mode"] == "batch"
    assert written["superkernels"][0]["entry"] == "auto_gen_decode_layer_sk0_kernel"


def _mutated(edit: Any) -> tuple[Any, dict[str, Any]]:
    result = skir.compile(EXAMPLES / "decode_layer.json", options="profiling=1")
    good = plan_of(result)
    bad = copy.deepcopy(good)
    edit(bad)
    return result.original, bad


def _set(path: list[Any], value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value
    return edit


@pytest.mark.parametrize(("edit", "message"), [
    (_set(["version"], 1), "plan.json: version: version 1 is not supported"),
    (_set(["version"], 2), "plan.json: version: version 2 is not supported"),
    (_set(["version"], 4), "plan.json: version: version 4 is not supported"),
    (_set(["streams", 1, "index"], 3), "plan.json: streams[1].index: expected 1: a stream's index is its place"),
    (_set(["streams", 0, "name"], "s1"), "plan.json: streams[0].name: expected 's0'"),
    (lambda p: p["streams"].pop(), "plan.json: streams: lists 1 stream(s); the model has 2"),
    (_set(["slots", 3, "task", "blocks"], 24), "plan.json: slots[3].task: {'type': 'kernel', 'function': 'rms_norm', "
                                               "'blocks': 24, 'args_bytes': 24} is not what the model's slot @s0 "
                                               "seq 3 holds"),
    (_set(["slots", 3, "seq_id"], 4), "plan.json: slots[3].seq_id: expected 3: the slot's place in the model's "
                                      "capture order"),
    (_set(["slots", 3, "task", "function"], "rms"), "plan.json: slots[3].task: {'type': 'kernel', 'function': 'rms'"),
    (_set(["workspaces", 0, "bytes"], 100), "plan.json: workspaces[0].bytes: 100 is not a whole number of 64-byte"),
    (_set(["workspaces", 0, "align"], 8), "plan.json: workspaces[0].align: expected 64"),
    (_set(["model"], "other"), "plan.json: model: the plan is for @other"),
    (_set(["slots", 0, "action"], "frob"), "plan.json: slots[0].action: expected an action"),
    (_set(["slots", 1, "seq"], 0), "plan.json: slots[1]: slot @s0 seq 0 has a second action"),
    (_set(["slots", 0, "seq"], 999), "plan.json: slots[0]: the model has no slot @s0 seq 999"),
    (lambda p: p["slots"].pop(), "plan.json: slots: slot @s1 seq 8 has no action"),
    (_set(["slots", 3, "superkernel"], "nope"), "plan.json: slots[3].superkernel: SuperKernel 'nope' is not in"),
    (_set(["slots", 0], {"stream": "s0", "seq": 0, "seq_id": 0, "action": "set_kernel",
                         "superkernel": "decode_layer_sk0",
                         "task": {"type": "kernel", "function": "sk_scope_kernel_begin", "blocks": 1,
                                  "args_bytes": 0}}),
     "plan.json: slots[0]: set_kernel needs a kernel launch slot; @s0 seq 0 holds 'aclgraph.scope_begin'"),
    (_set(["slots", 4, "action"], "keep"),
     "plan.json: superkernels[0].args[4]: names @s0 seq 4, which is not a kernel launch the plan takes out"),
    (_set(["superkernels", 0, "args", 2, "arg"], 7), "plan.json: superkernels[0].args[2].arg: 7 is out of range"),
    (_set(["superkernels", 0, "args", 2, "slot"], 9), "plan.json: superkernels[0].args[2].slot: expected slot 2"),
    (_set(["slots", 4], {"stream": "s0", "seq": 4, "seq_id": 4, "action": "set_value_write", "cell": "c9", "value": 1,
                         "task": {"type": "kernel", "function": "qkv_matmul", "blocks": 24, "args_bytes": 24}}),
     "plan.json: slots[4].cell: cell 'c9' is not in the plan's cells"),
    (_set(["slots", 4, "value"], 1), "plan.json: slots[4].value: not a field of action 'disable'"),
])
def test_bad_plans_are_refused_with_a_located_error(edit: Any, message: str) -> None:
    original, bad = _mutated(edit)
    with pytest.raises(skir.SkirError) as err:
        apply_plan(original, bad)
    assert str(err.value).startswith(message), str(err.value)
