"""Rewrite a SuperKernel's program as one list.

The program is one region in order, each op saying the core types that run it, so a list of
ops describes it completely. Passes that insert ops build a new list and `rebuild` applies it
(`skir.patterns.program_rewrite.ReplaceProgram`); the ops keep their tokens.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from skir.dialects.superkernel import SuperKernelOp
from skir.patterns.program_rewrite import Program, ProgramPlan, ReplaceProgram
from skir.xdsl_fast.sweep import rewrite_ops

__all__ = ["Program", "rebuild"]


def rebuild(sk: SuperKernelOp, program: Program,
            updates: dict[Operation, dict[str, Attribute]] | None = None) -> SuperKernelOp:
    """Replace the program by `program` through `ReplaceProgram`, `updates` set on their ops.
    Returns the `sk.kernel` that now holds them (it replaced `sk`)."""
    plan = ProgramPlan(program, updates or {})
    rewrite_ops([sk], [ReplaceProgram({sk: plan})])
    assert plan.built is not None, f"sk.kernel @{sk.sym_name.data} stands outside a model"
    return plan.built
