"""Conditional sub-models in capture JSON (docs/design.md §3 "Conditional sub-models", §8).

```json
"submodels": [{"name": "then_b", "streams": [{"name": "s2", "tasks": [...]}]},
              {"name": "else_b", "streams": [{"name": "s3", "tasks": [...]}]}],
"streams": [{"name": "s0", "tasks": [
  {"seq": 4, "type": "cond", "kind": "if", "cell": "flag", "submodels": ["then_b", "else_b"]}]}]
```

A sub-model shares the model's kernels, buffers, events and cells; its streams are its own and
their names, like every seq, are unique across the model and its sub-models. Each sub-model is
used by exactly one condition task, none contains a condition task that leads back to itself,
and `if` takes one or two, `while` one, `switch` two or more. `SubmodelReader` checks all of it
with one located line per error; `build_submodel` makes the nested `aclgraph.model`, which
declares what its tasks use, as the model declares it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region

from skir.dialects.aclgraph import CondKind, ModelOp
from skir.dialects.aclgraph_cond import BRANCHES
from skir.dialects.syntax import string_attr

BRANCHES_KEY = "_branches"
"""The property a condition task carries while it is read: its sub-models' names and paths
(replaced by the regions when the model is built)."""

_KINDS = {k.value: k for k in CondKind}
_WANT = {CondKind.IF: "one or two sub-models (then, else)", CondKind.WHILE: "exactly one sub-model (its body)",
         CondKind.SWITCH: "two or more sub-models"}


@dataclass
class Submodel:
    name: str
    path: str
    streams: list[str] = field(default_factory=list)
    tasks: list[list[tuple[type, dict[str, Attribute], Any]]] = field(default_factory=list)
    used_by: str | None = None
    """The path of the condition task that runs it."""


class SubmodelReader:
    """Reads and checks the `submodels` of one capture for the importer `reader` (a
    `JsonReader` with `declare`, `name`, `list_`, `obj`, `ref` and `stream_tasks`)."""

    def __init__(self, reader: Any):
        self.r = reader
        self.subs: dict[str, Submodel] = {}
        self.conds: list[tuple[str | None, str, list[tuple[str, str]]]] = []
        """(owner sub-model or None for the model, path, [(sub-model name, path)]) per condition task."""

    def declare(self, value: Any) -> None:
        """Declare the sub-models' names and their streams' names (before any task is read)."""
        r = self.r
        for i, sub in enumerate(r.list_(value, "submodels")):
            path = f"submodels[{i}]"
            r.obj(sub, path, ("name", "streams"), ("name", "streams"))
            name = r.name(sub["name"], path + ".name")
            r.declare(name, "submodel", path + ".name")
            entry = self.subs[name] = Submodel(name, path)
            for si, stream in enumerate(r.list_(sub["streams"], path + ".streams")):
                spath = f"{path}.streams[{si}]"
                r.obj(stream, spath, ("name", "tasks"), ("name", "tasks"))
                entry.streams.append(r.name(stream["name"], spath + ".name"))
                r.declare(entry.streams[-1], "stream", spath + ".name")

    def read_tasks(self, value: Any) -> None:
        r = self.r
        streams = (r.stream_names, r.stream_set)
        for i, sub in enumerate(r.list_(value, "submodels")):
            entry = self.subs[sub["name"]]
            r.prefix, r.owner = f"submodels[{i}].", entry.name
            r.stream_names, r.stream_set = entry.streams, set(entry.streams)  # a stream_active names its own
            entry.tasks = [r.stream_tasks(stream["tasks"], si) for si, stream in enumerate(sub["streams"])]
        r.prefix, r.owner = "", None
        r.stream_names, r.stream_set = streams

    def cond_props(self, task: dict[str, Any], p: Callable[[str | None], str]) -> dict[str, Attribute]:
        """The properties of a `cond` task: kind, cell and (while it is read) its sub-models."""
        r = self.r
        kind = r.enum(task["kind"], p("kind"), _KINDS, "a condition kind")
        names = r.list_(task["submodels"], p("submodels"))
        lo, hi = BRANCHES[kind]
        if len(names) < lo or (hi is not None and len(names) > hi):
            r.fail(p("submodels"), f"a '{kind.value}' condition runs {_WANT[kind]}, got {len(names)}")
        branches = []
        for i, name in enumerate(names):
            path = f"{p('submodels')}[{i}]"
            branches.append((r.ref(name, path, "submodel", self.subs), path))
        self.conds.append((r.owner, p(None), branches))
        cell = r.ref(task["cell"], p("cell"), "cell", r.cells)
        return {"kind": string_attr(kind.value), "cell": SymbolRefAttr(cell),
                BRANCHES_KEY: ArrayAttr(tuple(string_attr(n) for n, _ in branches))}

    def check_uses(self) -> None:
        """No sub-model runs itself through its condition tasks; every sub-model is run by
        exactly one condition task."""
        r = self.r
        inside: dict[str, list[tuple[str, str]]] = {name: [] for name in self.subs}
        for owner, _, branches in self.conds:
            if owner is not None:
                inside[owner].extend(branches)
        for start in self.subs:  # a cycle: a sub-model whose conditions lead back to it
            todo, seen = list(inside[start]), set()
            while todo:
                name, path = todo.pop()
                if name == start:
                    r.fail(path, f"sub-model '{start}' runs itself (through its condition tasks); sub-models do "
                                 "not recurse")
                if name not in seen:
                    seen.add(name)
                    todo.extend(inside[name])
        for _, path, branches in self.conds:
            for name, bpath in branches:
                sub = self.subs[name]
                if sub.used_by is not None:
                    r.fail(bpath, f"sub-model '{name}' is already run by the condition task {sub.used_by}; each "
                                  "sub-model belongs to one condition task")
                sub.used_by = path
        for name, sub in self.subs.items():
            if sub.used_by is None:
                r.fail(sub.path, f"sub-model '{name}' is run by no condition task")


def used_names(streams: list[Operation]) -> set[str]:
    """The symbols the tasks of `streams` name (kernels, buffers, events, cells), sub-models'
    own tasks included."""
    found: set[str] = set()
    for op in (o for s in streams for o in s.walk()):
        for key, value in op.properties.items():
            if key in ("kernel", "event", "cell") and isinstance(value, SymbolRefAttr):
                found.add(value.root_reference.data)
            elif key == "args" and isinstance(value, ArrayAttr):
                found.update(a.root_reference.data for a in value.data)
    return found


def build_submodel(name: str, aic: int, aiv: int, soc: str | None, decls: list[Operation],
                   streams: list[Operation]) -> ModelOp:
    """The nested `aclgraph.model` of sub-model `name`: copies of the declarations its tasks
    use (in the model's order), then its streams."""
    used = used_names(streams)
    mine = [d.clone() for d in decls if isinstance(d.properties.get("sym_name"), StringAttr)
            and d.properties["sym_name"].data in used]  # type: ignore[attr-defined]
    return ModelOp(name, aic, aiv, Region(Block([*mine, *streams])), soc)
