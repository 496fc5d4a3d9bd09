"""Read and rewrite a SuperKernel's two programs as one list in id order.

In both forms each region's ops run in increasing id order and an op both core types run
has one id in both regions, so the merged id order, with the core types each op sits on,
describes the programs completely. Passes that insert ops build a new list and `rebuild`
renumbers it: ids follow the list again (for a chain SuperKernel, its program order).
"""

from __future__ import annotations

from collections import defaultdict

from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Operation

from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SkProgramOp, SubtaskOp, SuperKernelOp
from skir.dialects.syntax import int_attr

Program = list[tuple[Operation, tuple[CoreType, ...]]]


def read_program(sk: SuperKernelOp) -> Program:
    """Every op once (the copy in the AIC program for ops of both), in id order, with its core types."""
    cores: dict[int, list[CoreType]] = defaultdict(list)
    first: dict[int, SkProgramOp] = {}
    for core, region in ((CoreType.AIC, sk.aic), (CoreType.AIV, sk.aiv)):
        for op in region.block.ops:
            cores[op.ident].append(core)  # type: ignore[attr-defined]
            first.setdefault(op.ident, op)  # type: ignore[attr-defined, arg-type]
    return [(first[i], tuple(cores[i])) for i in sorted(first)]


def rebuild(sk: SuperKernelOp, program: Program) -> None:
    """Replace both programs by `program`: fresh ids in list order (deps follow), one copy per core type."""
    new_id: dict[int, int] = {}
    for ident, (op, _) in enumerate(program):
        if isinstance(op, SubtaskOp):
            new_id[op.ident] = ident
    for region in (sk.aic, sk.aiv):
        for old in list(region.block.ops):
            if old.parent is not None:
                old.detach()
    for ident, (op, cores) in enumerate(program):
        if op.parent is not None:
            op.detach()
        op.properties["id"] = int_attr(ident)
        if isinstance(op, SubtaskOp) and op.deps is not None:
            op.properties["deps"] = ArrayAttr(int_attr(new_id[d]) for d in op.dep_ids)
        for i, core in enumerate(cores):
            block = sk.aic.block if core is CoreType.AIC else sk.aiv.block
            block.add_op(op if i == 0 else op.clone())
