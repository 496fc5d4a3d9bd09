"""The capture JSON v1 importer (docs/design.md §8): capture JSON -> `builtin.module { aclgraph.model }`.

```python
from skir.frontends import capture
module = capture.load("model.json")        # or loads(text), from_dict(data)
capture.save(module, "again.json")         # dump / dumps / save: the exporter
```

A capture file such as

```json
{"format": "skir.aclgraph.capture", "version": 1, "model": "m",
 "cores": {"aic": 24, "aiv": 48},
 "kernels": {"k": {"kernel_type": "aiv_only", "params": ["in", "out"]}},
 "buffers": {"x": 64},
 "events": ["e0"],
 "streams": [{"name": "s0", "tasks": [{"type": "kernel", "kernel": "k", "blocks": 48,
                                        "args": ["x", "y"]},
                                       {"type": "event_record", "event": "e0"}]},
             {"name": "s1", "tasks": [{"type": "event_wait", "event": "e0"}]}]}
```

imports as (no `seq` given, so capture is simulated; `y` is declared without a size)

```mlir
aclgraph.model @m cores(aic = 24, aiv = 48) {
  aclgraph.kernel @k aiv_only params(in, out)
  aclgraph.buffer @x bytes 64
  aclgraph.buffer @y
  aclgraph.event @e0
  aclgraph.stream @s0 slots 2 {
    aclgraph.launch seq 0 @k blocks 48 args(@x, @y)
    aclgraph.record seq 1 @e0
  }
  aclgraph.stream @s1 slots 1 {
    aclgraph.wait seq 2 @e0
  }
}
```

The reader is strict: unknown keys, duplicate object keys, booleans where integers are
expected, wrong types, missing required keys, out-of-range numbers, a name used by two
kinds, unknown references and an unsupported `format` / `version` are errors. Each raises
`SkirError` with one line `<source>: <json path>: <message>` (or `<source>:<line>:<col>:
invalid JSON: ...`); the built module is verified, and a verifier error on a task is
reported at that task's JSON path.

Required keys: `format`, `version`, `cores` (`aic`, `aiv`), `streams` (each `name`,
`tasks`), a task's `type` and its fields, a kernel's `kernel_type`. Optional: `model`
(default `"model"`), `soc` (a dav-c220 name), `kernels`, `buffers`, `events`, `cells`.

skir extensions to docs/design.md §8 (the exporter writes them only when needed):
- a kernel may carry `dcci`: `{"before": bool, "after": bool, "disable": bool}` (each
  default false), the kernel's data-cache clean/invalidate flags;
- a kernel's `params` may be an integer: that many parameter slots without roles (written
  only for a kernel no launch passes `args` to);
- a buffer's size may be `null` (size unknown; written only to keep declaration order).

Declaration order in the module: kernels, buffers (listed ones in JSON order, then those
first named in `args`, in stream and task order), events, cells, then streams; each stream
records `slots` = its number of tasks. Tasks keep their JSON order within a stream.

Where no task has `seq`, capture is simulated (docs/design.md §8): repeatedly the next task of
the lowest-index stream whose next task is not an `event_wait` (non-external) with no
record yet in its event's epoch (an `event_reset` starts a new epoch) is numbered next.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, FloatData, ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.utils.exceptions import DiagnosticException

from skir.dialects.aclgraph import (
    MAX_BLOCKS,
    MAX_COMM_BYTES,
    MAX_U64,
    CondOp,
    LaunchOp,
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
from skir.dialects.aclgraph_enums import (
    CommOp,
    KernelType,
    OpaqueKind,
    ParamRole,
    SchedMode,
    WaitRule,
    comm_op_attr,
    opaque_kind_attr,
    wait_rule_attr,
)
from skir.dialects.aclgraph_task import MAX_GROUP, UPDATE_KINDS, group_props
from skir.dialects.model_lookup import all_submodels
from skir.dialects.options_attr import SkOptionsAttr
from skir.dialects.syntax import int_attr, new_op, string_attr, symbol_ref
from skir.errors import ExitCode, SkirError, TaskVerifyException
from skir.frontends.capture_export import (
    FORMAT,
    KERNEL_KEYS,
    TASK_KEYS,
    TOP_KEYS,
    VERSION,
    dump,
    dumps,
    format_json,
    save,
)
from skir.frontends.capture_seq import simulate_capture
from skir.frontends.capture_submodels import BRANCHES_KEY, SubmodelReader, build_submodel
from skir.gc_pause import paused_gc
from skir.json_reader import DupDict, JsonReader, article, describe_value, key_path, parse_json
from skir.names import shown
from skir.options import options_at
from skir.readers import ModelReader
from skir.source_text import read_model

OTHER_FORMATS = {
    "skir.sim.costs": ("a costs file", "give it with --costs (costs=)"),
    "skir.profile": ("a profile of measured durations", "give it with --profile (profiles=)"),
    "skir.rewrite_plan": ("a rewrite plan", "sk-compile writes it as OUT/plan.json"),
    "skir.sk_meta": ("SK meta", "sk-compile writes it as OUT/sk_meta.json"),
    "skir.sk_descriptor": ("a kernel descriptor", "sk-compile writes one per SuperKernel"),
    "skir.timeline": ("a simulated timeline", "sk-compile --report writes it as OUT/timeline.json"),
    "skir.vendor_compare": ("a comparison with the vendor's result", "sk-compile --vendor writes it"),
    "skir.manifest": ("a manifest of products", "sk-compile writes it"),
}
"""The `format` of every other JSON file skir reads or writes -> what it is and where it belongs, for a
file given as the model."""

__all__ = ["DAV_C220_SOCS", "FORMAT", "READER", "VERSION", "dump", "dumps", "format_json", "from_dict", "load",
           "loads", "save"]

DAV_C220_SOCS = frozenset({
    "Ascend910B1", "Ascend910B2", "Ascend910B2C", "Ascend910B3", "Ascend910B4", "Ascend910B4-1",
    "Ascend910_9391", "Ascend910_9381", "Ascend910_9392", "Ascend910_9382", "Ascend910_9372",
    "Ascend910_9362",
})

_MAX_SEQ = (1 << 63) - 1
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*\Z")
_UNIT = UnitAttr()
_EVENT_CLS = {"event_record": RecordOp, "event_wait": WaitOp, "event_reset": ResetOp}
_TASK_ALLOWED = {t: frozenset((*req, *opt, "seq", "type", "task_group", "update"))
                 for t, (req, opt) in TASK_KEYS.items()}
_KINDS = {k.value: k for k in KernelType}
_ROLES = {r.value: r for r in ParamRole}
_RULES = {r.value: wait_rule_attr(r) for r in WaitRule}
_OPAQUE = {k.value: opaque_kind_attr(k) for k in OpaqueKind}
_COMM_OPS = {k.value: comm_op_attr(k) for k in CommOp}
_NOTIFY_KINDS = ("notify_record", "notify_wait")
_UPDATES = {k: k for k in UPDATE_KINDS}
# simulation codes
_OTHER, _RECORD, _WAIT, _RESET = 0, 1, 2, 3


# ---- public API --------------------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> ModuleOp:
    """Import the capture JSON file at `path` (`-`: standard input; errors name the path as given)."""
    source, text = read_model(path)
    return loads(text, source)


def loads(text: str, source: str = "<json>") -> ModuleOp:
    """Import capture JSON text; `source` prefixes every diagnostic."""
    with paused_gc():
        return from_dict(parse_json(text, source), source)


def from_dict(data: dict[str, Any], source: str = "<json>") -> ModuleOp:
    """Import a capture dict (as `json.load` gives it); `data` is not modified."""
    with paused_gc():
        return _Importer(source).run(data)


class _Importer(JsonReader):
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
        self.stream_paths: dict[StreamOp, str] = {}
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

    # ---- the document ----

    def run(self, data: Any) -> ModuleOp:
        other = data.get("format") if isinstance(data, dict) else None
        if isinstance(other, str) and other in OTHER_FORMATS:  # a file of skir's own, given as the model
            what, where = OTHER_FORMATS[other]
            self.fail("format", f"this is {what} ({other}), not a model: {where}; a model is .mlir, capture JSON "
                      f"({FORMAT}) or the vendor's dumps")
        d = self.obj(data, "", ("format", "version", "cores", "streams"), TOP_KEYS)
        if d["format"] != FORMAT:
            got = repr(d["format"]) if type(d["format"]) is str else describe_value(d["format"])
            self.fail("format", f"expected '{FORMAT}', got {got}")
        version = d["version"]
        if type(version) is not int:
            self.fail("version", f"expected an integer, got {describe_value(version)}")
        if version != VERSION:
            self.fail("version", f"capture version {version} is not supported (this skir reads "
                      f"version {VERSION})")
        model_name = self.name(d.get("model", "model"), "model")
        soc = d.get("soc")
        if soc is not None:
            self.str_(soc, "soc")
            if soc not in DAV_C220_SOCS:
                self.fail("soc", f"{shown(soc)} is not a dav-c220 (Atlas A2/A3) SoC; expected one of "
                          f"{', '.join(sorted(DAV_C220_SOCS))}")
        cores = self.obj(d["cores"], "cores", ("aic", "aiv"), ("aic", "aiv"))
        aic = self.int_(cores["aic"], "cores.aic", 1, MAX_BLOCKS)
        aiv = self.int_(cores["aiv"], "cores.aiv", 1, MAX_BLOCKS)

        kernels = self.mapping(d.get("kernels", {}), "kernels")
        for name, spec in kernels.items():
            path = key_path("kernels", name)
            self.declare(self.name(name, path), "kernel", path)
            self.kernels[name] = self.kernel(spec, path, name)
        buffers = self.mapping(d.get("buffers", {}), "buffers")
        for name, size in buffers.items():
            path = key_path("buffers", name)
            self.declare(self.name(name, path), "buffer", path)
            self.buffers[name] = None if size is None else self.int_(size, path, 0, (1 << 63) - 1)
        for key, kind, table in (("events", "event", self.events), ("cells", "cell", self.cells)):
            for i, name in enumerate(self.list_(d.get(key, []), key)):
                path = f"{key}[{i}]"
                self.declare(self.name(name, path), kind, path)
                table.add(name)
        streams = self.list_(d["streams"], "streams")
        names: list[str] = []
        for si, stream in enumerate(streams):
            path = f"streams[{si}]"
            self.obj(stream, path, ("name", "tasks"), ("name", "tasks"))
            names.append(self.name(stream["name"], path + ".name"))
            self.declare(names[-1], "stream", path + ".name")
        self.stream_names, self.stream_set = names, set(names)
        self.subs.declare(d.get("submodels", []))
        task_props = [self.stream_tasks(stream["tasks"], si) for si, stream in enumerate(streams)]
        self.subs.read_tasks(d.get("submodels", []))
        self.subs.check_uses()
        return self.build(model_name, aic, aiv, soc, names, task_props)

    def kernel(self, spec: Any, path: str, name: str) -> dict[str, Any]:
        k = self.obj(spec, path, ("kernel_type",), KERNEL_KEYS)
        out: dict[str, Any] = {"kernel_type": self.enum(k["kernel_type"], path + ".kernel_type", _KINDS,
                                                        "a kernel type")}
        params = k.get("params")
        if params is None and "params" in k:
            self.fail(path + ".params", "expected an array of roles, got null")
        if type(params) is int:
            out["params"] = self.int_(params, path + ".params", 0, 1 << 16)
        elif params is not None:
            roles = self.list_(params, path + ".params")
            out["params"] = [self.enum(r, f"{path}.params[{i}]", _ROLES, "a param role")
                             for i, r in enumerate(roles)]
        if "sched_mode" in k:
            out["sched_mode"] = self.enum(k["sched_mode"], path + ".sched_mode",
                                          {m.value: m for m in SchedMode}, "a sched mode")
        if "block_dim_scale_up" in k:
            out["block_dim_scale_up"] = self.bool_(k["block_dim_scale_up"], path + ".block_dim_scale_up")
        if "sk_capable" in k:
            out["sk_capable"] = self.bool_(k["sk_capable"], path + ".sk_capable")
        for key, labels in (("early_start", ("set", "wait")), ("dcci", ("before", "after", "disable"))):
            if key in k:
                flags = self.obj(k[key], f"{path}.{key}", (), labels)
                out[key] = tuple(self.bool_(flags.get(lb, False), f"{path}.{key}.{lb}") for lb in labels)
        if "code_bytes" in k:
            out["code_bytes"] = self.int_(k["code_bytes"], path + ".code_bytes", 0, 1 << 40)
        if "sk_symbol" in k:  # a C symbol, like the names
            out["sk_symbol"] = self.name(k["sk_symbol"], path + ".sk_symbol")
        if "split_copies" in k:
            out["split_copies"] = self.int_(k["split_copies"], path + ".split_copies", 1, 64)
        if "sk_system_args" in k:
            out["sk_system_args"] = self.bool_(k["sk_system_args"], path + ".sk_system_args")
        if "sync_flags" in k:
            flags_list = self.list_(k["sync_flags"], path + ".sync_flags")
            out["sync_flags"] = [self.int_(f, f"{path}.sync_flags[{i}]", 0, 15)
                                 for i, f in enumerate(flags_list)]
        return out

    # ---- tasks ----

    def stream_tasks(self, tasks: Any, si: int) -> list[tuple[type[TaskOp], dict[str, Attribute], Any]]:
        """(op class, properties without seq, seq or None) for each task of stream `si`."""
        out = []
        for ti, task in enumerate(self.list_(tasks, f"streams[{si}].tasks")):
            out.append(self.task(task, si, ti))
        return out

    def task(self, task: Any, si: int, ti: int) -> tuple[type[TaskOp], dict[str, Attribute], Any]:
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

    # ---- seq and the module ----

    def assign_seq(self, tasks: list[list[tuple[type[TaskOp], dict[str, Attribute], Any]]]) -> list[list[int]]:
        first: tuple[bool, str] | None = None
        for si, stream in enumerate(tasks):
            for ti, (_, _, seq) in enumerate(stream):
                has = seq is not None
                if first is None:
                    first = (has, f"streams[{si}].tasks[{ti}]")
                elif has != first[0]:
                    where = f"streams[{si}].tasks[{ti}]"
                    self.fail(where + (".seq" if has else ""),
                              f"{'has' if has else 'has no'} 'seq' but {first[1]} "
                              f"{'has none' if has else 'has one'}; give every task a seq or none")
        if self.subs.subs:  # seqs order the model and its sub-models: no capture order to replay
            for name, sub in self.subs.subs.items():
                for si, stream in enumerate(sub.tasks):
                    for ti, (_, _, seq) in enumerate(stream):
                        if seq is None or first is None or not first[0]:
                            self.fail(f"{sub.path}.streams[{si}].tasks[{ti}]",
                                      "a capture with submodels gives every task a seq")
        if first is None or first[0]:
            return [[seq for _, _, seq in stream] for stream in tasks]
        return simulate_capture(tasks, self.fail, self.stream_names)

    def build(self, model_name: str, aic: int, aiv: int, soc: str | None, names: list[str],
              tasks: list[list[tuple[type[TaskOp], dict[str, Attribute], Any]]]) -> ModuleOp:
        seqs = self.assign_seq(tasks)
        decls: list[Operation] = []
        for name, spec in self.kernels.items():
            params = spec.get("params")
            if params is None:
                if name not in self.args_len:
                    self.fail(key_path("kernels", name), f"kernel '{name}' has no 'params' and no "
                              "launch passes 'args'; give its params")
                params = self.args_len[name][0]
            kwargs = {k: v for k, v in spec.items() if k not in ("kernel_type", "params")}
            decls.append(KernelOp(name, spec["kernel_type"], params, **kwargs))
        decls.extend(BufferOp(name, size) for name, size in self.buffers.items())
        declared = self.kind_of  # in declaration (JSON) order
        decls.extend(EventOp(n) for n, (k, _) in declared.items() if k == "event")
        decls.extend(CellOp(n) for n, (k, _) in declared.items() if k == "cell")

        def sub_model(name: str) -> ModelOp:
            sub = self.subs.subs[name]
            made = make_streams(sub.streams, sub.tasks, [[q for _, _, q in st] for st in sub.tasks],
                                f"{sub.path}.")
            return build_submodel(name, aic, aiv, soc, decls, made)  # type: ignore[arg-type]

        def make_streams(names: list[str], tasks: list[list[tuple[type[TaskOp], dict[str, Attribute], Any]]],
                         seqs: list[list[int]], prefix: str) -> list[StreamOp]:
            made: list[StreamOp] = []
            for si, (name, stream, seq_list) in enumerate(zip(names, tasks, seqs)):
                ops: list[Operation] = []
                for (cls, props, _), seq in zip(stream, seq_list):
                    props["seq"] = int_attr(seq)
                    branches = props.pop(BRANCHES_KEY, None)
                    if branches is None:
                        ops.append(new_op(cls, props))
                    else:
                        subs = [sub_model(b.data) for b in branches.data]  # type: ignore[attr-defined]
                        ops.append(new_op(cls, props, [Region(Block([m])) for m in subs]))
                made.append(StreamOp(name, Region(Block(ops)), slots=len(ops)))
                self.stream_paths[made[-1]] = f"{prefix}streams[{si}]"
            return made

        streams = make_streams(names, tasks, seqs, "")
        model = ModelOp(model_name, aic, aiv, Region(Block([*decls, *streams])), soc)
        module = ModuleOp([model])
        self.verify(module, model, streams)
        return module

    def verify(self, module: ModuleOp, model: ModelOp, streams: list[StreamOp]) -> None:
        try:
            _verify_quietly(module, model)
            for sub in all_submodels(model):
                _verify_quietly(module, sub)
            return
        except TaskVerifyException as e:
            path = self.op_path(e.op, model, streams) if e.op is not None else None
            message = _first_line(str(e))
        except DiagnosticException as e:
            path, message = None, _first_line(str(e))
        except Exception as e:  # a bug in a verifier: still one line, marked internal
            raise SkirError(f"{self.source}: internal error while verifying the model: "
                            f"{type(e).__name__}: {e}", ExitCode.INTERNAL) from e
        self.fail(path or "", message)

    def op_path(self, op: Operation, model: ModelOp, streams: list[StreamOp]) -> str | None:
        parent = op.parent_op()
        if isinstance(op, TaskOp) and isinstance(parent, StreamOp) and parent in self.stream_paths:
            ti = next(i for i, o in enumerate(parent.body.block.ops) if o is op)
            return f"{self.stream_paths[parent]}.tasks[{ti}]"
        if isinstance(op, StreamOp) and op in self.stream_paths:
            return self.stream_paths[op]
        name = op.properties.get("sym_name")
        if parent is model and name is not None:
            entry = self.kind_of.get(name.data) if isinstance(name, StringAttr) else None
            return None if entry is None else entry[1]
        return None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "verification failed"


def _verify_quietly(module: ModuleOp, model: ModelOp) -> None:
    """`module.verify()` for a module this importer built, without xDSL's diagnostic dump.

    `Operation.verify` prints the whole module into the exception's notes on failure
    (seconds at 100k tasks) and re-checks every task's properties against its definition.
    The importer builds each task's properties from validated JSON with the right attribute
    types, and the task ops' own verifiers check only what the importer already checked
    (blocks range, notify kinds), so tasks are not re-verified one by one. Everything else
    runs as in `module.verify()`: each declaration and stream op's verifier, then the
    model's whole-model check (`skir.analysis.model_check`), then the module's. The tests
    run the full `module.verify()` on imported models.
    """
    from skir.analysis.model_check import install

    install()
    for op in model.body.block.ops:
        op.verify_()
    model.verify_()
    module.verify_()


READER = ModelReader("capture", lambda data: True, lambda data, source, cores: from_dict(data, source))
"""Capture JSON as a model reader: every JSON value no other reader claims (`skir.registry.get_all_readers`)."""
