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
- `debug-cross-core-sync-check=1` (the vendor's cross-core flag self-test): after each mixed
  sub-task (a sub-task of a mix kernel: its AIC and AIVs both run it) every core sets and waits
  each cross-core flag id a sub-kernel or skir's dependency sync may use (`SELF_TEST_FLAGS`:
  0-10 and 15, every id but the four `SyncAll` / barrier / early-start ids, which the barriers
  between sub-tasks set and wait on every core already): per id, the AIVs set it in mode 2 to
  their AIC (PIPE_MTE3) and the AIC to its AIVs (PIPE_FIX), then each side waits its one
  credit. The round is balanced; a sub-kernel that leaked an unmatched wait on one of these
  ids takes the round's credit, and the core hangs in the self-test right after that
  sub-task instead of in a later sub-kernel that uses the id. Then the fill
  (`skir.analysis.sync.self_test_fill` decides it): each counter goes to exactly 15 credits, less
  what skir's own sync has pending there, and is drained, so a leaked set overflows it right
  after its sub-task (docs/design.md §3).

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
```
becomes with `debug-dcci-all=1:debug-sync-all=1` (in a `mix_aiv_1_0` chain SuperKernel)
```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.dcci on aiv
sk.barrier all_aiv
```
and a mix sub-task with `debug-cross-core-sync-check=1` (ids 0-10 and 15, one group each, then
the fill; ids 0-3 are the quiet ids r, q, s, t the fill signals on)
```mlir
%0 = sk.subtask @mm blocks 24 offset 1 from @s0 seq 0 on mix
sk.set_flag mode 2 flag 0 pipe mte3 on aiv
sk.set_flag mode 2 flag 0 pipe fix on aic
sk.wait_flag flag 0 on aic
sk.wait_flag flag 0 on aiv
...                                    // the same for flags 1-10 and 15
sk.set_flag mode 2 flag 0 pipe mte3 on aiv    // the handshake: the AIVs signal r, q
sk.set_flag mode 2 flag 1 pipe mte3 on aiv
sk.wait_flag flag 0 on aic
sk.wait_flag flag 1 on aic
...                                    // the AIC signals r, q
sk.set_flag mode 2 flag 2 pipe mte3 on aiv    // step 1: 15 sets of each id but r, q
...                                    // the AIVs signal r, q; the AIC drains; steps 2-4
```
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from skir.analysis.sync.self_test_fill import SELF_TEST_FLAGS, FillPlan, plan_fills
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class, types_class
from skir.dialects.hardware import CORE_FACTS, CoreType
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    DcciOp,
    SetFlagOp,
    SkForm,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
)
from skir.dialects.syntax import int_attr
from skir.options import SkOptions
from skir.passes.common import OptionsPass, reject_depends, superkernels
from skir.passes.program_edit import Program, rebuild

_AIC, _AIV = CoreType.AIC, CoreType.AIV


def _set(flag: int, core: CoreType, n: int = 1) -> list[Operation]:
    """`n` mode-2 sets of `flag` from `core` to the other type of its block (PIPE_MTE3 from the
    AIVs, PIPE_FIX from the AIC)."""
    return [SetFlagOp(2, flag, CORE_FACTS[core].flag_pipe, core) for _ in range(n)]


def _wait(flag: int, core: CoreType, n: int = 1) -> list[Operation]:
    return [WaitFlagOp(flag, core) for _ in range(n)]


def self_test(flags: tuple[int, ...] = SELF_TEST_FLAGS) -> list[Operation]:
    """The balanced round after a mixed sub-task: per flag id, the AIVs set it to their AIC and
    the AIC to its AIVs (mode 2), then each side takes its credit."""
    out: list[Operation] = []
    for flag in flags:
        out += [*_set(flag, _AIV), *_set(flag, _AIC), *_wait(flag, _AIC), *_wait(flag, _AIV)]
    return out


def _signal(setter: CoreType, ids: tuple[int, int]) -> list[Operation]:
    """A signal: `setter` sets both ids toward the other type, which waits for both (one leaked
    credit on one of them cannot let the wait pass before the set)."""
    target = _AIV if setter is _AIC else _AIC
    return [*_set(ids[0], setter), *_set(ids[1], setter), *_wait(ids[0], target), *_wait(ids[1], target)]


def _fill_step(plan: FillPlan, setter: CoreType, flags: list[int], signal: tuple[int, int]) -> list[Operation]:
    """One fill step: `setter` fills the other type's counters of `flags` to 15 credits, then
    signals; the other type drains them only after the signal."""
    target = _AIV if setter is _AIC else _AIC
    counts = [(f, plan.fill[(target, f)]) for f in flags if (target, f) in plan.fill]
    out: list[Operation] = []
    for flag, n in counts:
        out += _set(flag, setter, n)
    out += _signal(setter, signal)
    for flag, n in counts:
        out += _wait(flag, target, n)
    return out


def fill_test(plan: FillPlan) -> list[Operation]:
    """The fill after the balanced round (`skir.analysis.sync.self_test_fill`): with the quiet ids
    `r, q, s, t`, a handshake on `r, q`; the AIVs fill every id but `r, q`, signal `r, q`; the AIC
    the same; the AIVs fill `r, q`, signal `s, t`; the AIC the same; a last AIV signal on `s, t`."""
    if plan.handshake is None:
        return []
    r, q, s, t = plan.handshake
    rest = [f for f in SELF_TEST_FLAGS if f not in (r, q)]
    return [
        *_set(r, _AIV), *_set(q, _AIV), *_wait(r, _AIC), *_wait(q, _AIC),
        *_set(r, _AIC), *_set(q, _AIC), *_wait(r, _AIV), *_wait(q, _AIV),
        *_fill_step(plan, _AIV, rest, (r, q)), *_fill_step(plan, _AIC, rest, (r, q)),
        *_fill_step(plan, _AIV, [r, q], (s, t)), *_fill_step(plan, _AIC, [r, q], (s, t)),
        *_signal(_AIV, (s, t))]


def _sk_barrier(sk: SuperKernelOp) -> BarrierKind:
    """The barrier of every core the SuperKernel launches: one type's all-core barrier when it
    launches one type, `SyncAll` when both."""
    types = sk.core_types()
    return CORE_FACTS[types[0]].barrier if len(types) == 1 else BarrierKind.SYNC_ALL


def _mixed(kernels: dict[str, KernelOp], op: SubtaskOp) -> bool:
    """Whether a sub-task is mixed: one of a mix kernel, which its AIC and AIVs both run."""
    return core_class(kernels[op.kernel.root_reference.data].type) is CoreClass.MIX


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
                or options.debug_cross_core_sync_check
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
    fills = {plan.subtask: plan for plan in plan_fills(program, lambda op: _mixed(kernels, op))} \
        if options.debug_cross_core_sync_check else {}
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
            out += [DcciOp(core) for core in cores]
        if options.feed_sync_all and needs_feed(sk, kernel, op.blocks.data):
            updates[op] = {"feed": int_attr(fed)}
            fed += 1
        out.append(op)
        if (after or options.debug_dcci_all) and not disabled:
            out += [DcciOp(core) for core in cores]
        if i in fills:
            out += self_test() + fill_test(fills[i])
        if options.debug_sync_all:
            if not chain:
                for core in cores:
                    out += [BarrierOp(BarrierKind.PIPE_ALL, types_class((core,))),
                            BarrierOp(CORE_FACTS[core].barrier)]
                continue
            following = next_sub.get(i)
            waits_next = following is not None and kernels[
                program[following].kernel.root_reference.data  # type: ignore[attr-defined]
            ].early_start_wait is not None
            if early and (kernel.early_start_set is not None or waits_next):
                continue
            out.append(BarrierOp(_sk_barrier(sk)))
    if len(out) != len(program) or fed:
        rebuild(sk, out, updates=updates)


@dataclass(frozen=True)
class InsertDebugPass(OptionsPass):
    """Insert the debug syncs, data-cache cleans, cross-core self-tests and feed-sync-all marks the options ask for."""

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
