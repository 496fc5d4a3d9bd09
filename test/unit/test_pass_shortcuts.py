"""The passes' shortcuts change nothing: with each turned off, random models give the same module.

- `sk-insert-debug` leaves a SuperKernel alone when neither the options nor a kernel's `dcci`
  marks can insert anything;
- formation runs the queue plan for the flag check only when `may_exhaust_flags` says it can
  run out;
- `sk-prune-sync` counts syncs only for `stats=true`.
"""

from __future__ import annotations

import random

import pytest

import skir.analysis.formation.formation
import skir.passes.insert_debug
import skir.passes.prune_sync
from skir.api import run_pipeline
from skir.frontends.capture import from_dict
from skir.testing.random_models import random_model
from skir.xdsl_fast.printer import ir_text

OPTIONS = ("", "debug-sync-all=1", "debug-dcci-all=1", "feed-sync-all=1:stream-fusion=1",
           "dcci-disable-on-kernel=k0", "stream-fusion=1:early-start=1")


def _compiled(data: dict, options: str) -> str:  # type: ignore[type-arg]
    module = from_dict(data)
    run_pipeline(module, options)
    return ir_text(module)


@pytest.mark.filterwarnings("ignore:option 'dcci-disable-on-kernel' names no kernel")
@pytest.mark.parametrize("options", OPTIONS)
def test_without_the_shortcuts_the_module_is_the_same(options: str, monkeypatch: pytest.MonkeyPatch) -> None:
    models = [random_model(random.Random(seed), max_streams=4, max_tasks=30) for seed in range(12)]
    with_shortcuts = [_compiled(data, options) for data in models]
    full_prune = skir.passes.prune_sync.prune_module
    monkeypatch.setattr(skir.passes.insert_debug, "options_insert", lambda options: True)
    monkeypatch.setattr(skir.passes.insert_debug, "kernels_insert", lambda kernels: True)
    monkeypatch.setattr(skir.analysis.formation.formation, "may_exhaust_flags", lambda nodes, reserved: True)
    monkeypatch.setattr(skir.passes.prune_sync, "prune_module", lambda op, counted=True: full_prune(op, True))
    without = [_compiled(data, options) for data in models]
    assert with_shortcuts == without
    assert any("sk.kernel" in text for text in without)  # the models fuse something


def test_a_kernel_marked_for_cleans_is_not_skipped() -> None:
    fused = 0
    for seed in range(20):
        data = random_model(random.Random(seed), max_streams=2, max_tasks=20)
        for kernel in data["kernels"].values():
            kernel["dcci"] = {"before": True, "after": False, "disable": False}
        text = _compiled(data, "")
        if "sk.kernel" in text:
            fused += 1
            assert "sk.dcci" in text
    assert fused
