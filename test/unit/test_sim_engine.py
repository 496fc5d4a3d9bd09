"""The timeline simulator's sanity: dispatch savings, stream overlap, sync costs, bounds."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.api import load_model, make_context, the_model
from skir.passes.pipeline import pipeline_passes
from skir.passes.prune_sync import PruneSyncPass
from skir.sim import estimate
from skir.sim.costs import default_costs
from skir.sim.engine import durations_of, simulate
from skir.sim.modes import compare
from skir.sim.stamp import breakdown
from skir.testing.random_models import random_model

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _model(streams: dict[str, list[dict[str, Any]]], kernels: dict[str, Any], events: list[str] = ()) -> dict:
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels, "events": list(events),
            "streams": [{"name": s, "tasks": tasks} for s, tasks in streams.items()]}


def _chain(n: int, duration: float = 0.5) -> dict:
    tasks = [{"type": "kernel", "kernel": "tiny", "blocks": 8, "args": ["x"], "duration_us": duration}
             for _ in range(n)]
    return _model({"s0": tasks}, {"tiny": {"kernel_type": "aiv_only", "params": ["inout"], "code_bytes": 2048}})


@pytest.mark.parametrize("n", [2, 8, 32])
def test_a_chain_of_tiny_kernels_saves_n_minus_1_gaps(n: int) -> None:
    result = skir.compile(_chain(n))
    assert len(result.superkernels) == 1
    gap = default_costs().dispatch_gap_us
    only_gaps = replace(default_costs(), icache_miss_us_per_kib=0.0, barrier_all_aiv_us=0.0, sk_entry_us=0.0,
                        preload_us=0.0)
    cmp = compare(result.original, result.module, only_gaps)
    saved = cmp.runs["aclgraph"].makespan - cmp.runs["superkernel"].makespan
    assert saved == pytest.approx((n - 1) * gap, abs=1e-6)
    # With every default cost the saving is (n - 1) gaps, less a barrier per gap, plus the cache misses.
    cmp = compare(result.original, result.module)
    saved = cmp.runs["aclgraph"].makespan - cmp.runs["superkernel"].makespan
    c = default_costs()
    low = (n - 1) * (gap - c.barrier_all_aiv_us) - c.sk_entry_us - n * c.preload_us
    high = (n - 1) * gap + n * c.icache_miss(2048, 16384)
    assert low - 1e-6 <= saved <= high + 1e-6
    assert cmp.runs["superkernel"].dispatches() == 1 and cmp.runs["aclgraph"].dispatches() == n


def test_eager_pays_the_host_launch() -> None:
    result = skir.compile(_chain(8))
    cmp = compare(result.original, result.module)
    assert cmp.runs["eager"].makespan > cmp.runs["aclgraph"].makespan
    assert breakdown(cmp.runs["eager"].last)["dispatch"] >= 8 * default_costs().host_launch_us - 1e-6


def test_independent_streams_overlap() -> None:
    kernels = {"k": {"kernel_type": "aiv_only", "params": ["inout"]}}
    streams = {f"s{i}": [{"type": "kernel", "kernel": "k", "blocks": 8, "args": [f"b{i}"], "duration_us": 10.0}]
               for i in range(4)}
    module = load_model(_model(streams, kernels))
    run = simulate(the_model(module), "aclgraph", default_costs())
    assert run.makespan < 4 * 10.0
    assert run.makespan == pytest.approx(default_costs().graph_launch_us + default_costs().dispatch_gap_us + 10.0
                                         + default_costs().icache_miss(None, 16384))


def test_cores_are_a_resource() -> None:
    """Two streams whose kernels each need every AIV run one after the other."""
    kernels = {"k": {"kernel_type": "aiv_only", "params": ["inout"]}}
    streams = {f"s{i}": [{"type": "kernel", "kernel": "k", "blocks": 48, "args": [f"b{i}"], "duration_us": 10.0}]
               for i in range(2)}
    run = simulate(the_model(load_model(_model(streams, kernels))), "aclgraph", default_costs())
    assert run.makespan > 20.0
    assert breakdown(run.last)["idle"] > 0


def test_events_order_streams() -> None:
    kernels = {"k": {"kernel_type": "aiv_only", "params": ["inout"]}}
    streams = {
        "s0": [{"type": "kernel", "kernel": "k", "blocks": 8, "args": ["a"], "duration_us": 10.0},
               {"type": "event_record", "event": "e"}],
        "s1": [{"type": "event_wait", "event": "e"},
               {"type": "kernel", "kernel": "k", "blocks": 8, "args": ["b"], "duration_us": 10.0}],
    }
    run = simulate(the_model(load_model(_model(streams, kernels, ["e"]))), "aclgraph", default_costs())
    first, second = sorted((t for t in run.tasks if t.kind == "kernel"), key=lambda t: t.start)
    assert second.start >= first.end + 2 * default_costs().event_us


def _without_pruning(model: Any) -> Any:
    module = load_model(model)
    ctx = make_context()
    for p in pipeline_passes(""):
        if not isinstance(p, PruneSyncPass):
            p.apply(ctx, module)
    return module


def test_a_barrier_heavy_superkernel_is_slower_than_the_pruned_one() -> None:
    model = str(EXAMPLES / "decode_layer.json")
    pruned = skir.compile(model)
    heavy = _without_pruning(model)
    fast = compare(pruned.original, pruned.module)
    slow = compare(pruned.original, heavy)
    assert slow.superkernels[0].syncs > fast.superkernels[0].syncs
    assert slow.superkernels[0].after > fast.superkernels[0].after
    assert slow.runs["superkernel"].makespan > fast.runs["superkernel"].makespan


@pytest.mark.parametrize("options", ["", "early-start=1", "stream-fusion=0", "preload-code=none"])
def test_lower_bound_holds_on_the_examples(options: str) -> None:
    for name in ("chain.mlir", "decode_layer.json"):
        result = skir.compile(str(EXAMPLES / name), options=options)
        cmp = estimate(result.original, result.module).comparison
        for mode, run in cmp.runs.items():
            assert run.makespan >= cmp.bound.value - 1e-9, (name, mode)
            assert sum(breakdown(run.last).values()) == pytest.approx(run.makespan)
        for sk in cmp.superkernels:
            assert sk.after >= sk.bound.value - 1e-9
            assert sk.before > sk.after


def test_preload_none_costs_cache_misses() -> None:
    model = str(EXAMPLES / "decode_layer.json")
    warm = skir.compile(model)
    cold = skir.compile(model, options="preload-code=none")
    assert (compare(cold.original, cold.module).superkernels[0].after
            > compare(warm.original, warm.module).superkernels[0].after)


def test_lower_bound_and_determinism_on_random_models() -> None:
    seen = 0
    for seed in range(12):
        model = random_model(random.Random(seed), max_tasks=40, spare_slots=True)
        try:
            result = skir.compile(model)
        except skir.SkirError:
            continue
        first = estimate(result.original, result.module)
        again = estimate(result.original, result.module)
        assert first.profiling() == again.profiling()
        cmp = first.comparison
        for run in cmp.runs.values():
            assert run.makespan >= cmp.bound.value - 1e-9
        seen += len(cmp.superkernels)
    assert seen > 0


def test_durations_come_from_disabled_slots_too() -> None:
    result = skir.compile(str(EXAMPLES / "chain.mlir"))
    assert durations_of(result.module) == durations_of(result.original)


def test_an_in_kernel_lock_wait_holds_the_superkernel_until_the_outside_record() -> None:
    kernels = {"v": {"kernel_type": "aiv_only", "params": ["inout"]},
               "slow": {"kernel_type": "aiv_only", "params": ["inout"], "sk_capable": False}}
    streams = {
        "s0": [{"seq": 0, "type": "kernel", "kernel": "v", "blocks": 8, "args": ["a"], "duration_us": 2.0},
               {"seq": 3, "type": "event_wait", "event": "e"},
               {"seq": 4, "type": "kernel", "kernel": "v", "blocks": 8, "args": ["a"], "duration_us": 2.0},
               {"seq": 5, "type": "event_reset", "event": "e"}],
        "s1": [{"seq": 1, "type": "kernel", "kernel": "slow", "blocks": 8, "args": ["b"], "duration_us": 20.0},
               {"seq": 2, "type": "event_record", "event": "e"}],
    }
    result = skir.compile(_model(streams, kernels, ["e"]))
    assert "sk.wait_lock" in str(result.module)
    run = compare(result.original, result.module).runs["superkernel"]
    tasks = {(t.stream, t.seq): t for t in run.tasks}
    sk, record = tasks[("s0", 0)], tasks[("s1", 2)]
    assert sk.kind == "superkernel" and record.kind == "value"
    second = next(p for p in sk.program if p.kind == "subtask" and p.seq == 4)
    assert second.start >= record.end + default_costs().lock_wait_us - 1e-9
    assert sk.end == pytest.approx(second.end + default_costs().lock_reset_us)
