"""`sk-to-ascendc`: lower each lowered `sk.kernel` to an `ascendc.source`.

The `sk.kernel` ops stay (so `sk-check` still runs on the final module); one
`ascendc.source @<name>` per SuperKernel is appended to the top-level module.

A *chain* SuperKernel becomes one entry body in program order: each sub-task a guarded call
per core type it runs on, each sync its intrinsics under the guard of the core types
that run it (`SyncAll<false>` unguarded). A plain sub-task call and a cross-core
flag barrier are one statement group each (`ascendc.guarded_call`, `ascendc.flag_barrier`,
with their comment as `note`); a call with profiling records or feed-sync-all is spelled out.
A *queue* SuperKernel becomes two straight-line functions, `auto_gen_<name>_kernel_aic` and
`_aiv` (`ascendc.core_function`), which the entry calls under `if ASCEND_IS_AIC` /
`if ASCEND_IS_AIV`.

The pass builds each source's skeleton with the program ops staged where their statements go
(`stage_source`), then applies `skir.patterns.sk_to_ascendc`'s patterns, one per `sk` op kind,
in one sweep (`apply_lowering`); a compiler of its own can put its patterns beside them.

```mlir
sk.kernel @m_sk0 mix_aiv_1_0 blocks 48 chain slots 3 {
  %0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
  sk.barrier all_aiv
  %1 = sk.subtask @b blocks 8 offset 2 from @s0 seq 1 on aiv after %0
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

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import RewritePattern
from xdsl.utils.exceptions import PassFailedException

from skir.analysis.sync.progress_points import END_POINT, MAX_FIELD, encode, progress_ids, wants_progress
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.ascendc import (
    CoreFunctionOp,
    DeclareOp,
    EntryOp,
    FftsBaseOp,
    InvokeOp,
    LockHelpersOp,
    SourceOp,
)
from skir.dialects.ascendc_feed import (
    FeedWorkspaceOp,
    ZeroWorkspaceOp,
)
from skir.dialects.ascendc_intrinsics import (
    CrossCoreSetOp,
    CrossCoreWaitOp,
    SyncAllOp,
)
from skir.dialects.ascendc_profiling import (
    AIC_AREA_OFFSET,
    HEADER_BYTES,
    RECORD_BYTES,
    RECORD_TYPES,
    ProfilingHelpersOp,
    ProfilingInitOp,
    ProfilingRecordOp,
)
from skir.dialects.ascendc_progress import ProgressHelpersOp, ProgressOp
from skir.dialects.hardware import CORE_FACTS, CoreType
from skir.dialects.superkernel import (
    NotifyOp,
    SkForm,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitLockOp,
)
from skir.dialects.syntax import new_op
from skir.names import entry_symbol
from skir.options import SkOptions
from skir.passes.common import OptionsPass, kernel_table, models, pattern_names, reject_depends
from skir.patterns.sk_to_ascendc import (
    BARRIER_FLAG,
    PATTERN_KINDS,
    AscendcLowering,
    guarded,
    sk_to_ascendc_patterns,
)
from skir.xdsl_fast.sweep import rewrite_ops
from skir.xdsl_fast.walk import nested_ops


class _Skeleton:
    """The source around the statements: declarations, the entry and its prologues (FFTS base,
    the feed-sync-all workspace, profiling), a queue SuperKernel's core functions; each with a
    staged copy of the program ops the patterns then lower."""

    def __init__(self, sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions, progress_id: int = 0):
        self.sk = sk
        self.lowering = AscendcLowering(sk, kernels, options.split_mode)
        self.lowering.number = sk.positions()
        self.workspace: int | None = None
        """The arg slot of the feed-sync-all workspace, when a sub-task is fed."""
        if wants_progress(options):
            low = self.lowering
            low.progress_slot = sk.arg_slots.data - 1 - options.feed_sync_all - 2 * options.profiling
            low.progress_id = progress_id
            low.timeout_cycles = options.debug_wait_timeout_cycles
            too_big = len(self.lowering.number) - 1
            if too_big >= END_POINT or progress_id > MAX_FIELD:
                raise PassFailedException(f"sk.kernel @{sk.sym_name.data}: debug-progress: program op {too_big} or "
                                          f"progress id {progress_id} does not fit the 16 bits of a progress word")

    def stage(self, op: SkProgramOp) -> Operation:
        """A copy of a program op to stage in the source, under the op's place in the program
        (without its operands: the dependencies are kept by the sync ops already)."""
        copy = new_op(type(op), op.properties, (), op.attributes, op.location,
                      result_types=[r.type for r in op.results])
        self.lowering.number[copy] = self.lowering.number[op]
        return copy

    def progress_word(self, state: str) -> list[Operation]:
        """The store of the entry's first (`entered`) or last (`done`) progress word."""
        low = self.lowering
        if low.progress_slot is None:
            return []
        return [ProgressOp(low.progress_slot, encode(low.progress_id, END_POINT, state))]

    def feed_prologue(self, body: Block, profiling: int, ops: list[SubtaskOp]) -> None:
        """The workspace of feed-sync-all, zeroed on entry, then a barrier of the SuperKernel's type."""
        self.lowering.subtasks = len(ops)
        if not any(op.feed is not None for op in ops):
            return
        types = self.sk.core_types()
        cores = max(self.sk.cores().values())
        base = 512
        while cores * base <= 2 * 64 * len(ops):
            base *= 2
        self.workspace = self.sk.arg_slots.data - 1 - 2 * profiling
        body.add_op(FeedWorkspaceOp(self.workspace))
        zero_on = CoreType.AIV if CoreType.AIV in types else CoreType.AIC
        body.add_ops(guarded(zero_on, [ZeroWorkspaceOp(cores * base)]))
        if len(types) == 2:
            body.add_op(SyncAllOp())
        else:
            pipe, flag = BARRIER_FLAG[CORE_FACTS[zero_on].barrier]
            body.add_ops(guarded(zero_on, [CrossCoreSetOp(pipe, 0, flag), CrossCoreWaitOp(flag)]))

    def profiling_prologue(self, body: Block, program: list[SkProgramOp], subtasks: list[SubtaskOp]) -> list[Operation]:
        """Profiling helpers (returned, for the source) and each core type's init and start record."""
        low = self.lowering
        low.sub_index = {low.number[sub]: i + 1 for i, sub in enumerate(subtasks)}
        locks = sum(1 for op in program if isinstance(op, NotifyOp | WaitLockOp))
        low.prof_slot = slot = self.sk.arg_slots.data - 2
        records = 2 + 2 * len(subtasks) + 2 * locks
        per_core = -(-(HEADER_BYTES + RECORD_BYTES * records) // 64) * 64
        aic_offset = max(AIC_AREA_OFFSET, self.sk.cores()[CoreType.AIV])
        for core in self.sk.core_types():
            body.add_ops(guarded(core, [ProfilingInitOp(slot),
                                        ProfilingRecordOp(slot, 0, RECORD_TYPES["superkernel"], False)]))
        return [ProfilingHelpersOp(per_core, aic_offset)]

    def profiling_end(self) -> list[Operation]:
        slot = self.lowering.prof_slot
        return [] if slot is None else [ProfilingRecordOp(slot, 0, RECORD_TYPES["superkernel"], True)]

    def queue(self, body: Block) -> list[Operation]:
        """One `__aicore__` function per core type holding its program; the entry invokes them."""
        functions: list[Operation] = []
        for core in CoreType:
            ops = self.sk.program_for(core)
            if not ops:
                continue
            self.lowering.scan(ops)
            inner: list[Operation] = [FeedWorkspaceOp(self.workspace)] if self.workspace is not None else []
            inner += self.progress_word("entered")
            inner += [self.stage(op) for op in ops]
            inner += self.profiling_end()
            inner += self.progress_word("done")
            symbol = f"{entry_symbol(self.sk.sym_name.data)}_{core.value}"
            functions.append(CoreFunctionOp(symbol, core, Region(Block(inner))))
            body.add_ops(guarded(core, [InvokeOp(symbol)]))
        return functions

    def source(self, align: int, profiling: int = 0) -> SourceOp:
        name = self.sk.sym_name.data
        body = Block([FftsBaseOp()])
        program = self.sk.program()
        subtasks: list[SubtaskOp] = [op for op in program if type(op) is SubtaskOp]
        self.feed_prologue(body, profiling, subtasks)
        helpers: list[Operation] = self.profiling_prologue(body, program, subtasks) if profiling else []
        if self.lowering.progress_slot is not None:
            helpers.append(ProgressHelpersOp(self.sk.cores()[CoreType.AIV]))
        functions: list[Operation] = []
        if self.sk.form.data is SkForm.CHAIN:
            self.lowering.scan(program)
            self.lowering.plan_chain(program)
            for core in self.sk.core_types() if self.lowering.progress_slot is not None else ():
                body.add_ops(guarded(core, self.progress_word("entered")))
            body.add_ops(self.stage(op) for op in program)
            for core in self.sk.core_types():
                ending = [*self.profiling_end(), *self.progress_word("done")]
                if ending:
                    body.add_ops(guarded(core, ending))
        else:
            functions = self.queue(body)
        entry = EntryOp(entry_symbol(name), align, Region(body))
        decls: list[Operation] = [
            DeclareOp(symbol, self.lowering.copies, system_args)
            for symbol, system_args in self.lowering.declared.items()]
        return SourceOp(name, self.sk.type, Region(Block([LockHelpersOp(), *helpers, *decls, *functions, entry])))


def stage_source(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions,
                 progress_id: int = 0) -> tuple[SourceOp, AscendcLowering]:
    """The `ascendc.source` of one lowered SuperKernel with its program ops staged where their
    statements go, and the decisions `skir.patterns.sk_to_ascendc`'s patterns apply to them
    (for a compiler that composes its own patterns with skir's); `progress_id` names the
    SuperKernel in its progress words (`debug-progress=1`)."""
    skeleton = _Skeleton(sk, kernels, options, progress_id)
    return skeleton.source(options.func_align, options.profiling), skeleton.lowering


def apply_lowering(source: SourceOp, patterns: list[RewritePattern], complete: bool = True) -> None:
    """Rewrite the staged `sk` ops of `source` with `patterns` (one sweep); with `complete`,
    every `sk` op must be gone after it."""
    staged = [op for op in nested_ops(source) if op.dialect_name() == "sk"]
    missed = rewrite_ops(staged, patterns) if patterns else staged
    left = missed[0] if complete and missed else None
    if left is not None:
        raise PassFailedException(f"sk.kernel @{source.sym_name.data}: cannot emit '{left.name}'")


def lower_superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions,
                      only: frozenset[str] | None = None, progress_id: int = 0) -> SourceOp:
    """Build the `ascendc.source` of one lowered SuperKernel: stage it, apply skir's patterns
    (`only`: just the patterns of those class names, leaving the other ops staged)."""
    source, lowering = stage_source(sk, kernels, options, progress_id)
    patterns = sk_to_ascendc_patterns(lowering)
    if only is not None:
        patterns = [p for p in patterns if type(p).__name__ in only]
    apply_lowering(source, patterns, complete=only is None)
    return source


PATTERN_NAMES = tuple(kind.__name__ for kind in PATTERN_KINDS)


@dataclass(frozen=True)
class ToAscendCPass(OptionsPass):
    """Append one `ascendc.source` per `sk.kernel` (which stays for `sk-check`)."""

    name = "sk-to-ascendc"
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = PATTERN_NAMES


    patterns: str = "all"
    """The patterns to apply, by class name, comma-separated (`LowerSubtask,LowerBarrier`), or
    `none`: stage only. Those left out leave their `sk` ops staged in the entry, to show one
    pattern's work in a test; the entry then cannot be printed as C++."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        base = self.sk_options()
        only = pattern_names(self.patterns, self.PATTERN_NAMES, self.name)
        existing = {s.sym_name.data for s in op.ops if isinstance(s, SourceOp)}
        ids = progress_ids(op)
        for model in models(op):
            kernels = kernel_table(model)
            for sk in model.body.block.ops:
                if isinstance(sk, SuperKernelOp) and sk.sym_name.data not in existing:
                    reject_depends(sk, self.name)
                    options = sk.sk_options(base)
                    op.body.block.add_op(lower_superkernel(sk, kernels, options, only, ids[sk.sym_name.data]))
