"""Where a product came from: every JSON product of `sk-compile` (and of `sk-opt`'s JSON targets)
carries a `provenance` object (docs/design.md §5):

```json
"provenance": {"tool": "sk-compile", "arguments": ["decode_layer.json", "-o", "OUT", "--check"],
               "skir": "0.1.0", "xdsl": "0.74.0", "options": "split-mode=2",
               "input": {"name": "decode_layer.json", "sha256": "6f1c..."}}
```

The same input and options still give byte-identical products: paths are reduced to their
last component (OUT for the output folder), and nothing records a time, a host or a process.
The input's digest is over its bytes (a file, standard input), over every file of a dump
folder (name and bytes, in name order), over the canonical JSON of a capture dict, or over the
printed text of a module given to `skir.compile`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from importlib import metadata
from pathlib import Path
from typing import Any

_COMMAND: ContextVar[tuple[str, list[str]] | None] = ContextVar("skir_command", default=None)
_DIGESTS: dict[str, str] = {}
"""Source name -> sha256 of the bytes read under that name (standard input can be read once)."""

def note_read(source: str, raw: bytes) -> None:
    """Remember the digest of bytes read as `source` (the model readers call it)."""
    _DIGESTS[source] = hashlib.sha256(raw).hexdigest()


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def _name(arg: str) -> str:
    return Path(arg).name or arg


_KEEP = frozenset({"--options", "-p", "--passes", "-t", "--target", "--cores", "--verify-each", "-f", "--frontend"})
"""Flags whose value is no path: kept as given."""
_PATHS = frozenset({"--dump-ir", "--costs", "--profile", "--vendor"})


_CHATTER = frozenset({"-q", "--quiet", "-v", "--verbose"})


def portable_arguments(argv: Sequence[str]) -> list[str]:
    """`argv` with every path reduced to its last component, the output to `OUT` and the flags
    that only change what is printed (`-q`, `-v`) left out, so the record does not depend on
    where or how chattily the command ran."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in _CHATTER:
            i += 1
            continue
        flag, eq, value = arg.partition("=")
        if arg.startswith("-") and eq:
            out.append(f"{flag}=OUT" if flag in ("-o", "--output", "--output-file")
                       else arg if flag in _KEEP else f"{flag}={_name(value)}")
        elif arg in ("-o", "--output", "--output-file") and i + 1 < len(argv):
            out += [arg, "OUT"]
            i += 1
        elif arg in _KEEP and i + 1 < len(argv):
            out += [arg, argv[i + 1]]
            i += 1
        elif arg in _PATHS and i + 1 < len(argv):
            out += [arg, _name(argv[i + 1])]
            i += 1
        elif arg == "--calibrate" and i + 2 < len(argv):
            out += [arg, _name(argv[i + 1]), _name(argv[i + 2])]
            i += 2
        else:
            out.append(arg if arg.startswith("-") else _name(arg))  # the model, --build's folder
        i += 1
    return out


@contextlib.contextmanager
def invoked_as(tool: str, argv: Sequence[str]) -> Iterator[None]:
    """Record that what runs inside was asked for by `tool argv` (the console scripts)."""
    token = _COMMAND.set((tool, portable_arguments(argv)))
    try:
        yield
    finally:
        _COMMAND.reset(token)


def _folder_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def describe_input(model: Any) -> dict[str, str]:
    """The `input` record of a model as `skir.compile` and `load_model` accept it."""
    from xdsl.dialects.builtin import ModuleOp

    if isinstance(model, ModuleOp):
        from skir.xdsl_fast.printer import ir_text

        return {"name": "<module>", "sha256": hashlib.sha256(ir_text(model).encode()).hexdigest()}
    if isinstance(model, dict):
        text = json.dumps(model, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return {"name": "<dict>", "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()}
    if isinstance(model, str) and "\n" in model:
        return {"name": "<text>", "sha256": hashlib.sha256(model.encode("utf-8", "surrogatepass")).hexdigest()}
    name = os.fspath(model)
    if name == "-":
        return {"name": "<stdin>", "sha256": _DIGESTS.get("<stdin>", "")}
    path = Path(name)
    try:
        digest = _folder_digest(path) if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        digest = _DIGESTS.get(name, "")
    return {"name": path.name or name, "sha256": digest}


def record(model: Any, options: str, calls: Sequence[str] = ()) -> dict[str, Any]:
    """The provenance of products made from `model` with the global `options`: the command
    that asked for them (`invoked_as`), else the API calls that did (`calls`: `skir.compile`'s
    changed arguments as `call_arguments` gives them, then each follow-up, e.g. `check()`)."""
    command = _COMMAND.get()
    if command is not None:
        tool, arguments = command
    else:
        tool, arguments = "skir.compile", list(calls)
    return {"tool": tool, "arguments": arguments, "skir": _version("skir"), "xdsl": _version("xdsl"),
            "options": options, "input": describe_input(model)}


def call_arguments(call: dict[str, Any]) -> list[str]:
    """`skir.compile`'s arguments (name -> value), `key=value` in name order, paths reduced to
    their last component."""
    return [f"{key}={_portable_value(value)}" for key, value in sorted(call.items())]


def _portable_value(value: Any) -> str:
    if isinstance(value, os.PathLike) or (isinstance(value, str) and os.sep in value and "\n" not in value):
        return Path(value).name
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_portable_value(v) for v in value) + "]"
    return repr(value) if not isinstance(value, dict) else "{...}"


_ACTIVE: ContextVar[dict[str, Any] | None] = ContextVar("skir_provenance", default=None)


@contextlib.contextmanager
def active(entry: dict[str, Any] | None) -> Iterator[None]:
    """Make `entry` the provenance that `stamp` adds to the products made inside."""
    token = _ACTIVE.set(entry)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def stamp(data: dict[str, Any]) -> dict[str, Any]:
    """`data` (a JSON product) with the active provenance, if any, as its `provenance` key."""
    entry = _ACTIVE.get()
    if entry is not None:
        data["provenance"] = entry
    return data
