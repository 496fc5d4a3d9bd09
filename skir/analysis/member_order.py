"""The order of a SuperKernel's members and their direct dependencies.

Members run in seq order, moved only where a happens-before edge disagrees with seq (a
topological order that keeps stream order). A member's direct dependencies are, for each
stream, the last member there that happens before it; their transitive closure is
happens-before restricted to the members.
"""

from __future__ import annotations

import bisect
from collections import defaultdict

from skir.analysis.happens_before import HappensBefore
from skir.analysis.task_graph import TaskGraph


def member_order(graph: TaskGraph, hb: HappensBefore, members: list[int]) -> list[int]:
    """`members` (node ids) in a topological order of happens-before, seq order where free."""
    by_stream: dict[int, list[int]] = defaultdict(list)
    for m in sorted(members, key=graph.pos.__getitem__):
        by_stream[graph.stream_of[m]].append(m)
    heads = {s: 0 for s in by_stream}
    out: list[int] = []
    while len(out) < len(members):
        ready = []
        for s, i in heads.items():
            if i < len(by_stream[s]):
                m = by_stream[s][i]
                clock = hb.clock(m)
                if all(
                    t == s or heads[t] >= len(by_stream[t]) or clock[t] < graph.pos[by_stream[t][heads[t]]]
                    for t in by_stream
                ):
                    ready.append(m)
        m = min(ready, key=graph.seq.__getitem__)
        out.append(m)
        heads[graph.stream_of[m]] += 1
    return out


def member_deps(graph: TaskGraph, hb: HappensBefore, order: list[int]) -> dict[int, list[int]]:
    """For each member, the last member of each stream that happens before it."""
    by_stream: dict[int, list[int]] = defaultdict(list)
    for m in sorted(order, key=graph.pos.__getitem__):
        by_stream[graph.stream_of[m]].append(m)
    positions = {t: [graph.pos[m] for m in ms] for t, ms in by_stream.items()}
    deps: dict[int, list[int]] = {}
    for m in order:
        clock = hb.clock(m)
        found = []
        for t, ms in by_stream.items():
            last = clock[t] - 1 if t == graph.stream_of[m] else clock[t]
            i = bisect.bisect_right(positions[t], last)
            if i:
                found.append(ms[i - 1])
        deps[m] = found
    return deps
