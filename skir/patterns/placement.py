"""`PlaceSubtask`: run a sub-task on the core range placement chose for it.

`sk-place-blocks`' analysis (`skir.analysis.placement.placement.plan_placement`) decides which
hb-unordered sub-tasks run side by side and the first core of each; the pattern records it as
the sub-task's `at`:

```mlir
%3 = sk.subtask @rope_k blocks 8 offset 7 from @s1 seq 7 on aiv after %1
```
with the decision {3: 40} becomes
```mlir
%3 = sk.subtask @rope_k blocks 8 at 40 offset 7 from @s1 seq 7 on aiv after %1
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.superkernel import SubtaskOp
from skir.dialects.syntax import int_attr


@dataclass
class PlaceSubtask(RewritePattern):
    """A sub-task the analysis placed → its `at` set to the first core of its range."""

    first: dict[SubtaskOp, int]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubtaskOp, rewriter: PatternRewriter) -> None:
        first = self.first.get(op)
        if first is None or first == op.first_block:
            return
        op.properties["first"] = int_attr(first)
        rewriter.notify_op_modified(op)
