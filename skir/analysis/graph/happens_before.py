"""Happens-before: the transitive closure of a `TaskGraph`, answered in O(1) per query.

Streams are chains, so a node's set of predecessors is summarised by one number per
stream: the last position on that stream that happens before it (a vector clock).
Clocks only change at *join* nodes (nodes with an incoming cross edge), so a row is
stored per join node and every other node reads the row of the last join node at or
before it on its stream. Building costs O(V + E·S) for S streams; a query is two array
reads.

```python
hb = HappensBefore(TaskGraph(model))
hb.before(a, b)   # True when task a happens before task b
hb.order          # a topological order of the tasks
```
"""

from __future__ import annotations

import heapq
from collections import deque

import numpy as np

from skir.analysis.graph.task_graph import TaskGraph
from skir.errors import TaskVerifyException


class HappensBefore:
    """Reachability over a task graph; raises `TaskVerifyException` on a cycle."""

    _desc: tuple[np.ndarray, np.ndarray] | None
    _seq_order: list[int] | None
    _seq_rank: list[int] | None
    _lengths: np.ndarray

    def __init__(self, graph: TaskGraph | object):
        """`graph`: a `TaskGraph`, or an `aclgraph.model` / a module holding one (its graph is built)."""
        if not isinstance(graph, TaskGraph):
            graph = TaskGraph(graph)  # type: ignore[arg-type]  # raises a TypeError for anything else
        self.graph = graph
        self.order = self._topological_order()
        self._build_clocks()

    # ---- queries ---------------------------------------------------------------------

    def before(self, a: int, b: int) -> bool:
        """Strict happens-before between tasks (node ids) `a` and `b`."""
        g = self.graph
        sa = g.stream_of[a]
        if sa == g.stream_of[b]:
            return g.pos[a] < g.pos[b]
        row = self.join_row[b]
        return row >= 0 and int(self.rows[row, sa]) >= g.pos[a]

    def ordered(self, a: int, b: int) -> bool:
        """Whether `a` and `b` are ordered either way (or equal)."""
        return a == b or self.before(a, b) or self.before(b, a)

    def clock(self, n: int) -> np.ndarray:
        """For each stream, the last position that happens before or at node `n` (-1: none)."""
        g = self.graph
        row = self.join_row[n]
        out = self.rows[row].copy() if row >= 0 else np.full(len(g.streams), -1, dtype=np.int64)
        out[g.stream_of[n]] = g.pos[n]
        return out

    @property
    def seq_order(self) -> list[int]:
        """The topological order of happens-before that takes the lowest seq among the ready
        tasks (formation visits candidates in it, docs/design.md §3): seq where it agrees with
        hb, moved only where a wait was captured before the record it waits for."""
        if self._seq_order is None:
            self._seq_order = _lowest_seq_first(self.graph)
        return self._seq_order

    @property
    def seq_rank(self) -> list[int]:
        """Each task's index in `seq_order`."""
        if self._seq_rank is None:
            rank = [0] * len(self.graph)
            for i, n in enumerate(self.seq_order):
                rank[n] = i
            self._seq_rank = rank
        return self._seq_rank

    def first_after(self, n: int) -> np.ndarray:
        """For each stream, the first position that happens after or at node `n` (stream length: none)."""
        g = self.graph
        if self._desc is None:
            self._desc = self._descendant_clocks()
        rows, join_row = self._desc
        lengths = self._lengths
        row = join_row[n]
        rev = rows[row].copy() if row >= 0 else np.full(len(g.streams), -1, dtype=np.int64)
        rev[g.stream_of[n]] = lengths[g.stream_of[n]] - 1 - g.pos[n]
        after: np.ndarray = lengths - 1 - rev
        return after

    # ---- construction ----------------------------------------------------------------

    def _topological_order(self) -> list[int]:
        g = self.graph
        n_nodes = len(g)
        indegree = [0 if p == 0 else 1 for p in g.pos]
        for b, preds in g.cross_pred.items():
            indegree[b] += len(preds)
        ready = deque(n for n in range(n_nodes) if indegree[n] == 0)
        order: list[int] = []
        stream_end = [g.start[s + 1] for s in g.stream_of] if n_nodes else []
        cross_succ = g.cross_succ
        while ready:
            n = ready.popleft()
            order.append(n)
            m = n + 1
            if m < stream_end[n]:
                indegree[m] -= 1
                if indegree[m] == 0:
                    ready.append(m)
            for m in cross_succ.get(n, ()):
                indegree[m] -= 1
                if indegree[m] == 0:
                    ready.append(m)
        if len(order) != n_nodes:
            self._raise_cycle(set(range(n_nodes)) - set(order))
        return order

    def _raise_cycle(self, stuck: set[int]) -> None:
        g = self.graph
        start = min(stuck, key=g.seq.__getitem__)
        path: list[int] = []
        index: dict[int, int] = {}
        n = start
        while n not in index:
            index[n] = len(path)
            path.append(n)
            preds = [m for m in g.cross_pred.get(n, ()) if m in stuck]
            if g.pos[n] > 0 and n - 1 in stuck:
                preds.append(n - 1)
            n = min(preds, key=g.seq.__getitem__)
        cycle = list(reversed(path[index[n] :]))
        first = cycle.index(min(cycle, key=g.seq.__getitem__))
        cycle = cycle[first:] + cycle[:first]
        names = " -> ".join(g.name(m) for m in [*cycle, cycle[0]])
        active = next((m for i, m in enumerate(cycle) if m in g.activates
                       and cycle[(i + 1) % len(cycle)] == g.start[g.activates[m]]), None)
        if active is not None:
            raise TaskVerifyException(
                g.ops[active],
                f"{g.name(active)}: stream_active closes a happens-before cycle: {names}; the stream it "
                "activates must not lead back to it",
            )
        raise TaskVerifyException(
            g.ops[cycle[0]],
            f"happens-before cycle: {names}; an event or value wait depends on a task that comes "
            "after it",
        )

    def _build_clocks(self) -> None:
        g = self.graph
        lists = [list(g.stream_nodes(s)) for s in range(len(g.streams))]
        self.rows, self.join_row = _vector_clocks(lists, self.order, g.cross_pred, len(g))
        self._desc = None
        self._seq_order = None
        self._seq_rank = None
        self._lengths = np.array([len(nodes) for nodes in lists], dtype=np.int64)

    def _descendant_clocks(self) -> tuple[np.ndarray, np.ndarray]:
        """The same clocks on the reversed graph: positions count from the end of each stream."""
        g = self.graph
        lists = [list(reversed(g.stream_nodes(s))) for s in range(len(g.streams))]
        return _vector_clocks(lists, self.order[::-1], g.cross_succ, len(g))


def _lowest_seq_first(g: TaskGraph) -> list[int]:
    """Kahn's algorithm with the ready tasks in a heap keyed by seq. A task is ready only when
    its stream predecessor is done, so the heap holds at most one task per stream."""
    indegree = [0 if p == 0 else 1 for p in g.pos]
    for b, preds in g.cross_pred.items():
        indegree[b] += len(preds)
    seq = g.seq
    ready = [(seq[n], n) for n in range(len(g)) if indegree[n] == 0]
    heapq.heapify(ready)
    stream_end = [g.start[s + 1] for s in g.stream_of]
    cross_succ = g.cross_succ
    order: list[int] = []
    while ready:
        _, n = heapq.heappop(ready)
        order.append(n)
        m = n + 1
        if m < stream_end[n]:
            indegree[m] -= 1
            if indegree[m] == 0:
                heapq.heappush(ready, (seq[m], m))
        for m in cross_succ.get(n, ()):
            indegree[m] -= 1
            if indegree[m] == 0:
                heapq.heappush(ready, (seq[m], m))
    return order


def _vector_clocks(
    streams: list[list[int]], order: list[int], cross_pred: dict[int, list[int]], n_nodes: int
) -> tuple[np.ndarray, np.ndarray]:
    """Clock rows of the join nodes and, per node, the row of the last join at or before it.

    `streams` lists each stream's nodes in chain order, `order` is a topological order of
    that orientation and `cross_pred` its cross edges (node -> predecessors). A row holds,
    per stream, the last chain position that reaches the join node (-1: none).
    """
    stream_of = np.empty(n_nodes, dtype=np.int64)
    pos = np.empty(n_nodes, dtype=np.int64)
    for s, nodes in enumerate(streams):
        for i, n in enumerate(nodes):
            stream_of[n] = s
            pos[n] = i
    joins = [n for n in order if n in cross_pred]
    row_index = {n: i for i, n in enumerate(joins)}
    rows = np.full((len(joins), len(streams)), -1, dtype=np.int64)
    join_row = np.full(n_nodes, -1, dtype=np.int64)
    prev_of: dict[int, int] = {}
    for nodes in streams:
        last = -1
        prev = -1
        for n in nodes:
            if n in row_index:
                prev_of[n] = prev
            last = row_index.get(n, last)
            join_row[n] = last
            prev = n
    for n in joins:
        row = rows[row_index[n]]
        prev = prev_of[n]
        if prev >= 0 and (pr := join_row[prev]) >= 0:
            row[:] = rows[pr]
        for p in cross_pred[n]:
            if (pr := join_row[p]) >= 0:
                np.maximum(row, rows[pr], out=row)
            sp = stream_of[p]
            if row[sp] < pos[p]:
                row[sp] = pos[p]
        row[stream_of[n]] = pos[n]
    return rows, join_row
