"""Strongly connected parts of a directed graph (Tarjan's algorithm, without recursion).

O(V + E). `skir.analysis.formation.superkernel_cycles` finds with it the SuperKernels on a cycle of the
contracted task graph.

```python
strong_parts({1, 2, 3}, {1: {2}, 2: {1, 3}})   # [{1, 2}]
```
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import TypeVar

H = TypeVar("H", bound=Hashable)


def strong_parts(nodes: AbstractSet[H], succ: Mapping[H, Iterable[H]]) -> list[set[H]]:
    """The strongly connected parts of more than one node among `nodes`, over the edges
    `succ` between them (an edge to a node outside `nodes` is left out; `nodes` is a set, as
    membership is asked per edge)."""
    index: dict[H, int] = {}
    low: dict[H, int] = {}
    stack: list[H] = []
    on_stack: set[H] = set()
    parts: list[set[H]] = []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work: list[tuple[H, Iterator[H]]] = [(root, iter(succ.get(root, ())))]
        while work:
            v, children = work[-1]
            for w in children:
                if w not in nodes:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] == index[v]:
                    part: set[H] = set()
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        part.add(w)
                        if w == v:
                            break
                    if len(part) > 1:
                        parts.append(part)
    return parts
