"""`rewrite_ops`: apply a pattern set to a known list of ops, once each, in order.

skir's patterns replace each op they match by ops no pattern of the same set matches again
(a staged `sk` op by `ascendc` statements, an `sk.depend` by `sk` sync ops, a slot by its
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

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint


class _SweepRewriter(PatternRewriter):
    """One `PatternRewriter` moved from op to op: the state a fresh one would have for `op`
    (its insertion point before it, no action done yet), without rebuilding its listener
    lists and checks for every op (6 us an op, a fifth of a one-op replacement)."""

    def retarget(self, op: Operation) -> None:
        self._current_operation = op
        self.insertion_point = InsertPoint.before(op)
        self.has_done_action = False


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
