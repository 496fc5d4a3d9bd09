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

from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph


def member_order(graph: TaskGraph, hb: HappensBefore, members: list[int]) -> list[int]:
    """`members` (node ids) in the lowest-seq-first topological order of happens-before."""
    rank = hb.seq_rank
    return sorted(members, key=rank.__getitem__)


class MemberIndex:
    """Members by stream, for vectorised questions over every member stream at once: the last
    member at or before a position, the first at or after one (numpy, one flat array each)."""

    def __init__(self, graph: TaskGraph, members: list[int]):
        by_stream: dict[int, list[int]] = defaultdict(list)
        for m in sorted(members):  # node ids run along each stream
            by_stream[graph.stream_of[m]].append(m)
        self.streams = sorted(by_stream)
        self.by_stream = by_stream
        self.column_of = {t: i for i, t in enumerate(self.streams)}
        offsets, firsts, lasts, before, after, start = [], [], [], [], [], 0
        for t in self.streams:
            ms = by_stream[t]
            first, last_pos = graph.pos[ms[0]], graph.pos[ms[-1]]
            at = np.full(last_pos - first + 1, -1, dtype=np.int64)
            nxt = np.full(last_pos - first + 1, np.iinfo(np.int64).max, dtype=np.int64)
            for m in ms:
                at[graph.pos[m] - first] = m
                nxt[graph.pos[m] - first] = m
            before.append(np.maximum.accumulate(at))
            after.append(np.minimum.accumulate(nxt[::-1])[::-1])
            offsets.append(start)
            firsts.append(first)
            lasts.append(last_pos)
            start += len(at)
        self.columns = np.array(self.streams, dtype=np.int64)
        self.offset = np.array(offsets, dtype=np.int64)
        self.first_pos = np.array(firsts, dtype=np.int64)
        self.last_pos = np.array(lasts, dtype=np.int64)
        self.before = np.concatenate(before)
        self.after = np.concatenate(after)

    def last_at_or_before(self, positions: np.ndarray) -> np.ndarray:
        """Per member stream (in `streams` order), the last member at or before the given
        position of that stream (`positions` per member stream), -1 for none."""
        known = positions >= self.first_pos
        out = np.full(len(self.streams), -1, dtype=np.int64)
        at = np.minimum(positions, self.last_pos)[known] - self.first_pos[known]
        out[known] = self.before[self.offset[known] + at]
        return out

    def first_at_or_after(self, positions: np.ndarray) -> np.ndarray:
        """Per member stream, the first member at or after the given position, -1 for none."""
        known = positions <= self.last_pos
        out = np.full(len(self.streams), -1, dtype=np.int64)
        at = np.maximum(positions, self.first_pos)[known] - self.first_pos[known]
        out[known] = self.after[self.offset[known] + at]
        return out

    def last_before(self, clock: np.ndarray, stream: int) -> list[int]:
        """The last member of each member stream that happens before a task of `stream` whose
        hb clock (over every stream) is `clock`: at or before its clock entry there, strictly
        before the task on its own stream."""
        positions = clock[self.columns]
        if stream in self.column_of:
            positions[self.column_of[stream]] -= 1
        found = self.last_at_or_before(positions)
        return [int(m) for m in found[found >= 0]]

    def first_after(self, first: np.ndarray, stream: int) -> list[int]:
        """The first member of each member stream that happens after a task of `stream` whose
        `HappensBefore.first_after` vector is `first` (strictly after it on its own stream)."""
        positions = first[self.columns]
        if stream in self.column_of:
            positions[self.column_of[stream]] += 1
        found = self.first_at_or_after(positions)
        return [int(m) for m in found[found >= 0]]


def member_deps(graph: TaskGraph, hb: HappensBefore, order: list[int]) -> dict[int, list[int]]:
    """For each member, the last member of each stream that happens before it."""
    index = MemberIndex(graph, order)
    rank = hb.seq_rank
    deps: dict[int, list[int]] = {}
    for m in order:
        deps[m] = sorted(index.last_before(hb.clock(m), graph.stream_of[m]), key=rank.__getitem__)
    return deps
