"""Lookups over a module of `aclgraph` models, for passes and targets alike: the models, a
model's kernel table (built once per pass or print), and whether formation has run."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.formation_attrs import FAIL_ATTR, GROUP_ATTR
from skir.errors import SkirError


def models(module: ModuleOp) -> list[ModelOp]:
    """The `aclgraph.model` ops at the top of `module`."""
    return [op for op in module.ops if isinstance(op, ModelOp)]


def the_model(module: ModuleOp) -> ModelOp:
    """The one `aclgraph.model` of `module` (a one-line error when there is not exactly one)."""
    found = models(module)
    if len(found) != 1:
        raise SkirError(f"expected exactly one aclgraph.model in the input, found {len(found)}")
    return found[0]


def kernel_table(model: ModelOp) -> dict[str, KernelOp]:
    """Kernel name -> declaration."""
    return {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}


def formed(module: ModuleOp) -> bool:
    """Whether `sk-form-scopes` has decided on every kernel task of the module's models (each
    carries `sk.group` or `sk.fail`, or was outlined): a target may then print an empty result
    for a model that fuses nothing, as `sk-compile` writes one."""
    for model in models(module):
        for stream in model.body.block.ops:
            if isinstance(stream, StreamOp):
                for op in stream.body.block.ops:
                    if isinstance(op, LaunchOp) and GROUP_ATTR not in op.attributes and FAIL_ATTR not in op.attributes:
                        return False
    return True


def missing_pass(module: ModuleOp, *, sources: bool = False) -> str | None:
    """The first pass a target needs that has not run on `module`, if any: `sk-outline` while
    a kernel task carries a group that formation decided but no `sk.kernel` holds yet;
    with `sources`, `sk-to-ascendc` while an `sk.kernel` has no `ascendc.source` of its name.
    (A module no pass has touched is the target's own case: it says what to run.)"""
    for model in models(module):
        for stream in model.body.block.ops:
            if isinstance(stream, StreamOp):
                for op in stream.body.block.ops:
                    if isinstance(op, LaunchOp) and GROUP_ATTR in op.attributes:
                        return "sk-outline"
    if sources:
        emitted = {op.properties["sym_name"].data for op in module.ops  # type: ignore[attr-defined]
                   if op.name == "ascendc.source"}
        for model in models(module):
            for op in model.body.block.ops:
                if op.name == "sk.kernel" and op.properties["sym_name"].data not in emitted:  # type: ignore
                    return "sk-to-ascendc"
    return None


def require_passes(target: str, module: ModuleOp, *, sources: bool = False) -> None:
    """Refuse to print `target` from a module a pass it needs has not reached (exit 1), naming
    the pass: a plan of all `keep` or an empty source from half a pipeline would look done."""
    needed = missing_pass(module, sources=sources)
    if needed is not None:
        raise SkirError(f"target '{target}': the module has SuperKernels that {needed} has not reached; run the "
                        f"passes up to '{needed}' (or 'superkernel-pipeline') first")


def updated_launches(model: ModelOp) -> dict[tuple[str, int], LaunchOp]:
    """(stream, seq) -> the launch of every slot that holds or held a kernel whose group updates
    its arguments only."""
    found: dict[tuple[str, int], LaunchOp] = {}
    for stream in model.body.block.ops:
        if not isinstance(stream, StreamOp):
            continue
        for task in stream.body.block.ops:
            launch = task if isinstance(task, LaunchOp) else task.was_task()  # type: ignore[attr-defined]
            if isinstance(launch, LaunchOp) and launch.updates_args_only:
                found[(stream.sym_name.data, task.seq.data)] = launch  # type: ignore[attr-defined]
    return found
