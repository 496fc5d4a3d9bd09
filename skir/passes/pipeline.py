"""`superkernel-pipeline`: the whole chain of skir passes with one option string.

`-p 'superkernel-pipeline{options="stream-fusion=0:split-mode=2"}'` runs
`sk-form-scopes`, `sk-outline`, `sk-place-sync`, `sk-lower-sync`, `sk-prune-sync`, `sk-place-blocks`,
`sk-insert-preload`,
`sk-insert-debug` and `sk-to-ascendc`, each with the same
options, verifying the module between passes unless `verify-each=false`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from skir import progress
from skir.gc_pause import collect_young, paused_gc
from skir.options import SkOptions
from skir.passes.common import OptionsPass
from skir.passes.form_scopes import FormScopesPass
from skir.passes.insert_debug import InsertDebugPass
from skir.passes.insert_preload import InsertPreloadPass
from skir.passes.lower_sync import LowerSyncPass
from skir.passes.outline import OutlinePass
from skir.passes.place_blocks import PlaceBlocksPass
from skir.passes.place_sync import PlaceSyncPass
from skir.passes.prune_sync import PruneSyncPass
from skir.passes.to_ascendc import ToAscendCPass


def pipeline_passes(options: str | SkOptions) -> list[ModulePass]:
    """The passes of the SuperKernel pipeline, in order, each that reads options given `options`."""
    return [
        FormScopesPass(options=options),
        OutlinePass(options=options),
        PlaceSyncPass(options=options),
        LowerSyncPass(),
        PruneSyncPass(options=options),
        PlaceBlocksPass(options=options),
        InsertPreloadPass(options=options),
        InsertDebugPass(options=options),
        ToAscendCPass(options=options),
    ]


def run_pipeline_passes(ctx: Context, module: ModuleOp, options: str | SkOptions, verify_each: bool = True,
                        after: Callable[[int, ModulePass], None] | None = None) -> None:
    """The one loop of the SuperKernel pipeline: `pipeline_passes(options)` in order on `module`,
    the cyclic collector paused, each pass timed (`sk-opt --time-passes`), the module verified
    after each unless `verify_each` is false, then `after(index, pass)` (1-based; `--dump-ir`
    writes the IR there). `superkernel-pipeline` and `skir.compile` both run it."""
    with paused_gc():
        for index, inner in enumerate(pipeline_passes(options), start=1):
            with progress.phase(inner.name):
                inner.apply(ctx, module)
                collect_young()
                if verify_each:
                    with progress.phase("verify"):
                        module.verify()
            if after is not None:
                after(index, inner)


@dataclass(frozen=True)
class SuperKernelPipelinePass(OptionsPass):
    """Run every skir pass from scope formation to Ascend C, with one option string."""

    name = "superkernel-pipeline"

    verify_each: bool = True
    """Verify the module after each inner pass."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_pipeline_passes(ctx, op, self.sk_options(), self.verify_each)
