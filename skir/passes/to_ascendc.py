"""`sk-to-ascendc`: lower each lowered `sk.kernel` to an `ascendc.source`.

The `sk.kernel` ops stay (so `sk-check` still runs on the final module); one
`ascendc.source @<name>` per SuperKernel is appended to the top-level module.

A *chain* SuperKernel becomes one entry body in program order: each sub-task a guarded call
per core type it runs on, each sync its intrinsics under the core-type guard of the
program(s) it sits in (`SyncAll<false>` unguarded). A plain sub-task call and a cross-core
flag barrier are one statement group each (`ascendc.guarded_call`, `ascendc.flag_barrier`,
with their comment as `note`); a call with profiling records or feed-sync-all is spelled out.
A *queue* SuperKernel becomes two straight-line functions, `auto_gen_<name>_kernel_aic` and
`_aiv` (`ascendc.core_function`), which the entry calls under `if ASCEND_IS_AIC` /
`if ASCEND_IS_AIV`.

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
    ascendc.guarded_call "a_middle" offset 1 copies 4 on aiv logical 48 note "begin func call of sub operator a (seq 0)"
    ascendc.flag_barrier mte3 mode 0 flag 14 on aiv note "begin inter ops barrier"
    ascendc.guarded_call "b_middle" offset 2 copies 4 on aiv logical 8 note "begin func call of sub operator b (seq 1)"
  }
}
```
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, KernelType, core_class
from skir.dialects.ascendc import (
    BlockIndex,
    CallOp,
    CommentOp,
    CoreFunctionOp,
    DeclareOp,
    EntryOp,
    FftsBaseOp,
    IfBlockOp,
    IfCoreOp,
    IfIdleOp,
    InvokeOp,
    LockHelpersOp,
    PreloadAllOp,
    SourceOp,
)
from skir.dialects.ascendc import PreloadOp as CPreload
from skir.dialects.ascendc_feed import (
    FeedBeginOp,
    FeedComplementOp,
    FeedEndOp,
    FeedOffOp,
    FeedWorkspaceOp,
    ZeroWorkspaceOp,
)
from skir.dialects.ascendc_groups import FlagBarrierOp, GuardedCallOp
from skir.dialects.ascendc_intrinsics import (
    CrossCoreSetOp,
    CrossCoreWaitOp,
    DcciAllOp,
    EarlyStartConfigOp,
    PipeBarrierOp,
    SetNextTaskStartOp,
    SyncAllOp,
    WaitPreTaskEndOp,
)
from skir.dialects.ascendc_intrinsics import NotifyLockOp as CNotify
from skir.dialects.ascendc_intrinsics import ResetLockOp as CReset
from skir.dialects.ascendc_intrinsics import WaitLockOp as CWait
from skir.dialects.ascendc_profiling import (
    AIC_AREA_OFFSET,
    HEADER_BYTES,
    RECORD_BYTES,
    RECORD_TYPES,
    ProfilingHelpersOp,
    ProfilingInitOp,
    ProfilingRecordOp,
)
from skir.dialects.hardware import CoreType, Pipe
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    DcciOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    LockOp,
    NotifyOp,
    PreloadOp,
    SetFlagOp,
    SkForm,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
    WaitLockOp,
)
from skir.options import SkOptions
from skir.passes.common import kernel_table, models, pass_options
from skir.passes.insert_debug import sk_cores
from skir.passes.lower_sync import sk_types

SYNC_AIC_FLAG = 11
SYNC_AIV_ONLY_ALL = 14
_BARRIER_FLAG = {BarrierKind.ALL_AIC: (Pipe.FIX, SYNC_AIC_FLAG), BarrierKind.ALL_AIV: (Pipe.MTE3, SYNC_AIV_ONLY_ALL)}


def entry_symbol(sk_name: str) -> str:
    return f"auto_gen_{sk_name}_kernel"


def block_index(cls: CoreClass) -> BlockIndex:
    """The index a guard of a kernel of class `cls` compares: AIV-class kernels count AIVs."""
    return BlockIndex.LOGICAL if cls is CoreClass.AIV else BlockIndex.BLOCK


def _guarded(core: CoreType | None, ops: list[Operation]) -> list[Operation]:
    return ops if core is None else [IfCoreOp(core, Region(Block(ops)))]


class _Emitter:
    def __init__(self, sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions):
        self.sk, self.kernels = sk, kernels
        self.copies = options.split_mode
        self.declared: dict[str, None] = {}
        self.subtasks = 0
        self.workspace: int | None = None
        """The arg slot of the feed-sync-all workspace, when a sub-task is fed."""
        self.prof_slot: int | None = None
        """The arg slot of the profiling buffer (`profiling=1`)."""
        self.sub_index: dict[int, int] = {}
        """Sub-task id -> its profiling record index (1, 2, ...; 0 is the SuperKernel)."""
        self.cls_of: dict[int, CoreClass] = {}
        # Idle guards: a set follows the sub-task it complements, a wait precedes it.
        self.idle_cls: dict[int, CoreClass] = {}

    def kernel(self, sub: SubtaskOp | PreloadOp) -> KernelOp:
        return self.kernels[sub.kernel.root_reference.data]  # type: ignore[union-attr]

    def scan(self, ops: list[SkProgramOp]) -> None:
        last: CoreClass | None = None
        waiting: list[int] = []
        for op in ops:
            if isinstance(op, SubtaskOp):
                last = self.cls_of[op.ident] = core_class(self.kernel(op).type)
                self.declared.setdefault(self.kernel(op).sub_symbol)
                for ident in waiting:
                    self.idle_cls[ident] = last
                waiting = []
            elif isinstance(op, EarlyStartSetOp) and op.idle is not None and last is not None:
                self.idle_cls[op.ident] = last
            elif isinstance(op, EarlyStartWaitOp) and op.idle is not None:
                waiting.append(op.ident)

    def idle(self, op: EarlyStartSetOp | EarlyStartWaitOp, body: Operation) -> Operation:
        if op.idle is None:
            return body
        cls = self.idle_cls.get(op.ident, CoreClass.MIX)
        return IfIdleOp(block_index(cls), op.idle.data, Region(Block([body])))

    def core_ops(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        """The statements `op` runs on one core type (without the core-type guard)."""
        if isinstance(op, SubtaskOp):
            kernel = self.kernel(op)
            index = block_index(self.cls_of[op.ident])
            call: list[Operation] = [CallOp(kernel.sub_symbol, op.offset.data, self.copies)]
            if self.prof_slot is not None:
                n = self.sub_index[op.ident]
                call = [ProfilingRecordOp(self.prof_slot, n, RECORD_TYPES["subtask"], False), *call,
                        ProfilingRecordOp(self.prof_slot, n, RECORD_TYPES["subtask"], True)]
            if op.feed is None:
                return [IfBlockOp(index, op.blocks.data, Region(Block(call)))]
            n = op.feed.data
            offset = 64 * (n if core is CoreType.AIC else self.subtasks + n)
            return [
                FeedBeginOp(n, offset),
                IfBlockOp(index, op.blocks.data, Region(Block([*call, FeedEndOp()]))),
                IfIdleOp(index, op.blocks.data, Region(Block([FeedComplementOp()]))),
                FeedOffOp(),
            ]
        if isinstance(op, BarrierOp):
            kind = op.kind.data
            if kind is BarrierKind.SYNC_ALL:
                return [SyncAllOp()]
            if kind is BarrierKind.PIPE_ALL:
                return [PipeBarrierOp()]
            pipe, flag = _BARRIER_FLAG[kind]
            return [CrossCoreSetOp(pipe, 0, flag), CrossCoreWaitOp(flag)]
        if isinstance(op, SetFlagOp):
            return [CrossCoreSetOp(op.pipe.data, op.mode.data, op.flag.data)]
        if isinstance(op, WaitFlagOp):
            return [CrossCoreWaitOp(op.flag.data)]
        if isinstance(op, EarlyStartSetOp):
            return [self.idle(op, SetNextTaskStartOp())]
        if isinstance(op, EarlyStartWaitOp):
            return [self.idle(op, WaitPreTaskEndOp(op.cfg.data))]
        if isinstance(op, LockOp):
            kind = CNotify if isinstance(op, NotifyOp) else CWait if isinstance(op, WaitLockOp) else CReset
            if self.prof_slot is None or kind is CReset:
                return [kind(op.slot.data)]
            record = RECORD_TYPES["notify" if kind is CNotify else "wait"]
            return [ProfilingRecordOp(self.prof_slot, op.slot.data, record, False), kind(op.slot.data),
                    ProfilingRecordOp(self.prof_slot, op.slot.data, record, True)]
        if isinstance(op, PreloadOp):
            if op.kernel is None:
                return [PreloadAllOp(8)]
            kernel = self.kernel(op)
            preload = CPreload(kernel.sub_symbol, op.units.data, self.copies)  # type: ignore[union-attr]
            index = block_index(core_class(kernel.type))
            return [IfBlockOp(index, op.blocks.data, Region(Block([preload])))]  # type: ignore[union-attr]
        if isinstance(op, DcciOp):
            return [PipeBarrierOp(), DcciAllOp()]
        raise PassFailedException(f"sk.kernel @{self.sk.sym_name.data}: cannot emit '{op.name}'")

    def comment(self, op: SkProgramOp) -> list[Operation]:
        if isinstance(op, SubtaskOp):
            name = self.kernel(op).sym_name.data
            return [CommentOp(f"begin func call of sub operator {name} (seq {op.seq.data})")]
        if isinstance(op, BarrierOp | EarlyStartSetOp | EarlyStartWaitOp):
            return [CommentOp("begin inter ops barrier")]
        return []

    def chain(self, body: Block) -> None:
        cores: dict[int, list[CoreType]] = defaultdict(list)
        for core, region in ((CoreType.AIC, self.sk.aic), (CoreType.AIV, self.sk.aiv)):
            for op in region.block.ops:
                cores[op.id.data].append(core)  # type: ignore[attr-defined]
        program = self.sk.program()
        self.scan(program)
        config: int | None = None
        in_handshake = False
        for op in program:
            early = isinstance(op, EarlyStartSetOp | EarlyStartWaitOp)
            comments = [] if early and in_handshake else self.comment(op)
            in_handshake = early
            on = cores[op.ident]
            if self.groupable(op) and on:
                note = comments[0].text.data if comments else None
                body.add_ops(self.group(op, core, note if i == 0 else None) for i, core in enumerate(on))
                config = None
                continue
            body.add_ops(comments)
            if not early:
                config = None
            elif isinstance(op, EarlyStartWaitOp) and op.cfg.data != config:
                config = op.cfg.data
                body.add_op(EarlyStartConfigOp(config))
            if isinstance(op, BarrierOp) and op.kind.data is BarrierKind.SYNC_ALL:
                body.add_ops(self.core_ops(op, CoreType.AIC))
                continue
            for core in on:
                body.add_ops(_guarded(core, self.core_ops(op, core)))

    def groupable(self, op: SkProgramOp) -> bool:
        """Whether `op` lowers to one statement group (`skir.dialects.ascendc_groups`): a sub-task
        without profiling records or feed-sync-all, a barrier of cross-core flags."""
        if isinstance(op, SubtaskOp):
            return op.feed is None and self.prof_slot is None
        return isinstance(op, BarrierOp) and op.kind.data in _BARRIER_FLAG

    def group(self, op: SkProgramOp, core: CoreType | None, note: str | None) -> Operation:
        """The statement group of a `groupable` op on `core` (None: no core-type guard)."""
        if isinstance(op, SubtaskOp):
            return GuardedCallOp(self.kernel(op).sub_symbol, op.offset.data, self.copies,
                                 block_index(self.cls_of[op.ident]), op.blocks.data, core, note)
        assert isinstance(op, BarrierOp)
        pipe, flag = _BARRIER_FLAG[op.kind.data]
        return FlagBarrierOp(pipe, 0, flag, core, note)

    def queue(self, body: Block) -> list[Operation]:
        """One `__aicore__` function per core type holding its program; the entry invokes them."""
        functions: list[Operation] = []
        for core, region in ((CoreType.AIC, self.sk.aic), (CoreType.AIV, self.sk.aiv)):
            ops: list[SkProgramOp] = list(region.block.ops)  # type: ignore[arg-type]
            if not ops:
                continue
            self.scan(ops)
            inner: list[Operation] = [FeedWorkspaceOp(self.workspace)] if self.workspace is not None else []
            for op in ops:
                comments = self.comment(op)
                if self.groupable(op):
                    inner.append(self.group(op, None, comments[0].text.data if comments else None))
                    continue
                inner += comments
                inner += self.core_ops(op, core)
            inner += self.profiling_end()
            symbol = f"{entry_symbol(self.sk.sym_name.data)}_{core.value}"
            functions.append(CoreFunctionOp(symbol, core, Region(Block(inner))))
            body.add_ops(_guarded(core, [InvokeOp(symbol)]))
        return functions

    def feed_prologue(self, body: Block, profiling: int) -> None:
        """The workspace of feed-sync-all, zeroed on entry, then a barrier of the SuperKernel's type."""
        ops = self.sk.subtasks()
        self.subtasks = len(ops)
        if not any(op.feed is not None for op in ops):
            return
        types = sk_types(self.sk)
        cores = self.sk.blocks.data * (2 if self.sk.type is KernelType.MIX_AIC_1_2 else 1)
        base = 512
        while cores * base <= 2 * 64 * len(ops):
            base *= 2
        self.workspace = self.sk.arg_slots.data - 1 - 2 * profiling
        body.add_op(FeedWorkspaceOp(self.workspace))
        zero_on = CoreType.AIV if CoreType.AIV in types else CoreType.AIC
        body.add_ops(_guarded(zero_on, [ZeroWorkspaceOp(cores * base)]))
        if len(types) == 2:
            body.add_op(SyncAllOp())
        else:
            pipe, flag = _BARRIER_FLAG[BarrierKind.ALL_AIC if zero_on is CoreType.AIC else BarrierKind.ALL_AIV]
            body.add_ops(_guarded(zero_on, [CrossCoreSetOp(pipe, 0, flag), CrossCoreWaitOp(flag)]))

    def profiling_prologue(self, body: Block) -> list[Operation]:
        """Profiling helpers (returned, for the source) and each core type's init and start record."""
        subtasks = self.sk.subtasks()
        self.sub_index = {sub.ident: i + 1 for i, sub in enumerate(subtasks)}
        locks = sum(1 for op in self.sk.program() if isinstance(op, NotifyOp | WaitLockOp))
        self.prof_slot = self.sk.arg_slots.data - 2
        records = 2 + 2 * len(subtasks) + 2 * locks
        per_core = -(-(HEADER_BYTES + RECORD_BYTES * records) // 64) * 64
        aic_offset = max(AIC_AREA_OFFSET, sk_cores(self.sk)[CoreType.AIV])
        for core in sk_types(self.sk):
            body.add_ops(_guarded(core, [ProfilingInitOp(self.prof_slot),
                                         ProfilingRecordOp(self.prof_slot, 0, RECORD_TYPES["superkernel"], False)]))
        return [ProfilingHelpersOp(per_core, aic_offset)]

    def profiling_end(self) -> list[Operation]:
        if self.prof_slot is None:
            return []
        return [ProfilingRecordOp(self.prof_slot, 0, RECORD_TYPES["superkernel"], True)]

    def source(self, align: int, profiling: int = 0) -> SourceOp:
        name = self.sk.sym_name.data
        body = Block([FftsBaseOp()])
        self.feed_prologue(body, profiling)
        helpers: list[Operation] = self.profiling_prologue(body) if profiling else []
        functions: list[Operation] = []
        if self.sk.form.data is SkForm.CHAIN:
            self.chain(body)
            if self.prof_slot is not None:
                for core in sk_types(self.sk):
                    body.add_ops(_guarded(core, self.profiling_end()))
        else:
            functions = self.queue(body)
        entry = EntryOp(entry_symbol(name), align, Region(body))
        decls: list[Operation] = [DeclareOp(symbol, self.copies) for symbol in self.declared]
        return SourceOp(name, self.sk.type, Region(Block([LockHelpersOp(), *helpers, *decls, *functions, entry])))


def lower_superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions) -> SourceOp:
    """Build the `ascendc.source` of one lowered SuperKernel."""
    return _Emitter(sk, kernels, options).source(options.func_align, options.profiling)


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
