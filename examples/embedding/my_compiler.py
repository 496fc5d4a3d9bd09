"""Another xDSL compiler that embeds skir's patterns in a pipeline of its own.

    python examples/embedding/my_compiler.py examples/chain.mlir      # prints the entries

`my-lower` is this compiler's own `ModulePass` (it defines no dialect). Its target has no code
preload, and its trace tooling wants a line of its own before every sub-task call, so it

1. runs its own rewrite on skir's `sk` programs: `DropPreload` erases every `sk.preload`
   (a hint: dropping one changes no order, and `sk-check` still proves the result);
2. lowers each SuperKernel with skir's `sk` → `ascendc` patterns, its own `TracedSubtask`
   (skir's `LowerSubtask`, extended) in front of them so that it wins for `sk.subtask`: skir
   stages the source (`stage_source`), the patterns apply (`apply_lowering`).

Its pipeline is skir's up to `sk-insert-debug`, then `my-lower`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern

import skir
from skir.dialects.ascendc import CommentOp
from skir.dialects.superkernel import PreloadOp, SubtaskOp, SuperKernelOp
from skir.options import SkOptions
from skir.passes.common import kernel_table, models
from skir.passes.pipeline import pipeline_passes
from skir.passes.to_ascendc import apply_lowering, stage_source
from skir.patterns.sk_to_ascendc import LowerSubtask, sk_to_ascendc_patterns
from skir.targets.ascendc import emit_source, sources


class DropPreload(RewritePattern):
    """`sk.preload` → nothing (this target has no code preload)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PreloadOp, rewriter: PatternRewriter) -> None:
        rewriter.erase(op)


@dataclass
class TracedSubtask(LowerSubtask):
    """skir's sub-task lowering, with a line of this compiler's in front of each call (its
    trace tooling finds the sub-tasks by it): `// my-compiler: <kernel> from <stream> seq <n>`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubtaskOp, rewriter: PatternRewriter) -> None:
        text = f"my-compiler: {op.kernel.root_reference.data} from {op.stream.root_reference.data} seq {op.seq.data}"
        rewriter.insert(CommentOp(text))
        self.lower(op, rewriter)


@dataclass(frozen=True)
class MyLowerPass(ModulePass):
    """This compiler's lowering: its own rewrite, then skir's patterns beside its own."""

    name = "my-lower"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DropPreload(), apply_recursively=False).rewrite_module(op)
        for model in models(op):
            kernels = kernel_table(model)
            for sk in model.body.block.ops:
                if isinstance(sk, SuperKernelOp):
                    source, lowering = stage_source(sk, kernels, SkOptions())
                    apply_lowering(source, [TracedSubtask(lowering), *sk_to_ascendc_patterns(lowering)])
                    op.body.block.add_op(source)


def compile_model(path: str) -> ModuleOp:
    """skir's passes up to `sk-insert-debug`, then `my-lower`; the module, verified."""
    module = skir.load_model(path)
    ctx = skir.make_context()
    for p in [p for p in pipeline_passes("") if p.name != "sk-to-ascendc"] + [MyLowerPass()]:
        p.apply(ctx, module)
        module.verify()
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a model skir reads (.mlir, capture JSON)")
    args = parser.parse_args(argv)
    for source in sources(compile_model(args.model)):
        sys.stdout.write(emit_source(source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
