"""`select=gain` cut variants: the cut points (at batch kernels, where the hb width changes),
formation honouring a cut, and selection keeping a cut when its parts are predicted faster."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import StringAttr

import skir
from skir.analysis.formation.cut_points import _widths, cut_points
from skir.analysis.formation.fail_reasons import SELECT_CUT_ATTR
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp
from skir.sim import compare

ROOT = Path(__file__).resolve().parents[2]
DECODE = ROOT / "examples" / "decode_layer.json"
# 20 small vector kernels, then two 30 us cube kernels on two streams (side by side under
# aclgraph, one after the other in a queue SuperKernel), then 20 more vector kernels
FORK_IN_CHAIN = ROOT / "test" / "unit" / "models" / "fork_in_chain.json"


def _makespan(result: skir.CompileResult) -> float:
    assert result.original is not None
    return compare(result.original, result.module, None, ("superkernel",)).runs["superkernel"].makespan


def test_cut_points_of_the_decode_layer() -> None:
    """Read off the example by hand: its one SuperKernel takes rms_norm 3, qkv 4 (batch), rope_k
    (s1, 7) beside rope_q 9, attention 11, ..., gate_up 15 (batch), swiglu 16, ..."""
    result = skir.compile(DECODE)
    (sk,) = result.superkernels
    members = tuple((m.stream, m.seq) for m in sk.members)
    assert result.original is not None
    points = cut_points(result.original, [members])[members]
    assert points.batch == (("s0", 4), ("s1", 7), ("s0", 15), ("s0", 16))  # before and after each batch kernel
    assert points.width == (("s1", 7), ("s0", 11))  # the rope pair is the only width-2 region


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_widths_agree_with_pairwise_hb(seed: int) -> None:
    """The vector-clock count of unordered members against a pairwise hb count."""
    from skir.testing import random_model

    module = skir.load_model(random_model(random.Random(seed), max_streams=4, max_tasks=30))
    graph = TaskGraph(module)
    hb = HappensBefore(graph)
    nodes = [n for n, op in enumerate(graph.ops) if isinstance(op, LaunchOp)]
    brute = [1 + sum(not hb.ordered(a, b) for b in nodes if b != a) for a in nodes]
    assert _widths(graph, hb, nodes) == brute


def test_formation_cuts_where_selection_marked() -> None:
    module = skir.load_model(DECODE)
    for op in module.walk():
        if isinstance(op, LaunchOp) and op.seq.data == 12:
            op.attributes[SELECT_CUT_ATTR] = StringAttr("select=gain cut where the hb width changes")
    result = skir.compile(module).check()
    assert result.proof.ok
    parts = [[m.seq for m in sk.members] for sk in result.superkernels]
    assert parts == [[3, 4, 7, 9, 11], [12, 13, 14, 15, 16, 17, 18]]
    (cut,) = [c for c in result.cuts if c.seq == 12]
    assert (cut.reason, cut.detail) == ("no_gain", "select=gain cut where the hb width changes")


def test_a_cut_is_kept_when_its_parts_are_faster(tmp_path: Path) -> None:
    whole = skir.compile(FORK_IN_CHAIN).check()
    assert len(whole.superkernels) == 1
    chosen = skir.compile(FORK_IN_CHAIN, options="select=gain").check().write(tmp_path / "out")
    assert chosen.proof.ok
    # the two chains fused, the parallel cube kernels left to run side by side
    assert [len(sk.members) for sk in chosen.superkernels] == [20, 20]
    assert sorted((u.stream, u.reason) for u in chosen.fail_reasons) == [("s0", "no_gain"), ("s1", "no_gain")]
    assert {d.variant for d in chosen.selection if d.round > 1} == {"cut=width"}
    # the oracle: the same cut made by hand (the cube kernels unfused, a cut before the second
    # chain) gives the same makespan, lower than fusing everything
    by_hand = skir.load_model(FORK_IN_CHAIN)
    for op in by_hand.walk():
        if isinstance(op, LaunchOp) and op.kernel.root_reference.data == "mm":
            op.attributes["sk.no_gain"] = StringAttr("by hand")
    manual = skir.compile(by_hand).check()
    assert _makespan(chosen) == pytest.approx(_makespan(manual))
    assert _makespan(chosen) < _makespan(whole) - 20.0
    assert "cut=width" in (tmp_path / "out" / "sk_meta.json").read_text()


def test_a_selection_cut_breaks_no_scope_under_strict_scope_check() -> None:
    """A cut or drop by select=gain is skir's choice, not a broken scope: abort does not fire."""
    data = json.loads(FORK_IN_CHAIN.read_text())
    tasks = data["streams"][0]["tasks"]
    tasks.insert(0, {"type": "scope_begin", "scope": "all", "seq": -1})
    tasks.insert(len(tasks) - 2, {"type": "scope_end", "scope": "all", "seq": tasks[-3]["seq"] + 0.5})
    every = sorted((t for stream in data["streams"] for t in stream["tasks"]), key=lambda t: t["seq"])
    for seq, task in enumerate(every):
        task["seq"] = seq
    result = skir.compile(data, options="select=gain:strict-scope-check=abort").check()
    assert result.proof.ok and [len(sk.members) for sk in result.superkernels] == [20, 20]
