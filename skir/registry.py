"""Lazy registries of skir's dialects, passes and targets, and the `xdsl.universe` entry point.

`sk-opt` reads them directly; any other xDSL driver (`xdsl-opt`) sees them through
`SKIR_UNIVERSE`, declared as an entry point in `pyproject.toml`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe
from xdsl.utils.target import Target


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialect name -> getter that imports it."""

    def get_aclgraph() -> Dialect:
        from skir.dialects.aclgraph import ACLGraph

        return ACLGraph

    def get_sk() -> Dialect:
        from skir.dialects.superkernel import SK

        return SK

    def get_ascendc() -> Dialect:
        from skir.dialects.ascendc import AscendC

        return AscendC

    return {"aclgraph": get_aclgraph, "sk": get_sk, "ascendc": get_ascendc}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> getter that imports it."""

    def get_form_scopes() -> type[ModulePass]:
        from skir.passes.form_scopes import FormScopesPass

        return FormScopesPass

    def get_outline() -> type[ModulePass]:
        from skir.passes.outline import OutlinePass

        return OutlinePass

    def get_lower_sync() -> type[ModulePass]:
        from skir.passes.lower_sync import LowerSyncPass

        return LowerSyncPass

    def get_to_ascendc() -> type[ModulePass]:
        from skir.passes.to_ascendc import ToAscendCPass

        return ToAscendCPass

    def get_check() -> type[ModulePass]:
        from skir.passes.check import CheckPass

        return CheckPass

    def get_pipeline() -> type[ModulePass]:
        from skir.passes.pipeline import SuperKernelPipelinePass

        return SuperKernelPipelinePass

    return {
        "sk-form-scopes": get_form_scopes,
        "sk-outline": get_outline,
        "sk-lower-sync": get_lower_sync,
        "sk-to-ascendc": get_to_ascendc,
        "superkernel-pipeline": get_pipeline,
        "sk-check": get_check,
    }


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Target name -> getter that imports it."""

    def get_ascendc() -> type[Target]:
        from skir.targets.ascendc import AscendCTarget

        return AscendCTarget

    def get_sk_meta() -> type[Target]:
        from skir.targets.sk_meta import SkMetaTarget

        return SkMetaTarget

    return {"ascendc": get_ascendc, "sk-meta": get_sk_meta}


SKIR_UNIVERSE = Universe(
    all_dialects=get_all_dialects(), all_passes=get_all_passes(), all_targets=get_all_targets()
)
