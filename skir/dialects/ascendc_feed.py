"""Feed-sync-all ops of the `ascendc` dialect: let a sub-kernel that calls `SyncAll` run on
fewer cores than the SuperKernel has.

The workspace (an arg slot) holds one 64-byte config word per fed sub-task and core type;
it is zeroed at entry. Around a fed call the active cores announce the op (`feed_begin`) and
close its rounds after the call (`feed_end`); the idle cores mirror every `SyncAll` round
(`feed_complement`).

```mlir
ascendc.feed_workspace slot 9                  // GM_ADDR workspace = param_base[9]; ...
ascendc.if_core aiv {
  ascendc.zero_workspace bytes 16384           // each AIV zeroes its share
}
ascendc.sync_all
ascendc.if_core aiv {
  ascendc.feed_begin index 0 offset 64         // SyncIdx, Enable, ConfigGmAddr
  ascendc.if_block logical 4 {
    ascendc.call "k_middle" offset 3 copies 1
    ascendc.feed_end                           // SuperKernelAutoSyncAllEndImpl()
  }
  ascendc.if_idle logical 4 {
    ascendc.feed_complement                    // SuperKernelAutoSyncAllComplementImpl()
  }
  ascendc.feed_off                             // g_superKernelAutoSyncAllEnable = false
}
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def, prop_def

from skir.dialects.ascendc_attrs import i64_attr, in_entry
from skir.dialects.syntax import NullaryOp, build_op


@irdl_op_definition
class FeedWorkspaceOp(IRDLOperation):
    """`GM_ADDR workspace = param_base[slot];` and the feed config base address."""

    name = "ascendc.feed_workspace"

    slot = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "`slot` $slot attr-dict"

    def __init__(self, slot: int):
        build_op(self, {"slot": i64_attr(slot)})


@irdl_op_definition
class ZeroWorkspaceOp(IRDLOperation):
    """Zero `bytes` of the workspace, 512 bytes a step, the steps shared by the enclosing core type."""

    name = "ascendc.zero_workspace"

    bytes = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "`bytes` $bytes attr-dict"

    def __init__(self, size: int):
        build_op(self, {"bytes": i64_attr(size)})


@irdl_op_definition
class FeedBeginOp(IRDLOperation):
    """Announce fed op `index`, its config word at `workspace + offset`."""

    name = "ascendc.feed_begin"

    index = prop_def(IntegerAttr[I64])
    offset = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(in_entry)
    assembly_format = "`index` $index `offset` $offset attr-dict"

    def __init__(self, index: int, offset: int):
        build_op(self, {"index": i64_attr(index), "offset": i64_attr(offset)})


@irdl_op_definition
class FeedEndOp(NullaryOp):
    """`AscendC::SuperKernelAutoSyncAllEndImpl()`: the fed op's rounds on this core are all done."""

    name = "ascendc.feed_end"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


@irdl_op_definition
class FeedComplementOp(NullaryOp):
    """`AscendC::SuperKernelAutoSyncAllComplementImpl()`: an idle core mirrors the fed op's rounds."""

    name = "ascendc.feed_complement"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


@irdl_op_definition
class FeedOffOp(NullaryOp):
    """`AscendC::g_superKernelAutoSyncAllEnable = false;` after a fed op."""

    name = "ascendc.feed_off"
    traits = lazy_traits_def(in_entry)
    assembly_format = "attr-dict"


FEED_OPS = (FeedWorkspaceOp, ZeroWorkspaceOp, FeedBeginOp, FeedEndOp, FeedComplementOp, FeedOffOp)
