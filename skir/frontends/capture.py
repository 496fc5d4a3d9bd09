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

This module reads the document and its declarations; `skir.frontends.capture_tasks` reads
the tasks, `skir.frontends.capture_build` numbers them and builds and verifies the module.
"""

from __future__ import annotations

import os
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import MAX_BLOCKS
from skir.dialects.aclgraph_enums import KernelType, ParamRole, SchedMode
from skir.frontends.capture_build import ModelBuilder
from skir.frontends.capture_export import (
    FORMAT,
    KERNEL_KEYS,
    TOP_KEYS,
    VERSION,
    dump,
    dumps,
    format_json,
    save,
)
from skir.gc_pause import paused_gc
from skir.json_reader import describe_value, key_path, parse_json
from skir.names import shown
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

_KINDS = {k.value: k for k in KernelType}
_ROLES = {r.value: r for r in ParamRole}


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


class _Importer(ModelBuilder):
    """Reads the document, its declarations and kernels; `TaskReader` reads the tasks,
    `ModelBuilder` builds the module."""

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


READER = ModelReader("capture", lambda data: True, lambda data, source, cores: from_dict(data, source))
"""Capture JSON as a model reader: every JSON value no other reader claims (`skir.registry.get_all_readers`)."""
