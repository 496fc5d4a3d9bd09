"""The fair baseline (docs/design.md §7): `aclgraph_es`, aclgraph with every kernel compiled with
early-start, and `select=gain` judging each SuperKernel against the faster of the two."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import skir
from skir.sim import compare
from skir.sim.costs import default_costs

ROOT = Path(__file__).resolve().parents[2]
DECODE = ROOT / "examples" / "decode_layer.json"


def _chain(n: int, duration: float) -> dict[str, object]:
    tasks = [{"seq": i, "type": "kernel", "kernel": "k", "blocks": 8, "duration_us": duration} for i in range(n)]
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "chain", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"k": {"kernel_type": "aiv_only", "params": [], "code_bytes": 4096}},
            "streams": [{"name": "s0", "tasks": tasks}]}


@pytest.mark.parametrize(("n", "duration"), [(2, 10.0), (6, 10.0), (6, 0.6)])
def test_on_a_plain_chain_the_baseline_saves_what_the_costs_say(n: int, duration: float) -> None:
    """By hand: each of the n - 1 kernels after the first hides min(overlap, duration / 2) of its
    dispatch gap (the gap is larger here, so no miss is hidden) and pays the handshake."""
    c = default_costs()
    hide = min(c.early_start_overlap_us, duration / 2)
    assert hide <= c.dispatch_gap_us
    result = skir.compile(_chain(n, duration))
    runs = compare(result.original, result.module, c, ("aclgraph", "aclgraph_es")).runs
    saved = runs["aclgraph"].makespan - runs["aclgraph_es"].makespan
    assert saved == pytest.approx((n - 1) * (hide - c.early_start_us))
    if hide > c.early_start_us:
        assert runs["aclgraph_es"].makespan < runs["aclgraph"].makespan


def test_the_report_and_sk_meta_name_the_baseline(tmp_path: Path) -> None:
    result = skir.compile(DECODE).simulate()
    (estimate,) = result.report.comparison.superkernels
    runs = result.report.comparison.runs
    # a second reader: the members' span in each baseline mode, from the tasks themselves
    members = {(m.stream, m.seq) for m in result.superkernels[0].members}
    spans = {}
    for mode in ("aclgraph", "aclgraph_es"):
        tasks = [t for t in runs[mode].tasks if (t.stream, t.seq) in members]
        spans[mode] = max(t.end for t in tasks) - min(t.ready for t in tasks)
    assert estimate.baseline == min(spans, key=lambda m: spans[m]) == "aclgraph_es"
    assert estimate.before == pytest.approx(spans["aclgraph_es"])
    result.write(tmp_path)
    profiling = json.loads((tmp_path / "sk_meta.json").read_text())["profiling"]
    assert profiling["superkernels"][0]["compared_with"] == "aclgraph_es"
    assert set(profiling["modes"]) == {"eager", "aclgraph", "aclgraph_es", "superkernel"}
    assert " aclgraph_es " in result.report.table()


def test_select_gain_keeps_only_what_beats_the_best_baseline() -> None:
    """A threshold between the gain over aclgraph and the gain over aclgraph_es: judged against
    plain aclgraph the SuperKernel would stay; against the fair baseline it goes."""
    plain = skir.compile(DECODE).simulate()
    (estimate,) = plain.report.comparison.superkernels
    runs = plain.report.comparison.runs
    members = {(m.stream, m.seq) for m in plain.superkernels[0].members}
    acl = [t for t in runs["aclgraph"].tasks if (t.stream, t.seq) in members]
    over_aclgraph = max(t.end for t in acl) - min(t.ready for t in acl) - estimate.after
    over_es = estimate.before - estimate.after
    assert over_aclgraph > over_es + 1
    threshold = round((over_aclgraph + over_es) / 2, 1)
    chosen = skir.compile(DECODE, f"select=gain:select-min-gain-us={threshold}")
    assert not chosen.superkernels
    (decision,) = chosen.selection
    assert not decision.kept and decision.baseline == "aclgraph_es"
    assert decision.as_dict()["compared_with"] == "aclgraph_es"
    dropped = [u for u in chosen.fail_reasons if u.reason == "no_gain"]
    assert len(dropped) == len(members)
    assert all(f"under aclgraph_es (needs {threshold:.1f})" in (u.detail or "") for u in dropped)
