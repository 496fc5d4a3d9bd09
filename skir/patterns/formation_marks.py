"""`MarkFormation`: record formation's decisions on the tasks, as attributes FileCheck can see.

`sk-form-scopes`' analysis (`skir.analysis.formation.formation`) decides which kernel tasks fuse into
which SuperKernel and why the rest do not; the pattern records it on each task it concerns,
replacing whatever an earlier run recorded there (`sk.group`, `sk.label`, `sk.fail` /
`sk.fail_detail`, `sk.cut` / `sk.cut_detail`):

```mlir
aclgraph.launch seq 0 @a blocks 48
aclgraph.launch seq 3 @c blocks 48 attributes {sk.group = 7 : i64}
```
with the marks {seq 0: sk.group = 0; seq 3: sk.fail = "default_node", sk.cut = "default_node"}
becomes
```mlir
aclgraph.launch seq 0 @a blocks 48 attributes {sk.group = 0 : i64}
aclgraph.launch seq 3 @c blocks 48 attributes {sk.cut = "default_node", sk.fail = "default_node"}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Attribute
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.aclgraph import TaskOp
from skir.dialects.formation_attrs import FORMATION_ATTRS


@dataclass
class MarkFormation(RewritePattern):
    """A task → its formation attributes as decided (none: the old ones removed)."""

    marks: dict[TaskOp, dict[str, Attribute]]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TaskOp, rewriter: PatternRewriter) -> None:
        marks = self.marks.get(op, {})
        old = {name: op.attributes[name] for name in FORMATION_ATTRS if name in op.attributes}
        if old == marks:
            return
        for name in old:
            del op.attributes[name]
        op.attributes.update(marks)
        rewriter.notify_op_modified(op)
