"""Parsing and printing helpers shared by skir's custom op syntax.

Attribute construction verifies, so the helpers hand out shared instances of the
attributes that repeat across a large model (symbol references, small integers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

from xdsl.dialects.builtin import IntAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Operation, Region
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from skir.xdsl_fast.build import build_op as build_op
from skir.xdsl_fast.build import new_op as new_op

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")
OpT = TypeVar("OpT", bound=Operation)


class NullaryOp(IRDLOperation):
    """Base of an op with no operands, properties, results or regions (`ascendc.sync_all`):
    built through `build_op` (IRDL's generic constructor takes about 16 us for one)."""

    def __init__(self) -> None:
        build_op(self, {})


@lru_cache(maxsize=1 << 16)
def int_attr(value: int) -> IntAttr:
    """A shared `IntAttr` for `value`."""
    return IntAttr(value)


@lru_cache(maxsize=1 << 16)
def symbol_ref(name: str) -> SymbolRefAttr:
    """A shared flat `SymbolRefAttr` for `@name`."""
    return SymbolRefAttr(name)


@lru_cache(maxsize=1 << 12)
def string_attr(value: str) -> StringAttr:
    """A shared `StringAttr`."""
    return StringAttr(value)


def parse_enum(parser: Parser, enum_type: type[E], what: str) -> E:
    """Parse a bare keyword naming a member of `enum_type`, with a located error."""
    start = parser.pos
    value = parser.parse_optional_str_enum(enum_type)
    if value is None:
        choices = ", ".join(member.value for member in enum_type)
        parser.raise_error(f"expected {what} (one of {choices})", start, parser.pos)
    return value


def parse_int_in(parser: Parser, lo: int, hi: int, what: str) -> int:
    """Parse an integer literal in [lo, hi], with a located error naming `what`."""
    start = parser.pos
    value = parser.parse_integer(allow_boolean=False, allow_negative=True)
    if not lo <= value <= hi:
        parser.raise_error(f"{what} must be in [{lo}, {hi}], got {value}", start, parser.pos)
    return value


def parse_symbol(parser: Parser) -> SymbolRefAttr:
    """Parse `@name` into a shared flat symbol reference."""
    return symbol_ref(parser.parse_symbol_name().data)


def parse_seq(parser: Parser) -> IntAttr:
    """Parse the `seq N` clause every task starts with."""
    parser.parse_keyword("seq")
    return int_attr(parse_int_in(parser, 0, (1 << 63) - 1, "seq"))


def parse_paren_list(parser: Parser, element: Callable[[], T]) -> list[T]:
    """Parse `(a, b, ...)`, possibly empty."""
    items = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN, element)
    if items is None:
        parser.raise_error("expected '('")
    return items


def print_symbol(printer: Printer, ref: SymbolRefAttr) -> None:
    """Print ` @name`."""
    printer.print_string(" ")
    printer.print_symbol_name(ref.root_reference.data)


def print_list(printer: Printer, items: Iterable[str]) -> None:
    printer.print_string("(" + ", ".join(items) + ")")


def quoted(text: str) -> str:
    """`text` as an MLIR string literal (control characters as `\\XX` hex escapes, which
    xDSL's lexer reads back)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    if not out.isprintable():
        out = "".join(ch if ch.isprintable() or ord(ch) > 0x7F else f"\\{ord(ch):02X}" for ch in out)
    return f'"{out}"'


def float_literal(value: float) -> str:
    """`value` as an MLIR float literal that parses back to it (`1e+20` is `1.0e+20`)."""
    text = repr(float(value))
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def with_attrs(parser: Parser, op: OpT) -> OpT:
    """Parse an optional `attributes {...}` into `op`'s discardable attributes; returns `op`."""
    if (attrs := parser.parse_optional_attr_dict_with_keyword()) is not None:
        op.attributes.update(attrs.data)
    return op


def parse_body(parser: Parser) -> Region:
    """Parse a `{...}` region, giving an empty one its single (empty) block."""
    region = parser.parse_region()
    if not region.blocks:
        region.add_block(Block())
    return region
