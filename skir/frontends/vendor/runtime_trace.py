"""Reading the runtime's `aclmdlRIDebugJsonPrint` trace (`sk_mdl_origin.json`).

A bare Chrome-trace array of the model's tasks, stream after stream, each stream's tasks in
order. The runtime writes it by hand, so a trailing comma before the closing `]` (or at the
end of the text) is accepted. `ts` / `dur` are positions, not timings, and are not read.

What skir takes from it (docs/design.md §11 "Inputs"): per stream (by `Stream Id`) and
position, the runtime `Task Type` (the real kind behind the SK dump's DEFAULT tasks), the
`Schem Mode` of kernels, the `Kernel Args Size` of kernels (only in a verbose trace), the
notify id of notify tasks (the name's `_<id>` suffix), the `Active Stream Id` of stream-activate
tasks (the runtime stream a cascade capture continues on).

```python
trace = read_trace(text, "sk_mdl_origin.json")
trace.tasks[5][3].task_type      # 'MEMCPY_ASYNC' (stream id 5, fourth task)
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from skir.errors import SkirError
from skir.frontends.vendor.graph_dump import MAX_ARGS_BYTES
from skir.json_reader import JsonReader, parse_json
from skir.json_reader import describe_value as _describe

_TRAILING_COMMA = re.compile(r",(\s*)(\]\s*)?\Z")

OPAQUE_KIND_OF_TYPE = {
    "MEMCPY_ASYNC": "memcpy", "MEMSET_ASYNC": "memset", "KERNEL_AICPU": "aicpu",
    "NOTIFY_RECORD": "notify_record", "NOTIFY_WAIT": "notify_wait", "REDUCE_ASYNC_V2": "hccl",
    "RDMA_SEND": "hccl", "CMO": "cmo", "HOSTFUNC_CALLBACK": "host_func",
}
"""Runtime task types behind a DEFAULT task, as skir's opaque kinds (any other: `other`)."""


@dataclass(frozen=True)
class TraceTask:
    task_type: str
    name: str
    sched_mode: int | None
    path: str
    blocks: int | None = None
    ratio: int | None = None
    args_size: int | None = None
    """`Kernel Args Size` (bytes; only a verbose trace has it)."""
    active_stream: int | None = None
    """`Active Stream Id` of a `STREAM_ACTIVE` task: the runtime id of the stream it activates."""

    @property
    def suffix(self) -> str | None:
        """The name's decimal `_<n>` suffix: an event, notify or device address id."""
        head, sep, tail = self.name.rpartition("_")
        return tail if sep and head and tail.isdigit() else None

    @property
    def notify_id(self) -> str | None:
        """The notify id of a NOTIFY_RECORD / NOTIFY_WAIT task (its name's `_<id>` suffix)."""
        return self.suffix


@dataclass
class RuntimeTrace:
    tasks: dict[int, list[TraceTask]] = field(default_factory=dict)
    """Stream id -> its tasks in order."""


def is_trace(data: Any) -> bool:
    """Whether a parsed JSON value looks like the runtime trace (an array of `ph` events)."""
    return isinstance(data, list) and bool(data) and isinstance(data[0], dict) and "ph" in data[0] \
        and isinstance(data[0].get("args"), dict) and "Task Type" in data[0]["args"]


def parse_trace_text(text: str, source: str) -> Any:
    """The JSON value of a trace text, tolerating the writer's trailing comma."""
    stripped = text.rstrip()
    match = _TRAILING_COMMA.search(stripped)
    if match is not None:
        stripped = stripped[:match.start()] + (match.group(1) or "") + (match.group(2) or "]")
    try:
        return parse_json(stripped, source)
    except SkirError:
        return parse_json(text, source)  # report the original text's position


def read_trace(data: Any, source: str) -> RuntimeTrace:
    """The tasks of a parsed runtime trace, by stream id; errors name the JSON path."""
    reader = JsonReader(source)
    events = reader.list_(data, "")
    trace = RuntimeTrace()
    for i, event in enumerate(events):
        path = f"[{i}]"
        event = reader.mapping(event, path)
        args = reader.mapping(event.get("args"), f"{path}.args")
        if "Task Type" not in args:
            reader.fail(f"{path}.args", "required key 'Task Type' is missing")
        task_type = reader.str_(args["Task Type"], f'{path}.args["Task Type"]')
        stream = args.get("Stream Id")
        if type(stream) is not int:
            reader.fail(f'{path}.args["Stream Id"]', f"expected an integer, got {_describe(stream)}")
        mode = args.get("Schem Mode")
        if mode is not None and type(mode) is not int:
            reader.fail(f'{path}.args["Schem Mode"]', f"expected an integer, got {_describe(mode)}")
        name = reader.str_(event["name"], f"{path}.name") if "name" in event else ""
        blocks, ratio = args.get("Numblocks"), args.get("Task Ration")
        size = args.get("Kernel Args Size")
        if size is not None:
            size = reader.int_(size, f'{path}.args["Kernel Args Size"]', 0, MAX_ARGS_BYTES)
        active = args.get("Active Stream Id")
        if active is not None:
            active = reader.int_(active, f'{path}.args["Active Stream Id"]', 0, (1 << 63) - 1)
        trace.tasks.setdefault(stream, []).append(
            TraceTask(task_type, name, mode, path,
                      blocks if type(blocks) is int else None, ratio if type(ratio) is int else None, size,
                      active))
    return trace

