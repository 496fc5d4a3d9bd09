"""Shared pieces of the `sk` dialect: core types, core classes and the base of every op in a program.

Every op of a SuperKernel's program says which core types run it: an op naming one core type
(`on aic`, `on aiv`) runs on it, a sub-task, a depend (`sk.depend_<rule>`) and a `pipe_all` barrier name a
class (`on aic`, `on aiv`, `on mix`: both types), a barrier of another kind runs on the core
types of its kind (`all_aiv` the AIVs, `all_aic` the AICs, `sync_all` both).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, lazy_traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_enums import CoreClass, class_types
from skir.dialects.hardware import CoreType
from skir.dialects.parent_trait import HasParentNamed
from skir.dialects.syntax import parse_enum


@irdl_attr_definition
class SkCoreAttr(EnumAttribute[CoreType], SpacedOpaqueSyntaxAttribute):
    name = "sk.core"


@irdl_attr_definition
class SkClassAttr(EnumAttribute[CoreClass], SpacedOpaqueSyntaxAttribute):
    """A core class: the core types that run an op (`aic`, `aiv`, `mix` for both)."""

    name = "sk.class"


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!sk.token`: what a sub-task or a lock wait yields, so that a later op of the program can
    name it as a dependency (`after %t`): the order of the program is the order of the region, a
    dependency an operand."""

    name = "sk.token"


TOKEN = TokenType()

CORE_ATTRS = {core: SkCoreAttr(core) for core in CoreType}
CLASS_ATTRS = {cls: SkClassAttr(cls) for cls in CoreClass}


def _kernel_parent() -> tuple[HasParentNamed]:
    return (HasParentNamed(("sk.kernel", "ascendc.entry", "ascendc.core_function")),)


class SkProgramOp(IRDLOperation):
    """Base of the ops in an `sk.kernel` region, which holds the program in its order. A sub-task
    or a lock wait yields a `!sk.token` that later ops name to depend on it. A copy may also stand
    in an `ascendc.entry` or `ascendc.core_function`: `sk-to-ascendc` stages it where its
    statements go, for its pattern (`skir.patterns.sk_to_ascendc`) to replace (with `patterns=`
    naming only some of them, the others stay staged)."""

    traits = lazy_traits_def(_kernel_parent)

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


def parse_tokens(parser: Parser, keyword: str) -> list[SSAValue]:
    """`keyword %a, %b, ...`, when the keyword is there: the tokens an op depends on."""
    if not parser.parse_optional_keyword(keyword):
        return []
    unresolved = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
    return [parser.resolve_operand(value, TOKEN) for value in unresolved]


def print_tokens(printer: Printer, keyword: str, tokens: Sequence[SSAValue]) -> None:
    """` keyword %a, %b`, or nothing for no tokens."""
    if tokens:
        printer.print_string(f" {keyword} ")
        printer.print_list(tokens, printer.print_operand)


def parse_on(parser: Parser) -> CoreType:
    parser.parse_keyword("on")
    return parse_enum(parser, CoreType, "core type")


def parse_on_class(parser: Parser) -> CoreClass:
    """`on aic|aiv|mix`: the class of core types that run an op."""
    parser.parse_keyword("on")
    return parse_enum(parser, CoreClass, "core class (aic, aiv or mix)")


def print_attrs(printer: Printer, op: IRDLOperation) -> None:
    printer.print_op_attributes(op.attributes, print_keyword=True)
