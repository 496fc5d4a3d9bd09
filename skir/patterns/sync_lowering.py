"""Sync lowering: one RewritePattern per rule, each replacing the `sk.depend_<rule>` op of its rule.

`sk-place-sync` decides how every dependency inside a SuperKernel is kept and places the op of
the rule where the synchronisation goes, `on` the core types that take part
(`skir.dialects.superkernel_depend`); `sk-lower-sync` applies these patterns, selected by op
type, as xDSL's own conversions are: on what `sk-place-sync` placed or on hand-written IR. The
ops a pattern builds take the depend's place, in the order the rule gives:

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.depend_early_start aiv -> aic on mix
%1 = sk.subtask @c blocks 24 offset 1 from @s0 seq 1 on aic after %0
```
becomes (`LowerEarlyStartHandshake`: the AIVs, which ran the sub-task before, set; both core
types wait with cfg 4 x aiv + aic = 4)
```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.early_start_set on aiv
sk.early_start_wait cfg 4 on aic
sk.early_start_wait cfg 4 on aiv
%1 = sk.subtask @c blocks 24 offset 1 from @s0 seq 1 on aic after %0
```
The rules (docs/design.md §3): the class-pair barrier of a chain (aiv → aiv an all-AIV barrier,
aic → aic an all-AIC barrier, any other pair `SyncAll`); a queue's producer barrier (the same
rule on one core type); the `sync-mode=data` pipe barrier; the early-start handshake (each core
type of the earlier sub-task sets, every core type waits with cfg = 4 x class(before) +
class(after)); the lock barriers (a full barrier of the producer's class before a notify, one of
the consumer's class after a wait); a queue's cross-core flag pair (a mode-2 set after the
producer on its core type, the wait before the consumer on the other).
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.aclgraph_enums import CoreClass, class_types
from skir.dialects.hardware import CORE_FACTS, CoreType
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    DependBarrierOp,
    DependEarlyStartOp,
    DependFlagAwaitOp,
    DependFlagSignalOp,
    DependLockAcquireOp,
    DependLockReleaseOp,
    DependOp,
    DependPipeOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    SetFlagOp,
    SuperKernelOp,
    WaitFlagOp,
)
from skir.dialects.superkernel_depend import pair_class

CLASS_BARRIER = {
    CoreClass.AIV: CORE_FACTS[CoreType.AIV].barrier,
    CoreClass.AIC: CORE_FACTS[CoreType.AIC].barrier,
    CoreClass.MIX: BarrierKind.SYNC_ALL,
}
"""The barrier over every core of a class."""
CLASS_CODE = {CoreClass.AIC: 0, CoreClass.AIV: 1, CoreClass.MIX: 2}
"""A class's code in an early-start configuration."""


def barrier_kind(prev: CoreClass, cur: CoreClass) -> BarrierKind:
    """The barrier between sub-tasks of classes `prev` and `cur`."""
    return CLASS_BARRIER[pair_class(prev, cur)]


def depend_kernel(op: DependOp) -> SuperKernelOp:
    """The SuperKernel holding `op`."""
    sk = op.parent_op()
    if not isinstance(sk, SuperKernelOp):
        raise ValueError(f"{op.name} stands outside an sk.kernel program")
    return sk


def handshake(op: DependEarlyStartOp, types: tuple[CoreType, ...], core: CoreType) -> list[tuple[int, Operation]]:
    """The early-start handshake on `core` as (position in the rule's order, op): every set of
    the handshake comes before every wait, each in the SuperKernel's core-type order."""
    src, dst = op.src.data, op.dst.data
    setters = [c for c in class_types(src) if c in types]
    out: list[tuple[int, Operation]] = []
    if core in setters:
        own = op.set_class is not None and core in class_types(op.set_class.data)
        idle = op.set_idle.data if own and op.set_idle is not None else None
        out.append((setters.index(core), EarlyStartSetOp(core, idle)))
    own = op.wait_idle is not None and core in class_types(dst)
    idle = op.wait_idle.data if own and op.wait_idle is not None else None
    cfg = 4 * CLASS_CODE[src] + CLASS_CODE[dst]
    out.append((len(setters) + types.index(core), EarlyStartWaitOp(cfg, core, idle)))
    return out


def _replace(op: DependOp, rewriter: PatternRewriter, ops: list[tuple[int, Operation]]) -> None:
    """Replace the depend by the rule's ops, in the order of their positions in the rule."""
    rewriter.replace(op, [new for _, new in sorted(ops, key=lambda step: step[0])])


class LowerClassBarrier(RewritePattern):
    """`sk.depend_barrier <before> -> <after>` → `sk.barrier` of the class pair: `all_aiv` for
    aiv → aiv, `all_aic` for aic → aic, else `sync_all`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependBarrierOp, rewriter: PatternRewriter) -> None:
        _replace(op, rewriter, [(0, BarrierOp(barrier_kind(op.src.data, op.dst.data)))])


class LowerPipeBarrier(RewritePattern):
    """`sk.depend_pipe on <class>` → `sk.barrier pipe_all on <class>`: `sync-mode=data` orders
    two independent sub-tasks of one stream by each core's own pipes only."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependPipeOp, rewriter: PatternRewriter) -> None:
        _replace(op, rewriter, [(0, BarrierOp(BarrierKind.PIPE_ALL, op.cores.data))])


class LowerEarlyStartHandshake(RewritePattern):
    """`sk.depend_early_start <before> -> <after>` → on each of its core types, its
    `sk.early_start_set` (if it runs the sub-task before: from `set_idle` on when that sub-kernel
    sets itself) and its `sk.early_start_wait cfg 4·before+after` (from `wait_idle` on when the
    sub-kernel after waits itself); every set before every wait."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependEarlyStartOp, rewriter: PatternRewriter) -> None:
        types = depend_kernel(op).core_types()
        ops = [step for core in op.core_set() for step in handshake(op, types, core)]
        _replace(op, rewriter, ops)


class LowerLockRelease(RewritePattern):
    """`sk.depend_lock_release <producer>` → a barrier over the producer's class (every core of
    it done before block 0 notifies)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependLockReleaseOp, rewriter: PatternRewriter) -> None:
        _replace(op, rewriter, [(0, BarrierOp(CLASS_BARRIER[op.src.data]))])


class LowerLockAcquire(RewritePattern):
    """`sk.depend_lock_acquire <consumer>` → a barrier over the consumer's class (every core of
    it waits with block 0)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependLockAcquireOp, rewriter: PatternRewriter) -> None:
        _replace(op, rewriter, [(0, BarrierOp(CLASS_BARRIER[op.dst.data]))])


class LowerFlagSignal(RewritePattern):
    """`sk.depend_flag_signal flag F on <type>` → `sk.set_flag mode 2 flag F` on that core type
    (the AIC sets from its FIX pipe, an AIV from MTE3)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependFlagSignalOp, rewriter: PatternRewriter) -> None:
        (core,) = op.core_set()
        _replace(op, rewriter, [(0, SetFlagOp(2, op.flag.data, CORE_FACTS[core].flag_pipe, core))])


class LowerFlagAwait(RewritePattern):
    """`sk.depend_flag_await flag F on <type>` → `sk.wait_flag flag F` on that core type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependFlagAwaitOp, rewriter: PatternRewriter) -> None:
        (core,) = op.core_set()
        _replace(op, rewriter, [(0, WaitFlagOp(op.flag.data, core))])


SYNC_PATTERN_KINDS: tuple[type[RewritePattern], ...] = (
    LowerClassBarrier, LowerPipeBarrier, LowerEarlyStartHandshake, LowerLockRelease, LowerLockAcquire,
    LowerFlagSignal, LowerFlagAwait)
"""One pattern per sync rule (per `sk.depend_<rule>` op)."""


def sync_lowering_patterns() -> list[RewritePattern]:
    """Every sync-lowering pattern (they need no shared state: each depend says it all)."""
    return [kind() for kind in SYNC_PATTERN_KINDS]
