"""Lazy registries of skir's dialects, passes, targets and model readers, and the `xdsl.universe`
entry point.

`sk-opt` reads them directly; any other xDSL driver (`xdsl-opt`) sees them through
`SKIR_UNIVERSE`, declared as an entry point in `pyproject.toml`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry itself imports no xDSL module: `sk-opt --version` stays light
    from xdsl.context import Context
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass
    from xdsl.universe import Universe
    from xdsl.utils.target import Target

    from skir.readers import ModelReader


def install_model_rules() -> None:
    """Install the model verifier's whole-model rules (`skir.analysis.proof.model_check.install`):
    explicitly, when a context that can parse `aclgraph` is made, never as an import side effect."""
    from skir.analysis.proof.model_check import install

    install()


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialect name -> getter that imports it."""

    def get_aclgraph() -> Dialect:
        from skir.dialects.aclgraph import ACLGraph

        install_model_rules()  # a model parsed through this dialect is verified with them
        return ACLGraph

    def get_sk() -> Dialect:
        from skir.dialects.superkernel import SK

        return SK

    def get_ascendc() -> Dialect:
        from skir.dialects.ascendc import AscendC

        return AscendC

    return {"aclgraph": get_aclgraph, "sk": get_sk, "ascendc": get_ascendc}


_PASSES = {
    "sk-form-scopes": ("skir.passes.form_scopes", "FormScopesPass"),
    "sk-outline": ("skir.passes.outline", "OutlinePass"),
    "sk-place-sync": ("skir.passes.place_sync", "PlaceSyncPass"),
    "sk-lower-sync": ("skir.passes.lower_sync", "LowerSyncPass"),
    "sk-prune-sync": ("skir.passes.prune_sync", "PruneSyncPass"),
    "sk-place-blocks": ("skir.passes.place_blocks", "PlaceBlocksPass"),
    "sk-insert-preload": ("skir.passes.insert_preload", "InsertPreloadPass"),
    "sk-insert-debug": ("skir.passes.insert_debug", "InsertDebugPass"),
    "sk-to-ascendc": ("skir.passes.to_ascendc", "ToAscendCPass"),
    "superkernel-pipeline": ("skir.passes.pipeline", "SuperKernelPipelinePass"),
    "sk-check": ("skir.passes.check", "CheckPass"),
}
"""Pass name -> (module, class), in pipeline order."""


def _lazy_pass(module: str, name: str) -> Callable[[], type[ModulePass]]:
    def get() -> type[ModulePass]:
        cls: type[ModulePass] = getattr(importlib.import_module(module), name)
        return cls

    return get


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> getter that imports it."""
    return {name: _lazy_pass(module, cls) for name, (module, cls) in _PASSES.items()}


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    """Target name -> getter that imports it."""

    def get_ascendc() -> type[Target]:
        from skir.targets.ascendc import AscendCTarget

        return AscendCTarget

    def get_sk_meta() -> type[Target]:
        from skir.targets.sk_meta import SkMetaTarget

        return SkMetaTarget

    def get_descriptor() -> type[Target]:
        from skir.targets.descriptor import DescriptorTarget

        return DescriptorTarget

    def get_plan() -> type[Target]:
        from skir.targets.plan import PlanTarget

        return PlanTarget

    return {"ascendc": get_ascendc, "sk-meta": get_sk_meta, "sk-descriptor": get_descriptor, "sk-plan": get_plan}


def get_all_readers() -> dict[str, Callable[[], ModelReader]]:
    """Model format -> getter that imports its reader (`skir.readers.ModelReader`), in the order
    the API asks them whether a JSON value is theirs: the vendor's dumps, then capture JSON."""

    def get_vendor() -> ModelReader:
        from skir.frontends.vendor import READER

        return READER

    def get_capture() -> ModelReader:
        from skir.frontends.capture import READER

        return READER

    return {"vendor": get_vendor, "capture": get_capture}


def skir_universe() -> Universe:
    """skir's dialects, passes and targets as an `xdsl.universe.Universe`."""
    from xdsl.universe import Universe

    return Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes(), all_targets=get_all_targets())


def __getattr__(name: str) -> Any:
    """`SKIR_UNIVERSE`, the entry point `xdsl-opt` loads, built when it is first read (building
    it imports `xdsl.universe`, which every other use of the registry can skip)."""
    if name == "SKIR_UNIVERSE":
        universe = skir_universe()
        globals()[name] = universe
        return universe
    raise AttributeError(f"module 'skir.registry' has no attribute {name!r}")


def make_context() -> Context:
    """A context with builtin and skir's dialects registered, the whole-model rules installed."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import Builtin

    install_model_rules()
    ctx = Context()
    ctx.load_dialect(Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
