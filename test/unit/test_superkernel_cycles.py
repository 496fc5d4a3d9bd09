"""Two SuperKernels ordered both ways are a cycle once each is contracted to one node."""

from __future__ import annotations

import random

import skir
from skir.analysis.formation.superkernel_cycles import cycle_victims, superkernel_on_cycle
from skir.analysis.graph.task_graph import TaskGraph
from skir.testing import random_model


def _graph() -> TaskGraph:
    kernel = {"type": "kernel", "kernel": "v", "blocks": 4, "args": ["a", "b"]}
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}},
            "streams": [{"name": "s0", "tasks": [{**kernel, "seq": 0}, {**kernel, "seq": 1}]},
                        {"name": "s1", "tasks": [{**kernel, "seq": 2}, {**kernel, "seq": 3}]}]}
    return TaskGraph(skir.load_model(data))


def test_ordered_both_ways_is_a_cycle() -> None:
    graph = _graph()  # nodes: s0 = 0, 1; s1 = 2, 3; only stream order
    first = {0: (0, 0), 1: (3, 3)}  # before the other on s0, after it on s1
    second = {0: (1, 1), 1: (2, 2)}
    assert superkernel_on_cycle(graph, [first, second], [0, 1]) == 1  # the one formed last
    assert superkernel_on_cycle(graph, [first, second], [5, 1]) == 0


def test_ordered_one_way_is_not() -> None:
    graph = _graph()
    assert superkernel_on_cycle(graph, [{0: (0, 0), 1: (2, 2)}, {0: (1, 1), 1: (3, 3)}], [0, 1]) is None
    assert superkernel_on_cycle(graph, [{0: (0, 1)}, {1: (2, 3)}], [0, 1]) is None
    assert superkernel_on_cycle(graph, [], []) is None


def test_a_wait_before_every_record_of_its_epoch() -> None:
    """An event recorded twice: s0 waits for it, then records it; s1 records it too. Under
    aclgraph s1's record releases the wait. A SuperKernel launched on s0 after the wait that
    holds s1's task before its record puts both records after the wait."""
    kernel = {"type": "kernel", "kernel": "v", "blocks": 4, "args": ["a", "b"]}
    record, wait = {"type": "event_record", "event": "e"}, {"type": "event_wait", "event": "e"}
    s0 = [{**kernel, "seq": 0}, {**wait, "seq": 5}, {**record, "seq": 6}, {**kernel, "seq": 7}]
    s1 = [{**kernel, "seq": 3}, {**record, "seq": 4}]
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}}, "events": ["e"],
            "streams": [{"name": "s0", "tasks": s0}, {"name": "s1", "tasks": s1}]}
    graph = TaskGraph(skir.load_model(data))  # s0 = 0..3 (1: the wait, 2: a record), s1 = 4, 5 (5: a record)
    assert superkernel_on_cycle(graph, [{0: (3, 3), 1: (4, 4)}], [0]) == 0
    assert superkernel_on_cycle(graph, [{0: (0, 0), 1: (4, 4)}], [0]) is None  # launched before the wait
    assert superkernel_on_cycle(graph, [{0: (3, 3)}], [0]) is None  # s1's record stays free


def _two_streams(n: int) -> TaskGraph:
    kernel = {"type": "kernel", "kernel": "v", "blocks": 4, "args": ["a", "b"]}
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}},
            "streams": [{"name": "s0", "tasks": [{**kernel, "seq": i} for i in range(n)]},
                        {"name": "s1", "tasks": [{**kernel, "seq": n + i} for i in range(n)]}]}
    return TaskGraph(skir.load_model(data))


def test_a_superkernel_between_two_cycles_stays() -> None:
    """s0 = nodes 0..5, s1 = 6..11. A and B cross (a cycle), D and E cross after them, and X
    sits between the two, after A and B on both streams and before D and E: on no cycle. X is
    formed last, yet the drops are E (the latest on a cycle), then B."""
    graph = _two_streams(6)
    a, b = {0: (0, 0), 1: (7, 7)}, {0: (1, 1), 1: (6, 6)}
    x = {0: (2, 2), 1: (8, 8)}
    d, e = {0: (3, 3), 1: (10, 10)}, {0: (4, 4), 1: (9, 9)}
    ranges, order = [a, b, x, d, e], [0, 1, 9, 3, 4]
    assert superkernel_on_cycle(graph, ranges, order) == 4
    assert cycle_victims(graph, ranges, order) == [4, 1]


def _on_cycles_by_search(graph: TaskGraph, ranges: list[dict[int, tuple[int, int]]], alive: list[int]) -> list[int]:
    """The alive SuperKernels whose contracted node reaches itself, by a search from each."""
    owner = {n: k for k in alive for first, last in ranges[k].values() for n in range(first, last + 1)}

    def node(n: int) -> tuple[str, int]:
        return ("sk", owner[n]) if n in owner else ("task", n)

    succ: dict[tuple[str, int], set[tuple[str, int]]] = {}
    for n in range(len(graph)):
        nxt = graph.next_on_stream(n)
        for m in [*graph.cross_succ.get(n, ()), *([nxt] if nxt is not None else [])]:
            if node(n) != node(m):
                succ.setdefault(node(n), set()).add(node(m))
    found = []
    for k in alive:
        seen, todo = set(), list(succ.get(("sk", k), ()))
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo.extend(succ.get(v, ()))
        if ("sk", k) in seen:
            found.append(k)
    return found


def test_cycle_victims_agree_with_dropping_one_at_a_time() -> None:
    """Random SuperKernels over random models: the victims are those of asking again after
    each drop, by a search from every SuperKernel (the latest on a cycle each time)."""
    rng = random.Random(5)
    checked = 0
    for seed in range(150):
        graph = TaskGraph(skir.load_model(random_model(random.Random(seed), max_streams=4, max_tasks=40)))
        for _ in range(4):
            ranges: list[dict[int, tuple[int, int]]] = []
            for s in range(len(graph.streams)):
                first, end = graph.start[s], graph.start[s + 1]
                cuts = sorted(rng.sample(range(first + 1, end), min(3, max(0, end - first - 1))))
                for k, (lo, hi) in enumerate(zip([first, *cuts], [*cuts, end], strict=True)):
                    if k >= len(ranges):
                        ranges.append({})
                    if rng.random() < 0.8:
                        ranges[rng.randrange(len(ranges))].setdefault(s, (lo, hi - 1))
            ranges = [r for r in ranges if r]
            order = rng.sample(range(100), len(ranges))
            alive, expected = list(range(len(ranges))), []
            while on_cycles := _on_cycles_by_search(graph, ranges, alive):
                victim = max(on_cycles, key=order.__getitem__)
                expected.append(victim)
                alive.remove(victim)
            assert cycle_victims(graph, ranges, order) == expected, seed
            checked += len(expected)
    assert checked > 20
