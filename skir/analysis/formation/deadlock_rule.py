"""The `deadlock` formation rule (docs/design.md §3): an in-kernel wait must not starve.

A SuperKernel launch holds its cores for its whole run (batch mode). When a sub-task waits
in-kernel (a GM lock) for a record outside the SuperKernel, the work that record depends on
and that is not already hb-before the launch must be able to get cores beside it: per core
type, the SuperKernel's cores plus the largest demand of any such outside kernel (or of
another SuperKernel overlapping that work) must fit the device.

```
s0: [SK: k1 (24 aic) ... wait e ... k2]        device: 24 aic
s1:  kx (8 aic)  record e                       -> kx can never run: deadlock
```
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from skir.analysis.formation.range_hull import Ranges, in_ranges
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.range_max import RangeMax
from skir.analysis.graph.task_graph import TaskGraph


class Starvation:
    """Answers the rule for candidate SuperKernels of one model."""

    def __init__(self, graph: TaskGraph, hb: HappensBefore, demand: RangeMax, cores: tuple[int, int]):
        self.graph, self.hb, self.demand, self.cores = graph, hb, demand, cores

    def starves(self, ranges: Ranges, waits: list[int], demand: tuple[int, int],
                others: list[tuple[Ranges, tuple[int, int]]]) -> bool:
        """Whether a SuperKernel of `ranges` holding `demand` (cube, vector) cores, whose event
        `waits` inside are in-kernel waits, could starve; `others` are the SuperKernels
        (ranges, demand) whose work an outside record may depend on (an entry whose ranges are
        `ranges` itself is this one, and skipped)."""
        g = self.graph
        boundary = [r for r in (g.epoch_of[w].records[0] for w in waits) if not in_ranges(g, ranges, r)]
        if not boundary:
            return False
        launch = self.launch_ancestors(ranges)
        sk_aic, sk_aiv = demand
        for record in boundary:
            need_aic, need_aiv = self.need(ranges, launch, record, others)
            if sk_aic + need_aic > self.cores[0] or sk_aiv + need_aiv > self.cores[1]:
                return True
        return False

    def launch_ancestors(self, ranges: Ranges) -> np.ndarray:
        """Per stream, the last position that happens before the launch of `ranges`."""
        g, hb = self.graph, self.hb
        launch = np.full(len(g.streams), -1, dtype=np.int64)
        for t, (lo, _) in ranges.items():
            launch[t] = max(launch[t], g.pos[lo] - 1)
            if (prev := g.prev_on_stream(lo)) is not None:
                np.maximum(launch, hb.clock(prev), out=launch)
        return launch

    def need(self, ranges: Ranges, launch: np.ndarray, record: int,
             others: list[tuple[Ranges, tuple[int, int]]]) -> tuple[int, int]:
        """The (cube, vector) cores the outside work `record` depends on may need beside the
        launch: the largest demand of a kernel, or of one of `others`, after `launch` and
        before the record, on a stream without a range."""
        g = self.graph
        reach = self.hb.clock(record)
        need_aic = need_aiv = 0
        for u in range(len(g.streams)):
            lo_pos, hi_pos = int(launch[u]) + 1, int(reach[u])
            if u in ranges or hi_pos < lo_pos:
                continue
            aic, aiv = self.demand.query(u, lo_pos, hi_pos)
            need_aic, need_aiv = max(need_aic, aic), max(need_aiv, aiv)
            for other, (o_aic, o_aiv) in others:
                if other is ranges:
                    continue
                span = other.get(u)
                if span is not None and g.pos[span[0]] <= hi_pos and g.pos[span[1]] >= lo_pos:
                    need_aic, need_aiv = max(need_aic, o_aic), max(need_aiv, o_aiv)
        return need_aic, need_aiv


class BoundaryNeeds:
    """The rule for one SuperKernel while it takes members (formation's `_check`): its
    in-kernel waits on outside records with what each needs (`Starvation.need`), kept as the
    ranges grow. A new wait costs one `need`; all are computed again only when a range's
    first task or the set of streams changes (what the launch follows); a wait whose record
    a range takes in leaves. The answer reads the largest need per core type, so a candidate
    costs O(new waits) instead of O(every wait so far), where judging every wait each time
    made a SuperKernel of many in-kernel waits quadratic."""

    def __init__(self, starvation: Starvation):
        self.starvation = starvation
        self.key: tuple[tuple[int, int], ...] = ()
        self.by_stream: dict[int, dict[int, tuple[int, int]]] = {}
        """The stream of each wait's record -> wait -> its need."""
        self.counts: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
        """Per core type, how many waits need each number of cores."""

    def waits(self) -> list[int]:
        return [w for bucket in self.by_stream.values() for w in bucket]

    def update(self, ranges: Ranges, new_waits: list[int], changed: set[int]) -> None:
        """Take `ranges` (grown from the last ones on the `changed` streams) and the waits they
        brought inside."""
        g = self.starvation.graph
        key = tuple(sorted((t, lo) for t, (lo, _) in ranges.items()))
        if key != self.key:
            waits = [*self.waits(), *new_waits]
            self.key, self.by_stream, self.counts = key, {}, (Counter(), Counter())
        else:
            waits = new_waits
            for t in changed:
                bucket = self.by_stream.get(t, {})
                for w in [w for w in bucket if in_ranges(g, ranges, g.epoch_of[w].records[0])]:
                    self._count(bucket.pop(w), -1)
        launch: np.ndarray | None = None
        for w in waits:
            record = g.epoch_of[w].records[0]
            if in_ranges(g, ranges, record):
                continue
            if launch is None:
                launch = self.starvation.launch_ancestors(ranges)
            need = self.starvation.need(ranges, launch, record, [])
            self.by_stream.setdefault(g.stream_of[record], {})[w] = need
            self._count(need, 1)

    def _count(self, need: tuple[int, int], step: int) -> None:
        for counts, value in zip(self.counts, need, strict=True):
            counts[value] += step
            if not counts[value]:
                del counts[value]

    def starves(self, demand: tuple[int, int]) -> bool:
        """`Starvation.starves` for the current ranges and waits, holding `demand` cores."""
        cores = self.starvation.cores
        return any(counts and max(counts) + held > limit
                   for counts, held, limit in zip(self.counts, demand, cores, strict=True))
