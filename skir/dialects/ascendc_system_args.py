"""Calls of sub-kernels that take `sk::SkSystemArgs` (kernel clause `sk_system_args`).

Such a sub-kernel has the vendor's direct-launch signature
`void f(const __gm__ void *args, sk::SkSystemArgs *sys_args)`: `args` is its first slot of the
argument table, and `sys_args` carries its logical block index and block count, so it may run
on the cores `[F, F + n)` of its index (placement, docs/design.md §3 "Placement"). The struct is
the one `kernel_operator.h` declares: `uint16_t skBlockIdx, skNumBlocks, skTaskSyncCfg` then
ten reserved bytes.

```mlir
ascendc.declare "rope_k_middle" copies 4 system_args
...
ascendc.if_block logical 48 from 40 {
  ascendc.call_system_args "rope_k_middle" offset 7 copies 4 logical from 40 count 8
}
```
prints
```cpp
extern "C" __aicore__ void rope_k_middle(const __gm__ void *args, sk::SkSystemArgs *sys_args);
...
if (AscendC::GetBlockIdx() >= 40 && AscendC::GetBlockIdx() < 48) {
    sk::SkSystemArgs sys_args = {};
    sys_args.skBlockIdx = (uint16_t)(AscendC::GetBlockIdx() - 40);
    sys_args.skNumBlocks = 8;
    rope_k_middle((const __gm__ void *)(param_base + 7), &sys_args);   // split copies dispatched
}
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, prop_def

from skir.dialects.ascendc_attrs import INDEXES, BlockIndex, BlockIndexAttr, i64_attr, in_entry
from skir.dialects.syntax import build_op, string_attr
from skir.errors import TaskVerifyException
from skir.names import SYMBOL_MAX_BYTES, name_problem, shown

MAX_SK_BLOCKS = 0xFFFF
"""`skBlockIdx` and `skNumBlocks` are `uint16_t`."""


def _check(op: IRDLOperation, symbol: StringAttr, copies: IntegerAttr) -> None:
    problem = name_problem(symbol.data, SYMBOL_MAX_BYTES)
    if problem is not None:
        raise TaskVerifyException(op, f"{op.name} {shown(symbol.data)}: {problem}")
    if not 1 <= copies.value.data <= 64:
        raise TaskVerifyException(op, f"{op.name} {symbol.data}: copies must be in [1, 64]")


@irdl_op_definition
class CallSystemArgsOp(IRDLOperation):
    """Call a sub-kernel with its arg-table slot `offset` and an `sk::SkSystemArgs` of logical
    block index `<index> - first` and block count `count`."""

    name = "ascendc.call_system_args"

    symbol = prop_def(StringAttr)
    offset = prop_def(IntegerAttr[I64])
    copies = prop_def(IntegerAttr[I64])
    index = prop_def(BlockIndexAttr)
    first = prop_def(IntegerAttr[I64])
    count = prop_def(IntegerAttr[I64])

    traits = lazy_traits_def(in_entry)
    assembly_format = "$symbol `offset` $offset `copies` $copies $index `from` $first `count` $count attr-dict"

    def __init__(self, symbol: str, offset: int, copies: int, index: BlockIndex, first: int, count: int):
        build_op(self, {"symbol": string_attr(symbol), "offset": i64_attr(offset), "copies": i64_attr(copies),
                        "index": INDEXES[index], "first": i64_attr(first), "count": i64_attr(count)})

    def verify_(self) -> None:
        _check(self, self.symbol, self.copies)
        first, count = self.first.value.data, self.count.value.data
        if not 0 <= first < MAX_SK_BLOCKS or not 1 <= count <= MAX_SK_BLOCKS or first + count > MAX_SK_BLOCKS + 1:
            raise TaskVerifyException(
                self, f"{self.name} {self.symbol.data}: from {first} count {count} does not fit the uint16_t "
                "block index and count of sk::SkSystemArgs")


SYSTEM_ARGS_OPS = (CallSystemArgsOp,)
