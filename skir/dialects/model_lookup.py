"""Lookups over a module of `aclgraph` models, for passes and targets alike: the models, a
model's kernel table (built once per pass or print), and whether formation has run."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import CondOp, LaunchOp, ModelOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.formation_attrs import FAIL_ATTR, GROUP_ATTR
from skir.errors import SkirError


def top_models(module: ModuleOp) -> list[ModelOp]:
    """The `aclgraph.model` ops at the top of `module`."""
    return [op for op in module.ops if isinstance(op, ModelOp)]


def models(module: ModuleOp) -> list[ModelOp]:
    """Every `aclgraph.model` of `module`: each one at the top, then its sub-models (those its
    condition tasks hold, docs/design.md §3 "Conditional sub-models"), depth first. A pass runs
    on each on its own."""
    found: list[ModelOp] = []
    for model in top_models(module):
        found.append(model)
        found.extend(all_submodels(model))
    return found


def submodels(model: ModelOp) -> list[tuple[CondOp, int, ModelOp]]:
    """(condition task, branch, sub-model) of each sub-model `model`'s own streams hold."""
    return [(task, i, sub) for stream in model.body.block.ops if isinstance(stream, StreamOp)
            for task in stream.body.block.ops if isinstance(task, CondOp)
            for i, sub in enumerate(task.submodels())]


def all_submodels(model: ModelOp) -> list[ModelOp]:
    """Every sub-model below `model`, depth first."""
    found: list[ModelOp] = []
    for _, _, sub in submodels(model):
        found.append(sub)
        found.extend(all_submodels(sub))
    return found


def qualified_name(model: ModelOp) -> str:
    """`<model>_<submodel>...`: the name a sub-model's SuperKernels start with (the model's own
    name at the top)."""
    names = [model.sym_name.data]
    op = model.parent_op()
    while op is not None:
        if isinstance(op, ModelOp):
            names.append(op.sym_name.data)
        op = op.parent_op()
    return "_".join(reversed(names))


def root_model(model: ModelOp) -> ModelOp:
    """The model at the top of the tree `model` belongs to (itself at the top)."""
    root, op = model, model.parent_op()
    while op is not None:
        if isinstance(op, ModelOp):
            root = op
        op = op.parent_op()
    return root


def tree_names(model: ModelOp) -> set[str]:
    """Every symbol name of the tree of models `model` belongs to (the top model and all its
    sub-models): what a name a pass adds must differ from, for one flat plan."""
    root = root_model(model)
    return {op.properties["sym_name"].data
            for m in (root, *all_submodels(root)) for op in m.body.block.ops if "sym_name" in op.properties}


def the_model(module: ModuleOp) -> ModelOp:
    """The one `aclgraph.model` at the top of `module` (a one-line error when there is not
    exactly one; its sub-models are inside it)."""
    found = top_models(module)
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
        emitted = {op.properties["sym_name"].data for op in module.ops
                   if op.name == "ascendc.source"}
        for model in models(module):
            for op in model.body.block.ops:
                if op.name == "sk.kernel" and op.properties["sym_name"].data not in emitted:
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
            launch = task if isinstance(task, LaunchOp) else task.was_task()
            if isinstance(launch, LaunchOp) and launch.updates_args_only:
                found[(stream.sym_name.data, task.seq.data)] = launch
    return found
