"""Profiling ops of the `ascendc` dialect (`profiling=1`).

Each core keeps 16-byte records in its own area of the profiling buffer (the first of the two
profiling arg slots; the second holds the task id): a header word `index << 32 | end << 12 |
type << 8` and the system cycle count. Areas start at byte 64, `per_core` bytes each, AIVs at
their block index, AICs at 50 + theirs; an area starts with a validity magic, the task id
and its record count. Types: 0x0 the SuperKernel, 0x8 a sub-task, 0x4 a notify, 0xC a wait.

```mlir
ascendc.profiling_helpers per_core 512 aic_offset 50   // InitProfiling / RecordProfiling
ascendc.if_core aiv {
  ascendc.profiling_init slot 9              // InitProfiling<false>(param_base[9], param_base[10])
  ascendc.profiling_record slot 9 index 0 type 0 start
  ascendc.if_block logical 8 {
    ascendc.profiling_record slot 9 index 1 type 8 start
    ascendc.call "a_middle" offset 1 copies 4
    ascendc.profiling_record slot 9 index 1 type 8 end
  }
}
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, UnitAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from skir.dialects.ascendc_attrs import i64_attr, in_entry, in_source
from skir.dialects.syntax import build_op
from skir.errors import TaskVerifyException

RECORD_TYPES = {"superkernel": 0x0, "notify": 0x4, "subtask": 0x8, "wait": 0xC}
AIC_AREA_OFFSET = 50
"""AIC areas start at this index (as the vendor's layout), or past the AIVs when there are more."""
HEADER_BYTES = 32
"""Of an area: magic, task id, record count, padding."""
RECORD_BYTES = 16




@irdl_op_definition
class ProfilingHelpersOp(IRDLOperation):
    """The `InitProfiling<aic>` / `RecordProfiling<aic>` templates; `per_core` bytes per core,
    the AIC areas from index `aic_offset` (50, or past the AIVs when there are more)."""

    name = "ascendc.profiling_helpers"

    per_core = prop_def(IntegerAttr[I64])
    aic_offset = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_source)
    assembly_format = "`per_core` $per_core `aic_offset` $aic_offset attr-dict"

    def __init__(self, per_core: int, aic_offset: int):
        build_op(self, {"per_core": i64_attr(per_core), "aic_offset": i64_attr(aic_offset)})

    def verify_(self) -> None:
        size = self.per_core.value.data
        if size < 64 or size % 64:
            raise TaskVerifyException(self, f"profiling area of {size} bytes: must be a positive multiple of 64")


@irdl_op_definition
class ProfilingInitOp(IRDLOperation):
    """`InitProfiling<aic>(param_base[slot], param_base[slot + 1])` on the enclosing core type."""

    name = "ascendc.profiling_init"

    slot = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "`slot` $slot attr-dict"

    def __init__(self, slot: int):
        build_op(self, {"slot": i64_attr(slot)})


@irdl_op_definition
class ProfilingRecordOp(IRDLOperation):
    """`RecordProfiling<aic>(param_base[slot], index, type, end)`: one record on this core."""

    name = "ascendc.profiling_record"

    slot = prop_def(IntegerAttr[I64])
    index = prop_def(IntegerAttr[I64])
    type = prop_def(IntegerAttr[I64])
    end = opt_prop_def(UnitAttr)
    traits = lazy_traits_def(in_entry)

    def __init__(self, slot: int, index: int, kind: int, end: bool):
        props: dict[str, Attribute] = {"slot": i64_attr(slot), "index": i64_attr(index), "type": i64_attr(kind)}
        if end:
            props["end"] = UnitAttr()
        build_op(self, props)

    @classmethod
    def parse(cls, parser: Parser) -> ProfilingRecordOp:
        values = []
        for word in ("slot", "index", "type"):
            parser.parse_keyword(word)
            values.append(parser.parse_integer(allow_boolean=False, allow_negative=False))
        end = parser.parse_optional_keyword("end") is not None
        if not end:
            parser.parse_keyword("start")
        op = cls(values[0], values[1], values[2], end)
        attrs = parser.parse_optional_attr_dict()
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(
            f" slot {self.slot.value.data} index {self.index.value.data} type {self.type.value.data} "
            + ("end" if self.end is not None else "start")
        )
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.type.value.data not in RECORD_TYPES.values():
            raise TaskVerifyException(self, f"profiling record type {self.type.value.data}: must be 0, 4, 8 or 12")


PROFILING_OPS = (ProfilingHelpersOp, ProfilingInitOp, ProfilingRecordOp)
