"""Happens-before analysis: edges, epochs, and reachability against a brute-force closure."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.api import parse, the_model
from skir.errors import SkirError
from skir.frontends.capture import from_dict
from skir.testing import random_model


def graph_of(text: str) -> tuple[TaskGraph, HappensBefore]:
    graph = TaskGraph(the_model(parse(text)))
    return graph, HappensBefore(graph)


def by_seq(graph: TaskGraph) -> dict[int, int]:
    return {seq: n for n, seq in enumerate(graph.seq)}


def brute_force(graph: TaskGraph) -> list[set[int]]:
    """Descendants of every node by DFS over stream order and cross edges."""
    succ: list[list[int]] = [[] for _ in range(len(graph))]
    for n in range(len(graph)):
        if (m := graph.next_on_stream(n)) is not None:
            succ[n].append(m)
        succ[n].extend(graph.cross_succ.get(n, ()))
    reach: list[set[int]] = []
    for n in range(len(graph)):
        seen: set[int] = set()
        stack = list(succ[n])
        while stack:
            m = stack.pop()
            if m not in seen:
                seen.add(m)
                stack.extend(succ[m])
        reach.append(seen)
    return reach


FORK_JOIN = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params 0
  aclgraph.event @e0
  aclgraph.event @e1
  aclgraph.cell @c
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @k blocks 8
    aclgraph.record seq 1 @e0
    aclgraph.launch seq 2 @k blocks 8
    aclgraph.wait seq 6 @e1
    aclgraph.launch seq 7 @k blocks 8
    aclgraph.value_wait seq 8 @c eq 1
    aclgraph.reset seq 9 @e0
    aclgraph.reset seq 10 @e1
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 3 @e0
    aclgraph.launch seq 4 @k blocks 8
    aclgraph.record seq 5 @e1
    aclgraph.value_write seq 11 @c value 1
  }
}
"""


def test_fork_join_edges_and_queries() -> None:
    graph, hb = graph_of(FORK_JOIN.replace("aclgraph.value_wait seq 8 @c eq 1\n", "").replace(
        "    aclgraph.value_write seq 11 @c value 1\n", ""))
    n = by_seq(graph)
    assert hb.before(n[0], n[4])  # through e0
    assert hb.before(n[4], n[7])  # through e1
    assert hb.before(n[0], n[7])
    assert not hb.before(n[2], n[4]) and not hb.before(n[4], n[2])
    assert not hb.ordered(n[2], n[4])
    assert not hb.before(n[7], n[0])
    assert not hb.before(n[0], n[0])
    assert [graph.seq[m] for m in hb.order].index(1) < [graph.seq[m] for m in hb.order].index(3)


def test_value_write_orders_its_waits() -> None:
    # the write on s1 (seq 11) comes after the wait (seq 8) in seq, but hb-precedes it
    graph, hb = graph_of(FORK_JOIN.replace("aclgraph.reset seq 9 @e0", "aclgraph.reset seq 12 @e0").replace(
        "aclgraph.reset seq 10 @e1", "aclgraph.reset seq 13 @e1"))
    n = by_seq(graph)
    assert hb.before(n[11], n[8])
    assert graph.cells["c"].satisfying == [n[11]]


def test_epochs_split_at_resets_and_multi_record_epochs_give_no_edge() -> None:
    text = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @e
  aclgraph.stream @s0 {
    aclgraph.record seq 0 @e
    aclgraph.record seq 1 @e
    aclgraph.reset seq 3 @e
    aclgraph.record seq 4 @e
    aclgraph.reset seq 6 @e
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @e external
    aclgraph.wait seq 5 @e
  }
}
"""
    with pytest.raises(SkirError, match="reset of @e is not ordered after"):
        graph_of(text)
    ok = text.replace("aclgraph.reset seq 3 @e\n", "").replace("aclgraph.reset seq 6 @e", "aclgraph.placeholder seq 6")
    graph, _ = graph_of(ok)
    assert [len(e.records) for e in graph.epochs] == [3]
    assert not graph.cross_succ  # three records in one epoch: no edge
    assert graph.epochs[0].external


def test_notify_pairs_are_edges() -> None:
    text = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.stream @s0 {
    aclgraph.opaque seq 0 notify_record "n"
  }
  aclgraph.stream @s1 {
    aclgraph.opaque seq 1 notify_wait "n"
    aclgraph.opaque seq 2 notify_wait "other"
  }
}
"""
    graph, hb = graph_of(text)
    n = by_seq(graph)
    assert hb.before(n[0], n[1]) and hb.before(n[0], n[2])
    assert graph.cross_succ[n[0]] == [n[1]]


def test_cycle_names_every_task_on_it() -> None:
    text = """
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.event @a
  aclgraph.event @b
  aclgraph.stream @s0 {
    aclgraph.wait seq 0 @b
    aclgraph.record seq 1 @a
  }
  aclgraph.stream @s1 {
    aclgraph.wait seq 2 @a
    aclgraph.record seq 3 @b
  }
}
"""
    with pytest.raises(SkirError) as err:
        graph_of(text)
    assert "@m/@s0/seq 0 -> @m/@s0/seq 1 -> @m/@s1/seq 2 -> @m/@s1/seq 3 -> @m/@s0/seq 0" in str(err.value)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_reachability_matches_brute_force(seed: int) -> None:
    module = from_dict(random_model(random.Random(seed), max_streams=4, max_tasks=30))
    graph = TaskGraph(the_model(module))
    hb = HappensBefore(graph)
    reach = brute_force(graph)
    for a in range(len(graph)):
        for b in range(len(graph)):
            assert hb.before(a, b) == (b in reach[a]), (graph.name(a), graph.name(b))
    position = {n: i for i, n in enumerate(hb.order)}
    for a in range(len(graph)):
        for b in reach[a]:
            assert position[a] < position[b]


def test_queries_are_cheap_on_a_large_model() -> None:
    """Building is linear-ish: 20k tasks on 4 streams well under a few seconds, queries O(1)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    from gen_model import generate  # type: ignore[import-not-found]

    graph = TaskGraph(the_model(from_dict(generate("fork-join", 20000, streams=4))))
    hb = HappensBefore(graph)
    assert hb.rows.shape[0] <= sum(len(p) for p in graph.cross_pred.values())
    first, last = graph.by_seq[0], graph.by_seq[-1]
    assert hb.before(first, last)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_clocks_match_brute_force(seed: int) -> None:
    module = from_dict(random_model(random.Random(seed), max_streams=4, max_tasks=30))
    graph = TaskGraph(the_model(module))
    hb = HappensBefore(graph)
    reach = brute_force(graph)
    for n in range(len(graph)):
        before, after = hb.clock(n), hb.first_after(n)
        for s in range(len(graph.streams)):
            nodes = list(graph.stream_nodes(s))
            preds = [graph.pos[m] for m in nodes if m == n or n in reach[m]]
            succs = [graph.pos[m] for m in nodes if m == n or m in reach[n]]
            assert before[s] == (max(preds) if preds else -1)
            assert after[s] == (min(succs) if succs else len(nodes))
