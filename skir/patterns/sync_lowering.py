"""Sync lowering: one RewritePattern per rule, each replacing the `sk.depend`s of its rule.

`sk-lower-sync` decides how every dependency inside a SuperKernel is kept and places an
`sk.depend` naming the rule where the synchronisation goes, `on` the core types that take part
(`skir.dialects.superkernel_depend`). These patterns apply the rules, one `sk.depend` at a
time; the ops they build are numbered from the depend's id upwards, in the order the rule gives:

```mlir
sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.depend id 1 early_start aiv -> aic on mix
sk.subtask id 4 @c blocks 24 offset 1 from @s0 seq 1 on aic after [0]
```
becomes (`LowerEarlyStartHandshake`: the AIVs, which ran the sub-task before, set; both core
types wait with cfg 4 x aiv + aic = 4; the handshake's three ops take ids 1 to 3)
```mlir
sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.early_start_set id 1 on aiv
sk.early_start_wait id 2 cfg 4 on aic
sk.early_start_wait id 3 cfg 4 on aiv
sk.subtask id 4 @c blocks 24 offset 1 from @s0 seq 1 on aic after [0]
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
from skir.dialects.hardware import CoreType, Pipe
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    DependOp,
    DependRule,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    SetFlagOp,
    SuperKernelOp,
    WaitFlagOp,
)
from skir.dialects.syntax import int_attr

CLASS_BARRIER = {
    CoreClass.AIV: BarrierKind.ALL_AIV,
    CoreClass.AIC: BarrierKind.ALL_AIC,
    CoreClass.MIX: BarrierKind.SYNC_ALL,
}
"""The barrier over every core of a class."""
CLASS_CODE = {CoreClass.AIC: 0, CoreClass.AIV: 1, CoreClass.MIX: 2}
"""A class's code in an early-start configuration."""


def barrier_kind(prev: CoreClass, cur: CoreClass) -> BarrierKind:
    """The barrier between sub-tasks of classes `prev` and `cur`."""
    if prev is CoreClass.AIV and cur is CoreClass.AIV:
        return BarrierKind.ALL_AIV
    if prev is CoreClass.AIC and cur is CoreClass.AIC:
        return BarrierKind.ALL_AIC
    return BarrierKind.SYNC_ALL


def depend_kernel(op: DependOp) -> SuperKernelOp:
    """The SuperKernel holding `op`."""
    sk = op.parent_op()
    if not isinstance(sk, SuperKernelOp):
        raise ValueError(f"sk.depend {op.ident} stands outside an sk.kernel program")
    return sk


def depend_span(op: DependOp, types: tuple[CoreType, ...]) -> int:
    """How many ids the ops of `op`'s rule take (its sets and waits for a handshake, else one op)."""
    if op.kind is not DependRule.EARLY_START:
        return 1
    assert op.src is not None
    return sum(1 for c in class_types(op.src.data) if c in types) + len(types)


def handshake(op: DependOp, types: tuple[CoreType, ...], core: CoreType) -> list[tuple[int, Operation]]:
    """The early-start handshake on `core` as (position in the rule's order, op): every set of
    the handshake comes before every wait, each in the SuperKernel's core-type order."""
    assert op.src is not None and op.dst is not None
    src, dst = op.src.data, op.dst.data
    setters = [c for c in class_types(src) if c in types]
    out: list[tuple[int, Operation]] = []
    if core in setters:
        own = op.set_class is not None and core in class_types(op.set_class.data)
        idle = op.set_idle.data if own and op.set_idle is not None else None
        out.append((setters.index(core), EarlyStartSetOp(0, core, idle)))
    own = op.wait_idle is not None and core in class_types(dst)
    idle = op.wait_idle.data if own and op.wait_idle is not None else None
    cfg = 4 * CLASS_CODE[src] + CLASS_CODE[dst]
    out.append((len(setters) + types.index(core), EarlyStartWaitOp(0, cfg, core, idle)))
    return out


def _replace(op: DependOp, rewriter: PatternRewriter, ops: list[tuple[int, Operation]]) -> None:
    for position, new in ops:
        new.properties["id"] = op.properties["id"] if position == 0 else int_attr(op.ident + position)
    rewriter.replace(op, [new for _, new in ops])


class LowerClassBarrier(RewritePattern):
    """`sk.depend barrier <before> -> <after>` → `sk.barrier` of the class pair: `all_aiv` for
    aiv → aiv, `all_aic` for aic → aic, else `sync_all`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependOp, rewriter: PatternRewriter) -> None:
        if op.kind is not DependRule.BARRIER:
            return
        assert op.src is not None and op.dst is not None
        _replace(op, rewriter, [(0, BarrierOp(0, barrier_kind(op.src.data, op.dst.data)))])


class LowerPipeBarrier(RewritePattern):
    """`sk.depend pipe` → `sk.barrier pipe_all`: `sync-mode=data` orders two independent
    sub-tasks of one stream by each core's own pipes only."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependOp, rewriter: PatternRewriter) -> None:
        if op.kind is DependRule.PIPE:
            _replace(op, rewriter, [(0, BarrierOp(0, BarrierKind.PIPE_ALL, op.cores.data))])


class LowerEarlyStartHandshake(RewritePattern):
    """`sk.depend early_start <before> -> <after>` → on each of its core types, its
    `sk.early_start_set` (if it runs the sub-task before: from `set_idle` on when that sub-kernel
    sets itself) and its `sk.early_start_wait cfg 4·before+after` (from `wait_idle` on when the
    sub-kernel after waits itself); every set before every wait."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependOp, rewriter: PatternRewriter) -> None:
        if op.kind is not DependRule.EARLY_START:
            return
        types = depend_kernel(op).core_types()
        ops = [step for core in op.core_set() for step in handshake(op, types, core)]
        _replace(op, rewriter, sorted(ops, key=lambda step: step[0]))


class LowerLockBarriers(RewritePattern):
    """`sk.depend lock_release <producer>` → a barrier over the producer's class (every core of
    it done before block 0 notifies); `sk.depend lock_acquire <consumer>` → a barrier over the
    consumer's class (every core of it waits with block 0)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependOp, rewriter: PatternRewriter) -> None:
        cls = op.src if op.kind is DependRule.LOCK_RELEASE else op.dst if op.kind is DependRule.LOCK_ACQUIRE else None
        if cls is not None:
            _replace(op, rewriter, [(0, BarrierOp(0, CLASS_BARRIER[cls.data]))])


class LowerFlagPair(RewritePattern):
    """`sk.depend flag_signal F on <type>` → `sk.set_flag mode 2 flag F` on that core type (the
    AIC sets from its FIX pipe, an AIV from MTE3); `sk.depend flag_await F` → `sk.wait_flag flag F`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DependOp, rewriter: PatternRewriter) -> None:
        if op.kind not in (DependRule.FLAG_SIGNAL, DependRule.FLAG_AWAIT):
            return
        assert op.flag is not None
        (core,) = op.core_set()
        if op.kind is DependRule.FLAG_SIGNAL:
            pipe = Pipe.FIX if core is CoreType.AIC else Pipe.MTE3
            new: Operation = SetFlagOp(0, 2, op.flag.data, pipe, core)
        else:
            new = WaitFlagOp(0, op.flag.data, core)
        _replace(op, rewriter, [(0, new)])


SYNC_PATTERN_KINDS: tuple[type[RewritePattern], ...] = (
    LowerClassBarrier, LowerPipeBarrier, LowerEarlyStartHandshake, LowerLockBarriers, LowerFlagPair)
"""One pattern per sync rule."""


def sync_lowering_patterns() -> list[RewritePattern]:
    """Every sync-lowering pattern (they need no shared state: each depend says it all)."""
    return [kind() for kind in SYNC_PATTERN_KINDS]
