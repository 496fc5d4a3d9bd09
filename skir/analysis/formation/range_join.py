"""Boundary events that join a SuperKernel's range (docs/design.md §3 (e')).

On a member stream other than the host, the event waits directly before the stream's first
member (only waits, scope markers and placeholders between them) and the event records
directly after its last member (only records, markers and placeholders between) join the
range. A joined wait becomes an in-kernel lock wait before that member (or nothing, when its
record happens before the launch) and a joined record an in-kernel notify after the member,
so that no spare slot is needed for a front wait or a back block. Only events of
single-record, non-external epochs join (the others are breakers); markers and placeholders
join only between a joined event and the member.

```
s0 (host): k1          k3
s1:        wait e0     k2     record e1    k4 (not a member)
```
The range on s1 grows from [k2] to [wait e0 .. record e1]: no front wait for `wait e0`, no
back block for `record e1` (k4 waits for the SuperKernel through the converted e1).
"""

from __future__ import annotations

from collections.abc import Callable

from skir.analysis.formation.scopes import Runs
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import PlaceholderOp, RecordOp, ScopeBeginOp, ScopeEndOp, WaitOp

_SPARE = (PlaceholderOp, ScopeBeginOp, ScopeEndOp)


def _joinable(graph: TaskGraph, runs: Runs, n: int, kind: type) -> bool | None:
    """True: an event task of `kind` that may join; False: a spare slot that may lie between;
    None: the walk stops here."""
    op = graph.ops[n]
    if n in runs.kept:  # an updated kernel's group prefix stays in its slot, before the launch
        return None
    if isinstance(op, kind):
        return True if runs.run_of[n] >= 0 else None  # external and multi-record events are breakers
    return False if isinstance(op, _SPARE) else None


def _walk(graph: TaskGraph, runs: Runs, start: int, step: Callable[[int], int | None], kind: type,
          used: set[int]) -> int:
    """From member `start`, step away over tasks of `kind` and spare slots; the farthest task
    of `kind` reached (`start` when none)."""
    far = start
    n = step(start)
    while n is not None and n not in used:
        joinable = _joinable(graph, runs, n, kind)
        if joinable is None:
            break
        if joinable:
            far = n
        n = step(n)
    return far


def joined_range(graph: TaskGraph, runs: Runs, lo: int, hi: int, used: set[int],
                 waits: bool = True) -> tuple[int, int]:
    """The range (lo, hi) of one non-host member stream grown by its boundary events; tasks in
    `used` (other SuperKernels' ranges) never join. `waits=False` joins only the records."""
    new_lo = _walk(graph, runs, lo, graph.prev_on_stream, WaitOp, used) if waits else lo
    return new_lo, _walk(graph, runs, hi, graph.next_on_stream, RecordOp, used)
