"""The task reader of the capture JSON importer (docs/design.md §8): one stream's tasks, read
and checked, as (op class, properties, seq or None) for `skir.frontends.capture_build`.

```json
{"type": "kernel", "kernel": "k", "blocks": 48, "args": ["x", "y"], "task_group": 1}
```

reads as `(LaunchOp, {kernel: @k, blocks: 48, args: [@x, @y], ...}, None)`; an `args` name
not declared under `buffers` declares a buffer without a size. `TaskReader` also holds the
names the capture declares (one namespace for kernels, buffers, events, cells and streams)
and refuses a second use of a name or a reference to an unknown one, each error one line at
its JSON path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, FloatData, UnitAttr
from xdsl.ir import Attribute

from skir.dialects.aclgraph import (
    MAX_BLOCKS,
    MAX_COMM_BYTES,
    MAX_U64,
    CondOp,
    LaunchOp,
    OpaqueOp,
    PlaceholderOp,
    RecordOp,
    ResetOp,
    ScopeBeginOp,
    ScopeEndOp,
    StreamActiveOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_enums import CommOp, OpaqueKind, WaitRule, comm_op_attr, opaque_kind_attr, wait_rule_attr
from skir.dialects.aclgraph_task import MAX_GROUP, UPDATE_KINDS, group_props
from skir.dialects.options_attr import SkOptionsAttr
from skir.dialects.syntax import int_attr, string_attr, symbol_ref
from skir.errors import SkirError
from skir.frontends.capture_export import TASK_KEYS
from skir.frontends.capture_submodels import SubmodelReader
from skir.json_reader import DupDict, JsonReader, article, describe_value
from skir.names import shown
from skir.options import options_at

TaskRead = tuple[type[TaskOp], dict[str, Attribute], Any]
"""A task as read: its op class, its properties without `seq`, its seq or None."""

_MAX_SEQ = (1 << 63) - 1
_UNIT = UnitAttr()
_EVENT_CLS = {"event_record": RecordOp, "event_wait": WaitOp, "event_reset": ResetOp}
_TASK_ALLOWED = {t: frozenset((*req, *opt, "seq", "type", "task_group", "update"))
                 for t, (req, opt) in TASK_KEYS.items()}
_RULES = {r.value: wait_rule_attr(r) for r in WaitRule}
_OPAQUE = {k.value: opaque_kind_attr(k) for k in OpaqueKind}
_COMM_OPS = {k.value: comm_op_attr(k) for k in CommOp}
_NOTIFY_KINDS = ("notify_record", "notify_wait")
_UPDATES = {k: k for k in UPDATE_KINDS}


class TaskReader(JsonReader):
    """The declared names of one capture and the reader of its streams' tasks."""

    def __init__(self, source: str):
        super().__init__(source)
        self.kind_of: dict[str, tuple[str, str]] = {}  # name -> (kind, path of declaration)
        self.buffers: dict[str, int | None] = {}
        self.events: set[str] = set()
        self.cells: set[str] = set()
        self.kernels: dict[str, dict[str, Any]] = {}
        self.args_len: dict[str, tuple[int, str]] = {}  # kernel -> (args length, first path)
        self.args_cache: dict[tuple[str, ...], ArrayAttr] = {}
        self.prefix = ""  # the JSON path of the streams being read ("submodels[i]." in a sub-model)
        self.owner: str | None = None  # the sub-model being read
        self.subs = SubmodelReader(self)
        self.stream_names: list[str] = []
        self.stream_set: set[str] = set()

    def declare(self, name: str, kind: str, path: str) -> None:
        other = self.kind_of.get(name)
        if other is not None:
            what = "declared twice" if other[0] == kind else f"already used by {article(other[0])}"
            self.fail(path, f"name {shown(name)} is {what} ({other[1]}); kernels, buffers, events, cells "
                      "and streams share one namespace")
        self.kind_of[name] = (kind, path)

    def ref(self, value: Any, path: str, kind: str, table: Any) -> str:
        name = self.name(value, path)
        if name not in table:
            other = self.kind_of.get(name)
            if other is not None:
                self.fail(path, f"{shown(name)} is {article(other[0])} ({other[1]}), not {article(kind)}")
            self.fail(path, f"unknown {kind} {shown(name)}")
        return name

    # ---- tasks ----

    def stream_tasks(self, tasks: Any, si: int) -> list[TaskRead]:
        """(op class, properties without seq, seq or None) for each task of stream `si`."""
        out = []
        for ti, task in enumerate(self.list_(tasks, f"streams[{si}].tasks")):
            out.append(self.task(task, si, ti))
        return out

    def task(self, task: Any, si: int, ti: int) -> TaskRead:
        def p(key: str | None = None) -> str:
            base = f"{self.prefix}streams[{si}].tasks[{ti}]"
            return base if key is None else f"{base}.{key}"

        if not isinstance(task, dict):
            self.fail(p(), f"expected a task object, got {describe_value(task)}")
        if type(task) is DupDict:
            self.fail(p(task.dup), "duplicate key")
        kind = task.get("type")
        if type(kind) is not str or kind not in _TASK_ALLOWED:
            if "type" not in task:
                self.fail(p("type"), "required key is missing")
            got = repr(kind) if type(kind) is str else describe_value(kind)
            self.fail(p("type"), f"unknown task type {got} (one of {', '.join(TASK_KEYS)})")
        allowed = _TASK_ALLOWED[kind]
        for key in task:
            if key not in allowed:
                self.fail(p(key), f"unknown key for {article(kind)} task (expected one of: "
                          f"{', '.join(sorted(allowed))})")
        for key in TASK_KEYS[kind][0]:
            if key not in task:
                self.fail(p(key), "required key is missing")
        seq = task.get("seq")
        if seq is not None or "seq" in task:
            seq = self.int_(seq, p("seq"), 0, _MAX_SEQ)
        props: dict[str, Attribute] = {}
        if kind == "kernel":
            kernel = self.ref(task["kernel"], p("kernel"), "kernel", self.kernels)
            props["kernel"] = symbol_ref(kernel)
            props["blocks"] = int_attr(self.int_(task["blocks"], p("blocks"), 1, MAX_BLOCKS))
            if "args" in task:
                props["args"] = self.args(task["args"], p("args"), kernel)
            if "duration_us" in task:
                dur = task["duration_us"]
                if type(dur) not in (int, float):
                    self.fail(p("duration_us"), f"expected a number, got {describe_value(dur)}")
                if not 0 <= dur < float("inf"):
                    self.fail(p("duration_us"), f"expected a finite non-negative number, got {dur!r}")
                props["duration"] = FloatData(float(dur))
            if "comm" in task:
                props.update(self.comm(task["comm"], p("comm")))
            cls: type[TaskOp] = LaunchOp
        elif kind in _EVENT_CLS:
            cls = _EVENT_CLS[kind]
            props["event"] = symbol_ref(self.ref(task["event"], p("event"), "event", self.events))
            if "external" in task and self.bool_(task["external"], p("external")):
                props["external"] = _UNIT
        elif kind == "value_write" or kind == "value_wait":
            props["cell"] = symbol_ref(self.ref(task["cell"], p("cell"), "cell", self.cells))
            props["value"] = int_attr(self.int_(task["value"], p("value"), 0, MAX_U64))
            if kind == "value_wait":
                props["rule"] = self.enum(task["rule"], p("rule"), _RULES, "a wait rule")
                if "external" in task and self.bool_(task["external"], p("external")):
                    props["external"] = _UNIT
                cls = ValueWaitOp
            else:
                cls = ValueWriteOp
        elif kind == "default":
            cls = OpaqueOp
            op_kind = task["kind"]
            props["kind"] = self.enum(op_kind, p("kind"), _OPAQUE, "an opaque task kind")
            if "notify" in task:
                if op_kind not in _NOTIFY_KINDS:
                    self.fail(p("notify"), f"only notify_record / notify_wait tasks name a notify, "
                              f"not {op_kind}")
                notify = self.str_(task["notify"], p("notify"), "a notify name (string)")
                if not notify:
                    self.fail(p("notify"), "a notify name must not be empty")
                props["notify"] = string_attr(notify)
        elif kind == "cond":
            cls = CondOp
            props.update(self.subs.cond_props(task, p))
        elif kind == "stream_active":
            cls = StreamActiveOp
            target = self.ref(task["stream"], p("stream"), "stream", self.stream_set)
            if target == self.stream_names[si]:
                self.fail(p("stream"), f"stream_active activates its own stream '{target}'; name the stream "
                          "the capture continues on")
            props["stream"] = symbol_ref(target)
        elif kind == "scope_begin" or kind == "scope_end":
            scope = task["scope"]
            if scope is not None:
                props["scope"] = string_attr(self.str_(scope, p("scope"), "a scope name or null"))
            if "options" in task:
                text = self.str_(task["options"], p("options"))
                try:  # a scope's options are parsed once, where they enter, at their JSON path
                    props["options"] = SkOptionsAttr(options_at(text, ""))
                except SkirError as err:
                    self.fail(p("options"), str(err))
            cls = ScopeBeginOp if kind == "scope_begin" else ScopeEndOp
        else:
            cls = PlaceholderOp
        props.update(self.group(task, p))
        return cls, props, seq

    def group(self, task: dict[str, Any], p: Callable[[str | None], str]) -> dict[str, Attribute]:
        """`task_group` (an id in 1..2^32-1, `true` for the anonymous group, `false` for none) and
        `update` (`args` or `launch`; only on a task of a group)."""
        group: int | bool | None = None
        if "task_group" in task:
            value = task["task_group"]
            group = value if type(value) is bool else self.int_(value, p("task_group"), 1, MAX_GROUP)
        update = None
        if "update" in task:
            update = self.enum(task["update"], p("update"), _UPDATES, "an update kind")
            if group is None or group is False:
                self.fail(p("update"), "an update belongs to a task group: give the task \"task_group\" "
                                       "(the group's id)")
        return group_props(group, update)

    def comm(self, value: Any, path: str) -> dict[str, Attribute]:
        """A communication kernel's `{"group": G, "op": OP, "bytes": N}` (bytes optional)."""
        c = self.obj(value, path, ("group", "op"), ("group", "op", "bytes"))
        props: dict[str, Attribute] = {"comm_group": string_attr(self.name(c["group"], path + ".group")),
                                       "comm_op": self.enum(c["op"], path + ".op", _COMM_OPS, "a collective")}
        if "bytes" in c:
            props["comm_bytes"] = int_attr(self.int_(c["bytes"], path + ".bytes", 0, MAX_COMM_BYTES))
        return props

    def args(self, value: Any, path: str, kernel: str) -> ArrayAttr:
        args = self.list_(value, path)
        key = tuple(args) if all(type(a) is str and a in self.buffers for a in args) else None
        if key is None:
            for i, a in enumerate(args):
                name = self.name(a, f"{path}[{i}]")
                if name not in self.buffers:
                    other = self.kind_of.get(name)
                    if other is not None:
                        self.fail(f"{path}[{i}]", f"'{name}' is {article(other[0])} ({other[1]}), not a buffer")
                    self.declare(name, "buffer", f"{path}[{i}]")
                    self.buffers[name] = None
            key = tuple(args)
        spec = self.kernels[kernel]
        params = spec.get("params")
        expected = params if type(params) is int else None if params is None else len(params)
        if expected is None:
            first = self.args_len.setdefault(kernel, (len(args), path))
            if first[0] != len(args):
                self.fail(path, f"{len(args)} args for kernel '{kernel}', which takes {first[0]} "
                          f"(from {first[1]})")
        elif expected != len(args):
            self.fail(path, f"{len(args)} args for kernel '{kernel}', which has {expected} params")
        attr = self.args_cache.get(key)
        if attr is None:
            attr = self.args_cache[key] = ArrayAttr(tuple(symbol_ref(a) for a in key))
        return attr
