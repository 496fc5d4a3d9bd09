"""`superkernel-pipeline`: the whole chain of skir passes with one option string.

`-p 'superkernel-pipeline{options="stream-fusion=0:split-mode=2"}'` runs
`sk-form-scopes`, `sk-outline`, `sk-place-sync`, `sk-lower-sync`, `sk-prune-sync`, `sk-insert-preload`,
`sk-insert-debug` and `sk-to-ascendc`, each with the same
options, verifying the module between passes unless `verify-each=false`.
"""

from __future__ import annotations

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
        InsertPreloadPass(options=options),
        InsertDebugPass(options=options),
        ToAscendCPass(options=options),
    ]


@dataclass(frozen=True)
class SuperKernelPipelinePass(OptionsPass):
    """Run every skir pass from scope formation to Ascend C, with one option string."""

    name = "superkernel-pipeline"

    verify_each: bool = True
    """Verify the module after each inner pass."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = self.sk_options()
        with paused_gc():
            for inner in pipeline_passes(options):
                with progress.phase(inner.name):  # each pass timed (sk-opt --time-passes)
                    inner.apply(ctx, op)
                    collect_young()
                    if self.verify_each:
                        with progress.phase("verify"):
                            op.verify()
