"""The base of every `aclgraph` task slot, and the `was <task>` a rewritten slot keeps.

Part of the `aclgraph` dialect (`skir.dialects.aclgraph` defines the task kinds and fills
`REENABLEABLE_TASKS` with those a slot may have held).

```mlir
aclgraph.launch seq 3 @k blocks 48 task_group 2 update args
aclgraph.disabled seq 4 was launch @b blocks 1
```

A task of a task group (`task_group N`, N > 0 the group's id, as the runtime's `taskGrp`; a bare
`task_group` is the one anonymous group) has its parameters re-issued before every replay.
`update args` says the update changes its arguments (and what they point to) only; `update
launch` (the default) that its launch shape may change too (docs/design.md §3 "Updated kernels").
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
from skir.errors import TaskVerifyException, task_path

UNIT = UnitAttr()
"""The one unit attribute the tasks' flags (`external`, ...) share."""

ANONYMOUS_GROUP = 0
"""The id of the one anonymous task group (capture JSON `"task_group": true`, IR `task_group`)."""
MAX_GROUP = (1 << 32) - 1
"""The largest task-group id (the runtime's `taskGrp` is a 32-bit handle)."""
UPDATE_KINDS = ("args", "launch")
"""What an update of a task group changes: `args` (arguments and their memory; the launch shape
stays) or `launch` (the block count may change too; the default)."""


def group_props(task_group: int | bool | None, update: str | None = None) -> dict[str, Attribute]:
    """The `task_group` / `update` properties of a task (`True`: the anonymous group)."""
    props: dict[str, Attribute] = {}
    if task_group is not None and task_group is not False:
        props["task_group"] = IntAttr(ANONYMOUS_GROUP if task_group is True else int(task_group))
    if update is not None:
        props["update"] = StringAttr(update)
    return props


def parse_group(parser: Parser) -> dict[str, Attribute]:
    """`[task_group [N] [update args|launch]]`."""
    if not parser.parse_optional_keyword("task_group"):
        return {}
    start = parser.pos
    group = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
    if group is not None and not 0 < group <= MAX_GROUP:
        parser.raise_error(f"task_group id must be in [1, {MAX_GROUP}] (a bare task_group is the anonymous "
                           "group)", start, parser.pos)
    props: dict[str, Attribute] = {"task_group": IntAttr(ANONYMOUS_GROUP if group is None else group)}
    if parser.parse_optional_keyword("update"):
        start = parser.pos
        kind = parser.parse_identifier()
        if kind not in UPDATE_KINDS:
            parser.raise_error(f"update must be one of {', '.join(UPDATE_KINDS)}, got '{kind}'", start, parser.pos)
        props["update"] = StringAttr(kind)
    return props


def print_group(printer: Printer, props: Mapping[str, Attribute]) -> None:
    group = props.get("task_group")
    if not isinstance(group, IntAttr):
        return
    printer.print_string(" task_group" if group.data == ANONYMOUS_GROUP else f" task_group {group.data}")
    update = props.get("update")
    if isinstance(update, StringAttr):
        printer.print_string(f" update {update.data}")

REENABLEABLE_TASKS: dict[str, type[TaskOp]] = {}
"""Task kind -> op class, for the kinds a rewritten slot may have held (`was <kind> ...`);
`skir.dialects.aclgraph` fills it once every kind is defined."""


class TaskOp(IRDLOperation, ABC):
    """Base of every task slot: `aclgraph.<kind> seq N <fields> [task_group [N] [update K]]
    [attributes {...}]`.

    Subclasses describe their own fields with `parse_fields` / `print_fields`, which
    `aclgraph.disabled` reuses to keep the original task in `was`.
    """

    seq = prop_def(IntAttr)
    task_group = opt_prop_def(IntAttr)
    update = opt_prop_def(StringAttr)

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
        props.update(parse_group(parser))
        attrs = parser.parse_optional_attr_dict_with_keyword()
        return new_op(cls, props, attributes=attrs.data if attrs else None)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" seq {self.seq.data}")
        self.print_fields(printer, self.properties)
        if self.KEEPS_WAS and "was_kind" in self.properties:
            print_was(printer, self.properties)
        print_group(printer, self.properties)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    @property
    def seq_value(self) -> int:
        seq: int = self.seq.data
        return seq

    @property
    def group(self) -> int | None:
        """The task group's id (0: the anonymous group), None outside a group."""
        return None if self.task_group is None else self.task_group.data

    @property
    def updates_args_only(self) -> bool:
        """A task of a group whose update changes arguments only (`update args`)."""
        return self.task_group is not None and self.update is not None and self.update.data == "args"

    def verify_(self) -> None:
        self.verify_group()

    def verify_group(self) -> None:
        """`update` belongs to a task of a group; ids and kinds are in range."""
        if self.update is not None and self.task_group is None:
            raise TaskVerifyException(self, f"{task_path(self)}: 'update {self.update.data}' needs a task group "
                                            "(task_group N update ...)")
        if self.update is not None and self.update.data not in UPDATE_KINDS:
            raise TaskVerifyException(self, f"{task_path(self)}: update must be one of {', '.join(UPDATE_KINDS)}, "
                                            f"got '{self.update.data}'")
        if self.task_group is not None and not 0 <= self.task_group.data <= MAX_GROUP:
            raise TaskVerifyException(self, f"{task_path(self)}: task_group id must be in [1, {MAX_GROUP}]")

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
    props.update(parse_group(parser))
    return {"was_kind": string_attr(kind), "was": DictionaryAttr(props)}


def print_was(printer: Printer, props: Mapping[str, Attribute]) -> None:
    kind = props["was_kind"].data  # type: ignore[attr-defined]
    was = props["was"].data  # type: ignore[attr-defined]
    printer.print_string(f" was {kind}")
    REENABLEABLE_TASKS[kind].print_fields(printer, was)
    print_group(printer, was)


def was_props(original: TaskOp) -> dict[str, Attribute]:
    """The `was_kind` / `was` properties that keep `original` in a rewritten slot."""
    props = {k: v for k, v in original.properties.items() if k != "seq"}
    return {"was_kind": string_attr(original.KIND), "was": DictionaryAttr(props)}

