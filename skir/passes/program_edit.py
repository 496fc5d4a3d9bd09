"""Read and rewrite a SuperKernel's two programs as one list in id order.

In both forms each region's ops run in increasing id order and an op both core types run
has one id in both regions, so the merged id order, with the core types each op sits on,
describes the programs completely. Passes that insert ops build a new list and `rebuild`
renumbers it: ids follow the list again (for a chain SuperKernel, its program order).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Block, Operation

from skir.dialects.fast_clone import clone_tree
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


def rebuild(sk: SuperKernelOp, program: Program, span: Callable[[Operation], int] | None = None) -> None:
    """Replace both programs by `program`: fresh ids in list order (deps follow), one copy per
    core type; an op takes `span(op)` ids (default 1: its own), for ops that a pattern will
    later replace by several."""
    ids: list[int] = []
    top = 0
    for op, _ in program:
        ids.append(top)
        top += 1 if span is None else span(op)
    new_id: dict[int, int] = {}
    for ident, (op, _) in zip(ids, program):
        if isinstance(op, SubtaskOp):
            new_id[op.ident] = ident
    # New blocks, filled while detached (each insertion's ancestry check is then one step),
    # replace the old ones; an op of the old programs left out of `program` goes with them.
    blocks = {CoreType.AIC: Block(), CoreType.AIV: Block()}
    for ident, (op, cores) in zip(ids, program):
        if op.parent is not None:
            op.detach()
        op.properties["id"] = int_attr(ident)
        if isinstance(op, SubtaskOp) and op.deps is not None:
            op.properties["deps"] = ArrayAttr(int_attr(new_id[d]) for d in op.dep_ids)
        for i, core in enumerate(cores):
            blocks[core].add_op(op if i == 0 else clone_tree(op))
    for core, region in ((CoreType.AIC, sk.aic), (CoreType.AIV, sk.aiv)):
        region.detach_block(region.block)
        region.add_block(blocks[core])

