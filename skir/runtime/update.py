"""The reference forwarding of a per-replay update into a SuperKernel (docs/design.md §3
"Updated kernels"): what a runtime does when it re-issues the parameters of a fused member of a
task group.

`check_updates(rewritten, plan)` checks the plan's `updates` against the rewritten model: every
fused member whose group updates its arguments (`task_group N update args`) has exactly one
entry, with its group and SuperKernel, and `slots[i]` is the argument-table slot the plan fills
from the member's argument `i`. `apply_update(rewritten, plan, stream, seq, args)` then forwards
one update: argument `i` goes into `slots[i]`, which is the member's argument `i` of the
argument table; on the IR, the member's recorded task (`was launch ... args(...)`) takes the new
buffers:

```
aclgraph.disabled seq 6 was launch @fia blocks 8 args(@q, @kv) task_group 2 update args
        apply_update(m, plan, "s1", 6, ["q", "kv_step2"])  ->
aclgraph.disabled seq 6 was launch @fia blocks 8 args(@q, @kv_step2) task_group 2 update args
```

so compiling the original with that launch's new arguments gives the same model view
(`skir.runtime.model_view`) — the check the tests make.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp

from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp, TaskOp
from skir.dialects.aclgraph_decls import BufferOp
from skir.dialects.model_lookup import models, submodels, updated_launches
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.syntax import symbol_ref
from skir.json_reader import JsonReader
from skir.xdsl_fast.clone import clone_tree


def _model(module: ModuleOp) -> ModelOp:
    return next(op for op in module.ops if isinstance(op, ModelOp))


def check_updates(rewritten: ModuleOp, plan: dict[str, Any], source: str = "plan.json") -> dict[tuple[str, int],
                                                                                                  dict[str, Any]]:
    """(stream, seq) -> the plan's update entry of each fused updated member, over the model and
    its sub-models (each plan part checked against its own model); raises `SkirError` (naming
    the JSON path) for a missing, doubled or wrong entry."""
    r = JsonReader(source)
    found: dict[tuple[str, int], dict[str, Any]] = {}
    for model, part, path in _parts(r, _model(rewritten), plan, ""):
        found.update(_check_model(r, model, part, path))
    return found


def _parts(r: JsonReader, model: ModelOp, plan: dict[str, Any],
           path: str) -> Iterator[tuple[ModelOp, dict[str, Any], str]]:
    """(model, its plan part, the part's JSON path) for `model` and its sub-models."""
    yield model, plan, path
    subs = {sub.sym_name.data: sub for _, _, sub in submodels(model)}
    for i, entry in enumerate(r.list_(plan.get("submodels", []), f"{path}submodels")):
        if isinstance(entry, dict) and entry.get("name") in subs:
            yield from _parts(r, subs[entry["name"]], entry, f"{path}submodels[{i}].")


def _check_model(r: JsonReader, model: ModelOp, plan: dict[str, Any], prefix: str) -> dict[tuple[str, int],
                                                                                          dict[str, Any]]:
    launches = updated_launches(model)
    fused = {(s.stream.root_reference.data, s.seq.data): op.sym_name.data
             for op in model.body.block.ops if isinstance(op, SuperKernelOp) for s in op.subtasks()}
    tables = {}
    from_plan: dict[tuple[str, int], str] = {}
    for i, sk in enumerate(r.list_(plan.get("superkernels", []), f"{prefix}superkernels")):
        tables[sk["name"]] = (f"{prefix}superkernels[{i}]",
                              r.list_(sk.get("args", []), f"{prefix}superkernels[{i}].args"))
        for a in tables[sk["name"]][1]:
            if a.get("source") == "task":
                from_plan[(a.get("stream"), a.get("seq"))] = sk["name"]
    if not fused:  # a model the plan was applied to: the members are those the argument tables name
        fused = from_plan
    found: dict[tuple[str, int], dict[str, Any]] = {}
    for i, entry in enumerate(r.list_(plan.get("updates", []), f"{prefix}updates")):
        path = f"{prefix}updates[{i}]"
        r.obj(entry, path, ("task_group", "stream", "seq", "superkernel", "slots"),
              ("task_group", "stream", "seq", "superkernel", "slots"))
        key = (r.name(entry["stream"], f"{path}.stream"), r.int_(entry["seq"], f"{path}.seq", 0, 1 << 62))
        if key not in launches or key not in fused:
            r.fail(path, f"@{key[0]} seq {key[1]} is not a fused kernel of a task group that updates its arguments")
        if key in found:
            r.fail(path, f"@{key[0]} seq {key[1]} has a second update entry")
        if r.int_(entry["task_group"], f"{path}.task_group", 0, (1 << 32) - 1) != launches[key].group:
            r.fail(f"{path}.task_group", f"@{key[0]} seq {key[1]} belongs to task group {launches[key].group}")
        if entry["superkernel"] != fused[key]:
            r.fail(f"{path}.superkernel", f"@{key[0]} seq {key[1]} runs in {fused[key]}")
        if fused[key] not in tables:
            r.fail(f"{path}.superkernel", f"SuperKernel '{fused[key]}' is not in the plan's superkernels")
        table_path, table = tables[fused[key]]
        want = sorted((a["arg"], a["slot"]) for a in table
                      if a.get("source") == "task" and (a.get("stream"), a.get("seq")) == key)
        slots = [r.int_(v, f"{path}.slots[{j}]", 0, 1 << 31) for j, v in enumerate(r.list_(entry["slots"],
                                                                                             f"{path}.slots"))]
        if slots != [slot for _, slot in want] or [arg for arg, _ in want] != list(range(len(want))):
            r.fail(f"{path}.slots", f"expected {[slot for _, slot in want]}: the slots {table_path}.args fills from "
                                    f"@{key[0]} seq {key[1]}'s arguments 0, 1, ... in order")
        found[key] = entry
    missing = [key for key in launches if key in fused and key not in found]
    if missing:
        r.fail(f"{prefix}updates", f"@{missing[0][0]} seq {missing[0][1]} is a fused updated kernel with no "
                                   "update entry (its re-issued arguments would never reach the SuperKernel)")
    return found


def apply_update(rewritten: ModuleOp, plan: dict[str, Any], stream: str, seq: int, args: Sequence[str],
                 source: str = "plan.json") -> ModuleOp:
    """A copy of `rewritten` after forwarding the update of member `stream`/`seq` whose
    re-issued arguments are the buffers `args` (see the module docstring)."""
    r = JsonReader(source)
    entry = check_updates(rewritten, plan, source).get((stream, seq))
    if entry is None:
        r.fail("updates", f"no update entry for @{stream} seq {seq}")
    module = clone_tree(rewritten)
    model = next(m for m in models(module) if any(isinstance(s, StreamOp) and s.sym_name.data == stream
                                                  for s in m.body.block.ops))
    buffers = {op.sym_name.data for op in model.body.block.ops if isinstance(op, BufferOp)}
    if len(args) != len(entry["slots"]):
        r.fail("updates", f"@{stream} seq {seq} takes {len(entry['slots'])} arguments, the update gives {len(args)}")
    for a in args:
        if a not in buffers:
            r.fail("updates", f"the update of @{stream} seq {seq} names '{a}', which is not a buffer of the model")
    task = _slot(model, stream, seq)
    table = next(sk for _, part, _ in _parts(r, _model(rewritten), plan, "") for sk in part["superkernels"]
                 if sk["name"] == entry["superkernel"])["args"]
    old = task if isinstance(task, LaunchOp) else task.was_task()
    assert isinstance(old, LaunchOp) and old.args is not None
    new = [ref.root_reference.data for ref in old.args]
    for i, slot in enumerate(entry["slots"]):  # the runtime's write: slot <- argument i
        new[table[slot]["arg"]] = args[i]
    refs = ArrayAttr(tuple(symbol_ref(a) for a in new))
    if isinstance(task, LaunchOp):
        task.properties["args"] = refs
    else:
        was = dict(task.properties["was"].data)  # type: ignore[attr-defined]
        was["args"] = refs
        task.properties["was"] = DictionaryAttr(was)
    return module


def _slot(model: ModelOp, stream: str, seq: int) -> TaskOp:
    for op in model.body.block.ops:
        if isinstance(op, StreamOp) and op.sym_name.data == stream:
            for task in op.body.block.ops:
                if isinstance(task, TaskOp) and task.seq.data == seq:
                    return task
    raise AssertionError("checked by check_updates")
