"""`rewrite_ops`: apply a pattern set to a known list of ops, once each, in order.

skir's patterns replace each op they match by ops no pattern of the same set matches again
(a staged `sk` op by `ascendc` statements, a depend by `sk` sync ops, a slot by its
rewritten slot), so a worklist adds nothing, and the ops to rewrite are known when the pass
stages them. `PatternRewriteWalker` would visit every op of the region and try each pattern in
turn on each; this sweep visits only the ops it is given and first tries the pattern that
rewrote the previous op of the same kind (`key`, the op's class by default), so a program of
100k ops costs one match an op:

```python
missed = rewrite_ops(staged, sk_to_ascendc_patterns(lowering))
```
The patterns are ordinary `RewritePattern`s: `PatternRewriteWalker(GreedyRewritePatternApplier(
patterns))` over the same region gives the same IR.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint


class _SweepRewriter(PatternRewriter):
    """One `PatternRewriter` moved from op to op: the state a fresh one would have for `op`
    (its insertion point before it, no action done yet), without rebuilding its listener
    lists and checks for every op (6 us an op). Nobody listens to it (the sweep registers no
    handler), so a replacement or erasure of an op without results goes straight to the
    block; with a handler or results it is `PatternRewriter`'s own."""

    _point: InsertPoint | None = None

    def retarget(self, op: Operation) -> None:
        self._current_operation = op
        self._point = None
        self.has_done_action = False
        if not self._unobserved() or self.block_creation_handler:  # a pattern listened to the last op
            for handlers in (self.operation_insertion_handler, self.operation_removal_handler,
                             self.operation_modification_handler, self.operation_replacement_handler,
                             self.block_creation_handler):
                handlers.clear()

    @property
    def insertion_point(self) -> InsertPoint:
        """Before the op being rewritten, built when a pattern first asks for it (most insert
        at a point of their own or replace: 2 us an op saved)."""
        if self._point is None:
            assert self._current_operation is not None
            self._point = InsertPoint.before(self._current_operation)
        return self._point

    @insertion_point.setter
    def insertion_point(self, point: InsertPoint) -> None:
        self._point = point

    def _unobserved(self) -> bool:
        return not (self.operation_insertion_handler or self.operation_removal_handler
                    or self.operation_modification_handler or self.operation_replacement_handler)

    def replace(self, op: Operation, new_ops: Operation | Sequence[Operation],
                new_results: Sequence[SSAValue | None] | None = None, safe_erase: bool = True) -> None:
        """`PatternRewriter.replace`; for an op without results, with nobody listening, straight
        through the block's own insertion and erasure (5 us instead of 11 a replacement: no
        insertion point, builder or handler dispatch per new op)."""
        ops = new_ops if type(new_ops) is list else (new_ops,) if isinstance(new_ops, Operation) else new_ops
        block = op.parent
        if (op.results or new_results or (ops and ops[-1].results) or block is None
                or not self._unobserved()):
            super().replace(op, new_ops, new_results, safe_erase)
            return
        self.has_done_action = True
        for new in ops:
            block.insert_op_before(new, op)
        block.erase_op(op, safe_erase)

    def erase(self, op: Operation, safe_erase: bool = True) -> None:
        """`PatternRewriter.erase`, without the handler dispatch when nobody listens."""
        block = op.parent
        if block is None or not self._unobserved():
            super().erase(op, safe_erase)
            return
        self.has_done_action = True
        block.erase_op(op, safe_erase)


def rewrite_ops(ops: Iterable[Operation], patterns: Sequence[RewritePattern],
                key: Callable[[Operation], Hashable] = type) -> list[Operation]:
    """Rewrite each op of `ops` (taken as a list first) by the first of `patterns` that
    applies; the ops none applied to, in order (an op an earlier rewrite took out is skipped)."""
    last: dict[Hashable, RewritePattern] = {}
    missed: list[Operation] = []
    rewriter: _SweepRewriter | None = None
    for op in list(ops):
        if op.parent is None:
            continue  # replaced or erased by an earlier rewrite of this sweep
        if rewriter is None:
            rewriter = _SweepRewriter(op)
        else:
            rewriter.retarget(op)
        kind = key(op)
        first = last.get(kind)
        if first is not None:
            first.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                continue
        for pattern in patterns:
            if pattern is not first:
                pattern.match_and_rewrite(op, rewriter)
                if rewriter.has_done_action:
                    last[kind] = pattern
                    break
        else:
            missed.append(op)
    return missed
