"""`sk-insert-debug`: the debugging and cache options, after pruning and never pruned.

Per sub-task, on each core type it runs on:

- `dcci-before-kernel-start` (a kernel listed, or declaring `dcci(before)`): a whole
  data-cache clean before the call; `dcci-after-kernel-end` / `dcci(after)` and
  `debug-dcci-all=1`: one after it; `dcci-disable-on-kernel` / `dcci(disable)` suppresses both.
  (`sk.dcci` is `pipe_barrier(PIPE_ALL)` plus the clean.)
- `debug-sync-all=1`: a hard sync after every call: in a chain SuperKernel the barrier of the
  SuperKernel's type (`SyncAll<false>` for mix, all-AIV / all-AIC otherwise); in a queue
  SuperKernel a pipe barrier and the all-core barrier of the core type. An early-start chain
  keeps the bare handshake next to a sub-task that sets (or a next one that waits) itself,
  since a barrier there would take the sub-kernel's own credit.
- `feed-sync-all=1`: a batch-mode sub-kernel (it calls `SyncAll` itself) that runs on fewer
  cores than the SuperKernel has gets `feed N`: the idle cores mirror its `SyncAll` rounds
  (`SuperKernelAutoSyncAllComplementImpl`), coordinated through config slot N of the
  workspace (the arg slot after the lock slots).

```mlir
sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0 on aiv
```
becomes with `debug-dcci-all=1:debug-sync-all=1` (in a `mix_aiv_1_0` chain SuperKernel)
```mlir
sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.dcci id 1 on aiv
sk.barrier id 2 all_aiv
```
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class, types_class
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import BarrierKind, BarrierOp, DcciOp, SkForm, SubtaskOp, SuperKernelOp
from skir.dialects.syntax import int_attr
from skir.options import SkOptions
from skir.passes.common import OptionsPass, reject_depends, superkernels
from skir.passes.program_edit import Program, rebuild

_TYPE_BARRIER = {CoreType.AIC: BarrierKind.ALL_AIC, CoreType.AIV: BarrierKind.ALL_AIV}


def _sk_barrier(sk: SuperKernelOp) -> BarrierKind:
    """The barrier of every core the SuperKernel launches: one type's all-core barrier when it
    launches one type, `SyncAll` when both."""
    types = sk.core_types()
    return _TYPE_BARRIER[types[0]] if len(types) == 1 else BarrierKind.SYNC_ALL


def _named(kernel: KernelOp, names: tuple[str, ...]) -> bool:
    return kernel.sym_name.data in names or kernel.sub_symbol in names


def needs_feed(sk: SuperKernelOp, kernel: KernelOp, blocks: int) -> bool:
    """Whether a batch-mode sub-kernel leaves cores of its types out of its `SyncAll` rounds."""
    if not kernel.is_batch:
        return False
    if core_class(kernel.type) is CoreClass.AIV:
        return bool(blocks < sk.cores()[CoreType.AIV])
    return bool(blocks < sk.blocks.data)


def options_insert(options: SkOptions) -> bool:
    """Whether `options` can insert anything (`dcci-disable-on-kernel` alone only suppresses)."""
    return bool(options.debug_sync_all or options.debug_dcci_all or options.feed_sync_all
                or options.dcci_before_kernel_start or options.dcci_after_kernel_end)


def kernels_insert(kernels: dict[str, KernelOp]) -> bool:
    """Whether a kernel's own `dcci(before)` / `dcci(after)` marks can insert a clean."""
    return any(k.dcci_before is not None or k.dcci_after is not None for k in kernels.values())


def insert_debug(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions) -> None:
    """Insert the debug, cache and feed-sync-all ops `options` asks for into one SuperKernel."""
    program = sk.program()
    chain = sk.form.data is SkForm.CHAIN
    early = options.early_start != 0
    subtasks = [i for i, op in enumerate(program) if type(op) is SubtaskOp]
    next_sub = dict(pairwise(subtasks))
    out: Program = []
    updates: dict[Operation, dict[str, Attribute]] = {}
    fed = 0
    for i, op in enumerate(program):
        if not isinstance(op, SubtaskOp):
            out.append(op)
            continue
        cores = op.core_set()
        kernel = kernels[op.kernel.root_reference.data]
        disabled = kernel.dcci_disable is not None or _named(kernel, options.dcci_disable_on_kernel)
        before = kernel.dcci_before is not None or _named(kernel, options.dcci_before_kernel_start)
        after = kernel.dcci_after is not None or _named(kernel, options.dcci_after_kernel_end)
        if before and not disabled:
            out += [DcciOp(0, core) for core in cores]
        if options.feed_sync_all and needs_feed(sk, kernel, op.blocks.data):
            updates[op] = {"feed": int_attr(fed)}
            fed += 1
        out.append(op)
        if (after or options.debug_dcci_all) and not disabled:
            out += [DcciOp(0, core) for core in cores]
        if options.debug_sync_all:
            if not chain:
                for core in cores:
                    out += [BarrierOp(0, BarrierKind.PIPE_ALL, types_class((core,))), BarrierOp(0, _TYPE_BARRIER[core])]
                continue
            following = next_sub.get(i)
            waits_next = following is not None and kernels[
                program[following].kernel.root_reference.data  # type: ignore[attr-defined]
            ].early_start_wait is not None
            if early and (kernel.early_start_set is not None or waits_next):
                continue
            out.append(BarrierOp(0, _sk_barrier(sk)))
    if len(out) != len(program) or fed:
        rebuild(sk, out, updates=updates)


@dataclass(frozen=True)
class InsertDebugPass(OptionsPass):
    """Insert the debug syncs, data-cache cleans and feed-sync-all marks the options ask for."""

    name = "sk-insert-debug"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # a SuperKernel nothing can insert into is left as it is (not read and rebuilt)
        table: dict[str, KernelOp] | None = None  # the model's kernel table, the same for all its SuperKernels
        marked = False
        for sk, kernels, options in superkernels(op, self.sk_options()):
            reject_depends(sk, self.name)
            if kernels is not table:
                table, marked = kernels, kernels_insert(kernels)
            if marked or options_insert(options):
                insert_debug(sk, kernels, options)
