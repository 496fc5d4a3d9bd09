"""Reading the vendor's SK graph dumps into `Node`s (docs/design.md §11 "Inputs").

Three layouts carry the same per-task objects:

- `sk_graph_origin.json` / `sk_graph_updated.json`: `streams[i].nodes[j]`, a node wrapper
  (`nodeId` = seq, `nodeType` = the vendor's class after pairing, the scope-marker flags,
  `skinfos` on an updated SuperKernel slot) around `taskInfo[0]`;
- the legacy `sk_raw_tasks_before.json` / `_after.json`: `streams[i].tasks[j]` = the
  `taskInfo` objects themselves (markers known only by their kernel names);
- the legacy `sk_graph_before.json`: a flat `nodes` array with `kernelInfos` / `syncInfos`.

```python
nodes = read_graph(json.load(f), "sk_graph_origin.json")   # -> GraphDump
nodes.streams[0][3].kernel.func    # 'static_kernel_RmsNorm_1a2b'
```

The reader is strict about what it uses (types, the one `taskInfo`, hex strings, seq order
is left to the model verifier) and ignores keys it does not use: the vendor's writer adds
fields between releases. Every error names the JSON path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from skir.json_reader import JsonReader, describe_value
from skir.names import shown

MARKER_BEGIN = "sk_scope_kernel_begin"
MARKER_END = "sk_scope_kernel_end"
MARKER_PLACEHOLDER = "sk_placeholder_kernel"
NO_FUSE_SCOPE = "default_sk_scope_name"
"""The name the vendor stores for a marker whose name was nullptr: "do not fuse"."""

TASK_TYPES = ("DEFAULT", "KERNEL", "NOTIFY", "WAIT", "RESET", "VALUE_WRITE", "VALUE_WAIT")
"""`taskTypeInt` order (aclmdlRITaskType), spelled as the SK dump spells `taskType`."""
NODE_TYPES = ("KERNEL", "NOTIFY", "WAIT", "RESET", "MEMORY_WRITE", "MEMORY_WAIT", "DEFAULT")
_NODE_TYPE_TABLE = {t: t for t in NODE_TYPES}
_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MAX_SEQ = (1 << 63) - 1
MAX_ARGS_BYTES = 8 << 16
"""The largest argument block read: 65536 slots of 8 bytes (a capture kernel's param limit)."""


@dataclass(frozen=True)
class KernelInfo:
    func: str
    kernel_type: str
    ratio: tuple[int, int] | None
    blocks: int
    cap: int
    resolved: int
    task_group: int | None
    """The non-zero `taskGrp` handle (`aclrtTaskGrp`, a host pointer such as 0xaaaae80005c0: identity
    only; the mapping gives each distinct handle a task group id of skir's own), else None."""
    args_size: int | None = None
    """`argsSize`: the bytes of the task's argument block (None: not in the dump)."""


@dataclass
class Node:
    """One task of a dump, with what skir reads from it."""

    seq: int | None  # None only for a task of the runtime trace alone
    stream: int
    path: str
    task_type: str
    node_type: str
    stream_id: int | None = None
    marker: str | None = None  # "begin", "end", "placeholder"
    scope_name: str | None = None
    kernel: KernelInfo | None = None
    event: str | None = None  # event handle, or a value task's device address
    external: bool = False
    dev_addr: str | None = None
    value: int | None = None
    wait_flag: int | None = None
    skinfo: dict[str, Any] | None = None


@dataclass
class GraphDump:
    layout: str  # "graph", "raw", "graph_before", "trace"
    model_id: str | None
    options: dict[str, Any]
    streams: list[list[Node]] = field(default_factory=list)
    stream_ids: list[int | None] = field(default_factory=list)


def layout_of(data: Any) -> str | None:
    """Which SK dump layout `data` (a parsed JSON value) is, or None."""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("graph"), dict) and isinstance(data.get("nodes"), list):
        return "graph_before"
    streams = data.get("streams")
    if "modelId" not in data and "description" not in data:
        return None
    if isinstance(streams, list):
        first = next((s for s in streams if isinstance(s, dict)), {})
        if "nodes" in first or "streamIdxInGraph" in first or "totalNodes" in data:
            return "graph"
        if "tasks" in first or "totalTasks" in data:
            return "raw"
    return None


class _Reader(JsonReader):
    def hex_(self, value: Any, path: str) -> int:
        if type(value) is int and value >= 0:
            return value
        if type(value) is str and value[:2] in ("0x", "0X"):
            try:
                return int(value[2:], 16)
            except ValueError:
                pass
        got = describe_value(value) if type(value) is not str else shown(value)
        self.fail(path, f"expected a \"0x...\" hex string, got {got}")

    def handle(self, value: Any, path: str) -> str:
        return f"{self.hex_(value, path):x}"

    def key(self, obj: dict[str, Any], key: str, path: str) -> Any:
        if key not in obj:
            self.fail(f"{path}.{key}", "required key is missing")
        return obj[key]

    def opt_int(self, obj: dict[str, Any], key: str, path: str, default: int) -> int:
        return default if obj.get(key) is None else self.int_(obj[key], f"{path}.{key}", -(1 << 63), (1 << 64) - 1)


def read_graph(data: Any, source: str) -> GraphDump:
    """The nodes of an SK graph dump of any of the three layouts."""
    reader = _Reader(source)
    layout = layout_of(data)
    if layout is None:
        reader.fail("", "not an SK graph dump (expected sk_graph_origin.json, sk_graph_updated.json, "
                    "sk_raw_tasks_before.json or sk_graph_before.json)")
    model_id = data.get("modelId")
    if model_id is not None:
        model_id = reader.str_(model_id, "modelId")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        reader.fail("options", f"expected an object, got {describe_value(options)}")
    dump = GraphDump(layout, model_id, options)
    if layout == "graph_before":
        _read_graph_before(reader, data, dump)
        return dump
    streams = reader.list_(data["streams"], "streams")
    for si, stream in enumerate(streams):
        spath = f"streams[{si}]"
        stream = reader.mapping(stream, spath)
        key = "nodes" if layout == "graph" else "tasks"
        items = reader.list_(reader.key(stream, key, spath), f"{spath}.{key}")
        nodes = []
        for ni, item in enumerate(items):
            path = f"{spath}.{key}[{ni}]"
            nodes.append(_graph_node(reader, item, path, si) if layout == "graph" else
                         _task(reader, reader.mapping(item, path), path, si, None))
        dump.streams.append(nodes)
        sid = stream.get("streamId")
        dump.stream_ids.append(sid if type(sid) is int else nodes[0].stream_id if nodes else None)
    return dump


def _graph_node(reader: _Reader, item: Any, path: str, si: int) -> Node:
    node = reader.mapping(item, path)
    infos = reader.list_(reader.key(node, "taskInfo", path), f"{path}.taskInfo")
    if len(infos) != 1:
        reader.fail(f"{path}.taskInfo", f"expected exactly one task object, got {len(infos)}")
    ipath = f"{path}.taskInfo[0]"
    info = reader.mapping(infos[0], ipath)
    seq = reader.int_(reader.key(node, "nodeId", path), f"{path}.nodeId", 0, _MAX_SEQ)
    out = _task(reader, info, ipath, si, seq)
    out.path = path
    out.node_type = reader.enum(reader.key(node, "nodeType", path), f"{path}.nodeType", _NODE_TYPE_TABLE,
                                "a node type")
    if node.get("isScopeNode") is True:
        if node.get("isScopeBegin") is True:
            out.marker = "begin"
        elif node.get("isScopeEnd") is True:
            out.marker = "end"
        else:
            out.marker = "placeholder"
    name = node.get("scopeName")
    if name is not None:
        out.scope_name = reader.str_(name, f"{path}.scopeName", "a scope name or null")
    if node.get("skinfos") is not None:
        out.skinfo = reader.mapping(node["skinfos"], f"{path}.skinfos")
    return out


def _task(reader: _Reader, info: dict[str, Any], path: str, si: int, seq: int | None) -> Node:
    """A `taskInfo` object (the node wrapper's, or a legacy raw task)."""
    task_seq = info.get("taskId")
    if seq is None:
        seq = reader.int_(reader.key(info, "taskId", path), f"{path}.taskId", 0, _MAX_SEQ)
    elif task_seq is not None and task_seq != seq:
        got = task_seq if type(task_seq) is int else describe_value(task_seq)
        reader.fail(f"{path}.taskId", f"expected the node's nodeId {seq}, got {got}")
    task_type = reader.enum(reader.key(info, "taskType", path), f"{path}.taskType", {t: t for t in TASK_TYPES},
                            "a task type")
    sid = info.get("streamId")
    node = Node(seq, si, path, task_type, "", stream_id=sid if type(sid) is int else None)
    if task_type == "KERNEL":
        params = reader.mapping(reader.key(info, "kernelParams", path), f"{path}.kernelParams")
        node.kernel = _kernel(reader, params, f"{path}.kernelParams")
        func = node.kernel.func
        if func.startswith(MARKER_BEGIN):
            node.marker = "begin"
        elif func.startswith(MARKER_END):
            node.marker = "end"
        elif func.startswith(MARKER_PLACEHOLDER):
            node.marker = "placeholder"
    elif task_type in ("NOTIFY", "WAIT", "RESET") or "eventParams" in info:
        epath = f"{path}.eventParams"
        params = reader.mapping(reader.key(info, "eventParams", path), epath)
        node.event = reader.handle(reader.key(params, "eventId", epath), f"{epath}.eventId")
        node.external = reader.opt_int(params, "eventTaskFlag", epath, 0) == 1
    elif task_type == "VALUE_WRITE" and "valueWriteParams" in info:
        vpath = f"{path}.valueWriteParams"
        params = reader.mapping(info["valueWriteParams"], vpath)
        node.dev_addr = reader.handle(reader.key(params, "devAddr", vpath), f"{vpath}.devAddr")
        node.value = reader.hex_(reader.key(params, "value", vpath), f"{vpath}.value")
    elif task_type == "VALUE_WAIT" and "valueWaitParams" in info:
        vpath = f"{path}.valueWaitParams"
        params = reader.mapping(info["valueWaitParams"], vpath)
        node.dev_addr = reader.handle(reader.key(params, "devAddr", vpath), f"{vpath}.devAddr")
        node.value = reader.hex_(reader.key(params, "value", vpath), f"{vpath}.value")
        node.wait_flag = reader.int_(reader.key(params, "flag", vpath), f"{vpath}.flag", 0, 3)
    elif task_type in ("VALUE_WRITE", "VALUE_WAIT"):
        reader.fail(path, f"a {task_type} task without eventParams or "
                    f"{'valueWriteParams' if task_type == 'VALUE_WRITE' else 'valueWaitParams'}")
    return node


def _kernel(reader: _Reader, params: dict[str, Any], path: str) -> KernelInfo:
    func = reader.str_(reader.key(params, "funcName", path), f"{path}.funcName", "a function name")
    if not _SYMBOL.match(func):
        # a kernel's function name is its C symbol: it names the sub-kernel object the build links
        reader.fail(f"{path}.funcName", f"{shown(func)} is not a C identifier ([A-Za-z_][A-Za-z0-9_]*); a kernel's "
                    "function name is its symbol")
    kernel_type = reader.str_(reader.key(params, "kernelType", path), f"{path}.kernelType")
    ratio = params.get("taskRatio")
    if ratio is not None:
        items = reader.list_(ratio, f"{path}.taskRatio")
        if len(items) != 2:
            reader.fail(f"{path}.taskRatio", f"expected [cube, vector], got {len(items)} numbers")
        ratio = (reader.int_(items[0], f"{path}.taskRatio[0]", 0, 64),
                 reader.int_(items[1], f"{path}.taskRatio[1]", 0, 64))
    blocks = reader.int_(reader.key(params, "numBlocks", path), f"{path}.numBlocks", 1, 65535)
    cap = 0 if params.get("cap") is None else reader.hex_(params["cap"], f"{path}.cap")
    resolved = reader.opt_int(params, "resolvedNum", path, 1)
    group = params.get("taskGrp")
    task_group = None if group is None else reader.hex_(group, f"{path}.taskGrp") or None
    if task_group is not None and task_group >> 64:
        reader.fail(f"{path}.taskGrp", f"a task group handle is a 64-bit pointer, got 0x{task_group:x}")
    args_size = None
    if params.get("argsSize") is not None:
        args_size = reader.int_(params["argsSize"], f"{path}.argsSize", 0, MAX_ARGS_BYTES)
    return KernelInfo(func, kernel_type, ratio, blocks, cap, resolved, task_group, args_size)


def _read_graph_before(reader: _Reader, data: dict[str, Any], dump: GraphDump) -> None:
    nodes = reader.list_(data["nodes"], "nodes")
    by_stream: dict[int, list[tuple[int, Node]]] = {}
    for ni, item in enumerate(nodes):
        path = f"nodes[{ni}]"
        node = reader.mapping(item, path)
        seq = reader.int_(reader.key(node, "taskId", path), f"{path}.taskId", 0, _MAX_SEQ)
        si = reader.int_(reader.key(node, "streamIdxInGraph", path), f"{path}.streamIdxInGraph", 0, 1 << 20)
        index = reader.opt_int(node, "nodeIdxInStream", path, len(by_stream.get(si, ())))
        kind = reader.enum(reader.key(node, "taskType", path), f"{path}.taskType", _NODE_TYPE_TABLE, "a node type")
        out = Node(seq, si, path, kind, kind)
        sid = node.get("streamId")
        out.stream_id = sid if type(sid) is int else None
        if kind == "KERNEL":
            infos = reader.mapping(reader.key(node, "kernelInfos", path), f"{path}.kernelInfos")
            out.kernel = _kernel(reader, infos, f"{path}.kernelInfos")
        else:
            spath = f"{path}.syncInfos"
            sync = reader.mapping(node.get("syncInfos") or {}, spath)
            if kind in ("NOTIFY", "WAIT", "RESET"):
                out.event = reader.handle(reader.key(sync, "eventId", spath), f"{spath}.eventId")
            elif kind in ("MEMORY_WRITE", "MEMORY_WAIT"):
                out.task_type = "VALUE_WRITE" if kind == "MEMORY_WRITE" else "VALUE_WAIT"
                out.dev_addr = reader.handle(reader.key(sync, "addrValue", spath), f"{spath}.addrValue")
                out.value = reader.hex_(reader.key(sync, "memoryValue", spath), f"{spath}.memoryValue")
                if kind == "MEMORY_WAIT":
                    out.wait_flag = reader.int_(reader.key(sync, "memoryWaitFlag", spath),
                                                f"{spath}.memoryWaitFlag", 0, 3)
        if node.get("isScopeNode") is True:
            out.marker = ("begin" if node.get("isScopeBegin") else "end" if node.get("isScopeEnd")
                          else "placeholder")
        if node.get("scopeName") is not None:
            out.scope_name = reader.str_(node["scopeName"], f"{path}.scopeName", "a scope name or null")
        by_stream.setdefault(si, []).append((index, out))
    for si in range(max(by_stream, default=-1) + 1):
        ordered = sorted(by_stream.get(si, []), key=lambda item: item[0])
        dump.streams.append([n for _, n in ordered])
        dump.stream_ids.append(ordered[0][1].stream_id if ordered else None)
