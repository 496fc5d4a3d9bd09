"""Kernels updated before every replay, and the external wait the capture puts before them
(docs/design.md §3 "Updated kernels").

A task group's kernels have their parameters re-issued before a replay; the capture places an
external event wait (and the reset of that event) right before the group on its stream, and the
framework records the event from outside once the update is written. With `fuse-updated=1` a
kernel whose group updates only its arguments (`update args`) may join a SuperKernel; its
**group prefix** — the external waits and their resets directly before it — then stays in its
slots and must end before the SuperKernel's launch:

```
s0: launch @a          launch @a ─┐
    wait @ext external  wait @ext external      (kept)
    reset @ext          reset @ext              (kept)
    launch @fia task_group 3 update args        launch_sk @m_sk0 (the launch follows the prefix)
```

A prefix task depends on no work of the model (its event is recorded only from outside, before
the replay starts), so waiting for it before the SuperKernel, earlier than the original did,
cannot deadlock; what ran between it and the kernel still runs before the kernel, inside.
"""

from __future__ import annotations

from collections.abc import Iterable

from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, ResetOp, WaitOp


def group_prefix(graph: TaskGraph, n: int) -> tuple[int, ...]:
    """The group prefix of kernel task `n`, in stream order: the tasks directly before it that
    are waits of an external epoch the model never records, or the reset closing such an epoch
    whose waits are all in the prefix. Empty for a kernel that does not update `args` only."""
    op = graph.ops[n]
    if not isinstance(op, LaunchOp) or not op.updates_args_only:
        return ()
    found: list[int] = []
    m = graph.prev_on_stream(n)
    while m is not None:
        task, epoch = graph.ops[m], graph.epoch_of.get(m)
        if epoch is None or not epoch.external or epoch.records or not isinstance(task, WaitOp | ResetOp):
            break
        found.append(m)
        m = graph.prev_on_stream(m)
    prefix = found[::-1]
    while True:  # a reset stays only after every wait of its epoch: else the prefix starts after it
        inside = set(prefix)
        bad = [i for i, m in enumerate(prefix) if isinstance(graph.ops[m], ResetOp)
               and not all(w in inside and w < m for w in graph.epoch_of[m].waits)]
        if not bad:
            return tuple(prefix)
        prefix = prefix[bad[-1] + 1:]


def kept_prefixes(graph: TaskGraph, members: Iterable[int]) -> dict[int, int]:
    """Prefix task -> the updated member it precedes, over `members` (kernel tasks of
    SuperKernels)."""
    kept: dict[int, int] = {}
    for n in members:
        for m in group_prefix(graph, n):
            kept[m] = n
    return kept
