"""The Python API: load a model, run the SuperKernel pipeline, collect what happened.

```python
import skir
result = skir.compile("examples/decode_layer.json", options="split-mode=2")
for sk in result.superkernels:
    print(sk.name, sk.kernel_type, sk.blocks, len(sk.members))
```
Every failure raises `skir.SkirError`, whose `str()` is a one-line diagnostic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from skir.diagnostics import located_message
from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import CheckFailedError, MissingToolError, SkirError
from skir.gc_pause import paused_gc
from skir.parsing import LocatingParser, SourceMap, verify_located
from skir.passes.common import CUT_ATTR, CUT_DETAIL_ATTR, FAIL_ATTR, FAIL_DETAIL_ATTR
from skir.passes.pipeline import pipeline_passes
from skir.source_text import BOM, guard_mlir, model_format, read_model


def make_context() -> Context:
    """A context with builtin and skir's dialects registered."""
    from skir.registry import get_all_dialects

    ctx = Context()
    ctx.load_dialect(Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def parse(text: str, name: str = "<string>", source_map: SourceMap | None = None) -> ModuleOp:
    """Parse and verify `.mlir` text; errors are one-line `SkirError`s."""
    source_map = source_map if source_map is not None else SourceMap()
    guard_mlir(text, name)
    try:
        with paused_gc():
            module = LocatingParser(make_context(), text, name, source_map).parse_module()
        verify_located(module)
    except (ParseError, DiagnosticException) as err:
        raise SkirError(located_message(err, source_map)) from None
    return module


def load_model(model: ModuleOp | str | os.PathLike[str] | dict[str, Any]) -> ModuleOp:
    """A verified module from a module, a `.mlir` / `.json` path (`-`: standard input; another
    name is read by its content), model text (MLIR or capture JSON) or a capture dict."""
    from skir.frontends import capture

    if isinstance(model, ModuleOp):
        try:
            verify_located(model)
        except DiagnosticException as err:
            raise SkirError(located_message(err)) from None
        return model
    if isinstance(model, dict):
        return capture.from_dict(model)
    if isinstance(model, str) and "\n" in model:
        text, source = model.removeprefix(BOM), "<string>"
    else:
        source, text = read_model(model)  # `-`: standard input
    if model_format(text, source) == "json":
        return capture.loads(text, source)
    return parse(text, source)


def the_model(module: ModuleOp) -> ModelOp:
    found = [op for op in module.ops if isinstance(op, ModelOp)]
    if len(found) != 1:
        raise SkirError(f"expected exactly one aclgraph.model in the input, found {len(found)}")
    return found[0]


@dataclass(frozen=True)
class Member:
    """One kernel task fused into a SuperKernel."""

    stream: str
    seq: int
    kernel: str


@dataclass(frozen=True)
class SuperKernelInfo:
    name: str
    kernel_type: str
    blocks: int
    members: tuple[Member, ...]


@dataclass(frozen=True)
class Unfused:
    """A kernel task left unfused, and why."""

    stream: str
    seq: int
    kernel: str
    reason: str
    detail: str | None = None


@dataclass(frozen=True)
class CutInfo:
    """Where formation closed a SuperKernel for a reason that has a detail (the trigger task)."""

    stream: str
    seq: int
    reason: str
    detail: str


@dataclass(frozen=True)
class SkWarning:
    """A warning about a SuperKernel (`unreset_event`: an event epoch with no closing reset
    crosses its boundary, so the cell that replaces the event ends the model at 1)."""

    superkernel: str
    warning: str
    event: str
    cell: str


@dataclass
class CompileResult:
    module: ModuleOp
    superkernels: list[SuperKernelInfo]
    fail_reasons: list[Unfused]
    cuts: list[CutInfo] = field(default_factory=list)
    warnings: list[SkWarning] = field(default_factory=list)
    outputs: dict[str, Path] = field(default_factory=dict)
    """Product name (path relative to the output folder) -> path written."""
    emulation: list[Any] = field(default_factory=list)
    """One `skir.hostsim.EmulationResult` per SuperKernel, when emulation ran."""
    original: ModuleOp | None = None
    """The verified input module, before any rewrite (used to prove the result)."""
    check: Any = None
    """The `skir.analysis.sk_check.CheckReport`, when the check ran."""
    report: Any = None
    """The `skir.sim.Report` (timeline estimate of every mode), when asked for."""

    @property
    def kernel_tasks(self) -> int:
        return sum(len(sk.members) for sk in self.superkernels) + len(self.fail_reasons)

    @property
    def launches_saved(self) -> int:
        return sum(len(sk.members) - 1 for sk in self.superkernels)


def run_pipeline(
    module: ModuleOp, options: str = "", verify_each: bool = True, dump_ir: Path | None = None
) -> None:
    """Run the SuperKernel pipeline in place; with `dump_ir`, write the IR before and after each pass."""
    ctx = make_context()
    if dump_ir is not None:
        dump_ir.mkdir(parents=True, exist_ok=True)
        (dump_ir / "00-input.mlir").write_text(str(module) + "\n")
    with paused_gc():
        try:
            for index, p in enumerate(pipeline_passes(options), start=1):
                p.apply(ctx, module)
                if verify_each:
                    module.verify()
                if dump_ir is not None:
                    (dump_ir / f"{index:02d}-{p.name}.mlir").write_text(str(module) + "\n")
        except (DiagnosticException, ValueError) as err:
            raise SkirError(located_message(err)) from None


def summarize(
    module: ModuleOp, original: ModuleOp | None = None
) -> tuple[list[SuperKernelInfo], list[Unfused], list[CutInfo], list[SkWarning]]:
    """The SuperKernels, unfused kernels, detailed cuts and warnings of a compiled module
    (`original`, the input before rewriting, saves rebuilding it from the rewritten slots)."""
    from skir.analysis.original import unreset_by_superkernel

    model = the_model(module)
    superkernels, unfused, cuts, warnings = [], [], [], []
    unreset = unreset_by_superkernel(model, None if original is None else the_model(original))
    for op in model.body.block.ops:
        if isinstance(op, SuperKernelOp):
            members = tuple(
                Member(s.stream.root_reference.data, s.seq.data, s.kernel.root_reference.data)
                for s in op.subtasks()
            )
            superkernels.append(SuperKernelInfo(op.sym_name.data, op.type.value, op.blocks.data, members))
            name = op.sym_name.data
            warnings += [SkWarning(name, "unreset_event", event, cell) for cell, event in unreset.get(name, ())]
        elif isinstance(op, StreamOp):
            for task in op.body.block.ops:
                reason = task.attributes.get(FAIL_ATTR)
                if isinstance(task, LaunchOp) and reason is not None:
                    detail = task.attributes.get(FAIL_DETAIL_ATTR)
                    unfused.append(Unfused(op.sym_name.data, task.seq.data, task.kernel.root_reference.data,
                                           reason.data, detail.data if detail is not None else None))  # type: ignore
                cut, why = task.attributes.get(CUT_ATTR), task.attributes.get(CUT_DETAIL_ATTR)
                if cut is not None and why is not None:
                    cuts.append(CutInfo(op.sym_name.data, task.seq.data, cut.data, why.data))  # type: ignore
    cuts.sort(key=lambda c: c.seq)
    return superkernels, unfused, cuts, warnings


def compile(
    model: ModuleOp | str | os.PathLike[str] | dict[str, Any],
    *,
    options: str = "",
    out_dir: str | os.PathLike[str] | None = None,
    emulate: bool = False,
    verify_each: bool = True,
    dump_ir: str | os.PathLike[str] | None = None,
    check: bool = False,
    build: str | os.PathLike[str] | None = None,
    report: bool = False,
    costs: str | os.PathLike[str] | dict[str, Any] | None = None,
) -> CompileResult:
    """Compile a model: form SuperKernels, lower them and emit their Ascend C entries.

    With `check`, prove the result with `sk-check` first; with `out_dir`, write the products
    there (see `skir.outputs`); with `emulate`, also run every entry in host emulation; with
    `build` (a folder of sub-kernel objects), also build every SuperKernel with the CANN
    toolchain (`OUT/<name>/build/<name>.o`); with `report` (implied by `costs`, a costs
    file or dict overriding `skir/sim/default_costs.json`), also simulate the model in every
    mode (`result.report`, and `timeline.json`, the PNGs and SK meta's `profiling` in
    `out_dir`). A failed proof or emulation raises `CheckFailedError`, a missing toolchain
    `MissingToolError`; nothing is written then.
    """
    if build is not None and not os.environ.get("ASCEND_HOME_PATH"):
        raise MissingToolError("--build needs the CANN toolchain: ASCEND_HOME_PATH is not set "
                               "(source the CANN set_env.sh)")
    from skir.outputs import write_outputs

    sim_costs = None
    if report or costs is not None:
        from skir.sim.costs import load_costs

        sim_costs = load_costs(costs)
    module = load_model(model)
    original = module.clone()
    run_pipeline(module, options, verify_each, None if dump_ir is None else Path(dump_ir))
    superkernels, unfused, cuts, warnings = summarize(module, original)
    result = CompileResult(module, superkernels, unfused, cuts, warnings, original=original)
    if check:
        from skir.analysis.sk_check import check_module

        result.check = check_module(module)
        if not result.check.ok:
            count = len(result.check.violations)
            raise CheckFailedError(
                f"sk-check found {count} violation{'s' if count != 1 else ''}: {result.check.violations[0]}",
                result.check.violations,
            )
    if sim_costs is not None:
        from skir.sim import Report, compare, costs_source

        result.report = Report(compare(original, module, sim_costs), costs_source(costs))
    if out_dir is not None or emulate or build is not None:
        write_outputs(result, None if out_dir is None else Path(out_dir), emulate=emulate,
                      build=None if build is None else Path(build))
    return result
