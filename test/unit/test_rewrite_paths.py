"""The rewriting fast paths: `rewrite_ops`' rewriter and the in-place program rebuild.

Each is checked against what xDSL's own machinery gives (a `PatternRewriteWalker` over the
same staged source) or against programs written by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xdsl.dialects import test
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from skir.api import make_context, parse, the_model
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import DcciOp, SuperKernelOp
from skir.frontends.capture import from_dict
from skir.passes.common import kernel_table
from skir.passes.pipeline import pipeline_passes
from skir.passes.program_edit import rebuild
from skir.passes.to_ascendc import stage_source
from skir.patterns.sk_to_ascendc import sk_to_ascendc_patterns
from skir.testing import superkernel_text
from skir.xdsl_fast.sweep import rewrite_ops

ROOT = Path(__file__).resolve().parents[2]

PROGRAMS = """
aclgraph.model @d cores(aic = 24, aiv = 48) {
  aclgraph.kernel @a aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @x mix_aic_1_2 params 0
  sk.kernel @d_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
    %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
    %1 = sk.subtask @c blocks 24 offset 1 from @s0 seq 1 on aic after %0
    sk.barrier sync_all
    %2 = sk.subtask @x blocks 16 offset 1 from @s0 seq 2 on mix after %1
  }
}
"""

# By hand: the barrier dropped, a cache clean put on the AIV before @x, the sub-tasks' tokens
# kept (@c after @a, @x after @c).
REBUILT = """\
sk.kernel @d_sk0 mix_aic_1_2 blocks 24 chain slots 1 {
  %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
  %1 = sk.subtask @c blocks 24 offset 1 from @s0 seq 1 on aic after %0
  sk.dcci on aiv
  %2 = sk.subtask @x blocks 16 offset 1 from @s0 seq 2 on mix after %1
}"""


def _superkernel(module: ModuleOp) -> SuperKernelOp:
    (sk,) = (op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp))
    return sk


def test_rebuild_keeps_the_ops_it_keeps_and_erases_the_rest() -> None:
    module = parse(PROGRAMS)
    sk = _superkernel(module)
    a, c, barrier, x = sk.program()
    built = rebuild(sk, [a, c, DcciOp(CoreType.AIV), x])
    module.verify()
    assert superkernel_text(module) == REBUILT
    assert a.parent is c.parent is x.parent is built.body.block  # moved nowhere
    assert barrier.parent is None  # erased
    assert sk.parent is None
    assert built.program_for(CoreType.AIV) == [a, built.program()[2], x]
    assert built.program_for(CoreType.AIC) == [c, x]


def test_rebuild_reorders_and_keeps_the_tokens() -> None:
    """A plan that moves an op puts it where the plan says; the dependencies are the sub-tasks'
    own tokens, so they follow the ops (by hand: @c after @a, @x after @c)."""
    module = parse(PROGRAMS)
    sk = _superkernel(module)
    a, c, barrier, x = sk.program()
    built = rebuild(sk, [a, barrier, c, x])
    module.verify()
    assert built.program() == [a, barrier, c, x]
    assert built.positions() == {a: 0, barrier: 1, c: 2, x: 3}
    assert c.dep_subtasks() == (a,) and x.dep_subtasks() == (c,)  # type: ignore[attr-defined]


def _lowered_module(module: ModuleOp) -> ModuleOp:
    ctx = make_context()
    for p in pipeline_passes("")[:-1]:  # everything before sk-to-ascendc
        p.apply(ctx, module)
    return module


def test_the_sweep_gives_the_walkers_ir() -> None:
    """`rewrite_ops` (one sweep, the fast rewriter) and xDSL's walker over every staged op
    write the same entry source for each SuperKernel of a chain and of a decode model."""
    sys.path.insert(0, str(ROOT / "tools"))
    from gen_model import generate  # type: ignore[import-not-found]

    chain = parse((ROOT / "examples" / "chain.mlir").read_text())
    compared = 0
    for module in (_lowered_module(chain), _lowered_module(from_dict(generate("decode", 300, seed=3)))):
        model = the_model(module)
        kernels = kernel_table(model)
        from skir.options import SkOptions

        for sk in [op for op in model.body.block.ops if isinstance(op, SuperKernelOp)]:
            swept, lowering = stage_source(sk, kernels, SkOptions())
            assert rewrite_ops([op for op in swept.walk() if op.dialect_name() == "sk"],
                               sk_to_ascendc_patterns(lowering)) == []
            walked, lowering = stage_source(sk, kernels, SkOptions())
            PatternRewriteWalker(GreedyRewritePatternApplier(sk_to_ascendc_patterns(lowering))).rewrite_region(walked.body)
            assert str(swept) == str(walked)
            assert not any(op.dialect_name() == "sk" for op in walked.walk())
            compared += 1
    assert compared >= 4


class _EraseWhileListening(RewritePattern):
    def __init__(self, seen: list[Operation]):
        self.seen = seen

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, test.TestOp) and not op.results:
            rewriter.operation_removal_handler.append(self.seen.append)
            rewriter.erase(op)


class _ReplaceWithResult(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, test.TestOp) and op.results and "new" not in op.attributes:
            from xdsl.dialects.builtin import UnitAttr

            rewriter.replace(op, test.TestOp(result_types=[i32], attributes={"new": UnitAttr()}))


def test_the_sweep_honours_listeners_and_results() -> None:
    """With a handler registered, or an op with results, the rewriter is xDSL's own: the
    handler hears the erasure, and the uses move to the new result. A handler lasts for the
    op it was registered at, as with a fresh `PatternRewriter` per op."""
    quiet, producer = test.TestOp(), test.TestOp(result_types=[i32])
    user = test.TestOp((producer.results[0],))
    block = Block([quiet, producer, user])
    Region(block)
    seen: list[Operation] = []
    assert rewrite_ops([quiet, producer], [_EraseWhileListening(seen), _ReplaceWithResult()]) == []
    assert seen == [quiet]
    ops = list(block.ops)
    assert len(ops) == 2 and "new" in ops[0].attributes and user.operands[0] is ops[0].results[0]
