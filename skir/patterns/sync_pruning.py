"""`EraseImpliedSync`: erase the synchronisation the rest of a SuperKernel already implies.

`sk-prune-sync`'s analysis (`skir.analysis.sync_prune.implied_syncs`) decides which barriers
and flag pairs of a lowered SuperKernel the others imply; the pattern erases each op with one
of those ids, in every program that holds it:

```mlir
aiv {
  sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
  sk.barrier id 1 all_aiv
  sk.notify id 2 @c slot 3 on aiv
  sk.barrier id 3 all_aiv
  sk.subtask id 4 @b blocks 8 offset 4 from @s0 seq 1 after [0]
}
```
with the implied ids {3} becomes
```mlir
aiv {
  sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
  sk.barrier id 1 all_aiv
  sk.notify id 2 @c slot 3 on aiv
  sk.subtask id 4 @b blocks 8 offset 4 from @s0 seq 1 after [0]
}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.superkernel import BarrierOp, SetFlagOp, WaitFlagOp


@dataclass
class EraseImpliedSync(RewritePattern):
    """A barrier or cross-core flag op whose id the analysis found implied → erased."""

    implied: set[int]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BarrierOp | SetFlagOp | WaitFlagOp, rewriter: PatternRewriter) -> None:
        if op.ident in self.implied:
            rewriter.erase(op)
