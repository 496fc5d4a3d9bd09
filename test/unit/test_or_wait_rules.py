"""Waits of an event recorded more than once: formation's rule (`OrWaitRule`) and the cycle
check's searches (`superkernel_on_cycle`), each against a second way of answering."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import skir
import skir.analysis.formation.superkernel_cycles as cycles
from skir.analysis.formation.or_wait_rule import OrWaitRule
from skir.analysis.graph.task_graph import TaskGraph
from skir.testing import random_model

KERNEL = {"type": "kernel", "kernel": "v", "blocks": 4, "args": ["a", "b"]}
RECORD, WAIT = {"type": "event_record", "event": "e"}, {"type": "event_wait", "event": "e"}


def _capture(streams: list[list[dict[str, Any]]], events: list[str]) -> dict[str, Any]:
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}}, "events": events,
            "streams": [{"name": f"s{i}", "tasks": tasks} for i, tasks in enumerate(streams)]}


def test_two_streams_after_a_wait_of_their_records_do_not_fuse() -> None:
    """s0 waits for e, runs k1, records e; s1 runs k2, records e. Unordered, k1 and k2 could
    stream-fuse, but the launch would follow s0's wait and precede both records of e."""
    s0 = [{**WAIT, "seq": 2}, {**KERNEL, "seq": 3}, {**RECORD, "seq": 4}]
    s1 = [{**KERNEL, "seq": 0}, {**RECORD, "seq": 1}]
    result = skir.compile(_capture([s0, s1], ["e"]))
    assert not result.superkernels
    assert {(u.stream, u.reason) for u in result.fail_reasons} == {("s0", "non_convex"), ("s1", "non_convex")}


def _brute_force(graph: TaskGraph, lo: np.ndarray, hi: np.ndarray, anc: np.ndarray, desc: np.ndarray) -> bool:
    """The rule one epoch and one task at a time, from its definition."""
    def before(n: int) -> bool:
        u, p = graph.stream_of[n], graph.pos[n]
        return p < lo[u] if lo[u] >= 0 else p <= anc[u]

    def after(n: int) -> bool:
        u, p = graph.stream_of[n], graph.pos[n]
        return p > hi[u] if lo[u] >= 0 else p >= desc[u]

    return any(any(before(w) for w in e.waits) and all(after(r) for r in e.records)
               for e in graph.epochs if len(e.records) > 1 and e.waits)


def test_the_rule_agrees_with_its_definition_on_random_models() -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(300):
        graph = TaskGraph(skir.load_model(random_model(random.Random(seed), max_streams=4, max_tasks=40)))
        rule = OrWaitRule(graph)
        if not rule.epochs:
            continue
        lengths = [graph.start[s + 1] - graph.start[s] for s in range(len(graph.streams))]
        for _ in range(20):
            lo, hi, anc, desc = (np.full(len(lengths), -1, dtype=np.int64) for _ in range(4))
            for u, length in enumerate(lengths):
                anc[u], desc[u] = rng.randrange(-1, length), rng.randrange(0, length + 1)
                if rng.random() < 0.4:
                    lo[u] = rng.randrange(length)
                    hi[u] = rng.randrange(lo[u], length)
            expected = _brute_force(graph, lo, hi, anc, desc)
            assert rule.violated(lo, hi, anc, desc) == expected, seed
            checked += expected
    assert checked  # some hulls did break the rule


def _many_or_waits(m: int) -> TaskGraph:
    """s2 waits for each of m events recorded on both s0 and s1 after m kernels each; the
    waits come first in the cycle check's order, each with everything after it to search."""
    s0 = [{**KERNEL, "seq": i} for i in range(m)]
    s1 = [{**KERNEL, "seq": m + i} for i in range(m)]
    s0 += [{**RECORD, "event": f"e{i}", "seq": 2 * m + i} for i in range(m)]
    s1 += [{**RECORD, "event": f"e{i}", "seq": 3 * m + i} for i in range(m)]
    s2 = [{**WAIT, "event": f"e{i}", "seq": 4 * m + i} for i in range(m)]
    s2 += [{**KERNEL, "seq": 5 * m + i} for i in range(m)]
    return TaskGraph(skir.load_model(_capture([s0, s1, s2], [f"e{i}" for i in range(m)])))


@pytest.mark.parametrize(("budget", "columns"), [(0, 256), (1, 256), (0, 1)])
def test_the_cycle_checks_clocks_agree_with_its_searches(monkeypatch: pytest.MonkeyPatch, budget: int,
                                                         columns: int) -> None:
    """With no budget (or a small one) the contracted graph's clocks decide which waits need a
    search, `columns` streams per pass; the victims must be those of searching every wait."""
    cases: list[tuple[TaskGraph, list[dict[int, tuple[int, int]]], list[int]]] = []
    kernel = KERNEL
    s0 = [{**kernel, "seq": 0}, {**WAIT, "seq": 5}, {**RECORD, "seq": 6}, {**kernel, "seq": 7}]
    s1 = [{**kernel, "seq": 3}, {**RECORD, "seq": 4}]
    graph = TaskGraph(skir.load_model(_capture([s0, s1], ["e"])))
    cases += [(graph, [{0: (3, 3), 1: (4, 4)}], [0]), (graph, [{0: (0, 0), 1: (4, 4)}], [0]),
              (graph, [{0: (3, 3)}], [0]), (graph, [], [])]
    rng = random.Random(3)
    for seed in range(200):
        graph = TaskGraph(skir.load_model(random_model(random.Random(seed), max_streams=4, max_tasks=40)))
        if not any(len(e.records) > 1 for e in graph.epochs):
            continue
        for _ in range(5):  # a few disjoint random SuperKernels, one range per stream each
            ranges: list[dict[int, tuple[int, int]]] = [{}, {}]
            for s in range(len(graph.streams)):
                first, end = graph.start[s], graph.start[s + 1]
                if end - first >= 2 and rng.random() < 0.7:
                    cut = rng.randrange(first + 1, end)
                    ranges[0][s] = (first, cut - 1)
                    ranges[1][s] = (cut, end - 1)
            cases.append((graph, [r for r in ranges if r], [0, 1][:len([r for r in ranges if r])]))
    cases.append((_many_or_waits(30), [], []))
    # s2 waits for e, then for f, then runs X's task; X also holds s0's kernel, before both
    # records of f and one of e: the wait for f (the second searched) makes X the victim
    s0 = [{**kernel, "seq": 0}, {**RECORD, "seq": 1}, {**RECORD, "event": "f", "seq": 2},
          {**RECORD, "event": "f", "seq": 3}]
    s1 = [{**kernel, "seq": 4}, {**RECORD, "seq": 5}]
    s2 = [{**WAIT, "seq": 6}, {**WAIT, "event": "f", "seq": 7}, {**kernel, "seq": 8}]
    graph = TaskGraph(skir.load_model(_capture([s0, s1, s2], ["e", "f"])))
    x = {0: (0, 0), 2: (8, 8)}
    assert cycles.superkernel_on_cycle(graph, [x], [0]) == 0
    cases.append((graph, [x], [0]))
    expected = [cycles.superkernel_on_cycle(g, r, o) for g, r, o in cases]
    monkeypatch.setattr(cycles, "SEARCH_BUDGET", budget)
    monkeypatch.setattr(cycles, "CLOCK_COLUMNS", columns)
    assert [cycles.superkernel_on_cycle(g, r, o) for g, r, o in cases] == expected
    assert any(v is not None for v in expected)
