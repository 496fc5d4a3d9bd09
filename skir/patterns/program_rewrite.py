"""`ReplaceProgram`: an `sk.kernel` with the program an analysis planned for it.

The passes that insert into a SuperKernel's program (`sk-lower-sync` its depends,
`sk-insert-preload` the preloads, `sk-insert-debug` the debug syncs and cache cleans) decide
the whole new program as a list (`skir.passes.program_edit.Program`), each op saying the core
types that run it. The pattern applies that plan: it replaces the `sk.kernel` by one with the
same name, shape and attributes holding the ops in list order. The ops keep their tokens, so
the sub-tasks' dependencies follow them:

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
with the plan [sub-task @a, dcci on aiv, sub-task @b, dcci on aiv] becomes
```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.dcci on aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
sk.dcci on aiv
```
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.syntax import new_op

Program = list[Operation]


@dataclass
class ProgramPlan:
    """The planned program of one SuperKernel (and, once applied, the kernel that holds it)."""

    program: Program
    updates: dict[Operation, dict[str, Attribute]] = field(default_factory=dict)
    """Properties to set on ops of the program (a sub-task's `feed` index)."""
    built: SuperKernelOp | None = field(default=None, init=False)


def program_block(plan: ProgramPlan, old: SuperKernelOp) -> Block:
    """The block of a plan: `old`'s block, taken out of it (so each insertion's ancestry check
    is one step) and edited in place. An op the plan keeps stays where it is (most of them: a
    plan inserts ops between the old ones), a new op is inserted before the next kept one, an
    op the plan leaves out is erased (a plan leaves out no op whose token a kept op names)."""
    for op, props in plan.updates.items():
        op.properties.update(props)
    block = old.body.detach_block(0)
    keep = {id(op) for op in plan.program}  # by id: an op's hash is a Python call
    dropped = [op for op in block.ops if id(op) not in keep]
    for op in dropped:
        block.detach_op(op)
    for op in reversed(dropped):  # a user after its definition: erased first
        op.erase()
    at = block.first_op
    for op in plan.program:
        if op is at:
            at = op.next_op
            continue
        if (parent := op.parent_block()) is not None:
            parent.detach_op(op)
        if at is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, at)
    return block


@dataclass
class ReplaceProgram(RewritePattern):
    """An `sk.kernel` with a plan → the same SuperKernel holding the planned program."""

    plans: dict[SuperKernelOp, ProgramPlan]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SuperKernelOp, rewriter: PatternRewriter) -> None:
        plan = self.plans.get(op)
        if plan is None or plan.built is not None:
            return
        block = program_block(plan, op)
        plan.built = new_op(SuperKernelOp, op.properties, [Region(block)], op.attributes, op.location)
        rewriter.replace(op, plan.built)
