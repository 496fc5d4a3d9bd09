"""skir's patterns one at a time, on hand-made IR with hand-written expectations."""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriteWalker

from skir.api import parse, the_model
from skir.dialects.aclgraph import StreamOp
from skir.dialects.ir_text import ir_text
from skir.patterns import RewriteSlot, SlotPlan

MODEL = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e
  aclgraph.cell @e_cell
  aclgraph.stream @s0 slots 3 {
    aclgraph.launch seq 0 @v blocks 8 attributes {sk.cut = "non_convex"}
    aclgraph.record seq 1 @e
    aclgraph.launch seq 2 @v blocks 4
  }
  aclgraph.stream @s1 slots 2 {
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @v blocks 8
  }
}
"""


def test_rewrite_slot_applies_the_plan_slot_by_slot() -> None:
    module = parse(MODEL)
    s0, s1 = (op for op in the_model(module).body.block.ops if isinstance(op, StreamOp))
    t0, t1, t2 = s0.body.block.ops
    w3, t4 = s1.body.block.ops
    plan = SlotPlan({t0: ("launch", None, 0, "m_sk0"), t1: ("value_write", "e_cell", 1, None),
                     t2: ("disable", None, 0, "m_sk0"), w3: ("value_wait", "e_cell", 1, None)})
    PatternRewriteWalker(RewriteSlot(plan), apply_recursively=False).rewrite_module(module)
    text = ir_text(module)
    for line in ('aclgraph.launch_sk seq 0 @m_sk0 was launch @v blocks 8 attributes {sk.cut = "non_convex"}',
                 "aclgraph.value_write seq 1 @e_cell value 1 was record @e",
                 "aclgraph.disabled seq 2 was launch @v blocks 4",
                 "aclgraph.value_wait seq 3 @e_cell eq 1 was wait @e",
                 "aclgraph.launch seq 4 @v blocks 8"):  # not in the plan: untouched
        assert line in text, text
    assert [len(list(s.body.block.ops)) for s in (s0, s1)] == [3, 2]  # every slot kept
    assert list(s1.body.block.ops)[1] is t4
