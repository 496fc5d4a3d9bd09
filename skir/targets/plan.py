"""The rewrite plan for the runtime (`OUT/plan.json`, target `sk-plan`).

What a runtime does to a captured model to run skir's SuperKernels, in its own terms: the
cells to allocate (and the workspaces of each SuperKernel), one action per task slot, then
one model update; per SuperKernel its entry, launch blocks, schedule mode and where every
argument slot comes from. `skir.runtime.apply_plan` replays it on the original model.

```json
{"format": "skir.rewrite_plan", "version": 3, "model": "m",
 "streams": [{"name": "s0", "index": 0}, {"name": "s1", "index": 1}],
 "cells": [{"name": "e1_cell", "bytes": 64, "align": 64}],
 "workspaces": [{"superkernel": "m_sk0", "slot": 8, "use": "workspace", "bytes": 2048, "align": 64}],
 "slots": [
  {"stream": "s0", "seq": 0, "seq_id": 0, "action": "set_kernel", "superkernel": "m_sk0",
   "task": {"type": "kernel", "function": "a", "blocks": 48, "args_bytes": 8}},
  {"stream": "s0", "seq": 1, "action": "disable"},
  {"stream": "s0", "seq": 2, "action": "keep"},
  {"stream": "s1", "seq": 3, "action": "set_value_write", "cell": "e1_cell", "value": 1},
  {"stream": "s1", "seq": 4, "action": "set_value_wait", "cell": "e1_cell", "rule": "eq", "value": 1}],
 "update": {"slots": 5, "changed": 4},
 "superkernels": [{"name": "m_sk0", "entry": "auto_gen_m_sk0_kernel", "host": {"stream": "s0", "seq": 0},
   "kernel_type": "mix_aic_1_2", "blocks": 24, "sched_mode": "batch", "object": "m_sk0/build/m_sk0.o",
   "args": [{"slot": 0, "source": "ffts_base"}, {"slot": 1, "source": "task", "stream": "s0", "seq": 0, "arg": 0}]}]}
```

Every cell and workspace owns whole 64-byte lines (docs/design.md §5 "Memory layout"): the
runtime reserves `bytes` (a multiple of 64, at least 64) at an address that is a multiple of
`align` (64), and no two of them share a line; `skir.runtime.apply_plan(..., addresses=...)`
refuses a placement that breaks this.

SuperKernels identical up to their argument tables launch one object (docs/design.md §5
"Shared entries"): each one's `shared_entry` names it, `entry` and `object` are its, and `args`
stays the SuperKernel's own table.

`updates` (docs/design.md §3 "Updated kernels") lists each fused member of a task group whose
update changes its arguments: when the runtime re-issues that member's parameters before a
replay, it writes argument `i` into `slots[i]` of the SuperKernel's table
(`skir.targets.update_map`; `skir.runtime.apply_update` is the reference).

Slots are listed stream by stream in slot order; `keep` slots are listed too, so every slot
has exactly one action. A runtime finds a slot by its stream's `index` in the `streams` table
(the order of `aclmdlRIGetStreams`) and its `seq_id` (`aclmdlRITaskGetSeqId`), and each slot's
`task` says what the captured task is (`skir.targets.runtime_identity`): a device applier checks
it before changing anything. Argument sources are those of SK meta: `ffts_base`, `task` (arg `arg`
of the task that held slot `stream`/`seq` before the rewrite), `cell`, `workspace`,
`profiling`, `profiling_task_id`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from skir.dialects.aclgraph import (
    DisabledOp,
    LaunchSkOp,
    ModelOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
)
from skir.dialects.aclgraph_decls import CellOp, KernelOp
from skir.dialects.hardware import GM_LINE_BYTES
from skir.dialects.model_lookup import formed, require_passes, submodels, the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import SkirError
from skir.provenance import stamp
from skir.targets.runtime_identity import seq_ids, slot_identity, stream_table
from skir.targets.workspaces import workspaces

FORMAT = "skir.rewrite_plan"
VERSION = 3


def slot_action(task: TaskOp) -> dict[str, Any]:
    """The action that turns the slot's original task into `task` (`keep` when it is unchanged)."""
    rewritten = task.properties.get("was_kind") is not None or isinstance(task, DisabledOp)
    if not rewritten:
        return {"action": "keep"}
    if isinstance(task, LaunchSkOp):
        return {"action": "set_kernel", "superkernel": task.sk.root_reference.data}
    if isinstance(task, DisabledOp):
        return {"action": "disable"}
    if isinstance(task, ValueWriteOp):
        return {"action": "set_value_write", "cell": task.cell.root_reference.data, "value": task.value.data}
    if isinstance(task, ValueWaitOp):
        return {"action": "set_value_wait", "cell": task.cell.root_reference.data, "rule": task.rule.data.value,
                "value": task.value.data}
    raise SkirError(f"sk-plan: a rewritten slot holds '{task.name}', which no runtime action makes")


def plan(module: ModuleOp, meta: dict[str, Any]) -> dict[str, Any]:
    """The rewrite plan of a compiled module; `meta` is its SK meta (`skir.targets.sk_meta`).
    A model with condition tasks gets `submodels`: per sub-model its name, condition task and
    branch, and its own plan in the same form (docs/design.md §3 "Conditional sub-models")."""
    model = the_model(module)
    return {"format": FORMAT, "version": VERSION, "model": model.sym_name.data, **_model_plan(module, model, meta)}


def _model_plan(module: ModuleOp, model: ModelOp, meta: dict[str, Any]) -> dict[str, Any]:
    cells_used: set[str] = set()
    slots = []
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    ranks = seq_ids(model)
    for stream in model.body.block.ops:
        if not isinstance(stream, StreamOp):
            continue
        for task in stream.body.block.ops:
            if isinstance(task, TaskOp):
                action = slot_action(task)
                if "cell" in action:
                    cells_used.add(action["cell"])
                key = (stream.sym_name.data, task.seq.data)
                slots.append({"stream": key[0], "seq": key[1], "seq_id": ranks[key], **action,
                              "task": slot_identity(task, kernels)})
    added = {entry["cell"] for entry in meta.get("cells", [])} | cells_used
    cells = [{"name": op.sym_name.data, "bytes": GM_LINE_BYTES, "align": GM_LINE_BYTES}
             for op in model.body.block.ops if isinstance(op, CellOp) and op.sym_name.data in added]
    superkernels = []
    for sk in meta["superkernels"]:
        name = sk["name"]
        shared = sk["shared_entry"]["name"] if "shared_entry" in sk else None
        built = shared or name
        launch = {"name": name, "entry": sk["entry"], "host": sk["host"], "kernel_type": sk["kernel_type"],
                  "blocks": sk["blocks"], "sched_mode": "batch", "object": f"{built}/build/{built}.o"}
        if shared is not None:  # the one object of identical SuperKernels (docs/design.md §5 "Shared entries")
            launch["shared_entry"] = shared
        superkernels.append({**launch, "args": sk["args"]})
    out: dict[str, Any] = {
        "streams": stream_table(model),
        "cells": cells,
        "workspaces": workspaces(module, model),
        "slots": slots,
        "update": {"slots": len(slots), "changed": sum(s["action"] != "keep" for s in slots)},
        "superkernels": superkernels,
        "updates": meta["updates"],
    }
    subs = {sub.sym_name.data: sub for _, _, sub in submodels(model)}
    if subs:
        out["submodels"] = [{"name": m["name"], "cond": m["cond"], "branch": m["branch"],
                             **_model_plan(module, subs[m["name"]], m)} for m in meta.get("submodels", [])]
    return out


def dump_plan(data: dict[str, Any]) -> str:
    """The plan as text: one line per cell, slot, argument and workspace; ends with a newline."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if key == "submodels":
            lines.append(f' "submodels": {json.dumps(value)}{comma}')
        elif key in ("cells", "slots", "workspaces") and value:
            lines.append(f' "{key}": [')
            lines.append(",\n".join(f"  {json.dumps(v)}" for v in value))
            lines.append(f" ]{comma}")
        elif key == "superkernels" and value:
            lines.append(' "superkernels": [')
            lines.append(",\n".join(_superkernel_text(sk) for sk in value))
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _superkernel_text(sk: dict[str, Any]) -> str:
    head = json.dumps({k: v for k, v in sk.items() if k != "args"})[:-1]
    args = ",\n".join(f"    {json.dumps(a)}" for a in sk["args"])
    return f"  {head}, \"args\": [\n{args}\n  ]}}"


@dataclass(frozen=True)
class PlanTarget(Target):
    """Print the rewrite plan of a module from `sk-outline` on (`plan.json`)."""

    name = "sk-plan"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from skir.targets.sk_meta import sk_meta

        require_passes(self.name, module)
        if not formed(module) and not any(isinstance(op, SuperKernelOp) for model in module.ops
                                          if isinstance(model, ModelOp) for op in model.body.block.ops):
            raise SkirError("target 'sk-plan': no SuperKernels in the module; run 'superkernel-pipeline' first")
        output.write(dump_plan(stamp(plan(module, sk_meta(module)))))
