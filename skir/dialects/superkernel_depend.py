"""The ordering obligations inside a SuperKernel: one `sk.depend_<rule>` op per sync rule.

`sk-place-sync` decides, for each dependency between the sub-tasks of a SuperKernel, how it is
kept (docs/design.md §3), and records the decision as the op of its rule, at the place in the
program where the synchronisation goes, `on` the core types that take part; `sk-lower-sync`
then replaces each by the `sk` sync ops of its rule, one pattern per op
(`skir.patterns.sync_lowering`). Either step runs on hand-written IR:

```mlir
sk.depend_barrier aiv -> mix on mix      // chain: the class-pair barrier (sync_all here)
sk.depend_pipe on aiv                    // sync-mode=data: a local pipe barrier
sk.depend_early_start aiv -> aic set_idle 8 of aiv wait_idle 4 on mix
                                              // the early-start handshake
sk.depend_lock_release aiv on aiv        // before a notify: a barrier of the producer's class
sk.depend_lock_acquire aic on aic        // after a lock wait: a barrier of the consumer's class
sk.depend_flag_signal flag 15 on aiv     // queue: one core type's half of a flag pair, set
sk.depend_flag_await flag 15 on aic      //        and taken on the other core type
```

Classes are the core classes of the sub-tasks ordered (`aic`, `aiv`, `mix`; for a handshake at
the entry's start or end, the SuperKernel's own). A depend stands for the ops its rule gives, in
its place: lowering one replaces it by them, and nothing else in the program changes.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.aclgraph_enums import CoreClass, class_types
from skir.dialects.superkernel_base import (
    CLASS_ATTRS,
    SkClassAttr,
    SkProgramOp,
    parse_on_class,
    print_attrs,
)
from skir.dialects.superkernel_flags import RESERVED_FLAGS
from skir.dialects.syntax import build_op, int_attr, parse_enum, parse_int_in, with_attrs
from skir.errors import TaskVerifyException

MAX_FLAG = 15


def pair_class(src: CoreClass, dst: CoreClass) -> CoreClass:
    """The class whose cores a barrier between sub-tasks of classes `src` and `dst` spans (aiv
    -> aiv the AIVs, aic -> aic the AICs, any other pair both)."""
    return src if src is dst and src is not CoreClass.MIX else CoreClass.MIX


def _parse_class(parser: Parser) -> CoreClass:
    return parse_enum(parser, CoreClass, "core class")


def _props(cores: CoreClass, **classes: CoreClass) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {"cores": CLASS_ATTRS[cores]}
    props.update({key: CLASS_ATTRS[cls] for key, cls in classes.items()})
    return props


class DependOp(SkProgramOp):
    """Base of the `sk.depend_<rule>` ops: an ordering obligation, `on` the core types that take
    part, kept by the rule its op names (see the module)."""

    cores = prop_def(SkClassAttr)

    def _print_on(self, printer: Printer, text: str) -> None:
        printer.print_string(f"{text} on {self.cores.data.value}")
        print_attrs(printer, self)

    def _expect_cores(self, want: CoreClass, why: str) -> None:
        if self.cores.data is not want:
            raise TaskVerifyException(
                self, f"{self.name}: {why} runs on {want.value}; it says on {self.cores.data.value}")


@irdl_op_definition
class DependBarrierOp(DependOp):
    """The class-pair barrier of a chain, or a queue's producer barrier:
    `sk.depend_barrier aiv -> mix on mix`."""

    name = "sk.depend_barrier"

    src = prop_def(SkClassAttr)
    dst = prop_def(SkClassAttr)

    def __init__(self, src: CoreClass, dst: CoreClass):
        build_op(self, _props(pair_class(src, dst), src=src, dst=dst))

    @classmethod
    def parse(cls, parser: Parser) -> DependBarrierOp:
        src = _parse_class(parser)
        parser.parse_punctuation("->")
        dst = _parse_class(parser)
        op = cls(src, dst)
        op.properties["cores"] = CLASS_ATTRS[parse_on_class(parser)]
        return with_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        self._print_on(printer, f" {self.src.data.value} -> {self.dst.data.value}")

    def verify_(self) -> None:
        self._expect_cores(pair_class(self.src.data, self.dst.data),
                           f"the barrier of {self.src.data.value} -> {self.dst.data.value}")


@irdl_op_definition
class DependPipeOp(DependOp):
    """`sync-mode=data`: a local pipe barrier on each core type that takes part:
    `sk.depend_pipe on aiv`."""

    name = "sk.depend_pipe"

    def __init__(self, cores: CoreClass):
        build_op(self, _props(cores))

    @classmethod
    def parse(cls, parser: Parser) -> DependPipeOp:
        return with_attrs(parser, cls(parse_on_class(parser)))

    def print(self, printer: Printer) -> None:
        self._print_on(printer, "")


@irdl_op_definition
class DependEarlyStartOp(DependOp):
    """The early-start handshake: `sk.depend_early_start aiv -> aic set_idle 8 of aiv
    wait_idle 4 on mix`."""

    name = "sk.depend_early_start"

    src = prop_def(SkClassAttr)
    dst = prop_def(SkClassAttr)
    set_idle = opt_prop_def(IntAttr)
    """The sub-task before sets itself on its blocks; the others set from `set_idle` on."""
    set_class = opt_prop_def(SkClassAttr)
    """The class of the sub-task that sets itself (its core types use `set_idle`)."""
    wait_idle = opt_prop_def(IntAttr)
    """The sub-task after waits itself; the others wait from block `wait_idle` on."""

    def __init__(self, cores: CoreClass, src: CoreClass, dst: CoreClass,
                 set_idle: tuple[int, CoreClass] | None = None, wait_idle: int | None = None):
        props = _props(cores, src=src, dst=dst)
        if set_idle is not None:
            props["set_idle"] = int_attr(set_idle[0])
            props["set_class"] = CLASS_ATTRS[set_idle[1]]
        if wait_idle is not None:
            props["wait_idle"] = int_attr(wait_idle)
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> DependEarlyStartOp:
        src = _parse_class(parser)
        parser.parse_punctuation("->")
        dst = _parse_class(parser)
        set_idle: tuple[int, CoreClass] | None = None
        wait_idle = None
        if parser.parse_optional_keyword("set_idle"):
            blocks = parse_int_in(parser, 1, 1 << 16, "set_idle")
            parser.parse_keyword("of")
            set_idle = (blocks, _parse_class(parser))
        if parser.parse_optional_keyword("wait_idle"):
            wait_idle = parse_int_in(parser, 1, 1 << 16, "wait_idle")
        cores = parse_on_class(parser)
        return with_attrs(parser, cls(cores, src, dst, set_idle, wait_idle))

    def print(self, printer: Printer) -> None:
        text = f" {self.src.data.value} -> {self.dst.data.value}"
        if self.set_idle is not None and self.set_class is not None:
            text += f" set_idle {self.set_idle.data} of {self.set_class.data.value}"
        if self.wait_idle is not None:
            text += f" wait_idle {self.wait_idle.data}"
        self._print_on(printer, text)

    def verify_(self) -> None:
        if (self.set_idle is None) != (self.set_class is None):
            raise TaskVerifyException(
                self, f"{self.name}: set_idle needs the class of the setter (of ...)")
        if not set(class_types(self.src.data)) <= set(self.core_set()):
            raise TaskVerifyException(
                self, f"{self.name}: the {self.src.data.value} sub-task before sets, so the handshake "
                f"runs on {self.src.data.value} too; it says on {self.cores.data.value}")


class _LockBarrierOp(DependOp):
    """A lock barrier: a full barrier of one side's class around an in-kernel lock access,
    `sk.<op> <class> on <class>`; the class is in property `SIDE` (`src` or `dst`)."""

    SIDE: ClassVar[str]
    ROLE: ClassVar[str]
    """Whose class the barrier covers, for the verifier's message (producer or consumer)."""

    def __init__(self, side: CoreClass):
        build_op(self, _props(side, **{self.SIDE: side}))

    def side_class(self) -> CoreClass:
        side = self.properties[self.SIDE]
        assert isinstance(side, SkClassAttr)
        return side.data

    @classmethod
    def parse(cls, parser: Parser) -> _LockBarrierOp:
        op = cls(_parse_class(parser))
        op.properties["cores"] = CLASS_ATTRS[parse_on_class(parser)]
        return with_attrs(parser, op)

    def print(self, printer: Printer) -> None:
        self._print_on(printer, f" {self.side_class().value}")

    def verify_(self) -> None:
        side = self.side_class()
        self._expect_cores(side, f"a barrier over the {side.value} {self.ROLE}'s class")


@irdl_op_definition
class DependLockReleaseOp(_LockBarrierOp):
    """Before an in-kernel notify: a full barrier of the producer's class:
    `sk.depend_lock_release aiv on aiv`."""

    name = "sk.depend_lock_release"
    SIDE: ClassVar[str] = "src"
    ROLE: ClassVar[str] = "producer"

    src = prop_def(SkClassAttr)


@irdl_op_definition
class DependLockAcquireOp(_LockBarrierOp):
    """After an in-kernel lock wait: a barrier of the consumer's class:
    `sk.depend_lock_acquire aic on aic`."""

    name = "sk.depend_lock_acquire"
    SIDE: ClassVar[str] = "dst"
    ROLE: ClassVar[str] = "consumer"

    dst = prop_def(SkClassAttr)


class _FlagHalfOp(DependOp):
    """One core type's half of a queue's cross-core flag pair."""

    flag = prop_def(IntAttr)

    def __init__(self, flag: int, cores: CoreClass):
        props = _props(cores)
        props["flag"] = int_attr(flag)
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> _FlagHalfOp:
        parser.parse_keyword("flag")
        flag = parse_int_in(parser, 0, MAX_FLAG, "flag")
        return with_attrs(parser, cls(flag, parse_on_class(parser)))

    def print(self, printer: Printer) -> None:
        self._print_on(printer, f" flag {self.flag.data}")

    def verify_(self) -> None:
        if self.cores.data is CoreClass.MIX:
            raise TaskVerifyException(
                self, f"{self.name}: one core type's half of a flag pair; put it on aic or aiv")
        if self.flag.data in RESERVED_FLAGS:
            raise TaskVerifyException(
                self, f"{self.name}: flag ids 11-14 are reserved for SyncAll, barriers and "
                "early-start; use another")


@irdl_op_definition
class DependFlagSignalOp(_FlagHalfOp):
    """A queue's flag pair, set after the producer: `sk.depend_flag_signal flag 15 on aiv`."""

    name = "sk.depend_flag_signal"


@irdl_op_definition
class DependFlagAwaitOp(_FlagHalfOp):
    """A queue's flag pair, taken before the consumer: `sk.depend_flag_await flag 15 on aic`."""

    name = "sk.depend_flag_await"


DEPEND_OPS = (DependBarrierOp, DependPipeOp, DependEarlyStartOp, DependLockReleaseOp, DependLockAcquireOp,
              DependFlagSignalOp, DependFlagAwaitOp)
"""One op per sync rule."""
