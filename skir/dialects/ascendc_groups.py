"""Statement groups of the `ascendc` dialect: the two shapes nearly every statement of a chain
entry takes, as one op each instead of four.

A sub-task is a comment, a core-type guard, a block guard and the call; a flag barrier is a
comment, a core-type guard, the set and the wait. `sk-to-ascendc` writes these ops for them (a
fifth of the ops of a lowered model, which every later verification, print and emission walks);
the expanded ops stay for what a group cannot say (profiling records or feed-sync-all around a
call). The ascendc target prints a group exactly as its expansion:

```mlir
ascendc.guarded_call "a_middle" offset 1 copies 2 on aiv logical 48 note "begin func call of sub operator a (seq 0)"
// is
ascendc.comment "begin func call of sub operator a (seq 0)"
ascendc.if_core aiv {
  ascendc.if_block logical 48 {
    ascendc.call "a_middle" offset 1 copies 2
  }
}

ascendc.flag_barrier mte3 mode 0 flag 14 on aiv note "begin inter ops barrier"
// is
ascendc.comment "begin inter ops barrier"
ascendc.if_core aiv {
  ascendc.cross_core_set mte3 mode 0 flag 14
  ascendc.cross_core_wait flag 14
}
```
Without `on`, the group has no core-type guard (in an `ascendc.core_function`, or already
inside an `ascendc.if_core`); without `note`, no comment.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.ascendc_attrs import (
    CORES,
    INDEXES,
    PIPES,
    BlockIndex,
    BlockIndexAttr,
    CoreTypeAttr,
    PipeAttr,
    i64_attr,
    in_entry,
)
from skir.dialects.hardware import CoreType, Pipe
from skir.dialects.syntax import build_op, new_op, parse_enum, parse_int_in, string_attr, with_attrs
from skir.errors import TaskVerifyException
from skir.names import SYMBOL_MAX_BYTES, name_problem, shown
from skir.xdsl_fast.verify import string_literal

_MAX = (1 << 63) - 1


def _tail(props: dict[str, Attribute], core: CoreType | None, note: str | None) -> dict[str, Attribute]:
    if core is not None:
        props["core"] = CORES[core]
    if note is not None:
        props["note"] = string_attr(note)
    return props


def _parse_tail(parser: Parser, props: dict[str, Attribute], guard: bool) -> dict[str, Attribute]:
    """`[on <core>] [<index> <bound>] [note "<text>"]` (the block guard when `guard`)."""
    if parser.parse_optional_keyword("on") is not None:
        props["core"] = CORES[parse_enum(parser, CoreType, "a core type")]
    if guard:
        props["index"] = INDEXES[parse_enum(parser, BlockIndex, "a block index (block or logical)")]
        props["bound"] = i64_attr(parse_int_in(parser, 0, _MAX, "the block bound"))
    if parser.parse_optional_keyword("note") is not None:
        props["note"] = string_attr(parser.parse_str_literal())
    return props


def _print_tail(printer: Printer, op: IRDLOperation, guard: str = "") -> None:
    core = op.properties.get("core")
    text = f" on {core.data.value}" if isinstance(core, CoreTypeAttr) else ""
    text += guard
    note = op.properties.get("note")
    if isinstance(note, StringAttr):
        text += " note " + string_literal(note.data)
    printer.print_string(text)
    printer.print_op_attributes(op.attributes, print_keyword=True)


def _check_note(op: IRDLOperation) -> None:
    note = op.properties.get("note")
    if isinstance(note, StringAttr) and not note.data.isprintable():
        raise TaskVerifyException(op, f"{op.name} note {shown(note.data)}: a comment is one printable line")


@irdl_op_definition
class GuardedCallOp(IRDLOperation):
    """A sub-task's call on one core type: `// <note>`, `if ASCEND_IS_<core>`, `if (<index> <
    <bound>)`, then the call of `symbol` with arg-table slot `offset` (dispatched on
    `get_coreid() % copies` when `copies > 1`)."""

    name = "ascendc.guarded_call"

    symbol = prop_def(StringAttr)
    offset = prop_def(IntegerAttr[I64])
    copies = prop_def(IntegerAttr[I64])
    index = prop_def(BlockIndexAttr)
    bound = prop_def(IntegerAttr[I64])
    core = opt_prop_def(CoreTypeAttr)
    note = opt_prop_def(StringAttr)

    traits = lazy_traits_def(in_entry)

    def __init__(self, symbol: str, offset: int, copies: int, index: BlockIndex, bound: int,
                 core: CoreType | None = None, note: str | None = None):
        build_op(self, _tail({"symbol": string_attr(symbol), "offset": i64_attr(offset), "copies": i64_attr(copies),
                              "index": INDEXES[index], "bound": i64_attr(bound)}, core, note))

    @classmethod
    def parse(cls, parser: Parser) -> GuardedCallOp:
        props: dict[str, Attribute] = {"symbol": string_attr(parser.parse_str_literal())}
        parser.parse_keyword("offset")
        props["offset"] = i64_attr(parse_int_in(parser, 0, _MAX, "the arg-table offset"))
        parser.parse_keyword("copies")
        props["copies"] = i64_attr(parse_int_in(parser, 1, 64, "copies"))
        return with_attrs(parser, new_op(cls, _parse_tail(parser, props, guard=True)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {string_literal(self.symbol.data)} offset {self.offset.value.data} copies "
                             f"{self.copies.value.data}")
        _print_tail(printer, self, f" {self.index.data.value} {self.bound.value.data}")

    def verify_(self) -> None:
        problem = name_problem(self.symbol.data, SYMBOL_MAX_BYTES)
        if problem is not None:
            raise TaskVerifyException(self, f"{self.name} {shown(self.symbol.data)}: {problem}")
        if not 1 <= self.copies.value.data <= 64:
            raise TaskVerifyException(self, f"call of {self.symbol.data}: copies must be in [1, 64]")
        _check_note(self)


@irdl_op_definition
class FlagBarrierOp(IRDLOperation):
    """A barrier over the cores of one type: `// <note>`, `if ASCEND_IS_<core>`, then
    `ffts_cross_core_sync(PIPE_<pipe>, GetffstMsg(<mode>, <flag>))` and `wait_flag_dev(<flag>)`."""

    name = "ascendc.flag_barrier"

    pipe = prop_def(PipeAttr)
    mode = prop_def(IntegerAttr[I64])
    flag = prop_def(IntegerAttr[I64])
    core = opt_prop_def(CoreTypeAttr)
    note = opt_prop_def(StringAttr)

    traits = lazy_traits_def(in_entry)
    _MODES: ClassVar[tuple[int, ...]] = (0, 1, 2)

    def __init__(self, pipe: Pipe, mode: int, flag: int, core: CoreType | None = None, note: str | None = None):
        build_op(self, _tail({"pipe": PIPES[pipe], "mode": i64_attr(mode), "flag": i64_attr(flag)}, core, note))

    @classmethod
    def parse(cls, parser: Parser) -> FlagBarrierOp:
        props: dict[str, Attribute] = {"pipe": PIPES[parse_enum(parser, Pipe, "a pipe")]}
        parser.parse_keyword("mode")
        props["mode"] = i64_attr(parse_int_in(parser, 0, 2, "the cross-core set mode"))
        parser.parse_keyword("flag")
        props["flag"] = i64_attr(parse_int_in(parser, 0, 15, "the cross-core flag id"))
        return with_attrs(parser, new_op(cls, _parse_tail(parser, props, guard=False)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.pipe.data.value} mode {self.mode.value.data} flag {self.flag.value.data}")
        _print_tail(printer, self)

    def verify_(self) -> None:
        if self.mode.value.data not in self._MODES:
            raise TaskVerifyException(self, f"cross-core set mode must be 0, 1 or 2, got {self.mode.value.data}")
        if not 0 <= self.flag.value.data <= 15:
            raise TaskVerifyException(self, f"cross-core flag id must be in [0, 15], got {self.flag.value.data}")
        _check_note(self)


GROUP_OPS = (GuardedCallOp, FlagBarrierOp)
