"""What a runtime knows of each task slot, so that a device applier finds and checks it
(docs/design.md §5, the plan's runtime identity).

A runtime names a slot by its stream's index in `aclmdlRIGetStreams` order and its
`aclmdlRITaskGetSeqId`: the plan's `streams` table gives each stream's index (the model's stream
order, which is the capture's, and for a model read from the vendor's dumps `streamIdxInGraph`,
with the dump's `streamId`), and a slot's `seq_id` is the task's sequence id: its place in the
model's capture order, counting every task of every stream from 0. A model the runtime captured
(every vendor dump) numbers its tasks so already, and then `seq_id` equals `seq`; a capture JSON
whose seqs leave gaps keeps them in `seq`, and `seq_id` is what the runtime will say. Each slot also
states what the captured task must be (`task`): its `aclmdlRITaskType`, and for a kernel the
function the task launches, its block count, its argument size and its task group, which the
applier compares with `aclmdlRITaskGetParams` before it changes anything.

```json
"streams": [{"name": "s0", "index": 0}, {"name": "s1", "index": 1, "id": 7}],
{"stream": "s0", "seq": 3, "action": "set_kernel", "superkernel": "m_sk0",
 "task": {"type": "kernel", "function": "rms_norm", "blocks": 48, "args_bytes": 24}}
```

skir's scope markers and placeholders are the vendor's marker kernels on a device
(`sk_scope_kernel_begin`, `sk_scope_kernel_end`, `sk_placeholder_kernel`, one block, no
arguments); opaque tasks, `stream_active` and condition tasks are `default` tasks.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import StringAttr

from skir.dialects.aclgraph import (
    LaunchOp,
    ModelOp,
    PlaceholderOp,
    RecordOp,
    ResetOp,
    ScopeBeginOp,
    ScopeEndOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.vendor_provenance import NAME_ATTR, vendor_info

TASK_TYPES = ("default", "kernel", "event_record", "event_wait", "event_reset", "value_write", "value_wait")
"""`aclmdlRITaskType` in its order (ACL_MODEL_RI_TASK_DEFAULT = 0, ...)."""

MARKER_FUNCTIONS = {ScopeBeginOp: "sk_scope_kernel_begin", ScopeEndOp: "sk_scope_kernel_end",
                    PlaceholderOp: "sk_placeholder_kernel"}
"""The vendor's marker kernels, which skir's scope markers and placeholders are on a device."""

ARG_BYTES = 8
"""Every argument of a kernel task is one 64-bit word (an address or an opaque slot)."""


def stream_table(model: ModelOp, with_seq_ids: bool = False) -> list[dict[str, Any]]:
    """Per stream of `model`, in order: its name, its index among the runtime's streams and, for a
    model read from the vendor's dumps, the dump's `streamId`; `with_seq_ids` adds the sequence
    id of each of its slots, in slot order (SK meta's form)."""
    ids = (vendor_info(model) or {}).get("stream_ids", [])
    ranks = seq_ids(model) if with_seq_ids else {}
    table = []
    streams = [op for op in model.body.block.ops if isinstance(op, StreamOp)]
    for index, stream in enumerate(streams):
        entry: dict[str, Any] = {"name": stream.sym_name.data, "index": index}
        if index < len(ids) and isinstance(ids[index], int) and ids[index] >= 0:
            entry["id"] = ids[index]
        if with_seq_ids:
            entry["seq_ids"] = [ranks[(stream.sym_name.data, task.seq.data)] for task in stream.body.block.ops
                                if isinstance(task, TaskOp)]
        table.append(entry)
    return table


def seq_ids(model: ModelOp) -> dict[tuple[str, int], int]:
    """(stream, seq) of every task slot of `model` (not of its sub-models, each a model of its
    own) -> the runtime's sequence id: its rank in seq order."""
    slots = sorted((task.seq.data, stream.sym_name.data) for stream in model.body.block.ops
                   if isinstance(stream, StreamOp) for task in stream.body.block.ops if isinstance(task, TaskOp))
    return {(stream, seq): rank for rank, (seq, stream) in enumerate(slots)}


def function_name(kernel: KernelOp) -> str:
    """The function a launch of `kernel` runs on a device (`aclrtGetFunctionName`): the dump's
    `funcName` for a model read from the vendor's dumps, else the kernel's own name."""
    original = kernel.attributes.get(NAME_ATTR)
    return original.data if isinstance(original, StringAttr) else kernel.sym_name.data


def task_identity(task: TaskOp, kernels: dict[str, KernelOp]) -> dict[str, Any]:
    """What the captured task of a slot is to the runtime; `task` is the slot's task before any
    rewrite (a rewritten slot's `was_task()`)."""
    out: dict[str, Any]
    if isinstance(task, LaunchOp):
        kernel = kernels[task.kernel.root_reference.data]
        out = {"type": "kernel", "function": function_name(kernel), "blocks": task.blocks.data,
               "args_bytes": ARG_BYTES * kernel.num_params}
    elif type(task) in MARKER_FUNCTIONS:
        out = {"type": "kernel", "function": MARKER_FUNCTIONS[type(task)], "blocks": 1, "args_bytes": 0}
    elif isinstance(task, RecordOp):
        out = {"type": "event_record"}
    elif isinstance(task, WaitOp):
        out = {"type": "event_wait"}
    elif isinstance(task, ResetOp):
        out = {"type": "event_reset"}
    elif isinstance(task, ValueWriteOp):
        out = {"type": "value_write"}
    elif isinstance(task, ValueWaitOp):
        out = {"type": "value_wait"}
    else:
        out = {"type": "default"}
    if task.group is not None:
        out["task_group"] = task.group
    return out


def slot_identity(task: TaskOp, kernels: dict[str, KernelOp]) -> dict[str, Any]:
    """`task_identity` of what the slot held before the rewrite (`task` is the slot's task now)."""
    return task_identity(task.was_task() or task, kernels)
