"""`sk-form-scopes`: decide which kernel tasks fuse into which SuperKernel.

Each kernel task gets either `sk.group = N` (the SuperKernel it joins, numbered by the
seq of its first member) or `sk.fail = "<reason>"`. This version forms, on each stream,
the maximal runs of consecutive fusible kernel tasks: any other task ends a run, so a
run never has a synchronisation inside it and is always convex. A run is cut where a
batch-mode kernel (one that calls SyncAll) would not run on every core of the
SuperKernel (`syncall_block_mismatch`).

```mlir
aclgraph.launch seq 0 @a blocks 48
aclgraph.launch seq 1 @b blocks 48
aclgraph.record seq 2 @e0
aclgraph.launch seq 3 @c blocks 48
```
becomes
```mlir
aclgraph.launch seq 0 @a blocks 48 attributes {sk.group = 0 : i64}
aclgraph.launch seq 1 @b blocks 48 attributes {sk.group = 0 : i64}
aclgraph.record seq 2 @e0
aclgraph.launch seq 3 @c blocks 48 attributes {sk.fail = "single_task"}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from skir.analysis.superkernel_shape import SkShape, superkernel_shape
from skir.dialects.aclgraph import LaunchOp, ModelOp, ScopeBeginOp, ScopeEndOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, KernelType, core_class, core_demand
from skir.options import SkOptions
from skir.passes.common import kernel_table, models, pass_options, set_fail, set_group


def task_fail_reason(launch: LaunchOp, kernel: KernelOp, model: ModelOp, options: SkOptions) -> str | None:
    """The per-task reason a kernel cannot be fused, or None (DESIGN §3 formation step 1)."""
    if launch.task_group is not None:
        return "dynamic_task"
    if kernel.not_sk_capable is not None:
        return "op_unsupported"
    if kernel.early_start_set is not None or kernel.early_start_wait is not None:
        # With early-start=0 the kernel's own handshake would leave a credit that satisfies
        # the next barrier (DESIGN §3). The handshake sk-lower-sync would need with
        # early-start=1 is not emitted by this version, so such kernels stay unfused.
        return "op_unsupported"
    aic, aiv = core_demand(kernel.type, launch.blocks.data)
    if aic > model.aic_cores.data or aiv > model.aiv_cores.data:
        return "exceed_core_max"
    return None


def covers_all_cores(kernel_type: KernelType, blocks: int, shape: SkShape) -> bool:
    """Whether a launch runs on every core of each type it uses under a SuperKernel of `shape`.

    A batch-mode kernel (one that calls SyncAll) must, or its SyncAll waits for cores that
    never join. aic: blocks == SK blocks; aiv: blocks == SK blocks x AIVs per block; mix
    (1:1 or 1:2): blocks == SK blocks (a 1:1 member's aiv half runs on both AIVs of a block
    under a 1:2 SuperKernel).
    """
    cls = core_class(kernel_type)
    if cls is CoreClass.AIV:
        return blocks == shape.blocks * shape.aiv_per_block
    return blocks == shape.blocks


def split_run(run: list[tuple[LaunchOp, KernelOp]]) -> list[tuple[list[LaunchOp], str | None]]:
    """Cut a run of fusible kernels where a batch kernel would not cover every core.

    Returns the parts in order, each with the reason of the cut that ended it (None for
    the end of the run). A batch kernel that would not cover the cores starts a new part;
    a later kernel that would raise the demand beyond a batch member's closes the part.
    """
    parts: list[tuple[list[LaunchOp], str | None]] = []
    members: list[tuple[LaunchOp, KernelOp]] = []
    for launch, kernel in run:
        trial = [*members, (launch, kernel)]
        shape = superkernel_shape((k.type, op.blocks.data) for op, k in trial)
        if members and not all(covers_all_cores(k.type, op.blocks.data, shape) for op, k in trial if k.is_batch):
            parts.append(([op for op, _ in members], "syncall_block_mismatch"))
            members = []
        members.append((launch, kernel))
    if members:
        parts.append(([op for op, _ in members], None))
    return parts


def form_runs(model: ModelOp, options: SkOptions) -> int:
    """Annotate the kernel tasks of `model`; returns the number of SuperKernels formed."""
    kernels = kernel_table(model)
    runs: list[list[tuple[LaunchOp, KernelOp]]] = []
    for stream in model.body.block.ops:
        if not isinstance(stream, StreamOp):
            continue
        run: list[tuple[LaunchOp, KernelOp]] = []
        unfusible_depth = 0
        for op in stream.body.block.ops:
            if isinstance(op, ScopeBeginOp | ScopeEndOp) and op.scope is None:
                unfusible_depth += 1 if isinstance(op, ScopeBeginOp) else -1
            if isinstance(op, LaunchOp):
                kernel = kernels[op.kernel.root_reference.data]
                reason = "in_unfusible_scope" if unfusible_depth > 0 else None
                reason = reason or task_fail_reason(op, kernel, model, options)
                if reason is None:
                    run.append((op, kernel))
                    continue
                set_fail(op, reason)
            if run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    groups: list[list[LaunchOp]] = []
    for whole in runs:
        parts = split_run(whole)
        for i, (part, cut) in enumerate(parts):
            if len(part) > 1:
                groups.append(part)
                continue
            # a SuperKernel of one kernel is dropped: the reason of the cut beside it
            before = parts[i - 1][1] if i > 0 else None
            set_fail(part[0], cut or before or "single_task")
    groups.sort(key=lambda g: g[0].seq.data)
    for index, group in enumerate(groups):
        for op in group:
            set_group(op, index)
    return len(groups)


@dataclass(frozen=True)
class FormScopesPass(ModulePass):
    """Mark each kernel task with the SuperKernel it joins (`sk.group`) or why not (`sk.fail`)."""

    name = "sk-form-scopes"

    options: str = ""
    """SuperKernel options, vendor syntax: `-p 'sk-form-scopes{options="stream-fusion=0"}'`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = pass_options(self.options)
        for model in models(op):
            form_runs(model, options)
