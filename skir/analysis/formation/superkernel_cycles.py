"""SuperKernels that would wait on each other (docs/design.md §3 formation, `deadlock`).

Each SuperKernel is convex, but two of them can still be ordered both ways: with label groups
formed apart, SuperKernel A may hold `s0: 10..12` and `s2: 47` while B holds `s0: 16` and
`s2: 26, 29`. Stream order puts A before B on s0 and B before A on s2, so A's launch would wait
for s2 to reach 47, which waits for B, which launches on s0 after A: a deadlock. Contracting
each SuperKernel's ranges into one node, the task graph must stay acyclic, and no wait of an
event recorded more than once may come before every record of its epoch (whichever record
fires first releases it: the task graph has no edge for such a wait, so it is checked apart).

Formation drops, until no cycle is left, the SuperKernel formed last on one (`cycle_victims`,
all the drops at once), then those that the or-wait check names, one at a time:

```python
victims = cycle_victims(graph, [sk.ranges for sk in formed], [sk.seqs[0] for sk in formed])
victim = superkernel_on_cycle(graph, [sk.ranges for sk in kept], [sk.seqs[0] for sk in kept])
```
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

import numpy as np

from skir.analysis.graph.strong_parts import strong_parts
from skir.analysis.graph.task_graph import TaskGraph


def superkernel_on_cycle(graph: TaskGraph, ranges: Sequence[dict[int, tuple[int, int]]],
                         order: Sequence[int]) -> int | None:
    """The index of a SuperKernel on a cycle of the graph with every SuperKernel's ranges
    contracted (the one with the highest `order` there), or between a wait of a multi-record
    epoch and its records when all of them would follow it; None when neither happens. One
    topological sort and, on what it cannot order, one strongly-connected-parts pass, O(V + E);
    and, from each wait of a multi-record epoch that the sort puts before all its records, a
    search bounded by the last of them in that order. Once the searches have cost
    `SEARCH_BUDGET` times the graph, vector clocks of the contracted graph (O((V + E)·Q) over
    the Q streams of such waits) leave a search only to the waits whose records would all
    follow them."""
    n_tasks = len(graph)
    node, succ = _contract(graph, ranges)
    stuck, sorted_nodes = _unsorted(set(node), succ)
    if stuck:
        return _latest(set().union(*strong_parts(stuck, succ)), n_tasks, order)
    rank = {v: i for i, v in enumerate(sorted_nodes)}
    queries: list[tuple[int, set[int], int]] = []
    for epoch in graph.epochs:
        if len(epoch.records) < 2 or epoch.external:
            continue
        records = {node[r] for r in epoch.records}
        first, last = min(rank[r] for r in records), max(rank[r] for r in records)
        for w in epoch.waits:
            if node[w] in records or rank[node[w]] > first:
                continue  # inside one SuperKernel (formation's own rule), or a record it cannot reach
            queries.append((w, records, last))
    needed: list[bool] | None = None
    budget = SEARCH_BUDGET * (len(sorted_nodes) + sum(len(b) for b in succ.values()))
    for i, (w, records, last) in enumerate(queries):
        if needed is None and budget < 0:
            needed = [True] * i + _reach_all(graph, node, succ, sorted_nodes, ranges,
                                             [(w, records) for w, records, _ in queries[i:]])
        if needed is not None and not needed[i]:
            continue
        reach = _reachable({node[w]}, succ, _within(rank, last))
        budget -= len(reach)
        if records <= reach:  # every record would come after the wait
            back: dict[int, set[int]] = {}
            for a in reach:
                for b in succ.get(a, ()):
                    back.setdefault(b, set()).add(a)
            between = reach & _reachable(records, back)
            victim = _latest(between, n_tasks, order)
            if victim is not None:
                return victim
    return None


def cycle_victims(graph: TaskGraph, ranges: Sequence[dict[int, tuple[int, int]]], order: Sequence[int]) -> list[int]:
    """The SuperKernels to drop, in order, until no cycle is left in the graph with every
    SuperKernel's ranges contracted: each time the one with the highest `order` on a cycle,
    as `superkernel_on_cycle` would name it on what is left (whose or-wait part this leaves
    out). Dropping one changes only the strongly connected part it was on: a cycle elsewhere
    never ran through it. So each drop looks at that part alone, with the dropped one's tasks
    back as nodes of their own: O(V + E) once, then per drop the tasks of its part, where
    asking again after each drop cost the whole graph each time."""
    n_tasks = len(graph)
    node, succ = _contract(graph, ranges)
    stuck, _ = _unsorted(set(node), succ)
    heap: list[tuple[int, int, set[int]]] = []

    def push(parts: list[set[int]]) -> None:
        for part in parts:
            best = _latest(part, n_tasks, order)
            if best is not None:  # (a cycle always holds one: the task graph has none)
                heapq.heappush(heap, (-order[best], best, part))

    def tasks_of(v: int) -> list[int]:
        if v < n_tasks:
            return [v]
        return [t for first, last in ranges[v - n_tasks].values() for t in range(first, last + 1)]

    push(strong_parts(stuck, succ))
    victims: list[int] = []
    while heap:
        _, victim, part = heapq.heappop(heap)
        victims.append(victim)
        freed = tasks_of(n_tasks + victim)
        for t in freed:
            node[t] = t
        left = (part - {n_tasks + victim}) | set(freed)
        edges: dict[int, set[int]] = {}
        for a in left:
            for t in tasks_of(a):
                targets = graph.cross_succ.get(t, ())
                nxt = graph.next_on_stream(t)
                for m in (*targets, nxt) if nxt is not None else targets:
                    b = node[m]
                    if b != a and b in left:
                        edges.setdefault(a, set()).add(b)
        push(strong_parts(left, edges))
    return victims


SEARCH_BUDGET = 4
"""The or-wait searches may visit this many times the contracted graph's nodes and edges;
past that, vector clocks of the contracted graph say which waits need one."""


CLOCK_COLUMNS = 256
"""Streams per pass of `_reach_all`: its clocks hold nodes x this many positions at most."""


def _reach_all(graph: TaskGraph, node: list[int], succ: dict[int, set[int]], sorted_nodes: list[int],
               ranges: Sequence[dict[int, tuple[int, int]]], queries: list[tuple[int, set[int]]]) -> list[bool]:
    """For each (wait, nodes), whether the wait's node reaches every one of the nodes (none of
    them its own) in the graph with every SuperKernel contracted. Vector clocks over the
    streams a wait's node starts on: per node, the last position on each such stream of a node
    that reaches it or is it; a task node reaches what holds its position or a later one of
    its stream, a SuperKernel what holds the first position of one of its ranges or a later one.
    O((V + E)·Q) for Q such streams, `CLOCK_COLUMNS` of them per pass."""
    n_tasks = len(graph)

    def starts(w: int) -> list[tuple[int, int]]:
        v = node[w]
        if v < n_tasks:
            return [(graph.stream_of[w], graph.pos[w])]
        return [(u, graph.pos[first]) for u, (first, _) in ranges[v - n_tasks].items()]

    def ends(v: int) -> list[tuple[int, int]]:
        if v < n_tasks:
            return [(graph.stream_of[v], graph.pos[v])]
        return [(u, graph.pos[last]) for u, (_, last) in ranges[v - n_tasks].items()]

    row = {v: i for i, v in enumerate(sorted_nodes)}
    preds: dict[int, list[int]] = {}
    for a, targets in succ.items():
        for b in targets:
            preds.setdefault(row[b], []).append(row[a])
    own = [ends(v) for v in sorted_nodes]
    begin = [starts(w) for w, _ in queries]
    reached: list[set[int]] = [set() for _ in queries]
    streams = sorted({u for pairs in begin for u, _ in pairs})
    for lo in range(0, len(streams), CLOCK_COLUMNS):
        column = {u: c for c, u in enumerate(streams[lo:lo + CLOCK_COLUMNS])}
        clock = np.full((len(sorted_nodes), len(column)), -1, dtype=np.int64)
        for i in range(len(sorted_nodes)):
            if i in preds:
                clock[i] = clock[preds[i]].max(axis=0)
            for u, p in own[i]:
                if u in column:
                    clock[i, column[u]] = p
        for q, (_, targets) in enumerate(queries):
            mine = [(column[u], p) for u, p in begin[q] if u in column]
            if mine:
                reached[q].update(t for t in targets - reached[q] if any(clock[row[t], c] >= p for c, p in mine))
    return [len(reached[q]) == len(targets) for q, (_, targets) in enumerate(queries)]


def _contract(graph: TaskGraph, ranges: Sequence[dict[int, tuple[int, int]]]) -> tuple[list[int], dict[int, set[int]]]:
    """Each task's node (itself, or `len(graph) + k` inside SuperKernel k's ranges) and the
    successors of each node."""
    n_tasks = len(graph)
    node = list(range(n_tasks))
    for k, by_stream in enumerate(ranges):
        for first, last in by_stream.values():
            for n in range(first, last + 1):
                node[n] = n_tasks + k
    succ: dict[int, set[int]] = {}
    for n in range(n_tasks):
        targets = list(graph.cross_succ.get(n, ()))
        nxt = graph.next_on_stream(n)
        if nxt is not None:
            targets.append(nxt)
        for m in targets:
            a, b = node[n], node[m]
            if a != b:
                succ.setdefault(a, set()).add(b)
    return node, succ


def _latest(nodes: set[int], n_tasks: int, order: Sequence[int]) -> int | None:
    """The SuperKernel among `nodes` with the highest `order`."""
    candidates = [v - n_tasks for v in nodes if v >= n_tasks]
    return max(candidates, key=order.__getitem__) if candidates else None


def _reachable(start: set[int], succ: dict[int, set[int]],
               keep: Callable[[int], bool] = lambda _v: True) -> set[int]:
    """What `start` reaches over `succ`, entering only nodes `keep` accepts."""
    seen = set(start)
    todo = list(start)
    while todo:
        for b in succ.get(todo.pop(), ()):
            if b not in seen and keep(b):
                seen.add(b)
                todo.append(b)
    return seen


def _unsorted(nodes: set[int], succ: dict[int, set[int]]) -> tuple[set[int], list[int]]:
    """The nodes Kahn's algorithm cannot order (those on or after a cycle), and the order it
    gives the others."""
    indegree = dict.fromkeys(nodes, 0)
    for a in nodes:
        for b in succ.get(a, ()):
            if b in indegree:
                indegree[b] += 1
    ready = [v for v, d in indegree.items() if d == 0]
    done: list[int] = []
    while ready:
        v = ready.pop()
        done.append(v)
        for b in succ.get(v, ()):
            if b in indegree:
                indegree[b] -= 1
                if indegree[b] == 0:
                    ready.append(b)
    return {v for v, d in indegree.items() if d > 0}, done


def _within(rank: dict[int, int], last: int) -> Callable[[int], bool]:
    """The test of `_reachable`: a node ranked no later than `last`."""
    return lambda v: rank[v] <= last
