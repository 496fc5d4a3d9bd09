"""Read and rewrite a SuperKernel's two programs as one list in id order.

In both forms each region's ops run in increasing id order and an op both core types run
has one id in both regions, so the merged id order, with the core types each op sits on,
describes the programs completely. Passes that insert ops build a new list and `rebuild`
applies it (`skir.patterns.program_rewrite.ReplacePrograms`): ids follow the list again (for a
chain SuperKernel, its program order).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from xdsl.ir import Attribute, Operation

from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SkProgramOp, SuperKernelOp
from skir.patterns.program_rewrite import Program, ProgramPlan, ReplacePrograms
from skir.patterns.sweep import rewrite_ops

__all__ = ["Program", "read_program", "rebuild"]


def read_program(sk: SuperKernelOp) -> Program:
    """Every op once (the copy in the AIC program for ops of both), in id order, with its core types."""
    cores: dict[int, list[CoreType]] = defaultdict(list)
    first: dict[int, SkProgramOp] = {}
    for core, region in ((CoreType.AIC, sk.aic), (CoreType.AIV, sk.aiv)):
        for op in region.block.ops:
            cores[op.ident].append(core)  # type: ignore[attr-defined]
            first.setdefault(op.ident, op)  # type: ignore[attr-defined, arg-type]
    return [(first[i], tuple(cores[i])) for i in sorted(first)]


def rebuild(sk: SuperKernelOp, program: Program, span: Callable[[Operation], int] | None = None,
            updates: dict[Operation, dict[str, Attribute]] | None = None) -> SuperKernelOp:
    """Replace both programs by `program` through `ReplacePrograms`: fresh ids in list order, an
    op taking `span(op)` of them (default 1), deps following, one copy per core type, `updates`
    set on their ops. Returns the `sk.kernel` that now holds them (it replaced `sk`)."""
    plan = ProgramPlan(program, span, updates or {})
    rewrite_ops([sk], [ReplacePrograms({sk: plan})])
    assert plan.built is not None, f"sk.kernel @{sk.sym_name.data} stands outside a model"
    return plan.built
