"""Test support for skir: random valid models for property tests.

- `random_model(rng, ...) -> dict`: a random valid capture-JSON dict (plain `random`).
- `models(...)`: the hypothesis strategy over it (hypothesis is imported when called).
- `parse_mlir(text)`, `print_generic(module)`: custom / generic round-trip helpers.
- `superkernel_text(module)`: the first `sk.kernel` of a module as printed, unindented.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

from skir.testing.random_models import models, random_model

__all__ = ["mlir_context", "models", "parse_mlir", "print_generic", "random_model", "superkernel_text"]


def mlir_context() -> Any:
    """An xDSL `Context` with `builtin`, `aclgraph` and `sk` loaded (a scope's options are an
    `#sk.options` attribute)."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import Builtin

    from skir.analysis.proof.model_check import install
    from skir.dialects.aclgraph import ACLGraph
    from skir.dialects.superkernel import SK

    install()
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(ACLGraph)
    ctx.load_dialect(SK)
    return ctx


def parse_mlir(text: str, name: str = "<mlir>") -> Any:
    """Parse a module (custom or generic syntax) with the aclgraph dialect loaded."""
    from xdsl.parser import Parser

    return Parser(mlir_context(), text, name).parse_module()


def print_generic(module: Any) -> str:
    """`module` in xDSL's generic op format."""
    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue()


def superkernel_text(module: Any) -> str:
    """The first `sk.kernel` of `module` in custom syntax, its indentation removed (for tests
    that compare a SuperKernel with one written by hand)."""
    from skir.xdsl_fast.printer import ir_text

    lines = ir_text(module).splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("sk.kernel"))
    indent = len(lines[first]) - len(lines[first].lstrip())
    last = next(i for i in range(first, len(lines)) if lines[i] == " " * indent + "}")
    return "\n".join(line[indent:] for line in lines[first:last + 1])
