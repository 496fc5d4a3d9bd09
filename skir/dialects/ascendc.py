"""The `ascendc` dialect: the structure of an emitted Ascend C SuperKernel entry.

`sk-to-ascendc` lowers each `sk.kernel` to one `ascendc.source`; the `ascendc` target
prints it as C++ (see `skir.targets.ascendc`). The ops mirror the constructs of the
vendor's generated entries: GM-lock helpers, `extern "C"` sub-kernel declarations, the
entry function, FFTS set-up, core-type and block-index guards, split dispatch, calls and
synchronisation intrinsics.

```mlir
ascendc.source @m_sk0 mix_aiv_1_0 {
  ascendc.lock_helpers
  ascendc.declare "norm_middle" copies 4
  ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
    ascendc.ffts_base
    ascendc.comment "begin func call of sub operator norm (seq 3)"
    ascendc.if_core aiv {
      ascendc.if_block logical 48 {
        ascendc.call "norm_middle" offset 1 copies 4
      }
    }
    ascendc.if_core aiv {
      ascendc.cross_core_set mte3 mode 0 flag 14
      ascendc.cross_core_wait flag 14
    }
  }
}
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, StringAttr, SymbolNameConstraint, UnitAttr
from xdsl.ir import Attribute, Dialect, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.traits import HasParent, NoTerminator, SymbolOpInterface

from skir.dialects.aclgraph_enums import KernelType, KernelTypeAttr, kernel_type_attr
from skir.dialects.ascendc_attrs import (
    CORES,
    INDEXES,
    BlockIndex,
    BlockIndexAttr,
    CoreTypeAttr,
    PipeAttr,
    i64_attr,
)
from skir.dialects.ascendc_feed import FEED_OPS
from skir.dialects.ascendc_groups import GROUP_OPS
from skir.dialects.ascendc_intrinsics import INTRINSICS
from skir.dialects.ascendc_profiling import PROFILING_OPS
from skir.dialects.ascendc_progress import PROGRESS_OPS
from skir.dialects.ascendc_system_args import SYSTEM_ARGS_OPS
from skir.dialects.hardware import CoreType
from skir.dialects.syntax import NullaryOp, build_op, string_attr
from skir.errors import TaskVerifyException
from skir.names import SYMBOL_MAX_BYTES, name_problem, shown
from skir.xdsl_fast.isolated import OperandFreeIsolated
from skir.xdsl_fast.verify import fast_verify_all

_i64 = i64_attr
_CORES = CORES
_INDEXES = INDEXES


def _in_entry() -> tuple[HasParent]:
    return (HasParent(EntryOp, CoreFunctionOp, IfCoreOp, IfBlockOp, IfIdleOp),)


def _in_source() -> tuple[HasParent]:
    return (HasParent(SourceOp),)


def _check_symbol(op: IRDLOperation, prop: str = "symbol") -> None:
    """A symbol printed into C++ must be a C identifier (docs/design.md §1 "Names")."""
    text = op.properties[prop].data  # type: ignore[attr-defined]
    problem = name_problem(text, SYMBOL_MAX_BYTES)
    if problem is not None:
        raise TaskVerifyException(op, f"{op.name} {shown(text)}: {problem}")


@irdl_op_definition
class SourceOp(IRDLOperation):
    """One emitted source file: the entry of SuperKernel `@name` and what it needs.

    The kernel type selects the kernel-type meta trailer the target prints.
    """

    name = "ascendc.source"

    sym_name = prop_def(SymbolNameConstraint())
    kernel_type = prop_def(KernelTypeAttr)
    body = region_def("single_block")

    traits = traits_def(SymbolOpInterface(), NoTerminator(), OperandFreeIsolated())
    assembly_format = "$sym_name $kernel_type attr-dict-with-keyword $body"

    def __init__(self, sym_name: str, kernel_type: KernelType, body: Region):
        build_op(
            self, {"sym_name": StringAttr(sym_name), "kernel_type": kernel_type_attr(kernel_type)}, [body]
        )

    def entry(self) -> EntryOp:
        for op in self.body.block.ops:
            if isinstance(op, EntryOp):
                return op
        raise TaskVerifyException(self, f"ascendc.source @{self.sym_name.data} has no ascendc.entry")

    def verify_(self) -> None:
        _check_symbol(self, "sym_name")
        self.entry()


@irdl_op_definition
class LockHelpersOp(NullaryOp):
    """The `NotifyFunc<aic>` / `WaitFunc<aic>` GM-lock helper templates."""

    name = "ascendc.lock_helpers"
    traits = lazy_traits_def(_in_source)
    assembly_format = "attr-dict"


@irdl_op_definition
class DeclareOp(IRDLOperation):
    """`extern "C"` declarations of a sub-kernel symbol and its `_split<i>` copies: `f(uint64_t
    args_offset)`, or with `system_args` `f(const __gm__ void *args, sk::SkSystemArgs *sys_args)`
    (a kernel that takes its logical block index and count, `skir.dialects.ascendc_system_args`)."""

    name = "ascendc.declare"

    symbol = prop_def(StringAttr)
    copies = prop_def(IntegerAttr[I64])
    system_args = opt_prop_def(UnitAttr)

    traits = lazy_traits_def(_in_source)
    assembly_format = "$symbol `copies` $copies (`system_args` $system_args^)? attr-dict"

    def __init__(self, symbol: str, copies: int, system_args: bool = False):
        props: dict[str, Attribute] = {"symbol": string_attr(symbol), "copies": _i64(copies)}
        if system_args:
            props["system_args"] = UnitAttr()
        build_op(self, props)

    def verify_(self) -> None:
        _check_symbol(self)


@irdl_op_definition
class EntryOp(IRDLOperation):
    """The entry function `extern "C" __global__ [aligned] __aicore__ void <entry>(void)`."""

    name = "ascendc.entry"

    symbol = prop_def(StringAttr)
    align = prop_def(IntegerAttr[I64])
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (NoTerminator(), HasParent(SourceOp)))
    assembly_format = "$symbol `align` $align attr-dict-with-keyword $body"

    def __init__(self, symbol: str, align: int, body: Region):
        build_op(self, {"symbol": StringAttr(symbol), "align": _i64(align)}, [body])

    def verify_(self) -> None:
        _check_symbol(self)


@irdl_op_definition
class CoreFunctionOp(IRDLOperation):
    """`__aicore__ inline void <symbol>(void)`: the program of one core type of a stream-fused
    SuperKernel, which the entry calls on that core type (`ascendc.invoke`). It reads
    `param_base` itself."""

    name = "ascendc.core_function"

    symbol = prop_def(StringAttr)
    core = prop_def(CoreTypeAttr)
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (NoTerminator(), HasParent(SourceOp)))
    assembly_format = "$symbol $core attr-dict-with-keyword $body"

    def __init__(self, symbol: str, core: CoreType, body: Region):
        build_op(self, {"symbol": StringAttr(symbol), "core": _CORES[core]}, [body])

    def verify_(self) -> None:
        _check_symbol(self)


@irdl_op_definition
class InvokeOp(IRDLOperation):
    """`<symbol>();`: call an `ascendc.core_function` of the same source."""

    name = "ascendc.invoke"

    symbol = prop_def(StringAttr)
    traits = lazy_traits_def(_in_entry)
    assembly_format = "$symbol attr-dict"

    def __init__(self, symbol: str):
        build_op(self, {"symbol": StringAttr(symbol)})

    def verify_(self) -> None:
        _check_symbol(self)


@irdl_op_definition
class FftsBaseOp(NullaryOp):
    """Read `param_base` and program the FFTS base from slot 0."""

    name = "ascendc.ffts_base"
    traits = lazy_traits_def(_in_entry)
    assembly_format = "attr-dict"


@irdl_op_definition
class CommentOp(IRDLOperation):
    """A `//` comment line in the emitted source."""

    name = "ascendc.comment"

    text = prop_def(StringAttr)
    traits = lazy_traits_def(_in_entry)
    assembly_format = "$text attr-dict"

    def __init__(self, text: str):
        build_op(self, {"text": string_attr(text)})

    def verify_(self) -> None:
        if not self.text.data.isprintable():
            raise TaskVerifyException(self, f"ascendc.comment {shown(self.text.data)}: a comment is one printable line")


@irdl_op_definition
class IfCoreOp(IRDLOperation):
    """`if ASCEND_IS_AIC { ... }` / `if ASCEND_IS_AIV { ... }`."""

    name = "ascendc.if_core"

    core = prop_def(CoreTypeAttr)
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (NoTerminator(), *_in_entry()))
    assembly_format = "$core attr-dict-with-keyword $body"

    def __init__(self, core: CoreType, body: Region):
        build_op(self, {"core": _CORES[core]}, [body])


@irdl_op_definition
class IfBlockOp(IRDLOperation):
    """A block guard: run the body only on cores whose index is below `bound` (and, `from F`
    for a placed sub-task, at least `F`)."""

    name = "ascendc.if_block"

    index = prop_def(BlockIndexAttr)
    bound = prop_def(IntegerAttr[I64])
    first = opt_prop_def(IntegerAttr[I64])
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (NoTerminator(), *_in_entry()))
    assembly_format = "$index $bound (`from` $first^)? attr-dict-with-keyword $body"

    def __init__(self, index: BlockIndex, bound: int, body: Region, first: int = 0):
        props = {"index": _INDEXES[index], "bound": _i64(bound)}
        if first:
            props["first"] = _i64(first)
        build_op(self, props, [body])

    def verify_(self) -> None:
        if self.first is not None and not 0 < self.first.value.data < self.bound.value.data:
            raise TaskVerifyException(
                self, f"block guard from {self.first.value.data} below {self.bound.value.data}: the first core must be "
                "above 0 (omit 'from' for 0) and below the bound")


@irdl_op_definition
class CallOp(IRDLOperation):
    """Call a sub-kernel with its first arg-table slot; `copies > 1` dispatches on `get_coreid() % copies`."""

    name = "ascendc.call"

    symbol = prop_def(StringAttr)
    offset = prop_def(IntegerAttr[I64])
    copies = prop_def(IntegerAttr[I64])

    traits = lazy_traits_def(_in_entry)
    assembly_format = "$symbol `offset` $offset `copies` $copies attr-dict"

    def __init__(self, symbol: str, offset: int, copies: int):
        build_op(self, {"symbol": string_attr(symbol), "offset": _i64(offset), "copies": _i64(copies)})

    def verify_(self) -> None:
        _check_symbol(self)
        if not 1 <= self.copies.value.data <= 64:
            raise TaskVerifyException(self, f"call of {self.symbol.data}: copies must be in [1, 64]")


@irdl_op_definition
class IfIdleOp(IRDLOperation):
    """The complement of a block guard: run the body only on cores whose index is `bound` or more."""

    name = "ascendc.if_idle"

    index = prop_def(BlockIndexAttr)
    bound = prop_def(IntegerAttr[I64])
    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (NoTerminator(), *_in_entry()))
    assembly_format = "$index $bound attr-dict-with-keyword $body"

    def __init__(self, index: BlockIndex, bound: int, body: Region):
        build_op(self, {"index": _INDEXES[index], "bound": _i64(bound)}, [body])


@irdl_op_definition
class PreloadOp(IRDLOperation):
    """`preload(<symbol copy>, units)`: prefetch `units` x 2 KiB of a sub-kernel's code.

    With `copies > 1` the copy is chosen by `get_coreid() % copies`, like the call.
    """

    name = "ascendc.preload"

    symbol = prop_def(StringAttr)
    units = prop_def(IntegerAttr[I64])
    copies = prop_def(IntegerAttr[I64])

    traits = lazy_traits_def(_in_entry)
    assembly_format = "$symbol `units` $units `copies` $copies attr-dict"

    def __init__(self, symbol: str, units: int, copies: int):
        build_op(self, {"symbol": string_attr(symbol), "units": _i64(units), "copies": _i64(copies)})

    def verify_(self) -> None:
        _check_symbol(self)
        if not 1 <= self.units.value.data <= 16:
            raise TaskVerifyException(self, f"preload of {self.symbol.data}: units must be in [1, 16]")
        if not 1 <= self.copies.value.data <= 64:
            raise TaskVerifyException(self, f"preload of {self.symbol.data}: copies must be in [1, 64]")


@irdl_op_definition
class PreloadAllOp(IRDLOperation):
    """`AscendC::PreLoad(units)`: prefetch the entry's own code (`preload-code=max`)."""

    name = "ascendc.preload_all"

    units = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(_in_entry)
    assembly_format = "$units attr-dict"

    def __init__(self, units: int):
        build_op(self, {"units": _i64(units)})


def enclosing_core(op: Operation) -> CoreType | None:
    """The core type whose code holds `op`: the nearest `ascendc.if_core` or
    `ascendc.core_function` around it (None: code both core types run)."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, IfCoreOp | CoreFunctionOp):
            return parent.core.data
        parent = parent.parent_op()
    return None


AscendC = Dialect(
    "ascendc",
    [
        SourceOp,
        LockHelpersOp,
        DeclareOp,
        EntryOp,
        CoreFunctionOp,
        InvokeOp,
        FftsBaseOp,
        CommentOp,
        IfCoreOp,
        IfBlockOp,
        CallOp,
        IfIdleOp,
        PreloadOp,
        PreloadAllOp,
        *INTRINSICS,
        *GROUP_OPS,
        *FEED_OPS,
        *PROFILING_OPS,
        *PROGRESS_OPS,
        *SYSTEM_ARGS_OPS,
    ],
    [CoreTypeAttr, BlockIndexAttr, PipeAttr],
)
fast_verify_all(AscendC.operations)
