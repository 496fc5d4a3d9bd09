"""The capture JSON v1 exporter (docs/design.md §8) and the stable text layout of capture files.

`dump(module)` turns a module holding one `aclgraph.model` into a capture dict that
`skir.frontends.capture.from_dict` reads back to a module that prints identically (for a
model the importer produced). It writes `seq` on every task and omits every default:

```mlir
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(in, out) batch
  aclgraph.buffer @x bytes 64
  aclgraph.buffer @y
  aclgraph.stream @s0 slots 1 {
    aclgraph.launch seq 0 @k blocks 48 args(@x, @y)
  }
}
```

```json
{"format": "skir.aclgraph.capture", "version": 1, "model": "m",
 "cores": {"aic": 24, "aiv": 48},
 "kernels": {"k": {"kernel_type": "aiv_only", "params": ["in", "out"], "sched_mode": "batch"}},
 "buffers": {"x": 64},
 "streams": [{"name": "s0", "tasks": [
   {"seq": 0, "type": "kernel", "kernel": "k", "blocks": 48, "args": ["x", "y"]}]}]}
```

A buffer without a size is left out of `buffers` when the importer would declare it in the
same place anyway (it is first named by an `args` list after every listed buffer); otherwise
it is written as `"name": null`. Discardable attributes (`sk.label`, ...) are not exported.
A rewritten model (`aclgraph.launch_sk`, `aclgraph.disabled`, `sk.*` ops) cannot be
expressed in v1 and is rejected.

`dumps` lays the dict out stably: one line per kernel, buffer and task, keys in the order
of the docs/design.md §8 example. This module depends on nothing else of the front end; the
importer takes `FORMAT`, `VERSION` and the key orders from here.
"""

from __future__ import annotations

import json
import os
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from skir.dialects.aclgraph import (
    CondOp,
    DisabledOp,
    LaunchOp,
    LaunchSkOp,
    ModelOp,
    OpaqueOp,
    PlaceholderOp,
    RecordOp,
    ResetOp,
    ScopeBeginOp,
    ScopeEndOp,
    StreamActiveOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_decls import BufferOp, CellOp, EventOp, KernelOp
from skir.dialects.aclgraph_task import ANONYMOUS_GROUP
from skir.dialects.model_lookup import all_submodels
from skir.errors import SkirError, task_path

FORMAT = "skir.aclgraph.capture"
VERSION = 1

TOP_KEYS = ("format", "version", "model", "soc", "cores", "kernels", "buffers", "events", "cells",
            "submodels", "streams")
KERNEL_KEYS = ("kernel_type", "params", "sched_mode", "block_dim_scale_up", "sk_capable", "code_bytes", "early_start",
               "sk_symbol", "split_copies", "sync_flags", "dcci", "sk_system_args")
# task type -> (required keys, optional keys), besides `seq`, `type`, `task_group` and `update`
TASK_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "kernel": (("kernel", "blocks"), ("args", "duration_us", "comm")),
    "event_record": (("event",), ("external",)),
    "event_wait": (("event",), ("external",)),
    "event_reset": (("event",), ("external",)),
    "value_write": (("cell", "value"), ()),
    "value_wait": (("cell", "value", "rule"), ("external",)),
    "default": (("kind",), ("notify",)),
    "stream_active": (("stream",), ()),
    "scope_begin": (("scope",), ("options",)),
    "scope_end": (("scope",), ()),
    "placeholder": ((), ()),
    "cond": (("kind", "cell", "submodels"), ()),
}

_REWRITTEN = "a rewritten model cannot be exported in capture v1"


# ---- exporter ----------------------------------------------------------------------------


def _the_model(module: ModuleOp | ModelOp) -> ModelOp:
    if isinstance(module, ModelOp):
        return module
    models = [op for op in module.body.block.ops if isinstance(op, ModelOp)]
    others = [op for op in module.body.block.ops if not isinstance(op, ModelOp)]
    if len(models) != 1:
        raise SkirError(
            f"capture v1 holds exactly one aclgraph.model; this module has {len(models)}"
        )
    if others:
        raise SkirError(f"capture v1 holds one aclgraph.model and nothing else; found '{others[0].name}'")
    return models[0]


def _kernel(op: KernelOp, inferable_count: bool) -> dict[str, Any]:
    props = op.properties
    out: dict[str, Any] = {"kernel_type": op.type.value}
    if op.params is not None:
        out["params"] = [r.data.value for r in op.params]
    elif not inferable_count:
        out["params"] = op.num_params
    if op.is_batch:
        out["sched_mode"] = "batch"
    if op.block_dim_scale_up is not None:
        out["block_dim_scale_up"] = True
    if op.not_sk_capable is not None:
        out["sk_capable"] = False
    if op.code_bytes is not None:
        out["code_bytes"] = op.code_bytes.data
    if "early_start_set" in props or "early_start_wait" in props:
        out["early_start"] = {"set": "early_start_set" in props, "wait": "early_start_wait" in props}
    if op.sk_symbol is not None:
        out["sk_symbol"] = op.sk_symbol.data
    if op.split_copies is not None:
        out["split_copies"] = op.split_copies.data
    if op.sync_flags is not None:
        out["sync_flags"] = [f.data for f in op.sync_flags]
    if op.sk_system_args is not None:
        out["sk_system_args"] = True
    if "dcci_before" in props or "dcci_after" in props or "dcci_disable" in props:
        out["dcci"] = {
            "before": "dcci_before" in props,
            "after": "dcci_after" in props,
            "disable": "dcci_disable" in props,
        }
    return out


def _task(op: Operation) -> dict[str, Any]:
    p = op.properties
    out: dict[str, Any] = {"seq": p["seq"].data}  # type: ignore[attr-defined]
    cls = type(op)
    if cls is LaunchOp:
        out["type"] = "kernel"
        out["kernel"] = p["kernel"].root_reference.data  # type: ignore[attr-defined]
        out["blocks"] = p["blocks"].data  # type: ignore[attr-defined]
        if (args := p.get("args")) is not None:
            out["args"] = [a.root_reference.data for a in args.data]  # type: ignore[attr-defined]
        if (duration := p.get("duration")) is not None:
            out["duration_us"] = duration.data  # type: ignore[attr-defined]
        if (group := p.get("comm_group")) is not None:
            out["comm"] = {"group": group.data, "op": p["comm_op"].data.value}  # type: ignore[attr-defined]
            if (size := p.get("comm_bytes")) is not None:
                out["comm"]["bytes"] = size.data  # type: ignore[attr-defined]
    elif cls in _EVENT_TYPES:
        out["type"] = _EVENT_TYPES[cls]
        out["event"] = p["event"].root_reference.data  # type: ignore[attr-defined]
        if "external" in p:
            out["external"] = True
    elif cls is ValueWriteOp or cls is ValueWaitOp:
        out["type"] = "value_write" if cls is ValueWriteOp else "value_wait"
        out["cell"] = p["cell"].root_reference.data  # type: ignore[attr-defined]
        out["value"] = p["value"].data  # type: ignore[attr-defined]
        if cls is ValueWaitOp:
            out["rule"] = p["rule"].data.value  # type: ignore[attr-defined]
            if "external" in p:
                out["external"] = True
    elif cls is OpaqueOp:
        out["type"] = "default"
        out["kind"] = p["kind"].data.value  # type: ignore[attr-defined]
        if (notify := p.get("notify")) is not None:
            out["notify"] = notify.data  # type: ignore[attr-defined]
    elif cls is StreamActiveOp:
        out["type"] = "stream_active"
        out["stream"] = p["stream"].root_reference.data  # type: ignore[attr-defined]
    elif cls is ScopeBeginOp or cls is ScopeEndOp:
        out["type"] = "scope_begin" if cls is ScopeBeginOp else "scope_end"
        scope = p.get("scope")
        out["scope"] = None if scope is None else scope.data  # type: ignore[attr-defined]
        if (options := p.get("options")) is not None:
            out["options"] = options.text()  # type: ignore[attr-defined]
    elif cls is PlaceholderOp:
        out["type"] = "placeholder"
    elif cls is CondOp:
        assert isinstance(op, CondOp)
        out["type"] = "cond"
        out["kind"] = op.kind.data
        out["cell"] = op.cell.root_reference.data
        out["submodels"] = [sub.sym_name.data for sub in op.submodels()]
    elif op.name.startswith(("aclgraph.launch_sk", "aclgraph.disabled", "sk.")):
        raise SkirError(f"{task_path(op)}: '{op.name}': {_REWRITTEN}")
    else:
        raise SkirError(f"{task_path(op)}: '{op.name}' is not a capture task")
    assert isinstance(op, TaskOp)  # every capture task is one
    if (task_group := op.group) is not None:
        out["task_group"] = True if task_group == ANONYMOUS_GROUP else task_group
    if op.update is not None:
        out["update"] = op.update.data
    return out


_EVENT_TYPES = {RecordOp: "event_record", WaitOp: "event_wait", ResetOp: "event_reset"}


def dump(module: ModuleOp | ModelOp) -> dict[str, Any]:
    """The capture JSON v1 dict of the one `aclgraph.model` in `module`."""
    model = _the_model(module)
    kernels: list[KernelOp] = []
    buffers: list[BufferOp] = []
    events: list[str] = []
    cells: list[str] = []
    streams: list[StreamOp] = []
    for op in model.body.block.ops:
        if isinstance(op, KernelOp):
            kernels.append(op)
        elif isinstance(op, BufferOp):
            buffers.append(op)
        elif isinstance(op, EventOp):
            events.append(op.sym_name.data)
        elif isinstance(op, CellOp):
            cells.append(op.sym_name.data)
        elif isinstance(op, StreamOp):
            streams.append(op)
        elif op.name.startswith("sk."):
            raise SkirError(f"{task_path(op)}: '{op.name}': {_REWRITTEN}")
        else:
            raise SkirError(f"{task_path(op)}: '{op.name}' has no place in capture v1")
    # kernels whose param count the importer infers from `args`; buffers in first-mention order
    args_len: dict[str, int] = {}
    mention: dict[str, None] = {}

    def stream_dicts_of(streams: list[StreamOp]) -> list[dict[str, Any]]:
        found = []
        for stream in streams:
            tasks = [_task(op) for op in stream.body.block.ops]
            for t in tasks:
                if (args := t.get("args")) is not None:
                    args_len.setdefault(t["kernel"], len(args))
                    for a in args:
                        mention.setdefault(a, None)
            found.append({"name": stream.sym_name.data, "tasks": tasks})
        return found

    stream_dicts = stream_dicts_of(streams)
    subs = []  # docs/design.md §3 "Conditional sub-models": their declarations are the model's
    for sub in all_submodels(model):
        for op in sub.body.block.ops:
            if op.name.startswith("sk.") or isinstance(op, LaunchSkOp | DisabledOp):
                raise SkirError(f"{task_path(op)}: '{op.name}': {_REWRITTEN}")
        subs.append({"name": sub.sym_name.data,
                     "streams": stream_dicts_of([s for s in sub.body.block.ops if isinstance(s, StreamOp)])})
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "model": model.sym_name.data}
    if model.soc is not None:
        out["soc"] = model.soc.data
    out["cores"] = {"aic": model.aic_cores.data, "aiv": model.aiv_cores.data}
    out["kernels"] = {
        k.sym_name.data: _kernel(k, args_len.get(k.sym_name.data) == k.num_params) for k in kernels
    }
    out["buffers"] = _buffers(buffers, mention)
    if events:
        out["events"] = events
    if cells:
        out["cells"] = cells
    if subs:
        out["submodels"] = subs
    out["streams"] = stream_dicts
    return out


def _buffers(buffers: list[BufferOp], mention: dict[str, None]) -> dict[str, int | None]:
    """Listed buffers; a trailing run of sized-unknown buffers is left implicit when possible."""
    last_sized = max((i for i, b in enumerate(buffers) if b.size is not None), default=-1)
    listed = {b.sym_name.data for b in buffers[: last_sized + 1]}
    implicit = [name for name in mention if name not in listed]
    tail = [b.sym_name.data for b in buffers[last_sized + 1 :]]
    keep = last_sized + 1 if implicit == tail else len(buffers)
    return {b.sym_name.data: (None if b.size is None else b.size.data) for b in buffers[:keep]}


def dumps(module: ModuleOp | ModelOp) -> str:
    """`dump(module)` as stable JSON text (see `format_json`)."""
    return format_json(dump(module))


def save(module: ModuleOp | ModelOp, path: str | os.PathLike[str]) -> None:
    """Write `dumps(module)` to `path`."""
    text = dumps(module)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# ---- layout ------------------------------------------------------------------------------


def _inline(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, allow_nan=False)


def format_json(data: dict[str, Any]) -> str:
    """A capture dict as JSON text: one line per top-level key, kernel, buffer and task.

    Deterministic for a given dict (key order is the dict's); ends with a newline.
    """
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        head = f"  {_inline(key)}: "
        if key in ("kernels", "buffers") and isinstance(value, dict) and value:
            lines.append(head + "{")
            lines.append(",\n".join(f"    {_inline(k)}: {_inline(v)}" for k, v in value.items()))
            lines.append("  }" + comma)
        elif key in ("events", "cells") and isinstance(value, list) and len(value) > 8:
            lines.append(head + "[")
            lines.append(",\n".join(f"    {_inline(v)}" for v in value))
            lines.append("  ]" + comma)
        elif key == "submodels" and isinstance(value, list) and value:
            lines.append(head + "[")
            lines.append(",\n".join(f'    {{"name": {_inline(sub.get("name"))}, "streams": [\n'
                                    + ",\n".join(_stream_text(st) for st in sub.get("streams", [])) + "]}"
                                    if isinstance(sub, dict) else "    " + _inline(sub) for sub in value))
            lines.append("  ]" + comma)
        elif key == "streams" and isinstance(value, list) and value:
            lines.append(head + "[")
            lines.append(",\n".join(_stream_text(s) for s in value))
            lines.append("  ]" + comma)
        else:
            lines.append(head + _inline(value) + comma)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _stream_text(stream: Any) -> str:
    if not isinstance(stream, dict) or not isinstance(stream.get("tasks"), list):
        return "    " + _inline(stream)
    head = ", ".join(f"{_inline(k)}: {_inline(v)}" for k, v in stream.items() if k != "tasks")
    tasks = stream["tasks"]
    if not tasks:
        return "    {" + head + (", " if head else "") + '"tasks": []}'
    body = ",\n".join("      " + _inline(t) for t in tasks)
    return "    {" + head + (", " if head else "") + '"tasks": [\n' + body + "\n    ]}"
