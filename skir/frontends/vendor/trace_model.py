"""The runtime trace alone as a model: the weakest of the vendor's inputs.

`sk_mdl_origin.json` has no seq ids, no kernel types beyond the AICORE / AIVEC / MIX split, no
event flags and no scopes. `graph_of_trace` turns it into a `GraphDump` without seq ids, so the
capture importer replays the capture order (docs/design.md §8); kernels are typed by their task
type (a mix kernel by its `Task Ration`), captured events and value tasks are paired by the
device address in their name, every other task is a DEFAULT task of its runtime kind.

```
KERNEL_AIVEC  "RmsNorm_a1b2"               -> kernel RmsNorm_a1b2, aiv_only
EVENT_RECORD  "EVENT_RECORD_20482467840"   -> event_record @ev_4c4d00000
```
"""

from __future__ import annotations

import re

from skir.frontends.vendor.graph_dump import GraphDump, KernelInfo, Node
from skir.frontends.vendor.runtime_trace import RuntimeTrace, TraceTask
from skir.json_reader import JsonReader
from skir.names import shown

_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KERNELS = {"KERNEL_AICORE": "AIC_ONLY", "KERNEL_AIVEC": "AIV_ONLY"}
_MIX = {"KERNEL_MIX_AIC": {0: "MIX_AIC_1_0", 1: "MIX_1_1", 2: "MIX_1_2"}, "KERNEL_MIX_AIV": {0: "MIX_AIV_1_0"}}
_SYNC = {"EVENT_RECORD": "NOTIFY", "EVENT_WAIT": "WAIT", "EVENT_RESET": "RESET"}
_VALUE = {"MEM_WRITE_VALUE": "VALUE_WRITE", "MEM_WAIT_VALUE": "VALUE_WAIT"}


def graph_of_trace(trace: RuntimeTrace, source: str) -> GraphDump:
    reader = JsonReader(source)
    dump = GraphDump("trace", None, {})
    for sid, tasks in trace.tasks.items():
        dump.stream_ids.append(sid)
        dump.streams.append([_node(reader, task, len(dump.streams)) for task in tasks])
    return dump


def _node(reader: JsonReader, task: TraceTask, si: int) -> Node:
    kind = task.task_type
    if kind in _KERNELS or kind in _MIX:
        kernel_type = _KERNELS.get(kind) or _MIX[kind].get(task.ratio if task.ratio is not None else -1)
        if kernel_type is None:
            reader.fail(task.path, f"a {kind} task with Task Ration {task.ratio}: no dav-c220 kernel type")
        if task.blocks is None:
            reader.fail(f'{task.path}.args["Numblocks"]', "required key is missing")
        name = task.name or kind
        if not _SYMBOL.match(name):  # a kernel task's name is the kernel's symbol
            reader.fail(f"{task.path}.name", f"{shown(name)} is not a C identifier ([A-Za-z_][A-Za-z0-9_]*); a "
                        "kernel's name is its symbol")
        return Node(None, si, task.path, "KERNEL", "KERNEL",
                    kernel=KernelInfo(name, kernel_type, None, task.blocks, 0, 1, None, task.args_size))
    sync = _SYNC.get(task.name.rpartition("_")[0]) if kind not in _VALUE else None
    addr = task.suffix
    if sync is not None and addr is not None:
        return Node(None, si, task.path, sync, sync, event=f"{int(addr):x}")
    if kind in _VALUE and addr is not None:
        node_type = "NOTIFY" if kind == "MEM_WRITE_VALUE" else "WAIT"
        return Node(None, si, task.path, _VALUE[kind], node_type, event=f"{int(addr):x}")
    return Node(None, si, task.path, "DEFAULT", "DEFAULT")
