"""The reference applier of a rewrite plan (`OUT/plan.json`): what a runtime does, on the IR.

`apply_plan(original, plan)` checks the plan against the captured model — every slot gets
exactly one action, every SuperKernel is launched from one slot, every argument names a
param of a kernel launch the plan takes out of its slot (a member's slot then holds the
launch, nothing, or a boundary value task) — then performs the actions on a copy:

```
aclgraph.launch seq 3 @a blocks 48 args(@x)   set_kernel m_sk0  ->  aclgraph.launch_sk seq 3 @m_sk0 was launch @a ...
aclgraph.launch seq 4 @b blocks 48 args(@x)   disable           ->  aclgraph.disabled seq 4 was launch @b ...
aclgraph.record seq 5 @e1                     set_value_write   ->  aclgraph.value_write seq 5 @e1_cell value 1 was ...
```

and declares the plan's cells. `model_view` is what a runtime sees of a model (declarations
and task slots, without skir's annotations and SuperKernel programs): applying the plan to the
original must give the view of the rewritten model.
"""

from __future__ import annotations

import os
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.rewriter import Rewriter

from skir.dialects.aclgraph import (
    DisabledOp,
    LaunchOp,
    LaunchSkOp,
    ModelOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    was_props,
)
from skir.dialects.aclgraph_decls import CellOp, KernelOp
from skir.dialects.aclgraph_enums import WaitRule
from skir.dialects.model_lookup import all_submodels, submodels
from skir.json_reader import JsonReader, parse_json
from skir.runtime.layout import Addresses, Region, check_addresses, read_cells, read_workspaces
from skir.runtime.update import check_updates
from skir.source_text import read_model
from skir.targets.runtime_identity import task_identity
from skir.xdsl_fast.clone import clone_tree

FORMAT = "skir.rewrite_plan"
MAJOR_VERSION = 3

_ACTIONS = {
    "keep": (), "disable": (), "set_kernel": ("superkernel",), "set_value_write": ("cell", "value"),
    "set_value_wait": ("cell", "rule", "value"),
}
_RULES = {rule.value: rule for rule in WaitRule}
_SOURCES = ("ffts_base", "task", "cell", "workspace", "profiling", "profiling_task_id")


def load_plan(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a plan file (a JSON object; checked by `apply_plan`)."""
    source, text = read_model(path)  # strict UTF-8 and no NUL, as every input file
    plan: dict[str, Any] = parse_json(text, source)
    return plan


class _Reader(JsonReader):
    pass


def apply_plan(original: ModuleOp, plan: dict[str, Any], source: str = "plan.json",
               addresses: Addresses | None = None) -> ModuleOp:
    """A copy of `original` with the plan's actions performed and its cells declared.

    `addresses`, when given, is where the runtime put every cell and workspace of the plan and
    its sub-models (`skir.runtime.layout`): each must start a 64-byte line, hold the bytes the
    plan asks for and share no line with another (docs/design.md §5 "Memory layout")."""
    r = _Reader(source)
    r.obj(plan, "", ("format", "version", "model", "streams", "cells", "slots", "superkernels"),
          ("format", "version", "model", "streams", "cells", "workspaces", "slots", "update", "superkernels",
           "updates", "submodels", "provenance"))
    if plan["format"] != FORMAT:
        r.fail("format", f"expected '{FORMAT}', got {plan['format']!r}")
    version = r.int_(plan["version"], "version", 0, 1 << 31)
    if version != MAJOR_VERSION:
        r.fail("version", f"version {version} is not supported (this reader knows version {MAJOR_VERSION})")
    module = clone_tree(original)
    models = [op for op in module.ops if isinstance(op, ModelOp)]
    if len(models) != 1:
        r.fail("", f"the original module must hold exactly one aclgraph.model, found {len(models)}")
    model = models[0]
    if r.str_(plan["model"], "model") != model.sym_name.data:
        r.fail("model", f"the plan is for @{plan['model']}, the module holds @{model.sym_name.data}")
    regions: list[Region] = []
    _apply_model(r, model, plan, "", regions)
    if addresses is not None:
        check_addresses(r, regions, addresses)
    check_updates(module, plan, source)  # every fused updated member is forwarded, exactly once
    return module


def _apply_model(r: JsonReader, model: ModelOp, plan: dict[str, Any], path: str, regions: list[Region]) -> None:
    """Check and perform the plan of one model (`path`: its JSON path, "" at the top), then of
    each of its sub-models (`submodels`, docs/design.md §3 "Conditional sub-models")."""
    slots: dict[tuple[str, int], TaskOp] = {}
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    names = {op.sym_name.data for op in model.body.block.ops if hasattr(op, "sym_name")}
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            for task in stream.body.block.ops:
                if isinstance(task, TaskOp):
                    slots[(stream.sym_name.data, task.seq.data)] = task
    _check_streams(r, plan["streams"], model, path)
    cell_regions = read_cells(r, plan["cells"], path)
    regions += cell_regions + read_workspaces(r, plan.get("workspaces", []), path)
    cells = [region.key for region in cell_regions]
    for i, cell in enumerate(cells):
        if cell in names or cells.index(cell) != i:
            r.fail(f"{path}cells[{i}].name", f"cell '{cell}' is already declared")
    sks = _superkernels(r, plan["superkernels"], path)
    actions = _actions(r, plan["slots"], slots, set(cells), sks, kernels, path)
    taken = {key for key, action in actions.items() if action["action"] != "keep"}
    _check_args(r, sks, slots, taken, kernels, set(cells))
    subs = {sub.sym_name.data: (cond, branch, sub) for cond, branch, sub in submodels(model)}
    for key, action in actions.items():
        _perform(slots[key], action)
    first_stream = next((op for op in model.body.block.ops if isinstance(op, StreamOp)), None)
    for cell in cells:
        if first_stream is None:
            model.body.block.add_op(CellOp(cell))
        else:
            model.body.block.insert_op_before(CellOp(cell), first_stream)
    entries = r.list_(plan.get("submodels", []), f"{path}submodels")
    for i, entry in enumerate(entries):
        spath = f"{path}submodels[{i}]"
        r.obj(entry, spath, ("name", "streams", "cells", "slots", "superkernels"),
              ("name", "cond", "branch", "streams", "cells", "workspaces", "slots", "update", "superkernels",
               "updates", "submodels"))
        name = r.name(entry["name"], f"{spath}.name")
        if name not in subs:
            r.fail(f"{spath}.name", f"@{model.sym_name.data} runs no sub-model '{name}'")
        _apply_model(r, subs[name][2], entry, f"{spath}.", regions)
    missing = set(subs) - {e.get("name") for e in entries}
    if missing:
        r.fail(f"{path}submodels", f"sub-model '{sorted(missing)[0]}' has no plan (every sub-model needs one)")


_ONE_OBJECT = ("entry", "object", "kernel_type", "blocks")
"""What every SuperKernel launching one shared entry states alike (docs/design.md §5 "Shared entries")."""


def _superkernels(r: JsonReader, value: Any, prefix: str = "") -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    shared: dict[str, dict[str, Any]] = {}
    for i, sk in enumerate(r.list_(value, f"{prefix}superkernels")):
        path = f"{prefix}superkernels[{i}]"
        r.obj(sk, path, ("name", "entry", "blocks", "args"),
              ("name", "entry", "host", "kernel_type", "blocks", "sched_mode", "object", "shared_entry", "args"))
        name = r.name(sk["name"], f"{path}.name")
        if name in found:
            r.fail(f"{path}.name", f"SuperKernel '{name}' is listed twice")
        r.int_(sk["blocks"], f"{path}.blocks", 1, 65535)
        if "shared_entry" in sk:  # one object launched with each SuperKernel's own table: one launch shape
            first = shared.setdefault(r.name(sk["shared_entry"], f"{path}.shared_entry"), sk)
            for field in _ONE_OBJECT:
                if sk.get(field) != first.get(field):
                    r.fail(f"{path}.{field}", f"{sk.get(field)!r} differs from {first.get(field)!r} of "
                                              f"'{first['name']}', which launches the same shared entry "
                                              f"'{sk['shared_entry']}'")
        found[name] = {**sk, "_path": path}
    return found


def _check_streams(r: JsonReader, value: Any, model: ModelOp, prefix: str) -> None:
    """The `streams` table names the model's streams, each once, with its index in order."""
    names = [op.sym_name.data for op in model.body.block.ops if isinstance(op, StreamOp)]
    entries = r.list_(value, f"{prefix}streams")
    for i, entry in enumerate(entries):
        path = f"{prefix}streams[{i}]"
        r.obj(entry, path, ("name", "index"), ("name", "index", "id"))
        if i >= len(names) or r.name(entry["name"], f"{path}.name") != names[i]:
            r.fail(f"{path}.name", f"expected {names[i] if i < len(names) else 'no more streams'!r}: the table "
                                   "lists the model's streams in order")
        if r.int_(entry["index"], f"{path}.index", 0, 1 << 20) != i:
            r.fail(f"{path}.index", f"expected {i}: a stream's index is its place in the runtime's stream list")
        if "id" in entry:
            r.int_(entry["id"], f"{path}.id", 0, 1 << 31)
    if len(entries) != len(names):
        r.fail(f"{prefix}streams", f"lists {len(entries)} stream(s); the model has {len(names)}")


def _actions(r: JsonReader, value: Any, slots: dict[tuple[str, int], TaskOp], cells: set[str],
             sks: dict[str, dict[str, Any]], kernels: dict[str, KernelOp],
             prefix: str = "") -> dict[tuple[str, int], dict[str, Any]]:
    actions: dict[tuple[str, int], dict[str, Any]] = {}
    launched: dict[str, str] = {}
    ranks = {key: rank for rank, key in enumerate(sorted(slots, key=lambda k: (k[1], k[0])))}
    for i, entry in enumerate(r.list_(value, f"{prefix}slots")):
        path = f"{prefix}slots[{i}]"
        r.obj(entry, path, ("stream", "seq", "seq_id", "action", "task"), ("stream", "seq", "seq_id", "action",
                                                                           "task", *{key for keys in _ACTIONS.values()
                                                                                     for key in keys}))
        key = (r.name(entry["stream"], f"{path}.stream"), r.int_(entry["seq"], f"{path}.seq", 0, 1 << 62))
        if key not in slots:
            r.fail(path, f"the model has no slot @{key[0]} seq {key[1]}")
        if key in actions:
            r.fail(path, f"slot @{key[0]} seq {key[1]} has a second action")
        kind = r.enum(entry["action"], f"{path}.action", {a: a for a in _ACTIONS}, "an action")
        if entry["task"] != task_identity(slots[key], kernels):  # what the captured task is, as the runtime sees it
            r.fail(f"{path}.task", f"{entry['task']} is not what the model's slot @{key[0]} seq {key[1]} holds: "
                                   f"{task_identity(slots[key], kernels)}")
        if r.int_(entry["seq_id"], f"{path}.seq_id", 0, 1 << 32) != ranks[key]:
            r.fail(f"{path}.seq_id", f"expected {ranks[key]}: the slot's place in the model's capture order")
        extra = set(entry) - {"stream", "seq", "seq_id", "action", "task", *_ACTIONS[kind]}
        if extra:
            r.fail(f"{path}.{sorted(extra)[0]}", f"not a field of action '{kind}'")
        for field in _ACTIONS[kind]:
            if field not in entry:
                r.fail(f"{path}.{field}", f"action '{kind}' needs '{field}'")
        if "cell" in entry and r.name(entry["cell"], f"{path}.cell") not in cells:
            r.fail(f"{path}.cell", f"cell '{entry['cell']}' is not in the plan's cells")
        if "value" in entry:
            r.int_(entry["value"], f"{path}.value", 0, (1 << 64) - 1)
        if "rule" in entry:
            r.enum(entry["rule"], f"{path}.rule", _RULES, "a wait rule")
        if kind == "set_kernel":
            name = r.name(entry["superkernel"], f"{path}.superkernel")
            if name not in sks:
                r.fail(f"{path}.superkernel", f"SuperKernel '{name}' is not in the plan's superkernels")
            if name in launched:
                r.fail(f"{path}.superkernel", f"SuperKernel '{name}' is already launched from {launched[name]}")
            if not isinstance(slots[key], LaunchOp):
                r.fail(path, f"set_kernel needs a kernel launch slot; @{key[0]} seq {key[1]} holds "
                             f"'{slots[key].name}'")
            launched[name] = path
        actions[key] = entry
    missing = [key for key in slots if key not in actions]
    if missing:
        r.fail(f"{prefix}slots", f"slot @{missing[0][0]} seq {missing[0][1]} has no action (every slot needs one)")
    for name, sk in sks.items():
        if name not in launched:
            r.fail(sk["_path"], f"SuperKernel '{name}' is launched from no slot")
    return actions


def _check_args(r: JsonReader, sks: dict[str, dict[str, Any]], slots: dict[tuple[str, int], TaskOp],
                taken: set[tuple[str, int]], kernels: dict[str, KernelOp], cells: set[str]) -> None:
    """Every argument slot has a known source, and a task argument names a param of a task taken out."""
    for sk in sks.values():
        for j, arg in enumerate(r.list_(sk["args"], f"{sk['_path']}.args")):
            path = f"{sk['_path']}.args[{j}]"
            r.obj(arg, path, ("slot", "source"), ("slot", "source", "stream", "seq", "arg", "cell", "use", "uses"))
            if r.int_(arg["slot"], f"{path}.slot", 0, 1 << 31) != j:
                r.fail(f"{path}.slot", f"expected slot {j}: the table lists every slot in order")
            source = r.enum(arg["source"], f"{path}.source", {s: s for s in _SOURCES}, "an argument source")
            if source == "cell" and arg.get("cell") not in cells:
                r.fail(f"{path}.cell", f"cell {arg.get('cell')!r} is not in the plan's cells")
            if source != "task":
                continue
            key = (arg.get("stream"), arg.get("seq"))
            task = slots.get(key)
            if key not in taken or not isinstance(task, LaunchOp):
                r.fail(path, f"names @{key[0]} seq {key[1]}, which is not a kernel launch the plan takes out of "
                             "its slot")
            params = kernels[task.kernel.root_reference.data].num_params
            r.int_(arg.get("arg"), f"{path}.arg", 0, params - 1)


def _perform(task: TaskOp, action: dict[str, Any]) -> None:
    kind = action["action"]
    if kind == "keep":
        return
    new: TaskOp
    seq = task.seq.data
    if kind == "disable":
        new = DisabledOp(task)
    elif kind == "set_kernel":
        new = LaunchSkOp(seq, action["superkernel"])
    elif kind == "set_value_write":
        new = ValueWriteOp(seq, action["cell"], action["value"])
    else:
        new = ValueWaitOp(seq, action["cell"], _RULES[action["rule"]], action["value"])
    if not isinstance(new, DisabledOp):
        new.properties.update(was_props(task))
    Rewriter.replace_op(task, new)


def model_view(module: ModuleOp) -> str:
    """What a runtime sees of the module's model: declarations and task slots as text, without
    `sk.*` annotations and without the `sk.kernel` programs."""
    model = next(op for op in module.ops if isinstance(op, ModelOp)).clone()
    for each in [model, *all_submodels(model)]:
        for op in list(each.body.block.ops):
            if op.name.startswith("sk."):
                each.body.block.detach_op(op)
                op.erase()
    for op in model.walk():
        for name in [n for n in op.attributes if n.startswith("sk.")]:
            del op.attributes[name]
    return str(model)

