"""The `aclgraph` synchronisation tasks: event record / wait / reset and value write / wait.

Part of the `aclgraph` dialect (`skir.dialects.aclgraph` defines the dialect and re-exports
these).

```mlir
aclgraph.record seq 1 @e0
aclgraph.wait seq 2 @e0
aclgraph.reset seq 4 @e0
aclgraph.value_write seq 5 @c0 value 1
aclgraph.value_wait seq 6 @c0 eq 1
```
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import DictionaryAttr, IntAttr, StringAttr, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_enums import WaitRule, WaitRuleAttr, wait_rule_attr
from skir.dialects.aclgraph_task import UNIT, TaskOp, group_props
from skir.dialects.syntax import build_op, int_attr, parse_enum, parse_int_in, parse_symbol, print_symbol, symbol_ref

MAX_U64 = (1 << 64) - 1
"""The largest value a cell holds."""


class EventTaskOp(TaskOp, ABC):
    """Base of record / wait / reset: `@event [external]`."""

    event = prop_def(SymbolRefAttr)
    external = opt_prop_def(UnitAttr)

    def __init__(self, seq: int, event: str, external: bool = False, task_group: int | bool | None = None):
        props: dict[str, Attribute] = {"seq": int_attr(seq), "event": symbol_ref(event)}
        if external:
            props["external"] = UNIT
        props.update(group_props(task_group))
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {"event": parse_symbol(parser)}
        if parser.parse_optional_keyword("external"):
            props["external"] = UNIT
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["event"])  # type: ignore[arg-type]
        if "external" in props:
            printer.print_string(" external")


@irdl_op_definition
class RecordOp(EventTaskOp):
    """Record an event: `aclgraph.record seq 2 @e0`."""

    name = "aclgraph.record"
    KIND: ClassVar[str] = "record"


@irdl_op_definition
class WaitOp(EventTaskOp):
    """Wait for an event's record in the current epoch (does not consume it)."""

    name = "aclgraph.wait"
    KIND: ClassVar[str] = "wait"


@irdl_op_definition
class ResetOp(EventTaskOp):
    """Clear an event, closing its current epoch."""

    name = "aclgraph.reset"
    KIND: ClassVar[str] = "reset"


@irdl_op_definition
class ValueWriteOp(TaskOp):
    """Write a 64-bit value to a cell: `aclgraph.value_write seq 5 @c0 value 1`."""

    name = "aclgraph.value_write"
    KIND: ClassVar[str] = "value_write"
    KEEPS_WAS: ClassVar[bool] = True

    was_kind = opt_prop_def(StringAttr)
    was = opt_prop_def(DictionaryAttr)

    cell = prop_def(SymbolRefAttr)
    value = prop_def(IntAttr)

    def __init__(self, seq: int, cell: str, value: int, task_group: int | bool | None = None):
        props: dict[str, Attribute] = {
            "seq": int_attr(seq), "cell": symbol_ref(cell), "value": int_attr(value)
        }
        props.update(group_props(task_group))
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        cell = parse_symbol(parser)
        parser.parse_keyword("value")
        return {"cell": cell, "value": int_attr(parse_int_in(parser, 0, MAX_U64, "value"))}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["cell"])  # type: ignore[arg-type]
        printer.print_string(f" value {props['value'].data}")  # type: ignore[attr-defined]


@irdl_op_definition
class ValueWaitOp(TaskOp):
    """Wait until a cell satisfies a rule: `aclgraph.value_wait seq 6 @c0 eq 1`.

    `external`: the model expects the cell to be satisfied from outside (another model, the
    host); without it, some write of the model must satisfy the wait.
    """

    name = "aclgraph.value_wait"
    KIND: ClassVar[str] = "value_wait"
    KEEPS_WAS: ClassVar[bool] = True

    was_kind = opt_prop_def(StringAttr)
    was = opt_prop_def(DictionaryAttr)

    cell = prop_def(SymbolRefAttr)
    value = prop_def(IntAttr)
    rule = prop_def(WaitRuleAttr)
    external = opt_prop_def(UnitAttr)

    def __init__(self, seq: int, cell: str, rule: WaitRule, value: int, task_group: int | bool | None = None,
                 external: bool = False):
        props: dict[str, Attribute] = {
            "seq": int_attr(seq),
            "cell": symbol_ref(cell),
            "value": int_attr(value),
            "rule": wait_rule_attr(rule),
        }
        props.update(group_props(task_group))
        if external:
            props["external"] = UNIT
        build_op(self, props)

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        cell = parse_symbol(parser)
        rule = parse_enum(parser, WaitRule, "wait rule")
        value = parse_int_in(parser, 0, MAX_U64, "value")
        props = {"cell": cell, "rule": wait_rule_attr(rule), "value": int_attr(value)}
        if parser.parse_optional_keyword("external"):
            props["external"] = UNIT
        return props

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["cell"])  # type: ignore[arg-type]
        printer.print_string(f" {props['rule'].data.value} {props['value'].data}")  # type: ignore
        if "external" in props:
            printer.print_string(" external")

