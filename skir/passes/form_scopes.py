"""`sk-form-scopes`: decide which kernel tasks fuse into which SuperKernel.

Each kernel task gets either `sk.group = N` (the SuperKernel it joins, numbered by the
seq of its first member) or `sk.fail = "<reason>"`. This version forms, on each stream,
the maximal runs of consecutive fusible kernel tasks: any other task ends a run, so a
run never has a synchronisation inside it and is always convex.

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

from skir.dialects.aclgraph import LaunchOp, ModelOp, ScopeBeginOp, ScopeEndOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import core_demand
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


def form_runs(model: ModelOp, options: SkOptions) -> int:
    """Annotate the kernel tasks of `model`; returns the number of SuperKernels formed."""
    kernels = kernel_table(model)
    runs: list[list[LaunchOp]] = []
    for stream in model.body.block.ops:
        if not isinstance(stream, StreamOp):
            continue
        run: list[LaunchOp] = []
        unfusible_depth = 0
        for op in stream.body.block.ops:
            if isinstance(op, ScopeBeginOp | ScopeEndOp) and op.scope is None:
                unfusible_depth += 1 if isinstance(op, ScopeBeginOp) else -1
            if isinstance(op, LaunchOp):
                reason = "in_unfusible_scope" if unfusible_depth > 0 else None
                reason = reason or task_fail_reason(op, kernels[op.kernel.root_reference.data], model, options)
                if reason is None:
                    run.append(op)
                    continue
                set_fail(op, reason)
            if run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    groups = sorted((r for r in runs if len(r) > 1), key=lambda r: r[0].seq.data)
    for run in runs:
        if len(run) == 1:
            set_fail(run[0], "single_task")
    for index, run in enumerate(groups):
        for op in run:
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
