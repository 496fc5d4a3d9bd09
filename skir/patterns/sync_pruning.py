"""`EraseImpliedSync`: erase the synchronisation the rest of a SuperKernel already implies.

`sk-prune-sync`'s analysis (`skir.analysis.sync.sync_prune.implied_syncs`) decides which barriers
and flag pairs of a lowered SuperKernel the others imply; the pattern erases each op of that
set:

```mlir
%0 = sk.subtask @c blocks 24 offset 1 from @s0 seq 0 on aic
sk.barrier all_aic
sk.set_flag mode 2 flag 15 pipe fix on aic
sk.wait_flag flag 15 on aiv
%1 = sk.subtask @v blocks 48 offset 4 from @s1 seq 1 on aiv after %0
```
with the barrier and the flag pair found implied (another pair, say, already orders @c before @v) becomes
```mlir
%0 = sk.subtask @c blocks 24 offset 1 from @s0 seq 0 on aic
%1 = sk.subtask @v blocks 48 offset 4 from @s1 seq 1 on aiv after %0
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.superkernel import BarrierOp, SetFlagOp, WaitFlagOp


@dataclass
class EraseImpliedSync(RewritePattern):
    """A barrier or cross-core flag op the analysis found implied → erased."""

    implied: set[Operation]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BarrierOp | SetFlagOp | WaitFlagOp, rewriter: PatternRewriter) -> None:
        if op in self.implied:
            rewriter.erase(op)
