"""SuperKernels that would wait on each other (docs/design.md §3 formation, `deadlock`).

Each SuperKernel is convex, but two of them can still be ordered both ways: with label groups
formed apart, SuperKernel A may hold `s0: 10..12` and `s2: 47` while B holds `s0: 16` and
`s2: 26, 29`. Stream order puts A before B on s0 and B before A on s2, so A's launch would wait
for s2 to reach 47, which waits for B, which launches on s0 after A: a deadlock. Contracting
each SuperKernel's ranges into one node, the task graph must stay acyclic, and no wait of an
event recorded more than once may come before every record of its epoch (whichever record
fires first releases it: the task graph has no edge for such a wait, so it is checked apart).

```python
victim = superkernel_on_cycle(graph, [sk.ranges for sk in formed], [sk.seqs[0] for sk in formed])
```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from skir.analysis.task_graph import TaskGraph


def superkernel_on_cycle(graph: TaskGraph, ranges: Sequence[dict[int, tuple[int, int]]],
                         order: Sequence[int]) -> int | None:
    """The index of a SuperKernel on a cycle of the graph with every SuperKernel's ranges
    contracted (the one with the highest `order` there), or between a wait of a multi-record
    epoch and its records when all of them would follow it; None when neither happens. One
    topological sort forwards and one backwards over the part left, O(V + E), and, from each
    wait of a multi-record epoch that the sort puts before all its records, a search bounded
    by the last of them in that order."""
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
    nodes = set(node)
    stuck, sorted_nodes = _unsorted(nodes, succ)
    if stuck:
        pred: dict[int, set[int]] = {}
        for a in stuck:
            for b in succ.get(a, ()):
                if b in stuck:
                    pred.setdefault(b, set()).add(a)
        on_cycles, _ = _unsorted(stuck, pred)  # what both comes from a cycle and leads to one
        return _latest(on_cycles, n_tasks, order)
    rank = {v: i for i, v in enumerate(sorted_nodes)}
    for epoch in graph.epochs:
        if len(epoch.records) < 2 or epoch.external:
            continue
        records = {node[r] for r in epoch.records}
        first, last = min(rank[r] for r in records), max(rank[r] for r in records)
        for w in epoch.waits:
            if node[w] in records or rank[node[w]] > first:
                continue  # inside one SuperKernel (formation's own rule), or a record it cannot reach
            reach = _reachable({node[w]}, succ, lambda v, last=last: rank[v] <= last)
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
