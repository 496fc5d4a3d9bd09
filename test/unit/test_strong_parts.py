"""Strongly connected parts against reachability both ways, computed by a search per node."""

from __future__ import annotations

import random

from skir.analysis.graph.strong_parts import strong_parts


def _by_search(n: int, succ: dict[int, set[int]]) -> set[frozenset[int]]:
    reach = []
    for v in range(n):
        seen, todo = {v}, [v]
        while todo:
            for w in succ.get(todo.pop(), ()):
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        reach.append(seen)
    parts = {frozenset(w for w in range(n) if w in reach[v] and v in reach[w]) for v in range(n)}
    return {p for p in parts if len(p) > 1}


def test_random_graphs() -> None:
    rng = random.Random(2)
    found = 0
    for _ in range(300):
        n = rng.randint(0, 30)
        succ = {v: {rng.randrange(n) for _ in range(rng.randint(0, 3))} - {v} for v in range(n)} if n else {}
        parts = strong_parts(set(range(n)), succ)
        assert {frozenset(p) for p in parts} == _by_search(n, succ)
        assert len(parts) == len({frozenset(p) for p in parts})
        found += len(parts)
    assert found


def test_edges_leaving_the_nodes_are_left_out() -> None:
    succ = {1: {2}, 2: {3}, 3: {1}}
    assert strong_parts({1, 2, 3}, succ) == [{1, 2, 3}]
    assert strong_parts({1, 2}, succ) == []
    assert strong_parts({"a", "b"}, {"a": ["b"], "b": ["a"]}) == [{"a", "b"}]
