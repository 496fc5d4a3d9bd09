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

import inspect
import os
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, ParseError

from skir import progress, provenance
from skir.analysis.comm.comm_rule import comm_hazards
from skir.api_arguments import check_arguments
from skir.compile_result import CompileResult
from skir.diagnostics import located_message
from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.model_lookup import models, qualified_name, the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import SkirError
from skir.gc_pause import paused_gc
from skir.options import SkOptions
from skir.parsing import LocatingParser, SourceMap, verify_located
from skir.passes.common import CUT_ATTR, CUT_DETAIL_ATTR, FAIL_ATTR, FAIL_DETAIL_ATTR
from skir.passes.pipeline import run_pipeline_passes
from skir.readers import ModelReader
from skir.registry import get_all_readers, make_context
from skir.result_records import CutInfo, Member, ModelWarning, ResultData, SkWarning, SuperKernelInfo, Unfused
from skir.source_text import BOM, guard_mlir, model_format, read_model
from skir.targets.update_map import fused_updates
from skir.xdsl_fast.clone import clone_tree
from skir.xdsl_fast.printer import ir_text

__all__ = ["CompileResult", "CutInfo", "Member", "SkWarning", "SuperKernelInfo", "Unfused", "compile", "load_model",
           "make_context", "parse", "run_pipeline", "the_model"]


def parse(text: str, name: str = "<string>", source_map: SourceMap | None = None) -> ModuleOp:
    """Parse and verify `.mlir` text; errors are one-line `SkirError`s."""
    source_map = source_map if source_map is not None else SourceMap()
    guard_mlir(text, name)
    try:
        with paused_gc():
            module = LocatingParser(make_context(), text, name, source_map).parse_module()
        verify_located(module)
    except (ParseError, DiagnosticException) as err:
        message = located_message(err, source_map)
        suffix = Path(name).suffix
        if isinstance(err, ParseError) and suffix and suffix != ".mlir" and not name.startswith("<"):
            message += (f" (a {suffix} file read as .mlir: skir reads .mlir models, capture JSON and the vendor's "
                        "dumps)")
        raise SkirError(message) from None
    return module


def load_model(model: ModuleOp | str | os.PathLike[str] | dict[str, Any],
               cores: tuple[int, int] | None = None) -> ModuleOp:
    """A verified module from a module, a `.mlir` / `.json` path or a vendor dump file or folder
    (`-`: standard input; the format is told by the content), model text (MLIR, capture JSON
    or a vendor dump) or a capture dict. `cores` (AIC, AIV) is for vendor dumps, which carry none."""
    if isinstance(model, ModuleOp):
        if cores is not None:
            raise SkirError(_CORES_ONLY)
        try:
            verify_located(model)
        except DiagnosticException as err:
            raise SkirError(located_message(err)) from None
        return model
    if isinstance(model, dict):
        data, source = model, "<json>"  # the capture importer's name for a dict
    else:
        if isinstance(model, str) and "\n" in model:
            text, source = model.removeprefix(BOM), "<string>"
        elif os.fspath(model) != "-" and Path(model).is_dir():
            folder = next(r.from_folder for r in _readers() if r.from_folder is not None)
            return folder(model, cores)
        else:
            source, text = read_model(model)  # `-`: standard input
        if model_format(text, source) != "json" and text.lstrip()[:1] != "[":
            if cores is not None:
                raise SkirError(_CORES_ONLY)
            return parse(text, source)
        return loads_json_model(text, source, cores)
    return _json_model(data, source, cores)


def loads_json_model(text: str, source: str, cores: tuple[int, int] | None = None) -> ModuleOp:
    """A module from JSON text: capture JSON, or one of the vendor's dumps (told by the content)."""
    parse_text = next(r.parse_text for r in _readers() if r.parse_text is not None)
    return _json_model(parse_text(text, source), source, cores)


def _readers() -> list[ModelReader]:
    """The model readers, in the order they are asked (`skir.registry.get_all_readers`)."""
    return [get() for get in get_all_readers().values()]


def _json_model(data: Any, source: str, cores: tuple[int, int] | None) -> ModuleOp:
    reader = next(r for r in _readers() if r.claims(data))
    if cores is not None and not reader.takes_cores:
        raise SkirError(_CORES_ONLY)
    return reader.from_data(data, source, cores)


_CORES_ONLY = ("argument --cores (cores=): only for the vendor's dumps, which carry no core counts; this model "
               "declares its cores (aclgraph.model cores(...) / capture JSON 'cores')")


def model_options(module: ModuleOp, options: str, typed: SkOptions) -> tuple[str, SkOptions]:
    """`options` (and `typed`, the same parsed) after the options a vendor dump recorded
    (docs/design.md §11; typed, parsed by the vendor front end): a key given in `options` wins
    over the dump's. Returns the string and the typed options."""
    from skir.dialects.vendor_provenance import vendor_info

    info = vendor_info(the_model(module)) if any(isinstance(op, ModelOp) for op in module.ops) else None
    recorded = (info or {}).get("options")
    if not isinstance(recorded, SkOptions) or not recorded.given:
        return options, typed
    kept = [seg for seg in recorded.to_string().split(":") if seg.split("=", 1)[0] not in typed.given]
    return ":".join([*kept, options] if options else kept), recorded.override(typed)


def run_pipeline(
    module: ModuleOp, options: str | SkOptions = "", verify_each: bool = True, dump_ir: Path | None = None
) -> None:
    """Run the SuperKernel pipeline in place; with `dump_ir`, write the IR before and after each pass.
    `options` typed (`SkOptions`) are used as they are; a string is parsed once, by the pipeline."""
    ctx = make_context()
    after = None
    if dump_ir is not None:
        folder = dump_ir
        _dump(folder, "00-input.mlir", module)

        def after(index: int, p: ModulePass) -> None:
            _dump(folder, f"{index:02d}-{p.name}.mlir", module)

    try:
        run_pipeline_passes(ctx, module, options, verify_each, after)
    except (DiagnosticException, ValueError) as err:
        raise SkirError(located_message(err)) from None


def _dump(folder: Path, name: str, module: ModuleOp) -> None:
    """Write one `--dump-ir` file; a folder that cannot be written is bad input naming it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(ir_text(module) + "\n")
    except OSError as err:
        raise SkirError(f"argument --dump-ir (dump_ir=): {folder}: cannot write {name}: "
                        f"{err.strerror or err}") from None


def summarize(
    module: ModuleOp, original: ModuleOp | None = None
) -> tuple[list[SuperKernelInfo], list[Unfused], list[CutInfo], list[SkWarning]]:
    """The SuperKernels, unfused kernels, detailed cuts and warnings of a compiled module
    (`original`, the input before rewriting, saves rebuilding it from the rewritten slots)."""
    from skir.analysis.proof.original import unreset_by_superkernel

    superkernels: list[SuperKernelInfo] = []
    unfused: list[Unfused] = []
    cuts: list[CutInfo] = []
    warnings: list[SkWarning] = []
    before = {} if original is None else {qualified_name(m): m for m in models(original)}
    for model in models(module):  # the model, then each sub-model on its own
        unreset = unreset_by_superkernel(model, before.get(qualified_name(model)))
        _summarize_model(model, unreset, superkernels, unfused, cuts, warnings)
    cuts.sort(key=lambda c: c.seq)
    return superkernels, unfused, cuts, warnings


def _summarize_model(model: ModelOp, unreset: dict[str, list[tuple[str, str]]], superkernels: list[SuperKernelInfo],
                     unfused: list[Unfused], cuts: list[CutInfo], warnings: list[SkWarning]) -> None:
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
                    cuts.append(CutInfo(op.sym_name.data, task.seq.data, cut.data, why.data))


def _select(original: ModuleOp, module: ModuleOp, base: SkOptions, verify_each: bool,
            costs: Any, measured: Any, graphs: ResultData) -> tuple[ModuleOp, list[Any]]:
    """`select=gain` (`skir.selection`): drop the SuperKernels that do not pay and compile again
    (every round's simulation reads `original`'s task graph from `graphs`)."""
    from skir.selection import mark_dropped, mark_names, mark_variants, select, selects_gain

    if not selects_gain(module, base):
        return module, []

    def recompile(dropped: list[Any], variants: dict[Any, str], names: dict[Any, str]) -> ModuleOp:
        work = clone_tree(original)
        mark_dropped(work, dropped)
        mark_variants(work, variants)
        mark_names(work, names)
        run_pipeline(work, base, verify_each)
        return work

    def simulate(before: ModuleOp, after: ModuleOp) -> Any:
        from skir.sim import compare
        from skir.sim.engine import BASELINES

        durations = measured.durations if measured else None
        return compare(before, after, costs, (*BASELINES, "superkernel"), durations,
                       graph=graphs.graph_of(the_model(before)), spans_only=True)

    evidence = None
    if measured is not None:
        from skir.profiles import protocol_class

        def evidence(members: tuple[tuple[str, int], ...]) -> tuple[str, float | None]:
            return protocol_class(measured, members)

    with progress.phase("selection"):
        return select(original, module, base, recompile, simulate, evidence)


_FOLLOW_UPS = {"out_dir": "write(out_dir)", "emulate": "write(emulate=True) or emulate()",
               "build": "write(build=...)", "cache": "write(cache=...) or emulate(cache=...)", "check": "check()",
               "report": "simulate()", "vendor": "compare_with_vendor(...)", "calibrate": "calibrate(off, on)"}
"""The keywords `skir.compile` once took that are follow-ups of its result now."""


def compile(
    model: ModuleOp | str | os.PathLike[str] | dict[str, Any],
    options: str = "",
    *,
    cores: tuple[int, int] | None = None,
    costs: str | os.PathLike[str] | dict[str, Any] | None = None,
    profiles: list[str | os.PathLike[str]] | None = None,
    verify_each: bool = True,
    dump_ir: str | os.PathLike[str] | None = None,
    **moved: object,
) -> CompileResult:
    """Compile a model: form SuperKernels, lower them and emit their Ascend C entries.

    `options` are the global SuperKernel options (`'key=value:...'`); `cores` (AIC, AIV) the
    device's core counts for a vendor dump, which carries none; `costs` (a costs file or dict
    overriding `skir/sim/default_costs.json`) and `profiles` (measured durations, files
    `skir.profiles` reads) are what the simulator uses for `select=gain`, the `predicted_slower`
    warnings and `simulate()`; `verify_each=False` skips verifying the IR after each pass;
    `dump_ir` writes the IR before and after each pass into that folder.

    The result's follow-ups do the rest, each when called: `check()`, `simulate()`,
    `calibrate(off, on)`, `compare_with_vendor(result)`, `emulate()`, `write(out_dir, emulate=,
    build=)` (`skir.compile_result`). Bad input raises a one-line `SkirError`.
    """
    if moved:
        name = sorted(moved)[0]
        if name in _FOLLOW_UPS:
            raise SkirError(f"skir.compile: {name}= is a follow-up of the result now: "
                            f"skir.compile(model, options).{_FOLLOW_UPS[name]} (docs/python.md)")
        raise SkirError(f"skir.compile: no argument {name}= (arguments: model, options, cores, costs, profiles, "
                        "verify_each, dump_ir)")
    given = dict(locals())
    del given["moved"]
    given_typed = check_arguments(given)
    from skir.sim import costs_source

    sim_costs = None
    if costs is not None:
        from skir.sim.costs import load_costs

        sim_costs = load_costs(costs)
    with progress.phase("import"):
        module = load_model(model, cores)
        effective, typed = model_options(module, options, given_typed)
    with progress.phase("copy of the input"):
        original = clone_tree(module)
    run_pipeline(module, typed, verify_each, None if dump_ir is None else Path(dump_ir))
    measured = None
    if profiles:
        from skir.profiles import load_profiles, measure

        with progress.phase("profiles"):
            measured = measure(load_profiles(list(profiles)), original)
    graphs = ResultData(module, [], [], original=original)  # the original's task graph, built once
    module, selection = _select(original, module, typed, verify_each, sim_costs, measured, graphs)
    with progress.phase("summary"):
        superkernels, unfused, cuts, warnings = summarize(module, original)
    changed = {k: v for k, v in given.items() if k != "model" and v != _DEFAULTS.get(k)}
    result = CompileResult(module, superkernels, unfused, cuts, warnings, original=original, selection=selection,
                           measured=measured, options=effective, sk_options=typed, costs=sim_costs,
                           costs_source=costs_source(costs),
                           given_options=options, source=original if isinstance(model, ModuleOp) else model,
                           calls=provenance.call_arguments(changed), graph=graphs.graph)
    result.model_warnings = [ModelWarning(w, a, b, group) for m in models(original)
                             for w, a, b, group in comm_hazards(m, result.graph_of)]
    result.updates = [u for m in models(module) for u in fused_updates(m)]
    result.judge_predicted_slower(result.costs, result.costs_source)
    return result


_DEFAULTS = {k: p.default for k, p in inspect.signature(compile).parameters.items()}
"""`compile`'s defaults: its provenance lists only the arguments a caller changed."""
