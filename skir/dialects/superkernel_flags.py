"""The cross-core flag ops of the `sk` dialect and the facts of the flag counters.

Each sub-core has 16 cross-core flag counters of 4 bits; ids 11-14 belong to `SyncAll`, the
all-core barriers and early-start. A set credits a counter (mode 0: every core of its type once
all have set; mode 2: the other type of its block), a wait takes one credit:

```mlir
sk.set_flag mode 2 flag 15 pipe mte3 on aiv   // each AIV signals its block's AIC
sk.wait_flag flag 15 on aic               // the AIC takes one credit
sk.set_flag mode 0 flag 10 pipe mte3 on aiv blocks 40 at 8   // only AIVs 8-47 (a lane's round)
sk.wait_flag flag 10 on aiv blocks 40 at 8
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.hardware import FLAG_IDS, MAX_CREDITS, RESERVED_FLAGS, CoreType, Pipe
from skir.dialects.superkernel_base import CORE_ATTRS, SkCoreAttr, SkProgramOp, parse_on, print_attrs
from skir.dialects.syntax import build_op, int_attr, parse_enum, parse_int_in, with_attrs
from skir.errors import TaskVerifyException

__all__ = ["FLAG_IDS", "MAX_CREDITS", "RESERVED_FLAGS", "SetFlagOp", "SkPipeAttr", "WaitFlagOp"]

@irdl_attr_definition
class SkPipeAttr(EnumAttribute[Pipe], SpacedOpaqueSyntaxAttribute):
    name = "sk.pipe"


_PIPES = {pipe: SkPipeAttr(pipe) for pipe in Pipe}


class _GuardedFlagOp(SkProgramOp):
    """Base of the cross-core flag ops: an optional core guard `blocks n at F` runs the op only on
    the cores `[F, F + n)` of its type (block index on the AIC, AIV index on the AIV) — a lane's
    round of a split barrier (docs/design.md §3 "Lanes"); without it every core of the type runs it."""

    blocks = opt_prop_def(IntAttr)
    first = opt_prop_def(IntAttr)

    def guard(self) -> range | None:
        """The cores of its type that run the op, or None for all."""
        if self.blocks is None:
            return None
        first = 0 if self.first is None else self.first.data
        return range(first, first + self.blocks.data)

    @staticmethod
    def guard_props(guard: range | None) -> dict[str, Attribute]:
        if guard is None:
            return {}
        return {"blocks": int_attr(len(guard)), "first": int_attr(guard.start)}

    @staticmethod
    def parse_guard(parser: Parser) -> range | None:
        if not parser.parse_optional_keyword("blocks"):
            return None
        n = parse_int_in(parser, 1, 65535, "blocks")
        parser.parse_keyword("at")
        first = parse_int_in(parser, 0, 65535, "first core")
        return range(first, first + n)

    def print_guard(self) -> str:
        guard = self.guard()
        return "" if guard is None else f" blocks {len(guard)} at {guard.start}"

    def verify_guard(self) -> None:
        if (self.blocks is None) != (self.first is None):
            raise TaskVerifyException(self, f"{self.name}: a core guard names both 'blocks n' and 'at F'")


@irdl_op_definition
class SetFlagOp(_GuardedFlagOp):
    """A cross-core set: `sk.set_flag mode 2 flag 15 pipe mte3 on aiv`.

    Mode 2 from AIVs: the block's AIC gets one credit once every AIV of the block has set;
    from the AIC: each AIV of its block gets one. Mode 0: all cores of the type; mode 1: the
    AIVs of a block. Ids 11-14 are reserved.
    """

    name = "sk.set_flag"

    mode = prop_def(IntAttr)
    flag = prop_def(IntAttr)
    pipe = prop_def(SkPipeAttr)
    core = prop_def(SkCoreAttr)

    def __init__(self, mode: int, flag: int, pipe: Pipe, core: CoreType, guard: range | None = None):
        build_op(
            self,
            {
                "mode": int_attr(mode),
                "flag": int_attr(flag),
                "pipe": _PIPES[pipe],
                "core": CORE_ATTRS[core],
                **self.guard_props(guard),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> SetFlagOp:
        parser.parse_keyword("mode")
        mode = parse_int_in(parser, 0, 2, "mode")
        parser.parse_keyword("flag")
        flag = parse_int_in(parser, 0, 15, "flag id")
        parser.parse_keyword("pipe")
        pipe = parse_enum(parser, Pipe, "pipe")
        core = parse_on(parser)
        return with_attrs(parser, cls(mode, flag, pipe, core, cls.parse_guard(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(
            f" mode {self.mode.data} flag {self.flag.data} pipe {self.pipe.data.value}"
            f" on {self.core.data.value}{self.print_guard()}"
        )
        print_attrs(printer, self)

    def credited(self) -> CoreType:
        """The core type the set gives its credit to: its own for mode 0 (and mode 1, on the
        AIVs), the other type of its block for mode 2."""
        own = self.core.data
        if self.mode.data != 2:
            return own
        return CoreType.AIV if own is CoreType.AIC else CoreType.AIC

    def verify_(self) -> None:
        _check_flag(self, self.flag.data)
        self.verify_guard()
        if self.guard() is not None and self.mode.data != 0:
            raise TaskVerifyException(
                self, "set_flag: only a mode-0 set may be guarded to a core range (a mode-2 set "
                "pairs the AIC and the AIVs of every block); drop 'blocks n at F' or use mode 0")
        if self.mode.data == 1 and self.core.data is not CoreType.AIV:
            raise TaskVerifyException(
                self, "set_flag: mode 1 synchronises the AIVs of a block; run it on aiv"
            )


@irdl_op_definition
class WaitFlagOp(_GuardedFlagOp):
    """Take one credit of a cross-core flag on each core of the type: `sk.wait_flag flag 15 on aic`."""

    name = "sk.wait_flag"

    flag = prop_def(IntAttr)
    core = prop_def(SkCoreAttr)

    def __init__(self, flag: int, core: CoreType, guard: range | None = None):
        build_op(self, {"flag": int_attr(flag), "core": CORE_ATTRS[core],
                        **self.guard_props(guard)})

    @classmethod
    def parse(cls, parser: Parser) -> WaitFlagOp:
        parser.parse_keyword("flag")
        flag = parse_int_in(parser, 0, 15, "flag id")
        core = parse_on(parser)
        return with_attrs(parser, cls(flag, core, cls.parse_guard(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" flag {self.flag.data} on {self.core.data.value}{self.print_guard()}")
        print_attrs(printer, self)

    def verify_(self) -> None:
        _check_flag(self, self.flag.data)
        self.verify_guard()


def _check_flag(op: SkProgramOp, flag: int) -> None:
    if flag in RESERVED_FLAGS:
        raise TaskVerifyException(
            op, f"{op.name}: flag ids 11-14 are reserved for SyncAll, barriers and early-start; use another"
        )
