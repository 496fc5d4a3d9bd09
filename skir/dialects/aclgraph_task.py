"""The base of every `aclgraph` task slot, and the `was <task>` a rewritten slot keeps.

Part of the `aclgraph` dialect (`skir.dialects.aclgraph` defines the task kinds and fills
`REENABLEABLE_TASKS` with those a slot may have held).

```mlir
aclgraph.launch seq 3 @k blocks 48 task_group
aclgraph.disabled seq 4 was launch @b blocks 1
```
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import DictionaryAttr, IntAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, lazy_traits_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent

from skir.dialects.aclgraph_model import StreamOp
from skir.dialects.syntax import new_op, parse_seq, string_attr

UNIT = UnitAttr()
"""The one unit attribute the tasks' flags (`task_group`, `external`) share."""

REENABLEABLE_TASKS: dict[str, type[TaskOp]] = {}
"""Task kind -> op class, for the kinds a rewritten slot may have held (`was <kind> ...`);
`skir.dialects.aclgraph` fills it once every kind is defined."""


class TaskOp(IRDLOperation, ABC):
    """Base of every task slot: `aclgraph.<kind> seq N <fields> [task_group] [attributes {...}]`.

    Subclasses describe their own fields with `parse_fields` / `print_fields`, which
    `aclgraph.disabled` reuses to keep the original task in `was`.
    """

    seq = prop_def(IntAttr)
    task_group = opt_prop_def(UnitAttr)

    traits = lazy_traits_def(lambda: (HasParent(StreamOp),))

    KIND: ClassVar[str]
    KEEPS_WAS: ClassVar[bool] = False
    """Whether the op may carry `was <task>` (the task its slot held before a rewrite)."""

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        pass

    @classmethod
    def parse(cls, parser: Parser) -> TaskOp:
        seq = parse_seq(parser)
        props = cls.parse_fields(parser)
        props["seq"] = seq
        if cls.KEEPS_WAS and parser.parse_optional_keyword("was"):
            props.update(parse_was(parser))
        if parser.parse_optional_keyword("task_group"):
            props["task_group"] = UNIT
        attrs = parser.parse_optional_attr_dict_with_keyword()
        return new_op(cls, props, attributes=attrs.data if attrs else None)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" seq {self.seq.data}")
        self.print_fields(printer, self.properties)
        if self.KEEPS_WAS and "was_kind" in self.properties:
            print_was(printer, self.properties)
        if self.task_group is not None:
            printer.print_string(" task_group")
        printer.print_op_attributes(self.attributes, print_keyword=True)

    @property
    def seq_value(self) -> int:
        return self.seq.data

    def was_task(self) -> TaskOp | None:
        """A fresh copy of the task this slot held before a rewrite, if it records one."""
        kind, was = self.properties.get("was_kind"), self.properties.get("was")
        if not isinstance(kind, StringAttr) or not isinstance(was, DictionaryAttr):
            return None
        return new_op(REENABLEABLE_TASKS[kind.data], {**was.data, "seq": self.seq})


def parse_was(parser: Parser) -> dict[str, Attribute]:
    """`<kind> <fields of that task> [task_group]`, after the `was` keyword."""
    start = parser.pos
    kind = parser.parse_identifier()
    original = REENABLEABLE_TASKS.get(kind)
    if original is None:
        parser.raise_error(
            f"unknown task kind '{kind}' (one of {', '.join(REENABLEABLE_TASKS)})", start, parser.pos
        )
    props = original.parse_fields(parser)
    if parser.parse_optional_keyword("task_group"):
        props["task_group"] = UNIT
    return {"was_kind": string_attr(kind), "was": DictionaryAttr(props)}


def print_was(printer: Printer, props: Mapping[str, Attribute]) -> None:
    kind = props["was_kind"].data  # type: ignore[attr-defined]
    was = props["was"].data  # type: ignore[attr-defined]
    printer.print_string(f" was {kind}")
    REENABLEABLE_TASKS[kind].print_fields(printer, was)
    if "task_group" in was:
        printer.print_string(" task_group")


def was_props(original: TaskOp) -> dict[str, Attribute]:
    """The `was_kind` / `was` properties that keep `original` in a rewritten slot."""
    props = {k: v for k, v in original.properties.items() if k != "seq"}
    return {"was_kind": string_attr(original.KIND), "was": DictionaryAttr(props)}

