"""The slot rewrite of `sk-outline` as a RewritePattern: each task slot the boundary plan
(`skir.analysis.formation.boundary`) names becomes what the plan says, in place.

The plan decides, per slot: the host slot of each SuperKernel launches it (`launch_sk`),
the other slots of its ranges are disabled (they keep the task in `was`), and a boundary event
task becomes a value write or wait on the event's cell (inside a range: a front or back
block; outside every SuperKernel: the converted record, wait or reset). `RewriteSlot` applies
that to one slot; every stream keeps its slot count and order.

```mlir
aclgraph.stream @s0 slots 3 {
  aclgraph.launch seq 0 @a blocks 48 args(@x, @y) attributes {sk.group = 0 : i64}
  aclgraph.launch seq 1 @b blocks 8 args(@y, @z) attributes {sk.group = 0 : i64}
  aclgraph.record seq 2 @e
}
```
with the plan {seq 0: launch @m_sk0, seq 1: disable, seq 2: value_write @e_cell 1} becomes
```mlir
aclgraph.stream @s0 slots 3 {
  aclgraph.launch_sk seq 0 @m_sk0 was launch @a blocks 48 args(@x, @y)
  aclgraph.disabled seq 1 was launch @b blocks 8 args(@y, @z)
  aclgraph.value_write seq 2 @e_cell value 1 was record @e
}
```
A slot keeps its `sk.cut` attributes (why formation closed a SuperKernel there).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.aclgraph import DisabledOp, LaunchSkOp, TaskOp, ValueWaitOp, ValueWriteOp, was_props
from skir.dialects.aclgraph_enums import WaitRule

CUT_ATTRS = ("sk.cut", "sk.cut_detail")


@dataclass
class SlotPlan:
    """Slot -> (action, cell, value, SuperKernel name): `launch`, `disable`, `value_write` or
    `value_wait` (the cell and value of the last two)."""

    actions: dict[TaskOp, tuple[str, str | None, int, str | None]]


@dataclass
class RewriteSlot(RewritePattern):
    """A slot the plan names → its `launch_sk`, `disabled`, `value_write` or `value_wait`."""

    plan: SlotPlan

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TaskOp, rewriter: PatternRewriter) -> None:
        action = self.plan.actions.get(op)
        if action is not None:
            rewrite_slot(op, action, rewriter)


def rewrite_slot(op: TaskOp, action: tuple[str, str | None, int, str | None], rewriter: PatternRewriter) -> None:
    """Replace slot `op` by what `action` (see `SlotPlan`) makes of it."""
    kind, cell, value, sk = action
    seq = op.seq.data
    new: TaskOp
    if kind == "launch":
        assert sk is not None
        new = LaunchSkOp(seq, sk)
    elif kind == "disable":
        new = DisabledOp(op)
    elif kind == "value_write":
        new = ValueWriteOp(seq, cell, value)  # type: ignore[arg-type]
    else:
        new = ValueWaitOp(seq, cell, WaitRule.EQ, value)  # type: ignore[arg-type]
    for name in CUT_ATTRS:
        if name in op.attributes:
            new.attributes[name] = op.attributes[name]
    if not isinstance(new, DisabledOp):
        new.properties.update(was_props(op))
    rewriter.replace(op, new)
