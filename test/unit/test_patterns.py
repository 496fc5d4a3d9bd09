"""skir's patterns one at a time, on hand-made IR with hand-written expectations."""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriteWalker

from skir.api import parse, the_model
from skir.dialects.aclgraph import StreamOp
from skir.options import SkOptions
from skir.patterns import RewriteSlot, SlotPlan
from skir.testing import superkernel_text
from skir.xdsl_fast.printer import ir_text

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


DEPENDS = """
aclgraph.model @d cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_2 params 0
  sk.kernel @d_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
    %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
    sk.depend_barrier aiv -> aic on mix
    %1 = sk.subtask @c blocks 24 offset 1 from @s0 seq 1 on aic after %0
    sk.depend_early_start aic -> mix set_idle 24 of aic wait_idle 16 on mix
    %2 = sk.subtask @x blocks 16 offset 1 from @s0 seq 2 on mix after %1
    sk.depend_lock_release mix on mix
  }
}
"""

# Written by hand from the rules (docs/design.md §3): aiv -> aic is sync_all; the handshake
# aic -> mix sets on the AIC only (from block 24: the AIC sub-task sets itself), waits on both
# with cfg 4*0 + 2 = 2 (from block 16 on, the mix sub-task waits itself); a lock release after a
# mix sub-task is sync_all. The handshake is three ops: the set, then the two waits.
EXPECTED = """\
sk.kernel @d_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
  %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
  sk.barrier sync_all
  %1 = sk.subtask @c blocks 24 offset 1 from @s0 seq 1 on aic after %0
  sk.early_start_set on aic idle 24
  sk.early_start_wait cfg 2 on aic idle 16
  sk.early_start_wait cfg 2 on aiv idle 16
  %2 = sk.subtask @x blocks 16 offset 1 from @s0 seq 2 on mix after %1
  sk.barrier sync_all
}"""


def _lowered(order: list[list[str]]) -> str:
    from skir.dialects.superkernel import SuperKernelOp
    from skir.passes.lower_sync import apply_sync_patterns
    from skir.patterns.sync_lowering import sync_lowering_patterns

    module = parse(DEPENDS)
    (sk,) = (op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp))
    for names in order:
        apply_sync_patterns(sk, [p for p in sync_lowering_patterns() if type(p).__name__ in names])
    return superkernel_text(module)


def test_sync_patterns_apply_each_rule_by_hand() -> None:
    assert _lowered([["LowerClassBarrier", "LowerEarlyStartHandshake", "LowerLockRelease"]]) == EXPECTED


def test_sync_patterns_one_at_a_time_in_any_order_agree() -> None:
    one_by_one = [["LowerLockRelease"], ["LowerEarlyStartHandshake"], ["LowerClassBarrier"]]
    assert _lowered(one_by_one) == EXPECTED
    partial = _lowered([["LowerClassBarrier"]])  # the other depends stay
    assert "sk.barrier sync_all" in partial and "sk.depend_early_start aic -> mix" in partial


def test_outline_group_builds_the_kernel_and_rewrites_the_group() -> None:
    from skir.dialects.aclgraph_enums import KernelType
    from skir.dialects.hardware import CoreType
    from skir.dialects.superkernel import SkForm
    from skir.patterns.outline_group import KernelPlan, LockStep, OutlineGroup, SubtaskStep
    from skir.xdsl_fast.sweep import rewrite_ops

    module = parse(MODEL)
    s0, s1 = (op for op in the_model(module).body.block.ops if isinstance(op, StreamOp))
    t0, t1, t2 = s0.body.block.ops
    w3 = s1.body.block.first_op
    steps: list[SubtaskStep | LockStep] = [
        SubtaskStep("v", 8, 1, "s0", 0, (), (CoreType.AIV,)),
        LockStep("notify", "e_cell", 2, CoreType.AIV),
        SubtaskStep("v", 4, 3, "s0", 2, (0,), (CoreType.AIV,)),
    ]
    plan = KernelPlan("m_sk0", KernelType.MIX_AIV_1_0, 8, SkForm.CHAIN, 4, SkOptions(), steps,
                      ("layer0",), [t0, t1, t2])
    slots = SlotPlan({t0: ("launch", None, 0, "m_sk0"), t1: ("disable", None, 0, "m_sk0"),
                      t2: ("disable", None, 0, "m_sk0")})  # the kernel notifies @e_cell itself
    assert rewrite_ops([t0, t2], [OutlineGroup({t0: plan}, slots)]) == []  # t2: rewritten with its group
    text = ir_text(module)
    expected = """sk.kernel @m_sk0 mix_aiv_1_0 blocks 8 chain slots 4 attributes {sk.label = ["layer0"]} {
      %0 = sk.subtask @v blocks 8 offset 1 from @s0 seq 0 on aiv
      sk.notify @e_cell slot 2 on aiv
      %1 = sk.subtask @v blocks 4 offset 3 from @s0 seq 2 on aiv after %0
  }"""
    flat = "\n".join(line.strip() for line in text.splitlines())
    assert "\n".join(line.strip() for line in expected.splitlines()) in flat, text
    assert text.index("aclgraph.stream @s1") < text.index("sk.kernel @m_sk0")  # at the end of the model
    for line in ("aclgraph.launch_sk seq 0 @m_sk0 was launch @v blocks 8", "aclgraph.disabled seq 1 was record @e",
                 "aclgraph.disabled seq 2 was launch @v blocks 4"):
        assert line in text, text
    assert w3 is not None  # the wait outside the group, by RewriteSlot: then the model is whole again
    PatternRewriteWalker(RewriteSlot(SlotPlan({w3: ("value_wait", "e_cell", 1, None)}))).rewrite_module(module)
    module.verify()
