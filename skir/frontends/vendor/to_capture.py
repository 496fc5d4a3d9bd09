"""The mapping of docs/design.md §11 "Mapping": vendor dump nodes -> a capture JSON v1 dict.

```python
capture, info = to_capture(read_graph(data, src), trace, cores=(24, 48))
module = capture_importer.from_dict(capture, src)   # errors name capture paths; see `vendor_path`
```

Streams are `s<streamIdxInGraph>`, seq is `nodeId`, kernels are de-duplicated per distinct
(funcName, kernelType, taskRatio, cap, resolvedNum, sched mode, argument slots) and named by an
identifier made from `funcName` (the original kept in `VendorInfo.func_names`), events by
handle (`ev_<hex>`), cells by device address (`cell_<hex>`). A kernel's argument block
(`argsSize` bytes) is `argsSize / 8` opaque 64-bit param slots without roles. What the dumps do
not say is never invented: it is either left out (durations, param roles) or taken as the
runtime default and said once in `VendorInfo.notes`; a kernel whose argument size is unknown
(no `argsSize`, or one that is not a whole number of 64-bit slots) has no param slots and is
listed in `VendorInfo.args_unknown`, which `--build` refuses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skir.dialects.aclgraph_enums import KernelType, from_task_ratio, from_vendor_kernel_type, vendor_kernel_type
from skir.frontends.capture_export import FORMAT, VERSION
from skir.frontends.vendor.graph_dump import NO_FUSE_SCOPE, GraphDump, Node
from skir.frontends.vendor.runtime_trace import OPAQUE_KIND_OF_TYPE, RuntimeTrace, TraceTask
from skir.json_reader import JsonReader
from skir.names import NAME_MAX_BYTES, identifier, shown

DEFAULT_CORES = (24, 48)
"""Atlas A2/A3: 24 cube and 48 vector cores, used when the user gives no `--cores`."""

_WAIT_RULES = ("geq", "eq", "and", "nor")
_CAP_WAIT, _CAP_SET, _CAP_NO_DCCI, _CAP_NO_BATCH_CHECK, _CAP_SCALE_UP = 1, 2, 4, 8, 16
_SLOT_BYTES = 8
"""One argument slot: a 64-bit word of the task's device argument block."""
# vendor option -> (skir key, the skir value of each vendor value skir has)
_OPTIONS: dict[str, tuple[str, dict[int, str]]] = {
    "early_start": ("early-start", {v: str(v) for v in (0, 1, 2)}),
    "stream_fusion": ("stream-fusion", {v: str(v) for v in (0, 1)}),
    "split_mode": ("split-mode", {v: str(v) for v in range(1, 65)}),
    "debug_sync_all": ("debug-sync-all", {v: str(v) for v in (0, 1)}),
    # the AOT layer numbers its preload modes 0 max, 1 per-func (its default), 2 none
    "preload_code": ("preload-code", {0: "max", 1: "per-func", 2: "none"}),
}


@dataclass
class VendorInfo:
    """What the import knows beyond the capture: provenance, names, and what was unknown."""

    source: str
    layout: str
    model_id: str | None
    cores: tuple[int, int]
    cores_given: bool
    options: str = ""
    func_names: dict[str, str] = field(default_factory=dict)
    """Kernel symbol -> the dump's `funcName`."""
    no_bind_map: set[str] = field(default_factory=set)
    """Kernel symbols whose `resolvedNum` is 0."""
    args_unknown: set[str] = field(default_factory=set)
    """Kernel symbols whose argument size the dumps do not give (no param slots; not buildable)."""
    notes: list[str] = field(default_factory=list)
    paths: dict[tuple[int, int], str] = field(default_factory=dict)
    """(stream index, task index) of the capture -> the node's JSON path in the dump."""
    stream_ids: list[int | None] = field(default_factory=list)
    """Per stream, in the dump's order (`streamIdxInGraph`), the runtime's `streamId`, when the dump gives it."""


@dataclass
class _State:
    """What the mapping has declared so far."""

    info: VendorInfo
    names: _Names
    kernels: dict[tuple[Any, ...], str] = field(default_factory=dict)
    """Kernel identity -> its symbol."""
    specs: dict[str, dict[str, Any]] = field(default_factory=dict)
    events: dict[str, str] = field(default_factory=dict)
    """Event handle -> event name."""
    cells: dict[str, str] = field(default_factory=dict)
    """Device address -> cell name."""
    groups: dict[int, int] = field(default_factory=dict)
    """`taskGrp` handle -> skir's task group id (1, 2, ... in the order the handles first appear)."""
    counts: dict[str, int] = field(default_factory=lambda: {"default": 0, "sched": 0, "sched_untraced": 0,
                                                             "paired_value": 0, "scope_names": 0,
                                                             "args_missing": 0, "args_odd": 0, "comm": 0,
                                                             "active_unknown": 0})
    open_scopes: list[str | None] = field(default_factory=list)
    stream_of_id: dict[int, str] = field(default_factory=dict)
    """Runtime stream id -> the capture stream's name (a stream-activate task names its stream by id)."""


class _Names:
    def __init__(self) -> None:
        self.used: set[str] = set()

    def fresh(self, base: str) -> str:
        """`base` (an identifier), or `base_<n>` if it is taken (cut to leave room for `_<n>`)."""
        name, n = base, 1
        while name in self.used:
            n += 1
            name = f"{base[: NAME_MAX_BYTES - 8]}_{n}"
        self.used.add(name)
        return name


def to_capture(dump: GraphDump, trace: RuntimeTrace | None, source: str, cores: tuple[int, int] | None = None,
               trace_source: str = "sk_mdl_origin.json") -> tuple[dict[str, Any], VendorInfo]:
    """The capture dict of a vendor dump (and its runtime trace, when there is one)."""
    info = VendorInfo(source, dump.layout, dump.model_id, cores or DEFAULT_CORES, cores is not None)
    st = _State(info, _Names())
    info.stream_ids = list(dump.stream_ids)
    stream_names = [st.names.fresh(f"s{si}") for si in range(len(dump.streams))]
    st.stream_of_id = {sid: name for sid, name in zip(dump.stream_ids, stream_names) if sid is not None}
    traced = None
    if trace is not None and dump.layout == "trace":  # the trace is the model: its nodes are its tasks
        traced = [trace.tasks[sid] for sid in dump.stream_ids if sid is not None]
    elif trace is not None:
        traced = _join_trace(dump, trace, trace_source)
    streams = []
    for si, nodes in enumerate(dump.streams):
        tasks = []
        for ti, node in enumerate(nodes):
            info.paths[(si, ti)] = node.path
            tasks.append(_task(node, traced[si][ti] if traced is not None else None, st))
        streams.append({"name": stream_names[si], "tasks": tasks})
    _say_unknowns(info, st.counts)
    info.options = _options(dump.options, info)
    model = identifier("model_" + dump.model_id) if dump.model_id else "model"
    capture = {"format": FORMAT, "version": VERSION, "model": model,
               "cores": {"aic": info.cores[0], "aiv": info.cores[1]}, "kernels": st.specs,
               "events": list(st.events.values()), "cells": list(st.cells.values()), "streams": streams}
    return capture, info


def _join_trace(dump: GraphDump, trace: RuntimeTrace, source: str) -> list[list[TraceTask]]:
    """Each dump stream's trace tasks, joined by runtime stream id and position."""
    reader = JsonReader(source)
    out = []
    for si, nodes in enumerate(dump.streams):
        sid = dump.stream_ids[si]
        tasks = trace.tasks.get(sid, []) if sid is not None else []
        if len(tasks) != len(nodes):
            where = tasks[0].path if tasks else ""
            reader.fail(where, f"stream id {sid} has {len(tasks)} tasks here but {len(nodes)} in the SK graph "
                        f"dump's stream s{si}; the runtime trace is not of the same model")
        for node, task in zip(nodes, tasks, strict=True):
            # an AICPU kernel is a DEFAULT task to the SK graph
            runtime_kernel = task.task_type.startswith("KERNEL_") and task.task_type != "KERNEL_AICPU"
            if (node.task_type == "KERNEL") != runtime_kernel:
                reader.fail(task.path, f"task type {task.task_type} here, but the SK graph dump's {node.path} "
                            f"is a {node.task_type} task; the runtime trace is not of the same model")
        out.append(tasks)
    return out


def _task(node: Node, traced: TraceTask | None, st: _State) -> dict[str, Any]:
    """The capture task of one node (declaring its kernel, event or cell on first use)."""
    task: dict[str, Any] = {} if node.seq is None else {"seq": node.seq}
    if node.marker is not None:
        if node.marker == "placeholder":
            task["type"] = "placeholder"
            return task
        name = node.scope_name
        if name is None and node.node_type == "":  # the legacy raw dump does not carry scope names
            st.counts["scope_names"] += 1
            name = f"scope_{node.seq}" if node.marker == "begin" else st.open_scopes[-1] if st.open_scopes else None
        scope = None if name in (None, NO_FUSE_SCOPE) else name
        if node.marker == "begin":
            st.open_scopes.append(scope)
        elif st.open_scopes:
            st.open_scopes.pop()
        task["type"] = "scope_begin" if node.marker == "begin" else "scope_end"
        task["scope"] = scope
        return task
    if node.kernel is not None:
        k = node.kernel
        sched = None
        if traced is not None and traced.sched_mode is not None:
            sched = "batch" if traced.sched_mode == 1 and not k.cap & _CAP_NO_BATCH_CHECK else "normal"
        else:
            st.counts["sched" if traced is None else "sched_untraced"] += 1
        size = k.args_size if k.args_size is not None or traced is None else traced.args_size
        slots = None if size is None or size % _SLOT_BYTES else size // _SLOT_BYTES
        if slots is None:
            st.counts["args_missing" if size is None else "args_odd"] += 1
        identity = (k.func, k.kernel_type, k.ratio, k.cap, k.resolved, sched, slots)
        symbol = st.kernels.get(identity)
        if symbol is None:
            symbol = st.kernels[identity] = st.names.fresh(identifier(k.func))
            st.specs[symbol] = _kernel_spec(node, sched, slots or 0)
            st.info.func_names[symbol] = k.func
            if k.resolved == 0:
                st.info.no_bind_map.add(symbol)
            if slots is None:
                st.info.args_unknown.add(symbol)
        task.update(type="kernel", kernel=symbol, blocks=k.blocks)
        if (op := comm_op_of(k.func)) is not None:  # one group per model: the dumps do not say which
            task["comm"] = {"group": VENDOR_COMM_GROUP, "op": op}
            st.counts["comm"] += 1
        if k.task_group is not None:  # the dumps do not say what the update changes: `launch`
            task["task_group"] = st.groups.setdefault(k.task_group, len(st.groups) + 1)
        return task
    if node.task_type in ("NOTIFY", "WAIT", "RESET"):
        event = st.events.get(node.event)  # type: ignore[arg-type]
        if event is None:
            event = st.events[node.event] = st.names.fresh(f"ev_{node.event}")  # type: ignore[index]
        task.update(type={"NOTIFY": "event_record", "WAIT": "event_wait", "RESET": "event_reset"}[node.task_type],
                    event=event)
        if node.external:
            task["external"] = True
        return task
    if node.task_type in ("VALUE_WRITE", "VALUE_WAIT"):
        addr = node.dev_addr if node.dev_addr is not None else node.event
        cell = st.cells.get(addr)  # type: ignore[arg-type]
        if cell is None:
            cell = st.cells[addr] = st.names.fresh(f"cell_{addr}")  # type: ignore[index]
        if node.dev_addr is None:  # paired by the vendor: a satisfying write, a reset, a wait on it
            st.counts["paired_value"] += 1
            value: int | None = 0 if node.node_type == "RESET" else 1
            rule = "geq"
        else:
            value, rule = node.value, _WAIT_RULES[node.wait_flag or 0]
        task.update(type="value_write" if node.task_type == "VALUE_WRITE" else "value_wait", cell=cell, value=value)
        if node.task_type == "VALUE_WAIT":
            task["rule"] = rule
            if node.node_type == "MEMORY_WAIT":  # the vendor found no write of the model for it
                task["external"] = True
        return task
    kind = "other"
    if traced is not None and traced.task_type.startswith("STREAM_ACTIVE"):
        # a cascade capture stream: the capture continues on the stream it activates (docs/design.md §11)
        target = st.stream_of_id.get(traced.active_stream) if traced.active_stream is not None else None
        if target is not None:
            task.update(type="stream_active", stream=target)
            return task
        st.counts["active_unknown"] += 1  # it activates no stream of this model: an opaque fence
    if traced is not None:
        kind = OPAQUE_KIND_OF_TYPE.get(traced.task_type, "other")
        if kind.startswith("notify_") and traced.notify_id is not None:
            task["notify"] = f"n{traced.notify_id}"
    else:
        st.counts["default"] += 1
    task.update(type="default", kind=kind)
    return task


def _kernel_spec(node: Node, sched: str | None, slots: int) -> dict[str, Any]:
    k = node.kernel
    assert k is not None
    found = from_vendor_kernel_type(k.kernel_type)
    if found is None and k.ratio is not None:
        found = from_task_ratio(k.ratio)
    if found is None:
        known = ", ".join(vendor_kernel_type(t) for t in KernelType)
        JsonReader("").fail(node.path, f"kernelType {k.kernel_type!r} with taskRatio {list(k.ratio or ())} names "
                            f"no dav-c220 kernel type (one of {known})")
    spec: dict[str, Any] = {"kernel_type": found.value, "params": slots}  # roles unknown: a count
    if sched == "batch":
        spec["sched_mode"] = "batch"
    if k.cap & _CAP_SCALE_UP:
        spec["block_dim_scale_up"] = True
    if k.resolved == 0:
        spec["sk_capable"] = False
    if k.cap & (_CAP_WAIT | _CAP_SET):
        spec["early_start"] = {"set": bool(k.cap & _CAP_SET), "wait": bool(k.cap & _CAP_WAIT)}
    if k.cap & _CAP_NO_DCCI:
        spec["dcci"] = {"disable": True}
    return spec


VENDOR_COMM_GROUP = "vendor_comm"
"""The group every communication kernel of a vendor dump is put in (the dumps name no communicator)."""
_COMM_PREFIXES = (("aiv_all_reduce", "all_reduce"), ("aiv_all_gather", "all_gather"),
                  ("aiv_reduce_scatter", "reduce_scatter"), ("aiv_all_to_all", "all_to_all"),
                  ("moedistributedispatch", "dispatch"), ("moedistributecombine", "combine"),
                  ("dispatch_ffn_combine", "other"))
"""Function-name prefixes of HCCL's AIV-expanded collectives and the MoE dispatch / combine kernels."""


def comm_op_of(func: str) -> str | None:
    """The collective a vendor kernel's function name says it is (`aiv_all_reduce_bfloat16_t`:
    all_reduce; `MoeDistributeDispatchV2...`: dispatch), else None."""
    lowered = func.lower()
    return next((op for prefix, op in _COMM_PREFIXES if lowered.startswith(prefix)), None)


def _say_unknowns(info: VendorInfo, counts: dict[str, int]) -> None:
    if counts["sched"]:
        info.notes.append(f"sched mode unknown for {counts['sched']} kernel task(s) (no sk_mdl_origin.json): "
                          "taken as normal")
    if counts["sched_untraced"]:
        info.notes.append(f"sched mode unknown for {counts['sched_untraced']} kernel task(s) (no \"Schem Mode\" in "
                          "the runtime trace): taken as normal")
    if counts["default"]:
        info.notes.append(f"kind unknown for {counts['default']} DEFAULT task(s) (no sk_mdl_origin.json): "
                          "imported as opaque 'other'")
    if counts["active_unknown"]:
        info.notes.append(f"{counts['active_unknown']} STREAM_ACTIVE task(s) activate no stream of the model (no or "
                          "an unknown \"Active Stream Id\"): imported as opaque 'other'")
    if counts["paired_value"]:
        info.notes.append(f"{counts['paired_value']} value task(s) the vendor paired carry no value in the dump: "
                          "taken as write 1 (notify) / write 0 (reset) / wait >= 1")
    if counts["scope_names"]:
        info.notes.append(f"scope names unknown for {counts['scope_names']} marker(s) (legacy raw dump): "
                          "named scope_<seq of the begin>")
    source = "argsSize" if info.layout != "trace" else "Kernel Args Size"
    if counts["args_missing"] or counts["args_odd"]:
        why = [f"{counts['args_missing']} without {source}" if counts["args_missing"] else "",
               f"{counts['args_odd']} whose {source} is not a multiple of {_SLOT_BYTES} bytes" if counts["args_odd"]
               else ""]
        info.notes.append(f"argument size unknown for {counts['args_missing'] + counts['args_odd']} kernel task(s) "
                          f"({', '.join(w for w in why if w)}): no argument slots; --build refuses their SuperKernels")
    if counts["comm"]:
        info.notes.append(f"communicator unknown for {counts['comm']} communication kernel task(s): all put in one "
                          f"group, {VENDOR_COMM_GROUP}")
    info.notes.append(f"durations, param roles and code sizes are not in the dumps: a kernel's params are its "
                      f"{source} / {_SLOT_BYTES} opaque 64-bit slots, without roles")
    if not info.cores_given:
        info.notes.append(f"the dumps carry no core counts: using {info.cores[0]}:{info.cores[1]} (A2/A3); "
                          "give --cores AIC:AIV")


def _options(options: dict[str, Any], info: VendorInfo) -> str:
    """The dump's `options` map as a skir option string; what skir has no key for is noted."""
    out, ignored = [], []
    for name, entry in options.items():
        value = entry.get("value") if isinstance(entry, dict) else entry
        mapped = _OPTIONS.get(name)
        if mapped is not None and type(value) is int and value in mapped[1]:
            out.append(f"{mapped[0]}={mapped[1][value]}")
        elif value not in (None, 0, [], {}, "") and not (isinstance(value, dict) and not any(value.values())):
            ignored.append(f"{shown(str(name))}={shown(str(value))}")
    if ignored:
        info.notes.append("vendor options with no skir equivalent, ignored: " + ", ".join(ignored)[:400])
    return ":".join(out)
