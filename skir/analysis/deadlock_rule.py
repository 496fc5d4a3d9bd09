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

import numpy as np

from skir.analysis.happens_before import HappensBefore
from skir.analysis.range_hull import Ranges, in_ranges
from skir.analysis.range_max import RangeMax
from skir.analysis.task_graph import TaskGraph


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
        g, hb = self.graph, self.hb
        boundary = [r for r in (g.epoch_of[w].records[0] for w in waits) if not in_ranges(g, ranges, r)]
        if not boundary:
            return False
        launch_ancestors = np.full(len(g.streams), -1, dtype=np.int64)
        for t, (lo, _) in ranges.items():
            launch_ancestors[t] = max(launch_ancestors[t], g.pos[lo] - 1)
            if (prev := g.prev_on_stream(lo)) is not None:
                np.maximum(launch_ancestors, hb.clock(prev), out=launch_ancestors)
        sk_aic, sk_aiv = demand
        for record in boundary:
            reach = hb.clock(record)
            need_aic = need_aiv = 0
            for u in range(len(g.streams)):
                lo_pos, hi_pos = int(launch_ancestors[u]) + 1, int(reach[u])
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
            if sk_aic + need_aic > self.cores[0] or sk_aiv + need_aiv > self.cores[1]:
                return True
        return False
