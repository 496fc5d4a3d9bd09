"""The or-wait part of formation's `non_convex` rule (docs/design.md §3).

A wait of an event recorded more than once (one *epoch* with several records) is released by
whichever record fires first, so the task graph has no edge for it. Contracted into one
SuperKernel launch, a range set must not sit after such a wait while every record of its
epoch sits after the set: whichever record fires, it waits for the SuperKernel, which waits
for the wait.

```
s0: wait e   [SK: k1 ... k2]           s0's wait is before the SuperKernel,
s1:          k3  record e              both records of e are after it:
s2:          k4  record e              non_convex
```

`OrWaitRule` holds the waits and records of every such epoch as flat arrays, so that one
candidate costs a few numpy passes over them: still linear in those waits and records per
candidate, but at numpy's cost per element, not a Python loop per epoch (which made a model
of thousands of such epochs take minutes), and nothing at all when the model has none.
"""

from __future__ import annotations

import numpy as np

from skir.analysis.graph.task_graph import TaskGraph


class OrWaitRule:
    """`violated(...)`: whether a range set would be after a wait of a multi-record epoch and
    before every record of it (see the module docstring)."""

    def __init__(self, graph: TaskGraph):
        epochs = [e for e in graph.epochs if len(e.records) > 1 and e.waits]
        self.epochs = len(epochs)
        waits = [(k, w) for k, e in enumerate(epochs) for w in e.waits]
        records = [(k, r) for k, e in enumerate(epochs) for r in e.records]
        self.wait_epoch, self.wait_stream, self.wait_pos = _columns(graph, waits)
        self.record_epoch, self.record_stream, self.record_pos = _columns(graph, records)
        self.records_of = np.bincount(self.record_epoch, minlength=self.epochs)

    def violated(self, lo_pos: np.ndarray, hi_pos: np.ndarray, anc: np.ndarray, desc: np.ndarray) -> bool:
        """For the range set with first / last positions `lo_pos` / `hi_pos` per stream (-1: no
        range there) and hb vectors `anc` (the last position per stream before some range end)
        and `desc` (the first after some range start): a task is *before* the set when it lies
        before the range of its stream, or, on a stream without one, at or before `anc`; *after*
        it when it lies past its range, or at or after `desc`."""
        if not self.epochs:
            return False
        inside = lo_pos >= 0
        before_bound = np.where(inside, lo_pos - 1, anc)
        before = self.wait_pos <= before_bound[self.wait_stream]
        if not before.any():
            return False
        waited = np.zeros(self.epochs, dtype=bool)
        waited[self.wait_epoch[before]] = True
        after_bound = np.where(inside, hi_pos + 1, desc)
        after = self.record_pos >= after_bound[self.record_stream]
        after_count = np.bincount(self.record_epoch[after], minlength=self.epochs)
        return bool((waited & (after_count == self.records_of)).any())


def _columns(graph: TaskGraph, items: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(epoch index, stream, position) columns of (epoch index, task) pairs."""
    epoch = np.array([k for k, _ in items], dtype=np.int64)
    stream = np.array([graph.stream_of[n] for _, n in items], dtype=np.int64)
    pos = np.array([graph.pos[n] for _, n in items], dtype=np.int64)
    return epoch, stream, pos
