"""The condition task of the `aclgraph` dialect: a captured parent model picks a captured
sub-model at run time (docs/design.md §3 "Conditional sub-models").

```mlir
aclgraph.cond seq 5 if @flag {
  aclgraph.model @then_b cores(aic = 24, aiv = 48) {
    aclgraph.kernel @norm aiv_only params(in, out)
    aclgraph.stream @s2 { aclgraph.launch seq 6 @norm blocks 8 args(@x, @y) }
  }
} {
  aclgraph.model @else_b cores(aic = 24, aiv = 48) { ... }
}
```

`kind` is `if` (one or two sub-models: then, else), `while` (one body, run while the cell is
non-zero) or `switch` (two or more, the cell's value picks one). `cell` holds the condition's
64-bit value (a kernel of the model, or the host, writes it). Each region holds one sub-model:
an `aclgraph.model` of its own streams, which declares the kernels, buffers, events and cells it
uses as the parent declares them (`skir.analysis.proof.model_check` checks that, and that seqs are
unique across the parent and every sub-model). SuperKernels form inside each sub-model on its
own; on its stream a condition task is a breaker, never fused.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import irdl_op_definition, lazy_traits_def, prop_def, var_region_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, NoTerminator

from skir.dialects.aclgraph_model import ModelOp, StreamOp
from skir.dialects.aclgraph_task import TaskOp, parse_group, print_group
from skir.dialects.syntax import (
    build_op,
    int_attr,
    new_op,
    parse_seq,
    parse_symbol,
    print_symbol,
    string_attr,
    symbol_ref,
)
from skir.errors import TaskVerifyException, task_path


class CondKind(StrEnum):
    """How a condition task picks a sub-model (aclgraph's IF / WHILE / SWITCH)."""

    IF = "if"
    WHILE = "while"
    SWITCH = "switch"


BRANCHES: dict[CondKind, tuple[int, int | None]] = {
    CondKind.IF: (1, 2), CondKind.WHILE: (1, 1), CondKind.SWITCH: (2, None),
}
"""Kind -> (fewest, most) sub-models (None: no limit)."""


@irdl_op_definition
class CondOp(TaskOp):
    """A condition task: `aclgraph.cond seq N <kind> @cell {sub-model} ...` (module docstring)."""

    name = "aclgraph.cond"
    KIND: ClassVar[str] = "cond"

    kind = prop_def(StringAttr)
    cell = prop_def(SymbolRefAttr)
    branches = var_region_def("single_block")

    traits = lazy_traits_def(lambda: (HasParent(StreamOp), NoTerminator()))

    def __init__(self, seq: int, kind: CondKind, cell: str, submodels: list[ModelOp]):
        build_op(self, {"seq": int_attr(seq), "kind": string_attr(kind.value), "cell": symbol_ref(cell)},
                 [Region(Block([sub])) for sub in submodels])

    @property
    def cond_kind(self) -> CondKind:
        return CondKind(self.kind.data)

    def submodels(self) -> list[ModelOp]:
        """The sub-models, in branch order."""
        return [op for region in self.branches for op in region.block.ops if isinstance(op, ModelOp)]

    @classmethod
    def parse_fields(cls, parser: Parser) -> dict[str, Attribute]:
        start = parser.pos
        kind = parser.parse_identifier()
        if kind not in CondKind.__members__.values():
            parser.raise_error(f"a condition kind is one of {', '.join(k.value for k in CondKind)}, got '{kind}'",
                               start, parser.pos)
        return {"kind": string_attr(kind), "cell": parse_symbol(parser)}

    @classmethod
    def print_fields(cls, printer: Printer, props: Mapping[str, Attribute]) -> None:
        printer.print_string(f" {props['kind'].data}")  # type: ignore[attr-defined]
        print_symbol(printer, props["cell"])  # type: ignore[arg-type]

    @classmethod
    def parse(cls, parser: Parser) -> CondOp:
        seq = parse_seq(parser)
        props = cls.parse_fields(parser)
        props["seq"] = seq
        props.update(parse_group(parser))
        attrs = parser.parse_optional_attr_dict_with_keyword()
        regions = []
        while (region := parser.parse_optional_region()) is not None:
            regions.append(region)
        return new_op(cls, props, regions, attributes=attrs.data if attrs else None)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" seq {self.seq.data}")
        self.print_fields(printer, self.properties)
        print_group(printer, self.properties)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        for region in self.branches:
            printer.print_string(" ")
            printer.print_region(region, print_entry_block_args=False)

    def verify_(self) -> None:
        self.verify_group()
        try:
            kind = self.cond_kind
        except ValueError:
            raise TaskVerifyException(self, f"{task_path(self)}: a condition kind is one of "
                                            f"{', '.join(k.value for k in CondKind)}") from None
        lo, hi = BRANCHES[kind]
        n = len(self.branches)
        if n < lo or (hi is not None and n > hi):
            want = {CondKind.IF: "one or two sub-models (then, else)", CondKind.WHILE: "exactly one sub-model "
                    "(its body)", CondKind.SWITCH: "two or more sub-models"}[kind]
            raise TaskVerifyException(self, f"{task_path(self)}: a '{kind.value}' condition has {want}, got {n}")
        for i, region in enumerate(self.branches):
            ops = list(region.block.ops)
            if len(ops) != 1 or not isinstance(ops[0], ModelOp):
                raise TaskVerifyException(self, f"{task_path(self)}: branch {i} must hold exactly one aclgraph.model "
                                                "(the sub-model)")
