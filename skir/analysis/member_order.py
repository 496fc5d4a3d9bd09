"""The order of a SuperKernel's members and their direct dependencies.

Members run in a topological order of happens-before that takes the lowest seq first
(`HappensBefore.seq_order` restricted to them: seq order wherever hb agrees with it). A
member's direct dependencies are, for each member stream, the last member there that happens
before it; their transitive closure is happens-before restricted to the members.

Both are linear in the members and their streams: the order is a sort by the global order's
index; the dependencies read, for each member, its hb clock at the member streams and map each
position to the last member at or before it through one flat array (numpy, no Python loop
over streams).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from skir.analysis.happens_before import HappensBefore
from skir.analysis.task_graph import TaskGraph


def member_order(graph: TaskGraph, hb: HappensBefore, members: list[int]) -> list[int]:
    """`members` (node ids) in the lowest-seq-first topological order of happens-before."""
    rank = hb.seq_rank
    return sorted(members, key=rank.__getitem__)


def member_deps(graph: TaskGraph, hb: HappensBefore, order: list[int]) -> dict[int, list[int]]:
    """For each member, the last member of each stream that happens before it."""
    by_stream: dict[int, list[int]] = defaultdict(list)
    for m in sorted(order, key=graph.pos.__getitem__):
        by_stream[graph.stream_of[m]].append(m)
    streams = sorted(by_stream)
    # flat[offset[t] + p - first[t]] = the last member of stream t at or before position p, for p
    # from t's first member to its last (below: none; above: the last member)
    offsets, firsts, lasts, pieces, start = [], [], [], [], 0
    for t in streams:
        ms = by_stream[t]
        first, last_pos = graph.pos[ms[0]], graph.pos[ms[-1]]
        last = np.full(last_pos - first + 1, -1, dtype=np.int64)
        for m in ms:
            last[graph.pos[m] - first] = m
        pieces.append(np.maximum.accumulate(last))
        offsets.append(start)
        firsts.append(first)
        lasts.append(last_pos)
        start += len(last)
    flat = np.concatenate(pieces)
    offset = np.array(offsets, dtype=np.int64)
    first_pos = np.array(firsts, dtype=np.int64)
    last_pos = np.array(lasts, dtype=np.int64)
    columns = np.array(streams, dtype=np.int64)
    column_of = {t: i for i, t in enumerate(streams)}
    rank = hb.seq_rank
    deps: dict[int, list[int]] = {}
    for m in order:
        clock = hb.clock(m)[columns]
        clock[column_of[graph.stream_of[m]]] -= 1  # strictly before m on its own stream
        known = clock >= first_pos
        at = np.minimum(clock, last_pos)[known] - first_pos[known]
        found = flat[offset[known] + at]
        deps[m] = sorted((int(d) for d in found[found >= 0]), key=rank.__getitem__)
    return deps
