"""Helpers shared by skir's passes: models of a module, symbol tables, options, attribute names."""

from __future__ import annotations

import warnings
from abc import ABC
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.builtin import i64 as i64_type
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.exceptions import PassFailedException

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.formation_attrs import (
    CUT_ATTR,
    CUT_DETAIL_ATTR,
    FAIL_ATTR,
    FAIL_DETAIL_ATTR,
    GROUP_ATTR,
    LABEL_ATTR,
)
from skir.dialects.model_lookup import formed, kernel_table, models
from skir.dialects.superkernel import DependOp, SuperKernelOp
from skir.errors import SkirWarning
from skir.options import SkOptions, parse_options

__all__ = ["CUT_ATTR", "CUT_DETAIL_ATTR", "FAIL_ATTR", "FAIL_DETAIL_ATTR", "GROUP_ATTR", "LABEL_ATTR", "SkirWarning",
           "formed",
           "kernel_table", "models"]



def superkernels(module: ModuleOp, base: SkOptions) -> Iterator[tuple[SuperKernelOp, dict[str, KernelOp], SkOptions]]:
    """Every `sk.kernel` of the module with its model's kernel table and its own options
    (`base` merged with the options the SuperKernel carries from its scope)."""
    for model in models(module):
        kernels = kernel_table(model)
        for sk in list(model.body.block.ops):
            if isinstance(sk, SuperKernelOp):
                yield sk, kernels, sk.sk_options(base)


def reject_depends(sk: SuperKernelOp, pass_name: str) -> None:
    """Fail when a depend is still unlowered (`sk-lower-sync{patterns=...}` left it)."""
    for place, op in enumerate(sk.body.block.ops):
        if isinstance(op, DependOp):
            raise PassFailedException(
                f"{pass_name}: sk.kernel @{sk.sym_name.data}: {op.name} {place} is not lowered; run "
                "sk-lower-sync with its patterns first")


@dataclass(frozen=True)
class OptionsPass(ModulePass, ABC):
    """A pass that reads SuperKernel options. `options` is the vendor string at the command
    line (`-p 'sk-outline{options="split-mode=2"}'`), parsed once, on first use; from Python
    and inside `superkernel-pipeline` it is the typed `SkOptions`, which nothing parses:

    ```python
    OutlinePass(options="split-mode=2")                  # parsed by the pass, once
    OutlinePass(options=result.sk_options)                # typed: as a compile parsed them
    ```
    """

    options: str | SkOptions = ""
    """SuperKernel options, vendor syntax (`split-mode=2:early-start=1`; typed `SkOptions` from Python)."""

    def parsed_options(self) -> tuple[SkOptions, list[str]]:
        """The options and the warnings about their string (none for typed options); errors
        and warnings name the pass (`pass 'sk-outline' option 'options': ...`)."""
        if isinstance(self.options, SkOptions):
            return self.options, []
        cached: tuple[SkOptions, list[str]] | None = self.__dict__.get("_parsed")
        if cached is None:
            cached = parse_options(self.options, f"pass '{self.name}' option 'options'")
            object.__setattr__(self, "_parsed", cached)  # a cache on a frozen pass, not a field
        return cached

    def sk_options(self) -> SkOptions:
        """The options, each warning about their string as a `SkirWarning` (call it once per
        run, from `apply`)."""
        options, messages = self.parsed_options()
        for message in messages:
            warnings.warn(message, SkirWarning, stacklevel=2)
        return options

    def spec(self, *, include_default: bool = False) -> ArgSpec:
        """The pass spec; typed options are printed in the vendor syntax."""
        spec = super().spec(include_default=include_default)
        if isinstance(self.options, SkOptions):
            text = self.options.to_string()
            parameters = {k: v for k, v in spec.parameters.items() if k != "options"}
            if text or include_default:
                parameters["options"] = (text,)
            spec = ArgSpec(spec.name, parameters)
        return spec


@lru_cache(maxsize=1 << 14)
def i64(value: int) -> IntegerAttr:
    """A shared `value : i64` attribute (construction verifies, so share them)."""
    return IntegerAttr(value, i64_type)


def check_arguments(p: ModulePass) -> None:
    """Parse a pass's `options` and `patterns` (against its `PATTERN_NAMES`) as its `apply` will,
    so that a pipeline refuses a bad argument before any of its passes has run (the warnings
    about the string come when the pass runs), and warn about each option the pass does not
    read (`skir.passes.option_readers`; the pass still runs)."""
    from skir.passes.option_readers import unread_options

    if isinstance(p, OptionsPass):
        options, _ = p.parsed_options()
        for message in unread_options(p.name, options.given):
            warnings.warn(message, SkirWarning, stacklevel=2)
    patterns = getattr(p, "patterns", None)
    known = getattr(p, "PATTERN_NAMES", None)
    if isinstance(patterns, str) and known is not None:
        pattern_names(patterns, known, p.name)


def pattern_names(text: str, known: tuple[str, ...], pass_name: str) -> frozenset[str] | None:
    """A pass's `patterns=` option: None for `all`, no name for `none`, else the names given."""
    if text.strip() == "all":
        return None
    if text.strip() == "none":
        return frozenset()
    names = frozenset(n.strip() for n in text.split(",") if n.strip())
    unknown = sorted(names - set(known))
    if unknown or not names:
        raise PassFailedException(f"{pass_name}: patterns={text!r}: expected all, none or pattern names "
                                  f"({', '.join(known)})")
    return names
