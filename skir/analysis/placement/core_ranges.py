"""The core ranges of a SuperKernel whose cores of one type run different programs.

Without a guarded flag op (`sk.set_flag ... blocks n at F`, a lane's round: docs/design.md §3
"Lanes") every core of a type runs the same syncs, and block guards only skip calls, so one
range per type, all its cores, stands for them all. With guarded ops, the cores of a type are
cut into **ranges** at every edge of a guard and of a sub-task's range: the cores of one range
run the same ops, so the sync machine runs one agent per range. The cuts of the two types are
aligned so that the mode-2 flags between a block's AIC and its AIVs pair whole ranges: an AIC
cut at block `b` cuts the AIVs at `b * r`, and an AIV cut at `x` cuts the AICs at `x // r` and
`ceil(x / r)` (r the AIVs a block). Then every AIV range lies in the blocks of one AIC range,
and an AIC range of several blocks has the AIVs of exactly one AIV range.

```
sk.kernel @k aiv_only blocks 48 queue ...      // AIV ranges [0, 8), [8, 48)
  %0 = sk.subtask @a blocks 8 ... on aiv
  sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 40 at 8
```
"""

from __future__ import annotations

from itertools import pairwise

from skir.dialects.aclgraph_enums import CoreClass
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SetFlagOp, SubtaskOp, SuperKernelOp, WaitFlagOp


def has_guards(sk: SuperKernelOp) -> bool:
    """Whether some flag op of `sk` runs on part of its core type only."""
    return any(isinstance(op, SetFlagOp | WaitFlagOp) and op.blocks is not None for op in sk.body.block.ops)


def ratio_of(sk: SuperKernelOp) -> int:
    """The AIVs of one block of `sk` (1 when it launches no AIC)."""
    aiv = sk.cores()[CoreType.AIV]
    return max(1, aiv // sk.blocks.data) if aiv and sk.cores()[CoreType.AIC] else 1


def subtask_range(sk: SuperKernelOp, sub: SubtaskOp, core: CoreType) -> range:
    """The cores of type `core` a sub-task's call may run on (its AIVs of a mix sub-task: those of its blocks)."""
    first, n = sub.first_block, sub.blocks.data
    count = sk.cores()[core]
    if core is CoreType.AIV and sub.cores.data is not CoreClass.AIV:
        r = ratio_of(sk)
        first, n = first * r, n * r
    return range(min(first, count), min(first + n, count))


def core_ranges(sk: SuperKernelOp) -> dict[CoreType, list[range]]:
    """The ranges of each core type `sk` launches, in core order (see the module docstring)."""
    counts = {core: sk.cores()[core] for core in sk.core_types()}
    if not has_guards(sk):
        return {core: [range(0, n)] for core, n in counts.items()}
    cuts: dict[CoreType, set[int]] = {core: set() for core in counts}
    for op in sk.body.block.ops:
        if isinstance(op, SetFlagOp | WaitFlagOp):
            guard = op.guard()
            if guard is not None and op.core.data in cuts:
                cuts[op.core.data] |= {guard.start, guard.stop}
        elif isinstance(op, SubtaskOp):
            for core in op.core_set():
                if core in cuts:
                    span = subtask_range(sk, op, core)
                    cuts[core] |= {span.start, span.stop}
    if len(counts) == 2:
        r = ratio_of(sk)
        aic, aiv = cuts[CoreType.AIC], cuts[CoreType.AIV]
        aic |= {x // r for x in aiv} | {-(-x // r) for x in aiv}
        aiv |= {b * r for b in aic}
    out: dict[CoreType, list[range]] = {}
    for core, n in counts.items():
        edges = sorted({0, n} | {c for c in cuts[core] if 0 < c < n})
        out[core] = [range(a, b) for a, b in pairwise(edges)]
    return out


def range_label(span: range) -> str:
    """How a diagnostic names a range of cores: `[8, 48)`."""
    return f"[{span.start}, {span.stop})"
