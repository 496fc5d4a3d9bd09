"""Synchronisation and cache intrinsics of the `ascendc` dialect.

Each op prints as one statement of the entry; the enclosing `ascendc.if_core` says which
core type runs it.

```mlir
ascendc.if_core aiv {
  ascendc.cross_core_set mte3 mode 2 flag 15     // ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(2, 15))
  ascendc.sync_all                               // AscendC::SyncAll<false>()
  ascendc.set_next_task_start
  ascendc.early_start_config 5
  ascendc.wait_pre_task_end 5
  ascendc.pipe_barrier                           // pipe_barrier(PIPE_ALL)
  ascendc.dcci_all                               // whole data-cache clean and invalidate
}
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, prop_def

from skir.dialects.ascendc_attrs import PIPES, PipeAttr, i64_attr, in_entry
from skir.dialects.hardware import Pipe
from skir.dialects.syntax import NullaryOp, build_op
from skir.errors import TaskVerifyException

_i64 = i64_attr
_PIPES = PIPES



@irdl_op_definition
class CrossCoreSetOp(IRDLOperation):
    """`ffts_cross_core_sync(PIPE_<pipe>, AscendC::GetffstMsg(<mode>, <flag>))`."""

    name = "ascendc.cross_core_set"

    pipe = prop_def(PipeAttr)
    mode = prop_def(IntegerAttr[I64])
    flag = prop_def(IntegerAttr[I64])

    traits = lazy_traits_def(in_entry)
    assembly_format = "$pipe `mode` $mode `flag` $flag attr-dict"

    def __init__(self, pipe: Pipe, mode: int, flag: int):
        build_op(self, {"pipe": _PIPES[pipe], "mode": _i64(mode), "flag": _i64(flag)})

    def verify_(self) -> None:
        if self.mode.value.data not in (0, 1, 2):
            raise TaskVerifyException(self, f"cross-core set mode must be 0, 1 or 2, got {self.mode.value.data}")
        if not 0 <= self.flag.value.data <= 15:
            raise TaskVerifyException(self, f"cross-core flag id must be in [0, 15], got {self.flag.value.data}")


@irdl_op_definition
class CrossCoreWaitOp(IRDLOperation):
    """`wait_flag_dev(<flag>)`: consume one credit of the flag on this core."""

    name = "ascendc.cross_core_wait"

    flag = prop_def(IntegerAttr[I64])

    traits = lazy_traits_def(in_entry)
    assembly_format = "`flag` $flag attr-dict"

    def __init__(self, flag: int):
        build_op(self, {"flag": _i64(flag)})

    def verify_(self) -> None:
        if not 0 <= self.flag.value.data <= 15:
            raise TaskVerifyException(self, f"cross-core flag id must be in [0, 15], got {self.flag.value.data}")


@irdl_op_definition
class SyncAllOp(NullaryOp):
    """`AscendC::SyncAll<false>()`: the hard barrier over every AIC and AIV of the launch."""

    name = "ascendc.sync_all"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


class _LockAccessOp(IRDLOperation):
    """Base of the GM-lock helper calls: `ascendc.<op> slot K`, `K` the arg-table slot of the lock."""

    slot = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "`slot` $slot attr-dict"

    def __init__(self, slot: int):
        build_op(self, {"slot": _i64(slot)})


@irdl_op_definition
class NotifyLockOp(_LockAccessOp):
    """`NotifyFunc<aic>(param_base[slot])`: block 0 of the enclosing core type stores 1."""

    name = "ascendc.notify_lock"


@irdl_op_definition
class WaitLockOp(_LockAccessOp):
    """`WaitFunc<aic>(param_base[slot])`: block 0 of the enclosing core type polls for 1."""

    name = "ascendc.wait_lock"


@irdl_op_definition
class ResetLockOp(_LockAccessOp):
    """`ResetFunc<aic>(param_base[slot])`: block 0 of the enclosing core type stores 0."""

    name = "ascendc.reset_lock"


@irdl_op_definition
class SetNextTaskStartOp(NullaryOp):
    """`AscendC::SetNextTaskStart()`: this core lets the next sub-task start (early start)."""

    name = "ascendc.set_next_task_start"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


@irdl_op_definition
class EarlyStartConfigOp(IRDLOperation):
    """`g_super_kernel_early_start_config = cfg;` before the waits of a handshake."""

    name = "ascendc.early_start_config"

    cfg = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "$cfg attr-dict"

    def __init__(self, cfg: int):
        build_op(self, {"cfg": _i64(cfg)})


@irdl_op_definition
class WaitPreTaskEndOp(IRDLOperation):
    """`AscendC::WaitPreTaskEndImpl<cfg>()`: wait until the previous sub-task's cores have all set."""

    name = "ascendc.wait_pre_task_end"

    cfg = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "$cfg attr-dict"

    def __init__(self, cfg: int):
        build_op(self, {"cfg": _i64(cfg)})


@irdl_op_definition
class PipeBarrierOp(NullaryOp):
    """`pipe_barrier(PIPE_ALL)`: wait for every pipe of this core (no other core is involved)."""

    name = "ascendc.pipe_barrier"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


@irdl_op_definition
class DcciAllOp(NullaryOp):
    """`dcci((__gm__ uint64_t *)0, ENTIRE_DATA_CACHE, CACHELINE_OUT)`: clean the whole data cache."""

    name = "ascendc.dcci_all"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


INTRINSICS = (
    CrossCoreSetOp,
    CrossCoreWaitOp,
    SyncAllOp,
    NotifyLockOp,
    WaitLockOp,
    ResetLockOp,
    SetNextTaskStartOp,
    EarlyStartConfigOp,
    WaitPreTaskEndOp,
    PipeBarrierOp,
    DcciAllOp,
)
