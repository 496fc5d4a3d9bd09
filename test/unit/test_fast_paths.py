"""The shortcuts skir takes through xDSL keep xDSL's results: verification (the whole-model check
skipped while its stamp is unchanged, the operand-free isolation sweep, the one-block region
check) and `clone_tree`.

The verification tests edit IR after a successful verification and assert that the error
still comes, with the message xDSL's own check gives; the copies are compared with xDSL's
`clone`."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr, i32
from xdsl.dialects.test import TestOp as _TestOp
from xdsl.ir import Block
from xdsl.utils.exceptions import DiagnosticException, VerifyException

import skir
from skir.analysis.proof import model_check
from skir.api import parse, run_pipeline, the_model
from skir.dialects.aclgraph import LaunchOp, StreamOp
from skir.dialects.ascendc import IfCoreOp
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.superkernel_sync import NotifyOp, ResetLockOp, WaitLockOp
from skir.xdsl_fast.clone import clone_tree
from skir.xdsl_fast.printer import ir_text

ROOT = Path(__file__).resolve().parents[2]
LOCKS = (ROOT / "test" / "unit" / "models" / "locks.mlir").read_text()
TWO_STREAMS = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 8
    aclgraph.record seq 1 @e
    aclgraph.launch seq 2 @v blocks 8
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e
    aclgraph.launch seq 4 @v blocks 8
  }
}
"""


def _raises(module: ModuleOp, text: str) -> None:
    with pytest.raises((DiagnosticException, VerifyException), match=text):
        module.verify()


def _streams(module: ModuleOp) -> list[StreamOp]:
    return [op for op in the_model(module).body.block.ops if isinstance(op, StreamOp)]


def test_an_edited_task_is_checked_again() -> None:
    module = parse(TWO_STREAMS)
    module.verify()
    task = next(iter(_streams(module)[1].body.block.ops))
    task.properties["seq"] = IntAttr(0)  # in place: the same op, a new value
    _raises(module, "seq 0 is also used by")


def test_a_moved_or_new_task_is_checked_again() -> None:
    module = parse(TWO_STREAMS)
    module.verify()
    _s0, s1 = _streams(module)
    s1.body.block.add_op(LaunchOp(2, "v", 8))
    _raises(module, "seq 2 is also used by")
    module = parse(TWO_STREAMS)
    module.verify()
    s0, s1 = _streams(module)
    first = s0.body.block.first_op
    assert first is not None
    first.detach()
    s1.body.block.add_op(first)  # seq 0 after seq 4 on @s1
    _raises(module, "seq must increase along a stream")


def test_an_unchanged_model_is_not_checked_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    module = parse(TWO_STREAMS)
    module.verify()
    calls: list[object] = []
    monkeypatch.setattr(model_check, "_check_model", calls.append)
    module.verify()
    assert calls == []
    the_model(module).properties["sym_name"] = StringAttr("m2")
    module.verify()
    assert len(calls) == 1


def test_the_stamp_covers_the_lock_ops_the_task_graph_reads() -> None:
    assert model_check._LOCK_OPS == {NotifyOp.name, WaitLockOp.name, ResetLockOp.name}
    module = parse(LOCKS)
    run_pipeline(module)
    sk = next(op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp))
    before = model_check.model_stamp(the_model(module))
    lock = next(op for r in sk.regions for op in r.block.ops if op.name in model_check._LOCK_OPS)
    lock.detach()
    assert model_check.model_stamp(the_model(module)) != before


def test_an_operand_from_outside_a_model_is_refused() -> None:
    module = parse(TWO_STREAMS)
    value = _TestOp(result_types=[i32])
    module.body.block.insert_op_before(value, the_model(module))
    the_model(module).body.block.add_op(_TestOp(operands=[value.results[0]]))
    _raises(module, "IsolatedFromAbove")


def test_a_region_with_two_blocks_is_refused() -> None:
    module = parse(LOCKS)
    run_pipeline(module)
    if_core = next(op for op in module.walk() if isinstance(op, IfCoreOp))
    if_core.verify_()
    if_core.body.add_block(Block())
    message = "Region 'body' at position 0 expected a single block, but got 2 blocks"
    with pytest.raises(VerifyException, match=message):
        if_core.verify_()
    with pytest.raises(VerifyException, match=message):  # xDSL's own check says the same
        IfCoreOp.get_irdl_definition().verify(if_core)


def test_clone_tree_is_xdsl_clone() -> None:
    for text in (TWO_STREAMS, LOCKS):
        module = parse(text)
        run_pipeline(module)
        copy = clone_tree(module)
        assert copy.is_structurally_equivalent(module.clone())
        assert str(copy) == str(module)
        pairs = list(zip(module.walk(), copy.walk(), strict=True))
        assert all(a is not b and a.location == b.location for a, b in pairs)
        copy.verify()


def test_clone_tree_falls_back_for_values() -> None:
    module = parse(TWO_STREAMS)
    value = _TestOp(result_types=[i32])
    module.body.block.insert_op_before(value, the_model(module))
    module.body.block.add_op(_TestOp(operands=[value.results[0]]))
    copy = clone_tree(module)
    used = copy.body.block.last_op
    assert used is not None and used.operands[0].owner is copy.body.block.first_op


def test_ir_text_is_str() -> None:
    examples = sorted((ROOT / "examples").glob("*.json"))
    assert examples
    for path in examples:
        module = skir.load_model(path)
        assert ir_text(module) == str(module)
        run_pipeline(module)
        assert ir_text(module) == str(module)
    module = parse(TWO_STREAMS)
    value = _TestOp(result_types=[i32])  # ops with results, and a generic one, take xDSL's path
    module.body.block.insert_op_before(value, the_model(module))
    module.body.block.add_op(_TestOp(operands=[value.results[0]]))
    assert ir_text(module) == str(module)


_GROUP_MODELS = [*sorted((ROOT / "examples").glob("*.json")), *sorted((ROOT / "test" / "unit" / "vendor_scenarios")
                                                                    .glob("test_sk_*.json"))[:12]]


@pytest.mark.parametrize("options", ["", "split-mode=2:early-start=1", "stream-fusion=1:feed-sync-all=1"])
def test_statement_groups_emit_as_their_expansion(monkeypatch: pytest.MonkeyPatch, options: str) -> None:
    """The entries `sk-to-ascendc` writes with statement groups print byte for byte as the ones
    it writes with every group spelled out (comment, guards, call or set and wait)."""
    from skir.patterns import sk_to_ascendc
    from skir.targets.ascendc import emit_source, sources

    def entries(path: Path) -> list[str]:
        module = skir.load_model(path)
        run_pipeline(module, options)
        return [emit_source(source) for source in sources(module)]

    grouped = {path.name: entries(path) for path in _GROUP_MODELS}
    module = skir.load_model(ROOT / "examples" / "decode_layer.json")
    run_pipeline(module, options)
    assert {"ascendc.guarded_call", "ascendc.flag_barrier"} <= {op.name for op in module.walk()}
    for pattern in (sk_to_ascendc.LowerSubtask, sk_to_ascendc.LowerBarrier):
        monkeypatch.setattr(pattern, "group", lambda self, op, core, note: None)
    for path in _GROUP_MODELS:
        assert entries(path) == grouped[path.name], path.name


def test_new_op_is_create() -> None:
    """`new_op` / `build_op` give the op `create` gives: same properties (default-valued ones
    filled in), attributes, location and regions; parsed and imported models print and verify
    as before."""
    from xdsl.dialects.builtin import StringAttr as Str
    from xdsl.ir import Region

    from skir.dialects.ascendc import IfCoreOp
    from skir.dialects.ascendc_attrs import CORES
    from skir.dialects.hardware import CoreType
    from skir.dialects.syntax import new_op

    props = {"core": CORES[CoreType.AIV]}
    made = new_op(IfCoreOp, props, [Region(Block())], {"tag": Str("x")})
    expected = IfCoreOp.create(properties=props, regions=[Region(Block())], attributes={"tag": Str("x")})
    assert made.is_structurally_equivalent(expected) and str(made) == str(expected)
    assert made.location == expected.location and made.regions[0].parent is made
    assert made.properties is not props and not made.operands and not made.results
    for text in (TWO_STREAMS, LOCKS):
        module = parse(text)
        assert ir_text(parse(ir_text(module))) == ir_text(module)
        run_pipeline(module)
        module.verify()
