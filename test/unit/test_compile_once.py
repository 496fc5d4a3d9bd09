"""Work a compile does once, or only where it can change what the user sees (docs/design.md §7):
the `predicted_slower` prediction simulates only when `skir.sim.slower_bound` cannot prove that
no SuperKernel is predicted slower, once, without bounds, and gives the warnings the full
simulation gives; the original model's task graph is built once per compile and written
products; the shared entries' keys and SK meta are computed once per `--emulate` run."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import skir
import skir.sim
from skir.analysis.graph import task_graph
from skir.dialects.model_lookup import the_model
from skir.selection import formed_with_select_all, predicted_slower
from skir.sim.costs import default_costs, load_costs
from skir.sim.engine import BASELINES
from skir.sim.slower_bound import cannot_be_slower
from skir.testing import random_model

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from gen_model import generate  # type: ignore[import-not-found]  # noqa: E402

SLOW_ENTRY = {"format": "skir.sim.costs", "version": 1, "parameters": {"sk_entry_us": 500.0}}
"""Costs under which every SuperKernel is predicted slower than its members."""


def _count_compares(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = skir.sim.compare

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(skir.sim, "compare", counted)
    return calls


def _simulated_warnings(result: skir.CompileResult, costs: Any = None) -> list[tuple[str, float, float, str]]:
    """The `predicted_slower` SuperKernels as the full simulation (bounds and all) finds them."""
    assert result.original is not None
    simulated = skir.sim.compare(result.original, result.module, load_costs(costs), (*BASELINES, "superkernel"))
    return [(e.name, e.before, e.after, e.baseline) for e in predicted_slower(result.module, result.sk_options,
                                                                             simulated)]


def _warnings(result: skir.CompileResult) -> list[tuple[str, float, float, str]]:
    return [(w.superkernel, w.before_us, w.after_us, w.baseline) for w in result.warnings
            if w.warning == "predicted_slower"]


def test_a_compile_that_warns_simulates_once_and_still_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_compares(monkeypatch)
    result = skir.compile(generate("decode", 100))  # two streams of kernels: the bound cannot decide
    assert len(calls) == 1
    assert _warnings(result) and _warnings(result) == _simulated_warnings(result)


def test_the_prediction_is_skipped_where_no_superkernel_can_be_slower(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_compares(monkeypatch)
    result = skir.compile(generate("chain", 100, streams=1))
    assert result.superkernels and not calls
    assert _warnings(result) == [] == _simulated_warnings(result)


def test_one_stream_that_is_slower_is_simulated_and_warned(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_compares(monkeypatch)
    result = skir.compile(generate("chain", 30, streams=1), costs=SLOW_ENTRY)
    assert len(calls) == 1
    assert _warnings(result) and _warnings(result) == _simulated_warnings(result, SLOW_ENTRY)


@pytest.mark.parametrize("seed", range(12))
def test_the_bound_never_hides_a_warning(seed: int) -> None:
    rng = random.Random(seed)
    data = random_model(rng, max_streams=1 + seed % 2, with_values=seed % 3 == 0)
    for costs in (None, SLOW_ENTRY, {"format": "skir.sim.costs", "version": 1,
                                     "parameters": {"dispatch_gap_us": 0.05, "sk_entry_us": 1.0}}):
        result = skir.compile(data, costs=costs)
        names = formed_with_select_all(result.module, result.sk_options)
        assert result.original is not None
        if names and cannot_be_slower(result.original, result.module, names, load_costs(costs)):
            assert _simulated_warnings(result, costs) == []
        assert _warnings(result) == _simulated_warnings(result, costs)


def test_the_spans_alone_equal_the_full_comparison() -> None:
    result = skir.compile(generate("decode", 100))
    assert result.original is not None
    full = skir.sim.compare(result.original, result.module, default_costs(), (*BASELINES, "superkernel"))
    lean = skir.sim.compare(result.original, result.module, default_costs(), (*BASELINES, "superkernel"),
                            spans_only=True)
    assert [(e.name, e.before, e.after, e.baseline) for e in lean.superkernels] == \
        [(e.name, e.before, e.after, e.baseline) for e in full.superkernels]


def test_the_original_task_graph_is_built_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    built: list[object] = []
    real = task_graph.TaskGraph.__init__

    def counted(self: task_graph.TaskGraph, model: Any) -> None:
        real(self, model)
        built.append(self.model)

    monkeypatch.setattr(task_graph.TaskGraph, "__init__", counted)
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "tp", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"mm": {"kernel_type": "aic_only", "params": ["in", "out"]},
                        "ar": {"kernel_type": "aiv_only", "params": ["inout"]}},
            "streams": [{"name": "s0", "tasks": [  # a tensor-parallel layer: the hazards need the graph
                {"seq": 0, "type": "kernel", "kernel": "mm", "blocks": 24, "args": ["x", "y"]},
                {"seq": 1, "type": "kernel", "kernel": "ar", "blocks": 16, "args": ["y"],
                 "comm": {"group": "tp0", "op": "all_reduce"}},
                {"seq": 2, "type": "kernel", "kernel": "mm", "blocks": 24, "args": ["y", "x"]}]}]}
    result = skir.compile(data).simulate().write(tmp_path / "out")
    assert result.original is not None
    top = the_model(result.original)
    assert built.count(top) == 1


def test_entry_keys_and_sk_meta_are_computed_once_per_emulation(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    from skir.hostsim import runner
    from skir.targets import emulation, sk_meta

    counts = {"sk_meta": 0, "shared_entries": 0}
    real_meta, real_shared = sk_meta.sk_meta, emulation.shared_entries

    def meta(*args: Any, **kwargs: Any) -> Any:
        counts["sk_meta"] += 1
        return real_meta(*args, **kwargs)

    def shared(*args: Any, **kwargs: Any) -> Any:
        counts["shared_entries"] += 1
        return real_shared(*args, **kwargs)

    specs: list[Any] = []

    def fake_emulate(spec: Any, work: Path, cache: bool = True) -> Any:
        specs.append(spec)
        return SimpleNamespace(name=spec.name, ok=True, verdict="ok", problems=[], progress_path=None)

    monkeypatch.setattr(sk_meta, "sk_meta", meta)
    monkeypatch.setattr(emulation, "shared_entries", shared)
    monkeypatch.setattr("skir.outputs.sk_meta", meta)
    monkeypatch.setattr("skir.targets.shared_entries.shared_entries", shared)
    monkeypatch.setattr("skir.targets.sk_meta.shared_entries", shared)
    monkeypatch.setattr(runner, "emulate", fake_emulate)
    result = skir.compile(ROOT / "examples" / "decode_updated.json").write(tmp_path / "out", emulate=True)
    assert counts == {"sk_meta": 1, "shared_entries": 1}
    assert result.original is not None
    monkeypatch.undo()
    assert specs == emulation.emulation_specs(result.module, result.original)  # as computed afresh
