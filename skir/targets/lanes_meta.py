"""SK meta's `lanes`: the lanes of a SuperKernel, read from its program (docs/design.md §3 "Lanes").

A lane shows in the program as its flag's guarded ops: its rounds are a set directly followed
(in its core type's program) by a wait of the same flag and guard, the lane's cores; the
other guards of the flag are the early arrivals and drains of the cores outside it. Its
members are the sub-tasks of that type between the flag's first and last op whose cores lie
in the lane's. A flag op that fits no such reading (a hand-written program) makes no lane.

```json
"lanes": [{"core": "aiv", "flag": 15, "first": 0, "cores": 8, "rounds": 2, "subtasks": [5, 8, 11]},
          {"core": "aiv", "flag": 10, "first": 8, "cores": 16, "rounds": 2, "subtasks": [9, 12, 14]}]
```
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from skir.analysis.placement.core_ranges import subtask_range
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SetFlagOp, SkProgramOp, SubtaskOp, SuperKernelOp, WaitFlagOp


def lanes(sk: SuperKernelOp) -> list[dict[str, Any]]:
    """Each lane of `sk` with its core type, flag, cores, rounds and member sub-tasks (their
    places in the program)."""
    out: list[dict[str, Any]] = []
    place = sk.positions()
    for core in (CoreType.AIC, CoreType.AIV):
        program = sk.program_for(core)
        rounds: dict[tuple[int, range], int] = {}
        first_op: dict[int, int] = {}
        last_op: dict[int, int] = {}
        for i, (op, after) in enumerate(pairwise([*program, None])):
            if isinstance(op, SetFlagOp | WaitFlagOp) and op.guard() is not None:
                flag = op.flag.data
                first_op.setdefault(flag, i)
                last_op[flag] = i
                guard = op.guard()
                assert guard is not None
                if isinstance(op, SetFlagOp) and op.mode.data == 0 and _same(after, flag, guard):
                    key = (flag, guard)
                    rounds[key] = rounds.get(key, 0) + 1
        for (flag, guard), n in sorted(rounds.items(), key=lambda item: (item[0][1].start, item[0][0])):
            members = [place[op] for op in program[first_op[flag]:last_op[flag] + 1]
                       if isinstance(op, SubtaskOp) and _within(subtask_range(sk, op, core), guard)]
            out.append({"core": core.value, "flag": flag, "first": guard.start, "cores": len(guard),
                        "rounds": n, "subtasks": members})
    return out


def _same(op: SkProgramOp | None, flag: int, guard: range) -> bool:
    return isinstance(op, WaitFlagOp) and op.flag.data == flag and op.guard() == guard


def _within(inner: range, outer: range) -> bool:
    return len(inner) > 0 and outer.start <= inner.start and inner.stop <= outer.stop
