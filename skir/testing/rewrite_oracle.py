"""An independent oracle of the pipeline's rewrite, for property tests and soaking.

It knows nothing of how skir forms SuperKernels. From the original and the rewritten module
alone, `check_rewrite` checks that:
- each stream keeps its slots;
- every kernel task is fused exactly once or carries exactly one fail reason;
- each SuperKernel is launched from the slot of its first member;
- every launch shape follows the kernel-type table, read again by hand (`check_launch_shape`);
- every happens-before edge of the original model still holds in the rewritten one, a
  SuperKernel standing for all its members;
- a fused kernel of a task group that updates its arguments still follows the external waits
  directly before it (the capture's group prefix, resets of events between them skipped): each
  stays in its slot and happens before the SuperKernel's launch.

`check_unreset_warnings` checks that the cells the rewrite added and that end the model at 1 (a
run of the rewritten model) are exactly those the `unreset_event` warnings name.

`compile_checked(data, options)` runs the pipeline on a capture dict, verifying after each
pass; `after_pass` sees the module after each one (the property test counts syncs there).
A failed check is an `AssertionError` (so Python must run without `-O`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.api import load_model, make_context, the_model
from skir.dialects.aclgraph import (
    DisabledOp,
    LaunchOp,
    LaunchSkOp,
    OpaqueOp,
    ResetOp,
    StreamOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.superkernel import SuperKernelOp
from skir.passes.common import FAIL_ATTR
from skir.passes.pipeline import pipeline_passes

__all__ = ["REASONS", "cells_left_at_one", "check_launch_shape", "check_rewrite", "check_unreset_warnings",
           "compile_checked"]

REASONS = {
    "in_unfusible_scope", "not_in_scope", "dynamic_task", "op_unsupported", "exceed_core_max", "external_depend",
    "default_node", "isolated_event", "non_convex", "stream_fusion_off", "syncall_block_mismatch", "deadlock",
    "resource_insufficient", "single_task", "no_gain", "comm_kernel", "comm_coresidency", "comm_order",
}
"""The fail reasons (docs/design.md §3) a kernel task left unfused may carry, written out again
(`no_gain` only under `select=gain`; the `comm_*` ones only for communication kernels)."""


def compile_checked(data: dict[str, Any], options: str,
                    after_pass: Callable[[ModulePass, ModuleOp], None] | None = None) -> tuple[ModuleOp, ModuleOp]:
    """The original and the compiled module of capture dict `data`, verified after every pass."""
    module = load_model(data)
    original = module.clone()
    ctx = make_context()
    for p in pipeline_passes(options):
        p.apply(ctx, module)
        module.verify()
        if after_pass is not None:
            after_pass(p, module)
    return original, module


WORK = (LaunchOp, OpaqueOp)
"""Tasks that do work: every happens-before edge between two of them must survive."""
SYNC_SLOT = (LaunchSkOp, DisabledOp, ValueWriteOp, ValueWaitOp)


def check_rewrite(original: ModuleOp, rewritten: ModuleOp) -> None:
    """Assert that `rewritten` is a faithful rewrite of `original` (the module docstring's list)."""
    before, after = the_model(original), the_model(rewritten)
    streams_before = {s.sym_name.data: s for s in before.body.block.ops if isinstance(s, StreamOp)}
    streams_after = {s.sym_name.data: s for s in after.body.block.ops if isinstance(s, StreamOp)}
    assert streams_before.keys() == streams_after.keys()
    for name, stream in streams_before.items():
        seqs = [op.seq.data for op in stream.body.block.ops]
        assert [op.seq.data for op in streams_after[name].body.block.ops] == seqs, name
    fused: dict[int, str] = {}
    deps: dict[str, dict[int, set[int]]] = {}
    for sk in after.body.block.ops:
        if isinstance(sk, SuperKernelOp):
            closure: dict[int, set[int]] = {}
            for sub in sk.subtasks():  # program order is a topological order
                assert sub.seq.data not in fused, f"seq {sub.seq.data} fused twice"
                fused[sub.seq.data] = sk.sym_name.data
                closure[sub.seq.data] = set().union(
                    *([{d.seq.data} | closure[d.seq.data] for d in sub.dep_subtasks()] or [set()]))
            deps[sk.sym_name.data] = closure
    old_ops = {op.seq.data: op for s in streams_before.values() for op in s.body.block.ops}
    new_ops = {op.seq.data: op for s in streams_after.values() for op in s.body.block.ops}
    launches: dict[str, int] = {}
    for seq, op in old_ops.items():
        new = new_ops[seq]
        if isinstance(new, LaunchSkOp):
            assert seq in fused and fused[seq] == new.sk.root_reference.data
            assert new.sk.root_reference.data not in launches, "two launches of one SuperKernel"
            launches[new.sk.root_reference.data] = seq
        if isinstance(op, LaunchOp):
            if seq in fused:
                assert isinstance(new, SYNC_SLOT) and FAIL_ATTR not in new.attributes
            else:
                assert isinstance(new, LaunchOp) and new.properties == op.properties
                assert new.attributes[FAIL_ATTR].data in REASONS  # type: ignore[attr-defined]
        elif isinstance(op, OpaqueOp | ValueWriteOp | ValueWaitOp):
            assert type(new) is type(op) and new.properties == op.properties
        elif isinstance(op, ResetOp):
            assert new.properties == op.properties or (isinstance(new, ValueWriteOp) and new.value.data == 0)
        else:
            assert (type(new) is type(op) and new.properties == op.properties) or isinstance(new, SYNC_SLOT[1:])
    assert set(launches) == set(deps)
    kernels = {k.sym_name.data: k for k in before.body.block.ops if isinstance(k, KernelOp)}
    cores = (before.aic_cores.data, before.aiv_cores.data)
    for sk in after.body.block.ops:
        if isinstance(sk, SuperKernelOp):
            check_launch_shape(sk, [(kernels[s.kernel.root_reference.data], old_ops[s.seq.data], s)
                                    for s in sk.subtasks()], cores)
    # every happens-before edge between two working tasks holds, a SuperKernel standing for its members
    g0, g1 = TaskGraph(before), TaskGraph(after)
    hb0, hb1 = HappensBefore(g0), HappensBefore(g1)
    node1 = {seq: n for n, seq in enumerate(g1.seq)}
    work = [n for n in range(len(g0)) if isinstance(g0.ops[n], WORK)]
    for a in work:
        for b in work:
            if not hb0.before(a, b):
                continue
            sa, sb = g0.seq[a], g0.seq[b]
            ka, kb = fused.get(sa), fused.get(sb)
            if ka is not None and ka == kb:
                assert sa in deps[ka][sb], f"{g0.name(a)} -> {g0.name(b)} not a dependency inside {ka}"
                continue
            ra = node1[launches[ka]] if ka else node1[sa]
            rb = node1[launches[kb]] if kb else node1[sb]
            assert hb1.before(ra, rb), f"{g0.name(a)} -> {g0.name(b)} lost"
    for n, op in enumerate(g0.ops):
        if not (isinstance(op, LaunchOp) and op.update is not None and op.update.data == "args"
                and g0.seq[n] in fused):
            continue
        m = g0.prev_on_stream(n)
        while m is not None and (isinstance(g0.ops[m], ResetOp) or (isinstance(prev := g0.ops[m], WaitOp)
                                                                     and prev.external is not None)):
            if isinstance(g0.ops[m], WaitOp):
                kept = new_ops[g0.seq[m]]
                assert type(kept) is WaitOp and kept.properties == g0.ops[m].properties, g0.name(m)
                assert hb1.before(node1[g0.seq[m]], node1[launches[fused[g0.seq[n]]]]), \
                    f"{g0.name(n)} may start before its group's {g0.name(m)}"
            m = g0.prev_on_stream(m)


def cells_left_at_one(original: ModuleOp, rewritten: ModuleOp) -> set[str]:
    """The cells the rewrite added that hold 1 once the rewritten model has run to its end on
    sk-check's abstract machine (which must not deadlock)."""
    from skir.analysis.proof.sync_machine import SyncMachine
    from skir.dialects.aclgraph_decls import CellOp

    model = the_model(rewritten)
    sks = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, SuperKernelOp)}
    machine = SyncMachine(TaskGraph(model), sks)
    blocked = machine.run()
    assert not blocked, [f"{b.agent}: {b.what}" for b in blocked]
    before = {op.sym_name.data for op in the_model(original).body.block.ops if isinstance(op, CellOp)}
    return {cell for cell, (value, _) in machine.cells.items() if value == 1 and cell not in before}


def check_unreset_warnings(original: ModuleOp, rewritten: ModuleOp) -> None:
    """Every cell the rewrite added that ends the model at 1 has an `unreset_event` warning (of
    the SuperKernels, as SK meta and the summary give them), and every warning names such a
    cell: the run decides, the warning's static reading of the converted epochs is checked."""
    from skir.analysis.proof.original import unreset_by_superkernel

    at_one = cells_left_at_one(original, rewritten)
    unreset = unreset_by_superkernel(the_model(rewritten), the_model(original))
    warned = {cell for pairs in unreset.values() for cell, _ in pairs}
    assert at_one == warned, f"cells ending at 1: {sorted(at_one)}; unreset_event warnings: {sorted(warned)}"


_CUBE = {"mix_aic_1_0": 1, "mix_aiv_1_0": 0, "mix_aic_1_1": 1, "mix_aic_1_2": 1}
_VEC = {"mix_aic_1_0": 0, "mix_aiv_1_0": 1, "mix_aic_1_1": 1, "mix_aic_1_2": 2}


def _demand(kernel_type: str, blocks: int) -> tuple[int, int]:
    """Cube and vector cores of a launch, from the kernel-type table (docs/design.md §3), by hand."""
    return {"aic_only": (blocks, 0), "mix_aic_1_0": (blocks, 0), "aiv_only": (0, blocks),
            "mix_aiv_1_0": (0, blocks), "mix_aic_1_1": (blocks, blocks),
            "mix_aic_1_2": (blocks, 2 * blocks)}[kernel_type]


def check_launch_shape(sk: SuperKernelOp, members: list[tuple[KernelOp, LaunchOp, Any]],
                       cores: tuple[int, int]) -> None:
    """An independent reading of the launch-shape rule: the SuperKernel fits the device and
    covers every member, is 1:2 when a member is, gives every batch member without
    block_dim_scale_up exactly its cores (unless feed-sync-all), runs scale-up members on all
    cores of their type, and (without debug-aic/aiv-num) has no fewer blocks that would do."""
    kind, n = sk.type.value, sk.blocks.data
    cube, vec = _CUBE[kind] * n, _VEC[kind] * n
    assert cube <= cores[0] and vec <= cores[1], (sk.sym_name.data, kind, n, cores)
    opts = sk.options.text() if sk.options is not None else ""
    feed, forced = "feed-sync-all=1" in opts, "debug-ai" in opts
    for kernel, launch, sub in members:
        k_type = kernel.type.value
        c, v = _demand(k_type, launch.blocks.data)
        assert c <= cube and v <= vec, (sk.sym_name.data, k_type, launch.blocks.data, kind, n)
        if k_type == "mix_aic_1_2":
            assert kind == "mix_aic_1_2"
        batch = kernel.is_batch
        scale = batch and kernel.block_dim_scale_up is not None
        aiv_class = k_type in ("aiv_only", "mix_aiv_1_0")
        if scale:
            assert sub.blocks.data == (vec if aiv_class else n), (sk.sym_name.data, sub.blocks.data)
        else:
            assert sub.blocks.data == launch.blocks.data
        if batch and not scale and not feed:
            assert (vec == v) if aiv_class else (cube == c), (sk.sym_name.data, k_type, launch.blocks.data, kind, n)
    if not forced and not any(k.is_batch for k, _, _ in members):
        need_c = max(_demand(k.type.value, la.blocks.data)[0] for k, la, _ in members)
        need_v = max(_demand(k.type.value, la.blocks.data)[1] for k, la, _ in members)
        smaller = n - 1
        assert not (smaller >= 1 and _CUBE[kind] * smaller >= need_c and _VEC[kind] * smaller >= need_v), \
            (sk.sym_name.data, kind, n, need_c, need_v)
