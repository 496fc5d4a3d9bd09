"""The `sk` → `ascendc` conversion: one RewritePattern per `sk` program op.

`sk-to-ascendc` builds each SuperKernel's `ascendc.source` skeleton (declarations, the entry
with its prologue, for a queue SuperKernel one `ascendc.core_function` per core type) and
stages a copy of each program op where its statements go: a chain entry gets the
program in order, a core function what its core type runs. `AscendcLowering` holds what the
analysis decided for the whole program (each op's core types, its comment, the early-start
configuration it needs, the core class of each sub-task and of each idle guard, the profiling
slots); the patterns replace each staged op by its statements, op by op:

```mlir
ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
  ascendc.ffts_base
  %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
  sk.barrier all_aiv
}
```
becomes (`LowerSubtask`, `LowerBarrier`)
```mlir
ascendc.entry "auto_gen_m_sk0_kernel" align 512 {
  ascendc.ffts_base
  ascendc.guarded_call "a_middle" offset 1 copies 4 on aiv logical 48 note "begin func call of sub operator a (seq 0)"
  ascendc.flag_barrier mte3 mode 0 flag 14 on aiv note "begin inter ops barrier"
}
```
In a chain entry a statement runs under the guard of each core type that runs its op
(`SyncAll` unguarded); in a core function it is unguarded. A plain call and a flag barrier are
one statement group each; the expansion stays for what a group cannot say.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from skir.analysis.sync.progress_points import encode, point_state
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class
from skir.dialects.ascendc import CallOp, CommentOp, CoreFunctionOp, IfBlockOp, IfCoreOp, IfIdleOp, PreloadAllOp
from skir.dialects.ascendc import PreloadOp as CPreload
from skir.dialects.ascendc_attrs import BlockIndex
from skir.dialects.ascendc_feed import FeedBeginOp, FeedComplementOp, FeedEndOp, FeedOffOp
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
from skir.dialects.ascendc_profiling import RECORD_TYPES, ProfilingRecordOp
from skir.dialects.ascendc_progress import ProgressOp, WaitLockBoundedOp
from skir.dialects.ascendc_system_args import CallSystemArgsOp
from skir.dialects.hardware import CORE_FACTS, CoreType, index_type
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    DcciOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    LockOp,
    NotifyOp,
    PreloadOp,
    ResetLockOp,
    SetFlagOp,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
    WaitLockOp,
)

BARRIER_FLAG = {facts.barrier: (facts.flag_pipe, facts.barrier_flag) for facts in CORE_FACTS.values()}
"""Each all-core barrier of one type: the pipe its mode-0 set is issued on and its flag."""


def block_index(cls: CoreClass) -> BlockIndex:
    """The index a guard of a kernel of class `cls` compares: AIV-class kernels count AIVs."""
    return BlockIndex.LOGICAL if index_type(cls) is CoreType.AIV else BlockIndex.BLOCK


def core_index(core: CoreType) -> BlockIndex:
    """The index a guard on one core type compares: AIVs count AIVs, the AIC blocks."""
    return block_index(CoreClass.AIV if core is CoreType.AIV else CoreClass.AIC)


def guarded(core: CoreType | None, ops: list[Operation]) -> list[Operation]:
    """`ops` under `if ASCEND_IS_<core>` (as they are for None)."""
    return ops if core is None else [IfCoreOp(core, Region(Block(ops)))]


@dataclass
class AscendcLowering:
    """What the analysis decided for one SuperKernel's programs, which the patterns apply."""

    sk: SuperKernelOp
    kernels: dict[str, KernelOp]
    copies: int
    """`split-mode`: the copies of each sub-kernel symbol a call dispatches over."""
    subtasks: int = 0
    prof_slot: int | None = None
    """The arg slot of the profiling buffer (`profiling=1`)."""
    number: dict[Operation, int] = field(default_factory=dict)
    """Each op of the program, and each staged copy of one, -> its place in the program: the
    key of the decisions below."""
    sub_index: dict[int, int] = field(default_factory=dict)
    """Sub-task place -> its profiling record index (1, 2, ...; 0 is the SuperKernel)."""
    cls_of: dict[int, CoreClass] = field(default_factory=dict)
    idle_cls: dict[int, CoreClass] = field(default_factory=dict)
    """Idle guards: a set follows the sub-task it complements, a wait precedes it."""
    cores: dict[int, list[CoreType]] = field(default_factory=lambda: defaultdict(list))
    """Op place -> the core types whose programs hold it."""
    notes: dict[int, str] = field(default_factory=dict)
    """Op place -> its comment in a chain entry (none inside an early-start handshake)."""
    configs: dict[int, int] = field(default_factory=dict)
    """Op place -> the early-start configuration a chain entry sets before it."""
    declared: dict[str, bool] = field(default_factory=dict)
    """Sub-kernel symbols to declare -> whether the kernel takes `sk::SkSystemArgs`."""
    progress_slot: int | None = None
    """The arg slot of the progress area (`debug-progress=1`, docs/design.md §6)."""
    progress_id: int = 0
    """The SuperKernel's progress id (`skir.analysis.sync.progress_points.progress_ids`)."""
    timeout_cycles: int = 0
    """`debug-wait-timeout-cycles`: the bound of every GM lock wait (0: unbounded)."""

    def progress(self, op: SkProgramOp) -> Operation | None:
        """The progress store before `op`, when it is a progress point and progress is kept."""
        state = point_state(op) if self.progress_slot is not None else None
        if state is None or self.progress_slot is None:
            return None
        return ProgressOp(self.progress_slot, encode(self.progress_id, self.number[op], state))

    def kernel(self, op: SubtaskOp | PreloadOp) -> KernelOp:
        return self.kernels[op.kernel.root_reference.data]  # type: ignore[union-attr]

    def scan(self, ops: list[SkProgramOp]) -> None:
        """The core class of each sub-task and idle guard; the symbols to declare."""
        last: CoreClass | None = None
        waiting: list[int] = []
        for op in ops:
            kind = type(op)
            if kind is SubtaskOp:
                assert isinstance(op, SubtaskOp)
                last = self.cls_of[self.number[op]] = core_class(self.kernel(op).type)
                self.declared.setdefault(self.kernel(op).sub_symbol, self.kernel(op).takes_system_args)
                for ident in waiting:
                    self.idle_cls[ident] = last
                waiting = []
            elif kind is EarlyStartSetOp and op.idle is not None and last is not None:  # type: ignore[attr-defined]
                self.idle_cls[self.number[op]] = last
            elif kind is EarlyStartWaitOp and op.idle is not None:  # type: ignore[attr-defined]
                waiting.append(self.number[op])

    def plan_chain(self, program: list[SkProgramOp]) -> None:
        """Each op's core types, comment and early-start configuration in a chain entry."""
        for op in program:
            self.cores[self.number[op]] = list(op.core_set())
        config: int | None = None
        in_handshake = False
        for op in program:
            early = isinstance(op, EarlyStartSetOp | EarlyStartWaitOp)
            note = None if early and in_handshake else comment(self, op)
            if note is not None:
                self.notes[self.number[op]] = note
            in_handshake = early
            if not early:
                config = None
            elif isinstance(op, EarlyStartWaitOp) and op.cfg.data != config:
                config = self.configs[self.number[op]] = op.cfg.data

    def chain_core(self, op: Operation) -> tuple[bool, CoreType | None]:
        """(in a chain entry, the core type of the core function holding `op` if not)."""
        parent = op.parent_op()
        if type(parent) is CoreFunctionOp:
            assert isinstance(parent, CoreFunctionOp)
            return False, parent.core.data
        return True, None


def comment(lowering: AscendcLowering, op: SkProgramOp) -> str | None:
    kind = type(op)
    if kind is SubtaskOp:
        assert isinstance(op, SubtaskOp)
        return f"begin func call of sub operator {lowering.kernel(op).sym_name.data} (seq {op.seq.data})"
    if kind is BarrierOp or kind is EarlyStartSetOp or kind is EarlyStartWaitOp:
        return "begin inter ops barrier"
    return None


@dataclass
class SkOpLowering(RewritePattern):
    """Common framing of the patterns below: the comment, the early-start configuration and the
    core-type guards around the statements each pattern gives for one core type."""

    lowering: AscendcLowering

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        raise NotImplementedError

    def group(self, op: SkProgramOp, core: CoreType | None, note: str | None) -> Operation | None:
        """The op as one statement group, if it is one (`skir.dialects.ascendc_groups`)."""
        return None

    def wrap(self, op: SkProgramOp, core: CoreType, body: list[Operation]) -> list[Operation]:
        """The op's statements (with its progress store) on one core type, under the op's own
        core guard if it has one."""
        return body

    def lower(self, op: SkProgramOp, rewriter: PatternRewriter) -> None:
        low = self.lowering
        in_chain, own_core = low.chain_core(op)
        note = low.notes.get(low.number[op]) if in_chain else comment(low, op)
        on: list[CoreType | None] = list(low.cores[low.number[op]]) if in_chain else [None]
        if not on:
            rewriter.erase(op)
            return
        store = low.progress(op)
        first = self.group(op, on[0], note) if store is None else None  # a group holds no progress store
        if first is not None:
            rest = [self.group(op, core, None) for core in on[1:]]
            assert all(g is not None for g in rest), op.name  # a group on one core type is one on each
            rewriter.replace(op, [first, *(g for g in rest if g is not None)], [None] * len(op.results))
            return
        out: list[Operation] = [CommentOp(note)] if note is not None else []
        if in_chain and low.number[op] in low.configs:
            out.append(EarlyStartConfigOp(low.configs[low.number[op]]))
        before = [] if store is None else [store]
        if in_chain and isinstance(op, BarrierOp) and op.kind.data is BarrierKind.SYNC_ALL:
            for core in on if store is not None else ():
                out += guarded(core, [low.progress(op)])  # type: ignore[list-item]
            out += self.statements(op, CoreType.AIC)
        elif in_chain:
            for core in on:
                assert core is not None
                out += guarded(core, self.wrap(op, core, [*([low.progress(op)] if store is not None else []),  # type: ignore[list-item]
                                                          *self.statements(op, core)]))
        else:
            assert own_core is not None
            out += self.wrap(op, own_core, before + self.statements(op, own_core))
        rewriter.replace(op, out, [None] * len(op.results))


@dataclass
class LowerSubtask(SkOpLowering):
    """`sk.subtask` → its call under a block guard (`ascendc.guarded_call`), or spelled out with
    profiling records or the feed-sync-all bracket around the call."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubtaskOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def group(self, op: SkProgramOp, core: CoreType | None, note: str | None) -> Operation | None:
        assert isinstance(op, SubtaskOp)
        low = self.lowering
        if op.feed is not None or low.prof_slot is not None or low.kernel(op).takes_system_args:
            return None
        return GuardedCallOp(low.kernel(op).sub_symbol, op.offset.data, low.copies,
                             block_index(low.cls_of[low.number[op]]), op.blocks.data, core, note)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        assert isinstance(op, SubtaskOp)
        low = self.lowering
        index = block_index(low.cls_of[low.number[op]])
        first, blocks = op.first_block, op.blocks.data
        call: list[Operation] = [system_args_call(low, op, core)] if low.kernel(op).takes_system_args else [
            CallOp(low.kernel(op).sub_symbol, op.offset.data, low.copies)]
        if low.prof_slot is not None:
            n = low.sub_index[low.number[op]]
            call = [ProfilingRecordOp(low.prof_slot, n, RECORD_TYPES["subtask"], False), *call,
                    ProfilingRecordOp(low.prof_slot, n, RECORD_TYPES["subtask"], True)]
        if op.feed is None:
            return [IfBlockOp(index, first + blocks, Region(Block(call)), first)]
        n = op.feed.data
        offset = 64 * (n if core is CoreType.AIC else low.subtasks + n)
        return [FeedBeginOp(n, offset), IfBlockOp(index, op.blocks.data, Region(Block([*call, FeedEndOp()]))),
                IfIdleOp(index, op.blocks.data, Region(Block([FeedComplementOp()]))), FeedOffOp()]


def system_args_call(low: AscendcLowering, op: SubtaskOp, core: CoreType) -> CallSystemArgsOp:
    """The call of a sub-kernel that takes `sk::SkSystemArgs`, on `core`: its logical block index
    counts from the first core of its range. A mix sub-task's range is in blocks; on its AIVs
    the index is the AIV index, so the range and count scale by the SuperKernel's AIVs a block."""
    cls = low.cls_of[low.number[op]]
    first, count = op.first_block, op.blocks.data
    if cls is CoreClass.MIX and core is CoreType.AIV:
        ratio = max(1, low.sk.cores()[CoreType.AIV] // low.sk.blocks.data)
        first, count = first * ratio, count * ratio
    index = core_index(core)
    return CallSystemArgsOp(low.kernel(op).sub_symbol, op.offset.data, low.copies, index, first, count)


@dataclass
class LowerBarrier(SkOpLowering):
    """`sk.barrier` → `SyncAll` (unguarded), the local pipe barrier, or a cross-core flag set and
    wait over one core type (`ascendc.flag_barrier`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BarrierOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def group(self, op: SkProgramOp, core: CoreType | None, note: str | None) -> Operation | None:
        assert isinstance(op, BarrierOp)
        if op.kind.data not in BARRIER_FLAG:
            return None
        pipe, flag = BARRIER_FLAG[op.kind.data]
        return FlagBarrierOp(pipe, 0, flag, core, note)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        assert isinstance(op, BarrierOp)
        kind = op.kind.data
        if kind is BarrierKind.SYNC_ALL:
            return [SyncAllOp()]
        if kind is BarrierKind.PIPE_ALL:
            return [PipeBarrierOp()]
        pipe, flag = BARRIER_FLAG[kind]
        return [CrossCoreSetOp(pipe, 0, flag), CrossCoreWaitOp(flag)]


@dataclass
class LowerFlag(SkOpLowering):
    """`sk.set_flag` / `sk.wait_flag` (a queue's cross-core flag pair) → `ffts_cross_core_sync` /
    `wait_flag_dev`; a guarded one (`on aiv blocks 40 at 8`) under `ascendc.if_block logical 48 from 8`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SetFlagOp | WaitFlagOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        if isinstance(op, SetFlagOp):
            return [CrossCoreSetOp(op.pipe.data, op.mode.data, op.flag.data)]
        assert isinstance(op, WaitFlagOp)
        return [CrossCoreWaitOp(op.flag.data)]

    def wrap(self, op: SkProgramOp, core: CoreType, body: list[Operation]) -> list[Operation]:
        assert isinstance(op, SetFlagOp | WaitFlagOp)
        guard = op.guard()
        if guard is None:
            return body
        index = core_index(core)
        return [IfBlockOp(index, guard.stop, Region(Block(body)), guard.start)]


@dataclass
class LowerEarlyStart(SkOpLowering):
    """`sk.early_start_set` / `sk.early_start_wait` → `SetNextTaskStart` / `WaitPreTaskEnd<cfg>`,
    under the idle guard of the sub-task they complement when they have one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: EarlyStartSetOp | EarlyStartWaitOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        assert isinstance(op, EarlyStartSetOp | EarlyStartWaitOp)
        body: Operation = SetNextTaskStartOp() if isinstance(op, EarlyStartSetOp) else WaitPreTaskEndOp(op.cfg.data)
        if op.idle is None:
            return [body]
        cls = self.lowering.idle_cls.get(self.lowering.number[op], CoreClass.MIX)
        return [IfIdleOp(block_index(cls), op.idle.data, Region(Block([body])))]


@dataclass
class LowerLock(SkOpLowering):
    """`sk.notify` / `sk.wait_lock` / `sk.reset_lock` → the GM lock helpers (`NotifyFunc`,
    `WaitFunc`, `ResetFunc`), notify and wait between profiling records with `profiling=1`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: NotifyOp | WaitLockOp | ResetLockOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        assert isinstance(op, LockOp)
        kind = CNotify if isinstance(op, NotifyOp) else CWait if isinstance(op, WaitLockOp) else CReset
        low = self.lowering
        lock: Operation = kind(op.slot.data)
        if kind is CWait and low.timeout_cycles > 0 and low.progress_slot is not None:
            word = encode(low.progress_id, low.number[op], "timeout")
            lock = WaitLockBoundedOp(op.slot.data, low.progress_slot, word, low.timeout_cycles)
        prof = low.prof_slot
        if prof is None or kind is CReset:
            return [lock]
        record = RECORD_TYPES["notify" if kind is CNotify else "wait"]
        return [ProfilingRecordOp(prof, op.slot.data, record, False), lock,
                ProfilingRecordOp(prof, op.slot.data, record, True)]


@dataclass
class LowerPreload(SkOpLowering):
    """`sk.preload` → `preload(<symbol copy>, units)` under the kernel's block guard, or the
    entry's own `PreLoad` (`preload-code=max`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PreloadOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        assert isinstance(op, PreloadOp)
        if op.kernel is None:
            return [PreloadAllOp(8)]
        low = self.lowering
        kernel = low.kernel(op)
        preload = CPreload(kernel.sub_symbol, op.units.data, low.copies)  # type: ignore[union-attr]
        first = op.first_block
        return [IfBlockOp(block_index(core_class(kernel.type)), first + op.blocks.data,  # type: ignore[union-attr]
                          Region(Block([preload])), first)]


@dataclass
class LowerDcci(SkOpLowering):
    """`sk.dcci` → a pipe barrier and the whole data-cache clean."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DcciOp, rewriter: PatternRewriter) -> None:
        self.lower(op, rewriter)

    def statements(self, op: SkProgramOp, core: CoreType) -> list[Operation]:
        return [PipeBarrierOp(), DcciAllOp()]


PATTERN_KINDS: tuple[type[SkOpLowering], ...] = (
    LowerSubtask, LowerBarrier, LowerFlag, LowerEarlyStart, LowerLock, LowerPreload, LowerDcci)
"""Every pattern of the conversion, one per `sk` program op kind."""


def sk_to_ascendc_patterns(lowering: AscendcLowering) -> list[RewritePattern]:
    """One pattern per `sk` program op kind, sharing `lowering`."""
    return [kind(lowering) for kind in PATTERN_KINDS]
