"""Progress ops of the `ascendc` dialect (`debug-progress=1`, docs/design.md §6).

Each core owns one 64-byte line of the progress area (the arg slot `slot`): AIVs at their
logical block index, AICs from `aiv_lines` on. `ascendc.progress` stores one word there and
cleans the line (one store and one `dcci`); the word is `skir.analysis.sync.progress_points.encode`
of the SuperKernel, the program point and the state, ORed with the line index at run time.
`ascendc.wait_lock_bounded` is the GM lock wait of `debug-wait-timeout-cycles=N`: after N
system cycles without the lock it writes its timeout word and traps.

```mlir
ascendc.progress_helpers aiv_lines 48         // SkProgress<aic> / WaitFuncBounded<aic>
ascendc.if_core aiv {
  ascendc.progress slot 9 word 0x5c00000000010000   // SkProgress<false>(param_base[9], ...)
  ascendc.wait_lock_bounded slot 4 progress 9 word 0x5c00000003070000 cycles 100000
}
```
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.ascendc_attrs import i64_attr, in_entry, in_source
from skir.dialects.syntax import build_op
from skir.errors import TaskVerifyException

_WORD_MAGIC = 0x5C


def _u64(value: int) -> IntegerAttr:
    """A 64-bit word held in an i64 property (two's complement above 2**63)."""
    return i64_attr(value - (1 << 64) if value >= 1 << 63 else value)


def _word(attr: IntegerAttr) -> int:
    return attr.value.data & ((1 << 64) - 1)


def _check_word(op: IRDLOperation, word: int) -> None:
    if word >> 56 != _WORD_MAGIC or word & 0xFFFF:
        raise TaskVerifyException(op, f"{op.name}: word {word:#x} is not a progress word (magic 0x5c in the top "
                                      "byte, the low 16 bits free for the line index)")


@irdl_op_definition
class ProgressHelpersOp(IRDLOperation):
    """The `SkProgress<aic>` and `WaitFuncBounded<aic>` templates; AIC lines start at `aiv_lines`."""

    name = "ascendc.progress_helpers"

    aiv_lines = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_source)
    assembly_format = "`aiv_lines` $aiv_lines attr-dict"

    def __init__(self, aiv_lines: int):
        build_op(self, {"aiv_lines": i64_attr(aiv_lines)})

    def verify_(self) -> None:
        if self.aiv_lines.value.data < 0:
            raise TaskVerifyException(self, "ascendc.progress_helpers: aiv_lines must be 0 or more")


class _WordOp(IRDLOperation):
    """Base of the ops that write a progress word: `slot` the progress area's arg slot."""

    slot = prop_def(IntegerAttr[I64])
    word = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)

    @property
    def value(self) -> int:
        """The word as an unsigned 64-bit number."""
        return _word(self.word)

    def verify_(self) -> None:
        _check_word(self, self.value)


@irdl_op_definition
class ProgressOp(_WordOp):
    """`SkProgress<aic>(param_base[slot], word)`: store the word on this core's line and clean it."""

    name = "ascendc.progress"

    def __init__(self, slot: int, word: int):
        build_op(self, {"slot": i64_attr(slot), "word": _u64(word)})

    @classmethod
    def parse(cls, parser: Parser) -> ProgressOp:
        parser.parse_keyword("slot")
        slot = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_keyword("word")
        op = cls(slot, parser.parse_integer(allow_boolean=False, allow_negative=False))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" slot {self.slot.value.data} word {self.value:#x}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class WaitLockBoundedOp(_WordOp):
    """`WaitFuncBounded<aic>(param_base[slot], param_base[progress], word, cycles)`: block 0 polls
    the GM lock as `WaitFunc` does; after `cycles` system cycles it writes `word` (a timeout
    word) on its progress line and traps."""

    name = "ascendc.wait_lock_bounded"

    lock = prop_def(IntegerAttr[I64])
    cycles = prop_def(IntegerAttr[I64])
    MIN_CYCLES: ClassVar[int] = 1

    def __init__(self, lock: int, slot: int, word: int, cycles: int):
        build_op(self, {"lock": i64_attr(lock), "slot": i64_attr(slot), "word": _u64(word),
                        "cycles": i64_attr(cycles)})

    @classmethod
    def parse(cls, parser: Parser) -> WaitLockBoundedOp:
        values = []
        for keyword in ("slot", "progress", "word", "cycles"):
            parser.parse_keyword(keyword)
            values.append(parser.parse_integer(allow_boolean=False, allow_negative=False))
        op = cls(values[0], values[1], values[2], values[3])
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" slot {self.lock.value.data} progress {self.slot.value.data} word {self.value:#x} "
                             f"cycles {self.cycles.value.data}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        super().verify_()
        if self.cycles.value.data < self.MIN_CYCLES:
            raise TaskVerifyException(self, "ascendc.wait_lock_bounded: cycles must be 1 or more")


PROGRESS_OPS = (ProgressHelpersOp, ProgressOp, WaitLockBoundedOp)
