"""`sk-to-ascendc`: lower each lowered `sk.kernel` to an `ascendc.source`.

The `sk.kernel` ops stay (so `sk-check` still runs on the final module); one
`ascendc.source @<name>` per SuperKernel is appended to the top-level module. A chain
SuperKernel becomes one entry body in program order: each sub-task a guarded call per
core type it runs on, each barrier its intrinsics.

```mlir
sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 {
  aic {
  }
  aiv {
    sk.subtask id 0 @a blocks 48 offset 1 from @s0 seq 0
    sk.barrier id 1 all_aiv
    sk.subtask id 2 @b blocks 8 offset 2 from @s0 seq 1 after [0]
  }
}
```
adds
```mlir
ascendc.source @m_sk0 mix_aiv_1_0 {
  ascendc.lock_helpers
  ascendc.declare "a_middle" copies 4
  ascendc.declare "b_middle" copies 4
  ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
    ascendc.ffts_base
    ascendc.comment "begin func call of sub operator a (seq 0)"
    ascendc.if_core aiv {
      ascendc.if_block logical 48 {
        ascendc.call "a_middle" offset 1 copies 4
      }
    }
    ascendc.comment "begin inter ops barrier"
    ascendc.if_core aiv {
      ascendc.cross_core_set mte3 mode 0 flag 14
      ascendc.cross_core_wait flag 14
    }
    ...
  }
}
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class
from skir.dialects.ascendc import (
    BlockIndex,
    CallOp,
    CommentOp,
    CoreType,
    CrossCoreSetOp,
    CrossCoreWaitOp,
    DeclareOp,
    EntryOp,
    FftsBaseOp,
    IfBlockOp,
    IfCoreOp,
    LockHelpersOp,
    Pipe,
    SourceOp,
    SyncAllOp,
)
from skir.dialects.ascendc import NotifyLockOp as CNotify
from skir.dialects.ascendc import ResetLockOp as CReset
from skir.dialects.ascendc import WaitLockOp as CWait
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    LockOp,
    NotifyOp,
    SubtaskOp,
    SuperKernelOp,
    WaitLockOp,
)
from skir.options import SkOptions
from skir.passes.common import kernel_table, models, pass_options

SYNC_AIC_FLAG = 11
SYNC_AIV_ONLY_ALL = 14


def entry_symbol(sk_name: str) -> str:
    return f"auto_gen_{sk_name}_kernel"


def _call_blocks(sub: SubtaskOp, kernel: KernelOp, copies: int) -> list[Operation]:
    cls = core_class(kernel.type)
    blocks = sub.blocks.data
    call_of: list[Operation] = []
    for core, wanted in ((CoreType.AIC, CoreClass.AIC), (CoreType.AIV, CoreClass.AIV)):
        if cls not in (wanted, CoreClass.MIX):
            continue
        index = BlockIndex.LOGICAL if cls is CoreClass.AIV else BlockIndex.BLOCK
        call = CallOp(kernel.sub_symbol, sub.offset.data, copies)
        guard = IfBlockOp(index, blocks, Region(Block([call])))
        call_of.append(IfCoreOp(core, Region(Block([guard]))))
    return call_of


def _barrier(kind: BarrierKind) -> list[Operation]:
    if kind is BarrierKind.SYNC_ALL:
        return [SyncAllOp()]
    if kind is BarrierKind.ALL_AIV:
        core, pipe, flag = CoreType.AIV, Pipe.MTE3, SYNC_AIV_ONLY_ALL
    else:
        core, pipe, flag = CoreType.AIC, Pipe.FIX, SYNC_AIC_FLAG
    body = Block([CrossCoreSetOp(pipe, 0, flag), CrossCoreWaitOp(flag)])
    return [IfCoreOp(core, Region(body))]


def _lock(op: LockOp) -> Operation:
    kind = CNotify if isinstance(op, NotifyOp) else CWait if isinstance(op, WaitLockOp) else CReset
    return IfCoreOp(op.core.data, Region(Block([kind(op.slot.data)])))


def lower_superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions) -> SourceOp:
    """Build the `ascendc.source` of one chain SuperKernel."""
    name = sk.sym_name.data
    copies = options.split_mode
    body = Block([FftsBaseOp()])
    declared: dict[str, None] = {}
    for op in sk.program():
        if isinstance(op, SubtaskOp):
            kernel = kernels[op.kernel.root_reference.data]
            declared.setdefault(kernel.sub_symbol)
            body.add_op(CommentOp(f"begin func call of sub operator {kernel.sym_name.data} (seq {op.seq.data})"))
            body.add_ops(_call_blocks(op, kernel, copies))
        elif isinstance(op, BarrierOp):
            body.add_op(CommentOp("begin inter ops barrier"))
            body.add_ops(_barrier(op.kind.data))
        elif isinstance(op, LockOp):
            body.add_op(_lock(op))
        else:
            raise PassFailedException(f"sk.kernel @{name}: cannot emit '{op.name}' yet")
    entry = EntryOp(entry_symbol(name), options.func_align, Region(body))
    decls: list[Operation] = [DeclareOp(symbol, copies) for symbol in declared]
    return SourceOp(name, sk.type, Region(Block([LockHelpersOp(), *decls, entry])))


@dataclass(frozen=True)
class ToAscendCPass(ModulePass):
    """Append one `ascendc.source` per `sk.kernel` (which stays for `sk-check`)."""

    name = "sk-to-ascendc"

    options: str = ""
    """SuperKernel options (vendor syntax); `split-mode` and `func-align` shape the entry."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        base = pass_options(self.options)
        existing = {s.sym_name.data for s in op.ops if isinstance(s, SourceOp)}
        for model in models(op):
            kernels = kernel_table(model)
            for sk in model.body.block.ops:
                if isinstance(sk, SuperKernelOp) and sk.sym_name.data not in existing:
                    options = base.merged(sk.options.data) if sk.options is not None else base
                    op.body.block.add_op(lower_superkernel(sk, kernels, options))
