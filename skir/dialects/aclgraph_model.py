"""The `aclgraph` dialect's containers: the model (its symbols and streams) and a stream.

Part of the `aclgraph` dialect (`skir.dialects.aclgraph` defines the dialect and re-exports
these). A model's whole-model invariants are checked by the rules installed with
`install_model_rule` (`skir.analysis.proof.model_check.install`, called by `make_context()` and the
verifying entry points, installs its check).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, NoTerminator, SymbolOpInterface, SymbolTable

from skir.dialects.syntax import build_op, parse_body, parse_int_in, quoted
from skir.errors import TaskVerifyException, task_path
from skir.xdsl_fast.isolated import OperandFreeIsolated

MAX_BLOCKS = 65535
"""The most blocks (cores) a launch or a device may name."""


class ModelSymbolTable(SymbolTable):
    """`SymbolTable` with a message that says which names clash."""

    def verify(self, op: Operation) -> None:
        seen: set[str] = set()
        for child in op.regions[0].block.ops:
            name = child.properties.get("sym_name")
            if not isinstance(name, StringAttr):
                continue
            if name.data in seen:
                raise TaskVerifyException(
                    child,
                    f"{task_path(child)}: symbol @{name.data} is defined twice; rename one of them "
                    "(kernels, buffers, events, cells, streams and SuperKernels share one namespace)",
                )
            seen.add(name.data)


@irdl_op_definition
class ModelOp(IRDLOperation):
    """A captured model: symbol declarations, then streams (then SuperKernels after outlining).

    `cores` is the device's cube (aic) and vector (aiv) core count.
    """

    name = "aclgraph.model"

    sym_name = prop_def(StringAttr)
    aic_cores = prop_def(IntAttr)
    aiv_cores = prop_def(IntAttr)
    soc = opt_prop_def(StringAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), ModelSymbolTable(), NoTerminator(), OperandFreeIsolated())

    def __init__(
        self, sym_name: str, aic_cores: int, aiv_cores: int, body: Region, soc: str | None = None
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "aic_cores": IntAttr(aic_cores),
            "aiv_cores": IntAttr(aiv_cores),
        }
        if soc is not None:
            props["soc"] = StringAttr(soc)
        build_op(self, props, [body])

    @classmethod
    def parse(cls, parser: Parser) -> ModelOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("cores")
        parser.parse_punctuation("(")
        parser.parse_keyword("aic")
        parser.parse_punctuation("=")
        aic = parse_int_in(parser, 1, MAX_BLOCKS, "aic cores")
        parser.parse_punctuation(",")
        parser.parse_keyword("aiv")
        parser.parse_punctuation("=")
        aiv = parse_int_in(parser, 1, MAX_BLOCKS, "aiv cores")
        parser.parse_punctuation(")")
        soc = parser.parse_str_literal() if parser.parse_optional_keyword("soc") else None
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, aic, aiv, parse_body(parser), soc)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(f" cores(aic = {self.aic_cores.data}, aiv = {self.aiv_cores.data})")
        if self.soc is not None:
            printer.print_string(" soc " + quoted(self.soc.data))
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        if not _MODEL_RULES:
            raise TaskVerifyException(
                self, f"@{self.sym_name.data}: the whole-model rules are not installed; use "
                "skir.make_context() (or call skir.analysis.proof.model_check.install()) "
                "before verifying an aclgraph.model")
        for rule in _MODEL_RULES:
            rule(self)


_MODEL_RULES: list[Callable[[ModelOp], None]] = []
"""The whole-model rules the model's verifier runs; `skir.analysis.proof.model_check.install` adds its
check (the analysis sits above the dialect, so the dialect does not import it)."""


def install_model_rule(rule: Callable[[ModelOp], None]) -> None:
    """Have every `aclgraph.model` verification run `rule` (once, however often installed)."""
    if rule not in _MODEL_RULES:
        _MODEL_RULES.append(rule)


@irdl_op_definition
class StreamOp(IRDLOperation):
    """One stream: its region holds the stream's task slots in order.

    `slots` records the slot count at capture; every rewrite keeps it.
    """

    name = "aclgraph.stream"

    sym_name = prop_def(StringAttr)
    slots = opt_prop_def(IntAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), NoTerminator(), HasParent(ModelOp))

    def __init__(self, sym_name: str, body: Region, slots: int | None = None):
        props: dict[str, Attribute] = {"sym_name": StringAttr(sym_name)}
        if slots is not None:
            props["slots"] = IntAttr(slots)
        build_op(self, props, [body])

    @classmethod
    def parse(cls, parser: Parser) -> StreamOp:
        name = parser.parse_symbol_name().data
        slots = None
        if parser.parse_optional_keyword("slots"):
            slots = parse_int_in(parser, 0, (1 << 31) - 1, "slots")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name, parse_body(parser), slots)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.slots is not None:
            printer.print_string(f" slots {self.slots.data}")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

