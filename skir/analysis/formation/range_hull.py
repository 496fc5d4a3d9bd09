"""The convex hull of a SuperKernel's ranges, kept incrementally as members join (docs/design.md
§3 `non_convex`).

A SuperKernel's range set must be convex under happens-before: a task before a range on its
stream that is hb-after the set, or after a range that is hb-before the set, must join the
range (only event tasks and spare slots of the same run can); a task on another stream that is
both after and before the set makes it non-convex (`isolated_event` when the path runs only
through event tasks of the scope there).

`RangeHull` keeps two vectors over the streams: `anc[u]`, the last position on stream `u` that
happens before some range end, and `desc[u]`, the first position on `u` that happens after some
range start. Both only grow (shrink) as ranges extend, since hb clocks are monotone along a
stream, so a new member or an extension costs one vector maximum (minimum), and the tests run
as numpy comparisons over the streams: the cost per candidate is linear in the streams with a
small constant, never in streams x ranges.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from skir.analysis.formation.fail_reasons import FailReason
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph

Ranges = dict[int, tuple[int, int]]


def in_ranges(graph: TaskGraph, ranges: Ranges, n: int) -> bool:
    """Whether node `n` lies in the range of its stream."""
    span = ranges.get(graph.stream_of[n])
    return span is not None and span[0] <= n <= span[1]


@dataclass
class RangeHull:
    """Ranges (stream -> (first, last) node) with their aggregated hb vectors."""

    ranges: Ranges
    anc: np.ndarray
    desc: np.ndarray
    lo_pos: np.ndarray
    """Per stream the range's first position (-1: no range there)."""
    hi_pos: np.ndarray

    @classmethod
    def of(cls, graph: TaskGraph, hb: HappensBefore, node: int) -> RangeHull:
        n_streams = len(graph.streams)
        lo = np.full(n_streams, -1, dtype=np.int64)
        hi = np.full(n_streams, -1, dtype=np.int64)
        s, p = graph.stream_of[node], graph.pos[node]
        lo[s] = hi[s] = p
        return cls({s: (node, node)}, hb.clock(node), hb.first_after(node), lo, hi)

    def after_all(self, clock: np.ndarray) -> bool:
        """Whether a task with hb `clock` happens after every range's last task."""
        inside = self.lo_pos >= 0
        return bool((clock[inside] >= self.hi_pos[inside]).all())


class HullBuilder:
    """Extends hulls for one model's formation; `absorbable(first, stop, anchor)` says whether
    nodes first..stop-1 may join the range of `anchor`, `isolated(first, last, label)` whether
    the path through nodes first..last of one stream runs only through event tasks of scope
    `label`."""

    def __init__(self, graph: TaskGraph, hb: HappensBefore, absorbable: Callable[[int, int, int], bool],
                 isolated: Callable[[int, int, Any], bool]):
        self.graph, self.hb = graph, hb
        self.absorbable, self.isolated = absorbable, isolated

    def extend(self, hull: RangeHull, node: int, label: Any) -> tuple[FailReason | None, RangeHull, set[int]]:
        """The hull with `node` added and closed to a convex set, the streams whose range changed;
        or the reason that is impossible (the input hull is never modified)."""
        g, hb = self.graph, self.hb
        s, p = g.stream_of[node], g.pos[node]
        ranges = dict(hull.ranges)
        lo_pos, hi_pos = hull.lo_pos.copy(), hull.hi_pos.copy()
        anc = np.maximum(hull.anc, hb.clock(node))
        desc = hull.desc
        if s in ranges:
            ranges[s] = (ranges[s][0], node)
            hi_pos[s] = p
        else:
            ranges[s] = (node, node)
            lo_pos[s] = hi_pos[s] = p
            desc = np.minimum(desc, hb.first_after(node))
        changed = {s}
        while True:
            inside = lo_pos >= 0
            outside_bad = ~inside & (desc <= anc)
            grow_lo = inside & (desc < lo_pos)
            grow_hi = inside & (anc > hi_pos)
            flagged = np.flatnonzero(outside_bad | grow_lo | grow_hi)
            if not len(flagged):
                return None, RangeHull(ranges, anc, desc, lo_pos, hi_pos), changed
            new_ends: list[int] = []
            for u in flagged.tolist():
                if outside_bad[u]:
                    first, last = g.start[u] + int(desc[u]), g.start[u] + int(anc[u])
                    return (FailReason.ISOLATED_EVENT if self.isolated(first, last, label) else FailReason.NON_CONVEX,
                            hull, changed)
                lo, hi = ranges[u]
                if grow_lo[u]:
                    new_lo = g.start[u] + int(desc[u])
                    if not self.absorbable(new_lo, lo, lo):
                        return FailReason.NON_CONVEX, hull, changed
                    lo = new_lo
                    lo_pos[u] = desc[u]
                    new_ends.append(-1 - lo)
                if grow_hi[u]:
                    new_hi = g.start[u] + int(anc[u])
                    if not self.absorbable(hi + 1, new_hi + 1, hi):
                        return FailReason.NON_CONVEX, hull, changed
                    hi = new_hi
                    hi_pos[u] = anc[u]
                    new_ends.append(hi)
                ranges[u] = (lo, hi)
                changed.add(u)
            for end in new_ends:  # the next round sees the whole round's extensions, as one closure step
                if end >= 0:
                    anc = np.maximum(anc, hb.clock(end))
                else:
                    desc = np.minimum(desc, hb.first_after(-1 - end))
