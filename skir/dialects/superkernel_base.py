"""Shared pieces of the `sk` dialect: core types, core classes and the base of every op in a program.

Every op of a SuperKernel's program says which core types run it: an op naming one core type
(`on aic`, `on aiv`) runs on it, a sub-task, a depend (`sk.depend_<rule>`) and a `pipe_all` barrier name a
class (`on aic`, `on aiv`, `on mix`: both types), a barrier of another kind runs on the core
types of its kind (`all_aiv` the AIVs, `all_aic` the AICs, `sync_all` both).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, lazy_traits_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_enums import CoreClass, class_types
from skir.dialects.hardware import CoreType
from skir.dialects.parent_trait import HasParentNamed
from skir.dialects.syntax import parse_enum, parse_int_in


@irdl_attr_definition
class SkCoreAttr(EnumAttribute[CoreType], SpacedOpaqueSyntaxAttribute):
    name = "sk.core"


@irdl_attr_definition
class SkClassAttr(EnumAttribute[CoreClass], SpacedOpaqueSyntaxAttribute):
    """A core class: the core types that run an op (`aic`, `aiv`, `mix` for both)."""

    name = "sk.class"


CORE_ATTRS = {core: SkCoreAttr(core) for core in CoreType}
CLASS_ATTRS = {cls: SkClassAttr(cls) for cls in CoreClass}


def _kernel_parent() -> tuple[HasParentNamed]:
    return (HasParentNamed(("sk.kernel", "ascendc.entry", "ascendc.core_function")),)


class SkProgramOp(IRDLOperation):
    """Base of the ops in an `sk.kernel` region: `sk.<op> id N ...`. A copy may also stand in an
    `ascendc.entry` or `ascendc.core_function`: `sk-to-ascendc` stages it where its statements
    go, for its pattern (`skir.patterns.sk_to_ascendc`) to replace (with `patterns=` naming only
    some of them, the others stay staged)."""

    id = prop_def(IntAttr)

    traits = lazy_traits_def(_kernel_parent)

    @property
    def ident(self) -> int:
        ident = self.properties["id"]  # the property, without its descriptor
        assert isinstance(ident, IntAttr)
        return int(ident.data)

    def runs_on(self) -> CoreType | None:
        """The core type named by the op (`on aic|aiv`), if it names one."""
        core = self.properties.get("core")
        return core.data if isinstance(core, SkCoreAttr) else None

    def core_set(self) -> tuple[CoreType, ...]:
        """The core types that run the op, AIC before AIV (whose programs it stands in)."""
        core = self.properties.get("core")
        if isinstance(core, SkCoreAttr):
            return (core.data,)
        cores = self.properties.get("cores")
        if isinstance(cores, SkClassAttr):
            return class_types(cores.data)
        return ()


def parse_id(parser: Parser) -> int:
    parser.parse_keyword("id")
    return parse_int_in(parser, 0, 1 << 31, "id")


def parse_on(parser: Parser) -> CoreType:
    parser.parse_keyword("on")
    return parse_enum(parser, CoreType, "core type")


def parse_on_class(parser: Parser) -> CoreClass:
    """`on aic|aiv|mix`: the class of core types that run an op."""
    parser.parse_keyword("on")
    return parse_enum(parser, CoreClass, "core class (aic, aiv or mix)")


def print_attrs(printer: Printer, op: IRDLOperation) -> None:
    printer.print_op_attributes(op.attributes, print_keyword=True)
