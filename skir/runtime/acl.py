"""Apply skir's products to a captured graph through the public ACL API (docs/device.md).

`apply(acl, model_ri, out_dir)` does to a captured model runtime instance what `OUT/plan.json`
says, with the calls the vendor's own rewrite uses:

1. it reads every slot the plan names, found by its stream's index (`aclmdlRIGetStreams`) and its
   sequence id (`aclmdlRITaskGetSeqId`), and checks it is the slot the plan was compiled from
   (task type; for a kernel its function, blocks, argument size and task group); a mismatch is
   one error naming the slot and what differs, and nothing has been changed;
2. it allocates the plan's cells and workspaces (64-byte aligned, zeroed), loads each distinct
   entry object once (`aclrtBinaryLoadFromFile`, `aclrtBinaryGetFunction`) and writes each
   SuperKernel's argument table into device memory, built from the original tasks' arguments
   read in step 1;
3. it sets the host slots' kernel params and the converted event slots' value params
   (`aclmdlRITaskSetParams`), disables the absorbed slots (`aclmdlRITaskDisable`) and commits
   (`aclmdlRIUpdate`). A failed call undoes every `SetParams` so far from the parameters read in
   step 1 and frees what step 2 took; ACL has no call that enables a disabled task again, so the
   disables come last, and a failure among them leaves them staged but uncommitted: the graph runs
   as captured, and the error says to capture it again.

Applying twice to one graph is refused. `forward_updates()` copies the arguments a task group's
update re-issued into the SuperKernel tables that absorbed its members (`fuse-updated=1`, the
plan's `updates`); `release()` frees what the applier allocated (after the graph is destroyed).

```python
from skir.runtime.acl import apply
from skir.runtime.acl_lib import open_library

applied = apply(open_library(), model_ri, "out/decode_layer")   # then aclmdlRIExecuteAsync
applied.forward_updates()                                        # after each task-group update
```
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skir.errors import SkirError
from skir.runtime.acl_lib import AclCallError, AclLibrary
from skir.runtime.acl_types import (
    LAUNCH_ATTR_SCHEM_MODE,
    TASK_KERNEL,
    TASK_TYPE_NAMES,
    TASK_VALUE_WAIT,
    TASK_VALUE_WRITE,
    AclLaunchKernelAttr,
    AclLaunchKernelCfg,
    AclTaskParams,
)
from skir.runtime.apply import FORMAT, MAJOR_VERSION, load_plan

WAIT_FLAGS = {"geq": 0, "eq": 1, "and": 2, "nor": 3}
"""`aclrtValueWait` / `aclmdlRIValueWaitTaskParams.flag` of each wait rule."""
_APPLIED: set[int] = set()
"""The model runtime instances this process applied a plan to."""


@dataclass
class _Slot:
    entry: dict[str, Any]
    name: str       # "@s0 seq 3 (stream 0, seq id 3)"
    task: int
    before: AclTaskParams


@dataclass
class AppliedPlan:
    """What `apply` did to one graph: the cells and workspaces it allocated, the entry objects it
    loaded, each SuperKernel's argument table, and where each SuperKernel is launched."""

    acl: AclLibrary
    model_ri: int
    plan: dict[str, Any]
    cells: dict[str, int] = field(default_factory=dict)
    part_cells: dict[str, list[str]] = field(default_factory=dict)
    """The cells of each part of the plan: "" the model's, else a sub-model's by name."""
    workspaces: dict[tuple[str, int], int] = field(default_factory=dict)
    tables: dict[str, tuple[int, list[int]]] = field(default_factory=dict)
    """SuperKernel -> (the table's device address, its words as written)."""
    launches: dict[tuple[str, int], str] = field(default_factory=dict)
    """(stream, seq) of each host slot -> the SuperKernel it launches."""
    functions: dict[str, int] = field(default_factory=dict)
    """Entry name -> its function handle."""
    tasks: dict[tuple[str, int], int] = field(default_factory=dict)
    """(stream, seq) of every slot -> its task handle."""
    allocations: list[int] = field(default_factory=list)
    binaries: list[int] = field(default_factory=list)

    def forward_updates(self) -> int:
        """Copy the current arguments of every fused updated member (`plan.json` `updates`) into
        its SuperKernel's table, argument `i` into slot `slots[i]`; returns how many were
        forwarded. Call it after each task-group update (`aclmdlRICaptureTaskUpdateEnd`)."""
        count = 0
        for update in self._updates(self.plan):
            key = (update["stream"], update["seq"])
            at = f"the updated member @{key[0]} seq {key[1]} of {update['superkernel']}"
            words = _task_words(self.acl, self.acl.params(self.tasks[key], at=at), at)
            table, _ = self.tables[update["superkernel"]]
            for i, slot in enumerate(update["slots"]):
                if i >= len(words):
                    raise SkirError(f"{at}: re-issued with {len(words)} arguments, the plan forwards "
                                    f"{len(update['slots'])}")
                self.acl.to_device(table + 8 * slot, words[i].to_bytes(8, "little"), at=at)
            count += 1
        return count

    def _updates(self, part: dict[str, Any]) -> list[dict[str, Any]]:
        return [*part.get("updates", []), *(u for sub in part.get("submodels", []) for u in self._updates(sub))]

    def release(self) -> None:
        """Free the cells, workspaces and tables and unload the entry objects (the graph that
        launches them must be destroyed first)."""
        for ptr in self.allocations:
            self.acl("aclrtFree", ptr, at="releasing what the plan allocated")
        for binary in self.binaries:
            self.acl("aclrtBinaryUnLoad", binary, at="releasing the entry objects")
        self.allocations.clear()
        self.binaries.clear()


def apply(acl: AclLibrary, model_ri: int, out_dir: str | os.PathLike[str], *,
          object_dir: str | os.PathLike[str] | None = None, submodels: dict[str, int] | None = None) -> AppliedPlan:
    """Apply `OUT/plan.json` to the captured graph `model_ri` (see the module docstring); the
    entry objects are `OBJECT_DIR/<plan object>` (default OUT, where `build.sh` puts them). A model
    with condition tasks needs the instance of each sub-model (`submodels`: its name -> the
    `modelRIArray` entry `aclmdlRIAddCondTask` returned): each gets its part of the plan, checked
    and changed with the rest, and is committed before the model that runs it."""
    out = Path(out_dir)
    plan = load_plan(out / "plan.json")
    if plan.get("format") != FORMAT or plan.get("version") != MAJOR_VERSION:
        raise SkirError(f"{out / 'plan.json'}: not a rewrite plan of version {MAJOR_VERSION}")
    parts = _parts(plan, model_ri, submodels or {})
    if any(ri in _APPLIED for _, ri in parts):
        raise SkirError("the plan was applied to this graph already; capture it again to apply a plan")
    applied = AppliedPlan(acl, model_ri, plan)
    slots: dict[tuple[str, int], _Slot] = {}
    for part, ri in parts:
        slots.update(_read_slots(acl, ri, part, applied))
    try:
        for part, _ in parts:
            _allocate(applied, part, Path(object_dir) if object_dir is not None else out)
        words = {key: _task_words(acl, slot.before, slot.name) for key, slot in slots.items()
                 if slot.before.type == TASK_KERNEL and slot.entry["action"] != "keep"}
        for part, _ in parts:
            _write_tables(applied, part, slots, words)
    except SkirError:
        _free(applied)
        raise
    _change(applied, parts, slots)
    _APPLIED.update(ri for _, ri in parts)
    return applied


def _parts(plan: dict[str, Any], model_ri: int, submodels: dict[str, int]) -> list[tuple[dict[str, Any], int]]:
    """(plan part, its instance) of the model and of every sub-model, sub-models first (deepest
    first), so that each is committed before the model whose condition task runs it."""
    out: list[tuple[dict[str, Any], int]] = []
    for entry in plan.get("submodels", []):
        name = entry.get("name")
        if name not in submodels:
            raise SkirError(f"the plan has a part for sub-model '{name}'; give its model runtime instance "
                            "(submodels={name: the modelRIArray entry of aclmdlRIAddCondTask})")
        out += _parts(entry, submodels[name], submodels)
    return [*out, (plan, model_ri)]


def _read_slots(acl: AclLibrary, model_ri: int, plan: dict[str, Any],
                applied: AppliedPlan) -> dict[tuple[str, int], _Slot]:
    """Every slot the plan names, checked against the graph before anything changes."""
    streams = acl.streams(model_ri)
    table = plan["streams"]
    if len(streams) != len(table):
        raise SkirError(f"the graph has {len(streams)} stream(s), the plan's model {len(table)}: not the graph the "
                        "plan was compiled from")
    index = {s["name"]: s["index"] for s in table}
    found: dict[tuple[int, int], int] = {}
    for i, stream in enumerate(streams):
        for task in acl.tasks(stream, at=f"stream {i}"):
            found[(i, acl.seq_id(task, at=f"stream {i}"))] = task
    entries = {sk["entry"] for sk in plan["superkernels"]}
    slots: dict[tuple[str, int], _Slot] = {}
    for entry in plan["slots"]:
        stream, seq = entry["stream"], entry["seq"]
        name = f"@{stream} seq {seq} (stream {index[stream]}, seq id {entry['seq_id']})"
        task = found.pop((index[stream], entry["seq_id"]), 0)
        if not task:
            raise SkirError(f"slot {name}: the graph has no such task: not the graph the plan was compiled from")
        _check_task(acl, task, entry, name, entries)
        slots[(stream, seq)] = _Slot(entry, name, task, acl.params(task, at=name))
        applied.tasks[(stream, seq)] = task
    if found:
        (i, seq_id), _ = min(found.items())
        raise SkirError(f"the graph's stream {i} holds a task of seq id {seq_id} that the plan does not name: not "
                        "the graph the plan was compiled from")
    return slots


def _check_task(acl: AclLibrary, task: int, entry: dict[str, Any], name: str, entries: set[str]) -> None:
    want = entry["task"]
    kind = TASK_TYPE_NAMES[acl.task_type(task, at=name)]
    if kind != want["type"]:
        raise SkirError(f"slot {name}: the graph holds a {kind} task, the plan a {want['type']} task")
    params = acl.params(task, at=name)
    if kind == "kernel":
        k = params.u.kernel
        function = acl.function_name(k.funcHandle, at=name)
        if function in entries:
            raise SkirError(f"slot {name} launches {function}, an entry of this plan: the plan was applied to this "
                            "graph already")
        got = {"function": function, "blocks": k.numBlocks, "args_bytes": k.argsSize}
        for field_name, value in got.items():
            if value != want[field_name]:
                raise SkirError(f"slot {name}: {field_name.replace('_', ' ')} {value} in the graph, "
                                f"{want[field_name]} in the plan")
    group = params.taskGrp or 0
    if ("task_group" in want) != bool(group):
        planned = f"in task group {want['task_group']}" if "task_group" in want else "outside every one"
        raise SkirError(f"slot {name}: {'in' if group else 'outside'} a task group in the graph, {planned} in the plan")


def _aligned(applied: AppliedPlan, size: int, align: int, at: str) -> int:
    """`size` zeroed bytes of device memory at a multiple of `align`."""
    ptr = applied.acl.malloc(size + align, at=at)
    applied.allocations.append(ptr)
    addr = (ptr + align - 1) // align * align
    applied.acl("aclrtMemset", addr, size, 0, size, at=at)
    return addr


def _allocate(applied: AppliedPlan, plan: dict[str, Any], objects: Path) -> None:
    for cell in plan["cells"]:
        applied.cells[cell["name"]] = _aligned(applied, cell["bytes"], cell["align"], f"cell {cell['name']}")
        applied.part_cells.setdefault(plan.get("name", ""), []).append(cell["name"])
    for ws in plan.get("workspaces", []):
        at = f"{ws['use']} of {ws['superkernel']} (slot {ws['slot']})"
        applied.workspaces[(ws["superkernel"], ws["slot"])] = _aligned(applied, ws["bytes"], ws["align"], at)
    loaded: dict[str, int] = {}
    for sk in plan["superkernels"]:
        path = objects / sk["object"]
        if str(path) not in loaded:
            if not path.is_file():
                raise SkirError(f"{path}: no entry object of {sk['name']}: build it with its build.sh first")
            loaded[str(path)] = applied.acl.load_binary(str(path), at=f"the entry object of {sk['name']}")
            applied.binaries.append(loaded[str(path)])
        if sk["entry"] not in applied.functions:
            applied.functions[sk["entry"]] = applied.acl.get_function(loaded[str(path)], sk["entry"], at=str(path))


def _task_words(acl: AclLibrary, params: AclTaskParams, at: str) -> list[int]:
    """The 64-bit argument words of a kernel task, read from device memory or host args."""
    k = params.u.kernel
    if k.argsSize == 0 or not k.args:
        return []
    raw = ctypes.string_at(k.args, k.argsSize) if k.isHostArgs else acl.from_device(k.args, k.argsSize, at=at)
    return [int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw) - 7, 8)]


def _write_tables(applied: AppliedPlan, plan: dict[str, Any], slots: dict[tuple[str, int], _Slot],
                  words: dict[tuple[str, int], list[int]]) -> None:
    ffts = None
    for sk in plan["superkernels"]:
        table = []
        for arg in sk["args"]:
            source = arg["source"]
            if source == "ffts_base":
                ffts = applied.acl.hardware_sync_addr() if ffts is None else ffts
                table.append(ffts)
            elif source == "task":
                table.append(words[(arg["stream"], arg["seq"])][arg["arg"]])
            elif source == "cell":
                table.append(applied.cells[arg["cell"]])
            elif source == "profiling_task_id":
                table.append(slots[(sk["host"]["stream"], sk["host"]["seq"])].entry["seq_id"])
            else:  # workspace, profiling, progress: the area the plan lists for this slot; a slot whose area
                # the plan does not list is one the entry never reads or writes (a feed workspace no
                # sub-task needs), and holds 0
                table.append(applied.workspaces.get((sk["name"], arg["slot"]), 0))
        addr = _aligned(applied, 8 * len(table), 64, f"the argument table of {sk['name']}")
        applied.acl.to_device(addr, b"".join(w.to_bytes(8, "little") for w in table), at=f"table of {sk['name']}")
        applied.tables[sk["name"]] = (addr, table)
        applied.launches[(sk["host"]["stream"], sk["host"]["seq"])] = sk["name"]


def _change(applied: AppliedPlan, parts: list[tuple[dict[str, Any], int]],
            slots: dict[tuple[str, int], _Slot]) -> None:
    acl = applied.acl
    sks = {sk["name"]: sk for part, _ in parts for sk in part["superkernels"]}
    changed: list[_Slot] = []
    keep = []  # the launch configurations must outlive the calls that pass them
    try:
        for key, slot in slots.items():
            action = slot.entry["action"]
            if action in ("keep", "disable"):
                continue
            params = slot.before.copy()
            if action == "set_kernel":
                sk = sks[slot.entry["superkernel"]]
                addr, table = applied.tables[sk["name"]]
                params.type = TASK_KERNEL
                k = params.u.kernel
                k.funcHandle, k.args, k.isHostArgs = applied.functions[sk["entry"]], addr, 0
                k.argsSize, k.numBlocks = 8 * len(table), sk["blocks"]
                k.cfg = None
                if sk.get("sched_mode") == "batch":
                    attr = AclLaunchKernelAttr(LAUNCH_ATTR_SCHEM_MODE)
                    attr.value.schemMode = 1
                    cfg = AclLaunchKernelCfg(ctypes.pointer(attr), 1)
                    keep += [attr, cfg]
                    k.cfg = ctypes.pointer(cfg)
            elif action == "set_value_write":
                params.type = TASK_VALUE_WRITE
                params.u.value_write.devAddr = applied.cells[slot.entry["cell"]]
                params.u.value_write.value = slot.entry["value"]
            else:
                params.type = TASK_VALUE_WAIT
                w = params.u.value_wait
                w.devAddr, w.value, w.flag = applied.cells[slot.entry["cell"]], slot.entry["value"], \
                    WAIT_FLAGS[slot.entry["rule"]]
            acl("aclmdlRITaskSetParams", slot.task, ctypes.byref(params), at=slot.name)
            changed.append(slot)
    except AclCallError as err:
        _undo(applied, changed)
        raise SkirError(f"{err}; nothing was changed (every task set so far was restored)") from None
    disabled = 0
    committed: list[str] = []
    try:
        for slot in slots.values():
            if slot.entry["action"] == "disable":
                acl("aclmdlRITaskDisable", slot.task, at=slot.name)
                disabled += 1
        for part, ri in parts:  # sub-models first: a model never runs a sub-model's half-applied state
            of = f" of sub-model {part['name']}" if "name" in part else ""
            acl("aclmdlRIUpdate", ri, at=f"committing the plan{of}")
            committed.append(part.get("name", "the model"))
    except AclCallError as err:
        if committed:  # a sub-model runs its SuperKernels already: no restoring it through ACL
            raise SkirError(f"{err}; sub-model(s) {', '.join(committed)} were committed already: destroy the graph "
                            "and capture it again") from None
        _undo(applied, changed)
        staged = (f"; {disabled} task(s) stay disabled in the staged state, which ACL cannot enable again: the graph "
                  "was not updated and runs as captured, but capture it again before applying a plan"
                  if disabled else "; nothing was changed (every task set so far was restored)")
        raise SkirError(f"{err}{staged}") from None


def _undo(applied: AppliedPlan, changed: list[_Slot]) -> None:
    problems = []
    for slot in reversed(changed):
        try:
            applied.acl("aclmdlRITaskSetParams", slot.task, ctypes.byref(slot.before.copy()), at=slot.name)
        except AclCallError as err:
            problems.append(str(err))
    _free(applied)
    if problems:
        raise SkirError(f"restoring the graph failed: {problems[0]}; destroy it and capture it again")


def _free(applied: AppliedPlan) -> None:
    """Give back what step 2 took (on a failure: nothing of it is referenced by the graph)."""
    for ptr in applied.allocations:
        try:
            applied.acl("aclrtFree", ptr, at="freeing after a failure")
        except AclCallError:
            pass
    for binary in applied.binaries:
        try:
            applied.acl("aclrtBinaryUnLoad", binary, at="unloading after a failure")
        except AclCallError:
            pass
    applied.allocations.clear()
    applied.binaries.clear()
