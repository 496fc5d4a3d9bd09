"""What `sk-opt --help` says of the passes and targets, and the "did you mean" of a bad name.

As `mlir-opt --help` does, every pass is listed on its own line with the first line of its
docstring, then each option with its type, default and the first line of its description
(the attribute docstring under the dataclass field):

```
Passes:
  sk-form-scopes        Decide which kernel tasks fuse into which SuperKernel (formation).
      options=<str> (default "")   SuperKernel options (vendor syntax) ...
```
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import textwrap
from collections.abc import Callable
from typing import Any

_INDENT = 24


def _first_line(text: str | None) -> str:
    """The first sentence of a docstring's first paragraph, on one line."""
    if not text:
        return ""
    paragraph = " ".join(inspect.cleandoc(text).split("\n\n")[0].split())
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


def field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a dataclass's fields (`x: int = 0` then `\"\"\"...\"\"\"`)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in itertools.pairwise(body):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = _first_line(after.value.value)
    return docs


def _default(field: dataclasses.Field[Any]) -> str:
    if field.default is not dataclasses.MISSING:
        return repr(field.default).replace("'", '"')
    return "required"


_CLI_TYPES = ("str", "int", "bool", "float", "None", "tuple[")


def _type_name(field: dataclasses.Field[Any]) -> str:
    """The field's type as the pipeline syntax gives it: of a union, the members a `-p` value can
    be (`str | SkOptions` is `str` there; the typed form is for Python callers)."""
    kind = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", str(field.type))
    members = [m for m in kind.replace("typing.", "").split(" | ") if m.startswith(_CLI_TYPES)]
    return " | ".join(members) or kind


def pass_lines(name: str, cls: type, summary: str | None = None) -> list[str]:
    """The `--help` lines of one pass (or target): its name and summary, then one line per option."""
    summary = _first_line(cls.__doc__) if summary is None else summary
    lines = [f"  {name:<{_INDENT - 4}}  {summary}".rstrip()]
    docs = field_docs(cls)
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    for field in fields:
        option = f"{field.name.replace('_', '-')}=<{_type_name(field)}> (default {_default(field)})"
        lines.append(f"      {option}  {docs.get(field.name, '')}".rstrip())
    return lines


def passes_help(passes: dict[str, Callable[[], type]]) -> str:
    """Every pass, in pipeline order, with its options."""
    out = ["Passes (-p NAME or NAME{option=value ...}, comma-separated):"]
    for name, get in passes.items():
        out += pass_lines(name, get())
    return "\n".join(out)


def targets_help(targets: dict[str, Callable[[], Any]]) -> str:
    """Every target with the first line of its docstring."""
    out = ["Targets (-t NAME or NAME{option=value}):"]
    for name, get in targets.items():
        try:
            cls = get()
        except Exception:  # a target of another package that fails to import: still listed
            out.append(f"  {name}")
            continue
        doc = _first_line(cls.__doc__)
        if doc.startswith(f"{cls.__name__}("):  # a dataclass's generated __doc__
            doc = "the module as MLIR text" if name == "mlir" else ""
        out += pass_lines(name, cls, doc)
    return "\n".join(out)
