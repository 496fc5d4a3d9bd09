"""The device applier (`skir.runtime.acl`) on skir's CPU runtime model: the applied graph is the
rewritten model, proved against the original; a graph that is not the plan's is refused with
nothing changed; a fault at any ACL call leaves the graph as captured; a second apply is refused.

Independent oracles: the written model's view against `OUT/model.rewritten.mlir` (two writers),
sk-check and the rewrite oracle against the original, and every SuperKernel argument table
against the sub-tasks' offsets in `sk.kernel` (not the plan's argument sources, which the
applier reads).
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skir
from skir.analysis.proof.sk_check import check_module
from skir.dialects.aclgraph import LaunchOp, StreamOp
from skir.dialects.model_lookup import the_model
from skir.dialects.superkernel import SubtaskOp, SuperKernelOp
from skir.errors import SkirError
from skir.runtime.apply import model_view
from skir.testing import random_model
from skir.testing.option_space import expected_refusal, option_strings
from skir.testing.rewrite_oracle import check_rewrite

ROOT = Path(__file__).resolve().parents[2]
needs_cpu_model = pytest.mark.skipif(
    not os.environ.get("SKIR_ACL_INCLUDE") or shutil.which("g++") is None,
    reason="needs the ACL headers (make acl-headers sets SKIR_ACL_INCLUDE) and g++")
pytestmark = needs_cpu_model

MODELS = [ROOT / "examples" / "decode_layer.json", ROOT / "examples" / "decode_updated.json",
          ROOT / "examples" / "decode_branches.json",
          ROOT / "examples" / "chain.mlir", ROOT / "examples" / "vendor_dump",
          *sorted((ROOT / "test" / "unit" / "models").glob("*.*")),
          *sorted((ROOT / "examples" / "torch").glob("*.json")),
          *sorted(p for p in (ROOT / "test" / "unit" / "vendor_dumps").iterdir() if p.is_dir() and p.name != "bad")]
"""Every shipped example and suite model (conditional sub-models included)."""
CASES = [(m, "") for m in MODELS] + [
    (ROOT / "examples" / "decode_updated.json", "fuse-updated=1"),
    (ROOT / "examples" / "decode_layer.json", "placement=auto:early-start=1"),
    (ROOT / "test" / "unit" / "models" / "two_chains.json", "placement=auto"),
    (ROOT / "test" / "unit" / "models" / "locks.mlir", "sync-mode=data:profiling=1"),
    (ROOT / "test" / "unit" / "models" / "identical_layers.json", "debug-progress=1"),
]


def _compiled(model: Any, options: str, tmp_path: Path) -> tuple[Any, Path]:
    out = tmp_path / "out"
    return skir.compile(model, options).write(out), out


def _apply(model: Any, out: Path, tmp_path: Path, fault: tuple[str, int] | None = None) -> Any:
    from skir.runtime.cpu_apply import apply_on_cpu

    return apply_on_cpu(skir.load_model(model), out, tmp_path / "work", fault)


def _tables_match_the_programs(run: Any, result: Any) -> None:
    """Each SuperKernel's table holds, at each sub-task's offset, the words of that task's
    arguments as the capture passed them (the loader's buffer addresses), read from `sk.kernel`."""
    from skir.dialects.model_lookup import all_submodels

    address = {name: addr for addr, name in run.graph.buffers.items()}
    before, after = the_model(result.original), the_model(result.module)
    launches = {(s.sym_name.data, t.seq.data): t for m in (before, *all_submodels(before)) for s in m.body.block.ops
                if isinstance(s, StreamOp) for t in s.body.block.ops if isinstance(t, LaunchOp)}
    for sk in (op for m in (after, *all_submodels(after)) for op in m.body.block.ops):
        if not isinstance(sk, SuperKernelOp):
            continue
        _, table = run.applied.tables[sk.sym_name.data]
        for sub in sk.program():
            if isinstance(sub, SubtaskOp):
                launch = launches[(sub.stream.root_reference.data, sub.seq.data)]
                args = [address[a.root_reference.data] for a in launch.args or ()]
                offset = sub.offset.data
                assert table[offset:offset + len(args)] == args, (sk.sym_name.data, sub.seq.data)


def _annotated(applied: Any, compiled: Any) -> Any:
    """The applied module with the compile's fail reasons on the launches left unfused (what the
    runtime cannot know, and the rewrite oracle asks for)."""
    from skir.passes.common import FAIL_ATTR

    reasons = {(s.sym_name.data, t.seq.data): t.attributes[FAIL_ATTR] for s in the_model(compiled).body.block.ops
               if isinstance(s, StreamOp) for t in s.body.block.ops if FAIL_ATTR in t.attributes}
    for stream in the_model(applied).body.block.ops:
        if isinstance(stream, StreamOp):
            for task in stream.body.block.ops:
                if (stream.sym_name.data, task.seq.data) in reasons:
                    task.attributes[FAIL_ATTR] = reasons[(stream.sym_name.data, task.seq.data)]
    return applied


def _check(model: Any, options: str, tmp_path: Path) -> None:
    from skir.runtime.cpu_writer import applied_module

    result, out = _compiled(model, options, tmp_path)
    run = _apply(model, out, tmp_path)
    applied = applied_module(run.cpu, run.graph, run.applied, run.programs)
    rewritten = skir.parse((out / "model.rewritten.mlir").read_text())
    assert model_view(applied) == model_view(rewritten)
    proof = check_module(applied)
    assert proof.ok, proof.violations[:3]
    check_rewrite(result.original, _annotated(applied, result.module))
    _tables_match_the_programs(run, result)
    assert run.cpu.updates(run.graph.model_ri) == 1  # one commit
    slots = {(s["stream"], s["seq"]): s for s in run.applied.plan["slots"]}
    for sk in run.applied.plan["superkernels"]:  # a group's update re-issues its tasks: no launch sits there
        assert "task_group" not in slots[(sk["host"]["stream"], sk["host"]["seq"])]["task"]


@pytest.mark.parametrize(("model", "options"), CASES,
                         ids=[f"{m.relative_to(ROOT)}[{o}]" for m, o in CASES])
def test_the_applied_graph_is_the_rewritten_model(model: Path, options: str, tmp_path: Path) -> None:
    _check(model, options, tmp_path)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), options=option_strings(gain=False))
def test_random_models_apply_as_rewritten(seed: int, options: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    data = random_model(random.Random(seed), max_streams=3, max_tasks=24, with_scopes=seed % 2 == 0,
                        spare_slots=seed % 3 == 0, with_updates=seed % 5 == 0, with_conds=seed % 4 == 1,
                        with_comm=seed % 3 == 1, with_active=seed % 4 == 2)
    tmp = tmp_path_factory.mktemp("random")
    try:
        _check(data, options, tmp)
    except SkirError as err:
        if not expected_refusal(options, err):
            raise


# ---- refusals ---------------------------------------------------------------------------------------

DECODE = ROOT / "examples" / "decode_layer.json"


def _prepared(model: Any, out: Path, tmp_path: Path) -> tuple[Any, Any, Path]:
    """(the CPU model, `model` loaded into it, the host entry objects of OUT)."""
    from skir.runtime.cpu_apply import host_objects
    from skir.runtime.cpu_model import cpu_library, load_graph

    cpu = cpu_library()
    return cpu, load_graph(cpu, skir.load_model(model), tmp_path / "capture"), host_objects(out, tmp_path / "objects")


def _state(cpu: Any, graph: Any, which: int) -> list[tuple[bytes, bool]]:
    """Every task's parameters (as bytes) and disabled flag: 0 staged, 1 committed, 2 as captured."""
    out = []
    for stream in cpu.streams(graph.model_ri):
        for task in cpu.tasks(stream):
            params, disabled = cpu.state(task, which)
            out.append((bytes(params), disabled))
    return out


def _task(data: dict[str, Any], seq: int) -> dict[str, Any]:
    return next(t for s in data["streams"] for t in s["tasks"] if t.get("seq") == seq)


def _decode(edit: Any) -> dict[str, Any]:
    import json

    data: dict[str, Any] = json.loads(DECODE.read_text())
    edit(data)
    return data


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: _task(d, 4).update(kernel="rms_norm"), "slot @s0 seq 4 (stream 0, seq id 4): function rms_norm in the "
                                                      "graph, qkv_matmul in the plan"),
    (lambda d: _task(d, 4).update(blocks=12), "slot @s0 seq 4 (stream 0, seq id 4): blocks 12 in the graph, 24"),
    (lambda d: d["kernels"]["qkv_matmul"].update(params=["in", "out"]) or _task(d, 4).update(args=["normed", "qkv"]),
     "slot @s0 seq 4 (stream 0, seq id 4): args bytes 16 in the graph, 24 in the plan"),
    (lambda d: d["streams"][0]["tasks"].pop(), "slot @s0 seq 26 (stream 0, seq id 26): the graph has no such task"),
], ids=["another-kernel", "other-blocks", "other-argument-size", "a-missing-slot"])
def test_a_graph_that_is_not_the_plans_is_refused_with_nothing_changed(edit: Any, message: str,
                                                                        tmp_path: Path) -> None:
    from skir.runtime.acl import apply

    skir.compile(DECODE).write(tmp_path / "out")
    cpu, graph, objects = _prepared(_decode(edit), tmp_path / "out", tmp_path)
    before, allocated = _state(cpu, graph, 0), cpu.outstanding()
    with pytest.raises(SkirError) as info:
        apply(cpu, graph.model_ri, tmp_path / "out", object_dir=objects)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)
    assert _state(cpu, graph, 0) == before == _state(cpu, graph, 2)  # nothing staged, nothing committed
    assert cpu.outstanding() == allocated and cpu.updates(graph.model_ri) == 0


def _calls_of_an_apply(tmp_path: Path) -> dict[str, int]:
    """How often a clean apply of decode_layer makes each ACL call (counted by the CPU model)."""
    from skir.runtime.acl import apply
    from skir.runtime.acl_lib import EXTRA
    from skir.runtime.acl_types import SIGNATURES

    skir.compile(DECODE).write(tmp_path / "out")
    cpu, graph, objects = _prepared(DECODE, tmp_path / "out", tmp_path)
    names = (*SIGNATURES, *EXTRA)
    start = {name: cpu.calls(name) for name in names}
    apply(cpu, graph.model_ri, tmp_path / "out", object_dir=objects)
    return {name: cpu.calls(name) - start[name] for name in names if cpu.calls(name) > start[name]}


def test_a_fault_at_any_call_leaves_the_graph_as_captured(tmp_path: Path) -> None:
    """A fault planted at each call the applier makes, in turn (the first, a middle and the last
    of each kind): the apply fails naming that call, the graph runs as captured (nothing
    committed), every task set was restored (only disables, which ACL cannot undo, stay staged
    when a disable or the update failed), and nothing the applier allocated is left."""
    from skir.runtime.acl import apply

    calls = _calls_of_an_apply(tmp_path / "count")
    assert {"aclmdlRITaskSetParams", "aclmdlRITaskDisable", "aclmdlRIUpdate", "aclrtMalloc",
            "aclrtBinaryLoadFromFile", "aclmdlRITaskGetParams"} <= set(calls)
    skir.compile(DECODE).write(tmp_path / "out")
    for call, count in sorted(calls.items()):
        for nth in sorted({1, (count + 1) // 2, count}):
            cpu, graph, objects = _prepared(DECODE, tmp_path / "out", tmp_path / f"{call}_{nth}")
            captured, allocated = _state(cpu, graph, 2), cpu.outstanding()
            cpu.fail_call(call, nth)
            try:
                with pytest.raises(SkirError, match=f"^{call} failed with 500001") as info:
                    apply(cpu, graph.model_ri, tmp_path / "out", object_dir=objects)
            finally:
                cpu.fail_call(call, 0)
            assert "injected fault" in str(info.value), str(info.value)
            assert _state(cpu, graph, 1) == captured, (call, nth)  # committed: the graph runs as captured
            staged = _state(cpu, graph, 0)
            assert [p for p, _ in staged] == [p for p, _ in captured], (call, nth)  # every set restored
            if any(d for _, d in staged):  # disables, which ACL cannot undo, stay staged: the error says so
                assert call in ("aclmdlRITaskDisable", "aclmdlRIUpdate") and "capture it again" in str(info.value)
            else:
                assert "nothing was changed" in str(info.value) or call not in ("aclmdlRITaskSetParams",
                                                                                 "aclmdlRITaskDisable")
            assert cpu.outstanding() == allocated, (call, nth)
            assert cpu.updates(graph.model_ri) == 0


def test_a_second_apply_is_refused(tmp_path: Path) -> None:
    from skir.runtime.acl import apply

    skir.compile(DECODE).write(tmp_path / "out")
    cpu, graph, objects = _prepared(DECODE, tmp_path / "out", tmp_path)
    apply(cpu, graph.model_ri, tmp_path / "out", object_dir=objects)
    with pytest.raises(SkirError, match="the plan was applied to this graph already"):
        apply(cpu, graph.model_ri, tmp_path / "out", object_dir=objects)


@pytest.mark.parametrize("model", [DECODE, ROOT / "examples" / "vendor_dump", ROOT / "test" / "unit" / "models" /
                                   "locks.mlir", ROOT / "examples" / "decode_updated.json"],
                         ids=["decode_layer", "vendor_dump", "locks", "decode_updated"])
def test_the_vendor_form_reads_back_as_the_plan(model: Path, tmp_path: Path) -> None:
    """The applied graph written as the vendor's `sk_graph_updated.json` and read by skir's reader of
    the vendor's result (a second reader): a SuperKernel at each host slot of the plan, and the
    kernel slots the plan disables or turns into value tasks gone or converted."""
    import json

    from skir.frontends.vendor.result import read_result
    from skir.runtime.cpu_apply import vendor_text

    result, out = _compiled(model, "", tmp_path)
    run = _apply(model, out, tmp_path)
    (tmp_path / "sk_graph_updated.json").write_text(vendor_text(run))
    found = read_result(tmp_path / "sk_graph_updated.json", result.original)
    plan = json.loads((out / "plan.json").read_text())
    assert sorted(sk.host for sk in found.superkernels) == sorted(
        (sk["host"]["stream"], sk["host"]["seq"]) for sk in plan["superkernels"])
    kernel_slots = {(s["stream"], s["seq"]): s["action"] for s in plan["slots"] if s["task"]["type"] == "kernel"
                    and s["task"]["function"] not in ("sk_scope_kernel_begin", "sk_scope_kernel_end",
                                                      "sk_placeholder_kernel")}
    assert set(found.removed) == {k for k, a in kernel_slots.items() if a == "disable"}
    assert set(found.converted) == {k for k, a in kernel_slots.items() if a.startswith("set_value")}


def test_a_fault_the_apply_never_reaches_is_an_error(tmp_path: Path) -> None:
    """A fault planted past the last call of its kind (or on a call the apply never makes) does
    not pass as a clean apply: one line saying how many calls were made, and what was allocated freed."""
    from skir.runtime.cpu_apply import apply_on_cpu

    skir.compile(DECODE).write(tmp_path / "out")
    made = _calls_of_an_apply(tmp_path / "count")["aclmdlRITaskSetParams"]
    with pytest.raises(SkirError, match=rf"the apply made {made} call\(s\) of aclmdlRITaskSetParams, so the fault "
                                        rf"never fired; give N in 1\.\.{made}$"):
        apply_on_cpu(skir.load_model(DECODE), tmp_path / "out", tmp_path / "w1", ("aclmdlRITaskSetParams", made + 1))
    with pytest.raises(SkirError, match=r"the apply makes no call of aclrtLaunchKernel$"):
        apply_on_cpu(skir.load_model(DECODE), tmp_path / "out", tmp_path / "w2", ("aclrtLaunchKernel", 1))
