"""The `aclgraph` slots rewrites leave: a spare placeholder, a SuperKernel's launch, a disabled slot.

Part of the `aclgraph` dialect (`skir.dialects.aclgraph` defines the dialect and re-exports
these).

```mlir
aclgraph.placeholder seq 1
aclgraph.launch_sk seq 3 @m_sk0
aclgraph.disabled seq 4 was launch @b blocks 1
```
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import DictionaryAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_task import REENABLEABLE_TASKS, TaskOp, parse_was, print_was, was_props
from skir.dialects.syntax import build_op, int_attr, new_op, parse_symbol, print_symbol, symbol_ref
from skir.errors import TaskVerifyException, task_path


@irdl_op_definition
class PlaceholderOp(TaskOp):
    """A spare slot planted next to a scope marker: `aclgraph.placeholder seq 1`."""

    name = "aclgraph.placeholder"
    KIND: ClassVar[str] = "placeholder"

    def __init__(self, seq: int):
        build_op(self, {"seq": int_attr(seq)})


@irdl_op_definition
class LaunchSkOp(TaskOp):
    """The launch of a SuperKernel, in the slot of one of its members.

    ```mlir
    aclgraph.launch seq 3 @a blocks 48        // before
    aclgraph.launch_sk seq 3 @m_sk0           // after sk-outline
    ```
    """

    name = "aclgraph.launch_sk"
    KIND: ClassVar[str] = "launch_sk"
    KEEPS_WAS: ClassVar[bool] = True

    was_kind = opt_prop_def(StringAttr)
    was = opt_prop_def(DictionaryAttr)

    sk = prop_def(SymbolRefAttr)

    def __init__(self, seq: int, sk: str):
        build_op(self, {"seq": int_attr(seq), "sk": symbol_ref(sk)})

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        return {"sk": parse_symbol(parser)}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_symbol(printer, props["sk"])  # type: ignore[arg-type]


@irdl_op_definition
class DisabledOp(TaskOp):
    """A slot disabled by a rewrite; `was` keeps the original task.

    ```mlir
    aclgraph.launch seq 4 @b blocks 1                  // before
    aclgraph.disabled seq 4 was launch @b blocks 1     // after sk-outline
    ```
    """

    name = "aclgraph.disabled"
    KIND: ClassVar[str] = "disabled"

    was_kind = prop_def(StringAttr)
    was = prop_def(DictionaryAttr)

    def __init__(self, original: TaskOp):
        build_op(self, {"seq": original.seq, **was_props(original)})

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        parser.parse_keyword("was")
        return parse_was(parser)

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        print_was(printer, props)

    def original(self) -> TaskOp:
        """A fresh copy of the task this slot held before it was disabled."""
        cls = REENABLEABLE_TASKS[self.was_kind.data]
        return new_op(cls, {**self.was.data, "seq": self.seq})

    def verify_(self) -> None:
        self.verify_group()
        if self.was_kind.data not in REENABLEABLE_TASKS:
            raise TaskVerifyException(
                self, f"{task_path(self)}: 'was' names unknown task kind '{self.was_kind.data}'"
            )

