"""`sk.depend`: one ordering obligation inside a SuperKernel, and the rule that discharges it.

`sk-lower-sync` decides, for each dependency between the sub-tasks of a SuperKernel, how it is
kept (docs/design.md §3), and records the decision as an `sk.depend` at the place in the program
where the synchronisation goes, `on` the core types that take part; the patterns of
`skir.patterns.sync_lowering` then replace each by the `sk` sync ops of its rule:

```mlir
sk.depend id 8 barrier aiv -> mix on mix    // chain: the class-pair barrier (sync_all here)
sk.depend id 8 pipe on aiv                  // sync-mode=data: a local pipe barrier
sk.depend id 8 early_start aiv -> aic set_idle 8 of aiv wait_idle 4 on mix
                                            // the early-start handshake
sk.depend id 8 lock_release aiv on aiv      // before a notify: a barrier of the producer's class
sk.depend id 8 lock_acquire aic on aic      // after a lock wait: a barrier of the consumer's class
sk.depend id 8 flag_signal 15 on aiv        // queue: one core type's half of a flag pair, set
sk.depend id 8 flag_await 15 on aic         //        and taken on the other core type
```

Classes are the core classes of the sub-tasks ordered (`aic`, `aiv`, `mix`; for a handshake at
the entry's start or end, the SuperKernel's own). An `sk.depend` stands for the ops its rule
gives, numbered from its own id upwards: `sk-lower-sync` leaves their ids free after it (a
handshake of both core types, for instance, takes four).
"""

from __future__ import annotations

from enum import auto

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from skir.dialects.aclgraph_enums import CoreClass
from skir.dialects.superkernel_base import CLASS_ATTRS, SkClassAttr, SkProgramOp, parse_id, parse_on_class, print_attrs
from skir.dialects.superkernel_sync import RESERVED_FLAGS
from skir.dialects.syntax import build_op, int_attr, parse_enum, parse_int_in, with_attrs
from skir.errors import TaskVerifyException

MAX_FLAG = 15


class DependRule(StrEnum):
    """How a dependency is kept (docs/design.md §3)."""

    BARRIER = auto()
    PIPE = auto()
    EARLY_START = auto()
    LOCK_RELEASE = auto()
    LOCK_ACQUIRE = auto()
    FLAG_SIGNAL = auto()
    FLAG_AWAIT = auto()


@irdl_attr_definition
class DependRuleAttr(EnumAttribute[DependRule], SpacedOpaqueSyntaxAttribute):
    name = "sk.depend_rule"


_RULES = {rule: DependRuleAttr(rule) for rule in DependRule}
_PAIRED = (DependRule.BARRIER, DependRule.EARLY_START)
_FLAGS = (DependRule.FLAG_SIGNAL, DependRule.FLAG_AWAIT)


@irdl_op_definition
class DependOp(SkProgramOp):
    """An ordering obligation and its rule: `sk.depend id 8 barrier aiv -> mix on mix` (see the
    module); `on` names the core types whose programs take part."""

    name = "sk.depend"

    rule = prop_def(DependRuleAttr)
    cores = prop_def(SkClassAttr)
    src = opt_prop_def(SkClassAttr)
    """The class of what must finish first (barrier, handshake, lock release)."""
    dst = opt_prop_def(SkClassAttr)
    """The class of what waits (barrier, handshake, lock acquire)."""
    flag = opt_prop_def(IntAttr)
    set_idle = opt_prop_def(IntAttr)
    """Handshake: the sub-task before sets itself on its blocks; the others set from `set_idle` on."""
    set_class = opt_prop_def(SkClassAttr)
    """Handshake: the class of the sub-task that sets itself (its core types use `set_idle`)."""
    wait_idle = opt_prop_def(IntAttr)
    """Handshake: the sub-task after waits itself; the others wait from block `wait_idle` on."""

    def __init__(self, ident: int, rule: DependRule, cores: CoreClass, src: CoreClass | None = None,
                 dst: CoreClass | None = None, flag: int | None = None, set_idle: tuple[int, CoreClass] | None = None,
                 wait_idle: int | None = None):
        props: dict[str, Attribute] = {"id": int_attr(ident), "rule": _RULES[rule], "cores": CLASS_ATTRS[cores]}
        if src is not None:
            props["src"] = CLASS_ATTRS[src]
        if dst is not None:
            props["dst"] = CLASS_ATTRS[dst]
        if flag is not None:
            props["flag"] = int_attr(flag)
        if set_idle is not None:
            props["set_idle"] = int_attr(set_idle[0])
            props["set_class"] = CLASS_ATTRS[set_idle[1]]
        if wait_idle is not None:
            props["wait_idle"] = int_attr(wait_idle)
        build_op(self, props)

    @property
    def kind(self) -> DependRule:
        return self.rule.data

    @classmethod
    def parse(cls, parser: Parser) -> DependOp:
        ident = parse_id(parser)
        rule = parse_enum(parser, DependRule, "dependency rule")
        src = dst = flag = wait_idle = None
        set_idle: tuple[int, CoreClass] | None = None
        if rule in _PAIRED:
            src = parse_enum(parser, CoreClass, "core class")
            parser.parse_punctuation("->")
            dst = parse_enum(parser, CoreClass, "core class")
        elif rule is DependRule.LOCK_RELEASE:
            src = parse_enum(parser, CoreClass, "core class")
        elif rule is DependRule.LOCK_ACQUIRE:
            dst = parse_enum(parser, CoreClass, "core class")
        elif rule in _FLAGS:
            flag = parse_int_in(parser, 0, MAX_FLAG, "flag")
        if rule is DependRule.EARLY_START:
            if parser.parse_optional_keyword("set_idle"):
                blocks = parse_int_in(parser, 1, 1 << 16, "set_idle")
                parser.parse_keyword("of")
                set_idle = (blocks, parse_enum(parser, CoreClass, "core class"))
            if parser.parse_optional_keyword("wait_idle"):
                wait_idle = parse_int_in(parser, 1, 1 << 16, "wait_idle")
        cores = parse_on_class(parser)
        return with_attrs(parser, cls(ident, rule, cores, src, dst, flag, set_idle, wait_idle))

    def print(self, printer: Printer) -> None:
        text = f" id {self.id.data} {self.kind.value}"
        if self.kind in _PAIRED:
            text += f" {self.src.data.value} -> {self.dst.data.value}"  # type: ignore[union-attr]
        elif self.src is not None:
            text += f" {self.src.data.value}"
        elif self.dst is not None:
            text += f" {self.dst.data.value}"
        elif self.flag is not None:
            text += f" {self.flag.data}"
        if self.set_idle is not None and self.set_class is not None:
            text += f" set_idle {self.set_idle.data} of {self.set_class.data.value}"
        if self.wait_idle is not None:
            text += f" wait_idle {self.wait_idle.data}"
        printer.print_string(f"{text} on {self.cores.data.value}")
        print_attrs(printer, self)

    def verify_(self) -> None:
        rule = self.kind
        wanted = {
            "src": rule in _PAIRED or rule is DependRule.LOCK_RELEASE,
            "dst": rule in _PAIRED or rule is DependRule.LOCK_ACQUIRE,
            "flag": rule in _FLAGS,
        }
        for key, needed in wanted.items():
            if needed != (key in self.properties):
                raise TaskVerifyException(
                    self, f"sk.depend {self.ident} ({rule.value}) {'needs' if needed else 'takes no'} '{key}'")
        handshake = ("set_idle" in self.properties, "set_class" in self.properties, "wait_idle" in self.properties)
        if rule is not DependRule.EARLY_START and any(handshake):
            raise TaskVerifyException(self, f"sk.depend {self.ident}: only an early_start takes set_idle / wait_idle")
        if handshake[0] != handshake[1]:
            raise TaskVerifyException(self, f"sk.depend {self.ident}: set_idle needs the class of the setter (of ...)")
        if rule in _FLAGS and self.cores.data is CoreClass.MIX:
            raise TaskVerifyException(
                self, f"sk.depend {self.ident}: a {rule.value} is one core type's half of a flag pair; "
                "put it on aic or aiv")
        if self.flag is not None and self.flag.data in RESERVED_FLAGS:
            raise TaskVerifyException(
                self, f"sk.depend {self.ident}: flag ids 11-14 are reserved for SyncAll, barriers and early-start; "
                "use another")


DEPEND_OPS = (DependOp,)
DEPEND_ATTRS = (DependRuleAttr,)
