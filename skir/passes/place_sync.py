"""`sk-place-sync`: decide how every dependency inside each SuperKernel is kept.

*Chain* SuperKernels (members totally ordered) run one program order on both core types.
Between consecutive sub-tasks it places a barrier chosen by the class pair (docs/design.md §3):
aiv -> aiv an all-AIV barrier (mode-0 flag 14), aic -> aic an all-AIC barrier (flag 11),
any other pair `SyncAll<false>`; with `early-start=1` the handshake instead: each core type
of the previous sub-task sets (`SetNextTaskStart`, only on its idle cores when the
sub-kernel sets itself) and every core type waits (`WaitPreTaskEndImpl<cfg>`, cfg = 4 x
class(prev) + class(cur), aic 0 / aiv 1 / mix 2).

*Queue* SuperKernels (stream fusion) get one queue per core type: an all-core barrier after
each producer, and a mode-2 cross-core flag pair for every dependency across core types
(`skir.analysis.formation.queue_plan`); no `SyncAll<false>`, no early-start.

GM locks get the barriers of docs/design.md §3 (f)-(g): an in-kernel notify follows a full barrier of
the producer's class; an in-kernel wait is followed by a barrier of the consumer's class.

The pass places one `sk.depend_<rule>` op per obligation (`skir.dialects.superkernel_depend`,
in the place of the ops its rule gives); `sk-lower-sync` then replaces each by the sync ops
of its rule, and `sk-prune-sync` drops every sync the others imply.

```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
becomes
```mlir
%0 = sk.subtask @a blocks 48 offset 1 from @s0 seq 0 on aiv
sk.depend_barrier aiv -> aiv on aiv
%1 = sk.subtask @b blocks 8 offset 3 from @s0 seq 1 on aiv after %0
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from skir.analysis.formation.queue_plan import FlagsExhausted, plan_queues
from skir.analysis.formation.sk_program import program_nodes
from skir.analysis.graph.data_deps import Access, launch_access, launches_by_seq
from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, class_types, core_class, types_class
from skir.dialects.hardware import CoreType, early_ordered_types
from skir.dialects.superkernel import (
    BARRIER_TYPES,
    DependBarrierOp,
    DependEarlyStartOp,
    DependFlagAwaitOp,
    DependFlagSignalOp,
    DependLockAcquireOp,
    DependLockReleaseOp,
    DependPipeOp,
    LockOp,
    NotifyOp,
    ResetLockOp,
    SkForm,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitLockOp,
)
from skir.options import SkOptions
from skir.passes.common import OptionsPass, superkernels
from skir.passes.program_edit import rebuild
from skir.patterns.sync_lowering import CLASS_BARRIER, CLASS_CODE, barrier_kind


class _Placement:
    def __init__(self, sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions,
                 launches: dict[int, LaunchOp] | None):
        self.sk, self.kernels, self.options = sk, kernels, options
        self.launches = launches if options.sync_mode == "data" else None
        self.group: list[Access | None] = []
        """Accesses of the sub-tasks since the last real barrier (joined by pipe barriers)."""
        self.group_types: set[CoreType] = set()
        self.cover: set[CoreType] = set(CoreType)
        """Core types the last real sync between sub-tasks ordered after everything before it."""
        self.program: list[Operation] = []

    def kernel(self, sub: SubtaskOp) -> KernelOp:
        return self.kernels[sub.kernel.root_reference.data]

    def cls(self, sub: SubtaskOp) -> CoreClass:
        return core_class(self.kernel(sub).type)

    def emit(self, op: Operation) -> None:
        if (block := op.parent_block()) is not None:
            block.detach_op(op)
        self.program.append(op)


    def run(self) -> None:
        ops = self.sk.program()
        if any(not isinstance(op, SubtaskOp | LockOp) for op in ops):
            raise PassFailedException(f"sk.kernel @{self.sk.sym_name.data} is already lowered")
        if self.sk.form.data is SkForm.CHAIN:
            self.chain(ops)
        else:
            self.queue(ops)
        self.sk = rebuild(self.sk, self.program)

    # ---- chain -------------------------------------------------------------------------

    def chain(self, ops: list[SkProgramOp]) -> None:
        early = self.options.early_start != 0
        prev: SubtaskOp | None = None
        notifies: list[LockOp] = []
        waits: list[LockOp] = []
        resets: list[LockOp] = []
        for op in ops:
            if isinstance(op, NotifyOp):
                notifies.append(op)
            elif isinstance(op, WaitLockOp):
                waits.append(op)
            elif isinstance(op, ResetLockOp):
                resets.append(op)
            else:
                assert isinstance(op, SubtaskOp)
                self.between(prev, op, notifies, waits, early)
                notifies, waits = [], []
                self.emit(op)
                prev = op
        self.between(prev, None, notifies, waits, early)
        # A reset clears what every wait on its cell consumed: one waiting on the other core
        # type must be done first (both types run the entry; the reset runs on one).
        waited = {(lk.cell.root_reference.data, lk.core.data) for lk in ops if isinstance(lk, WaitLockOp)}
        if any((lk.cell.root_reference.data, other) in waited for lk in resets for other in CoreType
               if other is not lk.core.data):
            self.emit(DependBarrierOp(CoreClass.MIX, CoreClass.MIX))
        for op in resets:
            self.emit(op)

    def between(self, prev: SubtaskOp | None, cur: SubtaskOp | None, notifies: list[LockOp],
                waits: list[LockOp], early: bool) -> None:
        """The syncs between two consecutive sub-tasks (None: the entry's start or end).

        With early-start and no lock access in between: the handshake alone. Otherwise
        barriers: a full barrier of prev's class before its notifies (docs/design.md §3 (f)), the
        class-pair barrier, the waits and a barrier of cur's class (g). A sub-task that sets
        (waits) itself is then closed by an epilogue (opened by a prologue) handshake, so that
        no barrier meets a pending early-start credit.
        """
        sets_itself = early and prev is not None and self.kernel(prev).early_start_set is not None
        waits_itself = early and cur is not None and self.kernel(cur).early_start_wait is not None
        plain = not notifies and not waits and not sets_itself and not waits_itself
        if plain and prev is not None and cur is not None and self.relaxed(prev, cur):
            self.emit(DependPipeOp(types_class({*class_types(self.cls(prev)), *class_types(self.cls(cur))})))
            return
        # The first real sync after a run of pipe barriers orders every sub-task of the run.
        prev_cls = self.run_class(prev)
        self.group, self.group_types = [], set()
        if early and not notifies and not waits:
            cover = set(self.sk.core_types())  # at the entry's start nothing came before
            if (prev is not None and cur is not None) or sets_itself or waits_itself:
                cfg = self.early_start(prev, cur, prev_cls)
                if prev is not None:
                    # the handshake orders only some core types after every core of prev's class
                    # (an aic -> aic one leaves the AIVs where they were): its recipe says which
                    cover &= early_ordered_types(cfg)
            self.cover = cover
            return
        if sets_itself:
            self.early_start(prev, None, prev_cls)
        if notifies:
            if prev_cls is not None:
                self.emit(DependLockReleaseOp(prev_cls))
            for op in notifies:
                self.emit(op)
        if prev_cls is not None and cur is not None:
            cur_cls = self.cls(cur)
            self.emit(DependBarrierOp(prev_cls, cur_cls))
            self.cover = set(BARRIER_TYPES[barrier_kind(prev_cls, cur_cls)])
        if waits:
            for op in waits:
                self.emit(op)
            if cur is not None:
                cur_cls = self.cls(cur)
                self.emit(DependLockAcquireOp(cur_cls))
                cores = BARRIER_TYPES[CLASS_BARRIER[cur_cls]]
                # only cur's types are ordered after the waits: a later sub-task of another type
                # needs a real barrier, even where sync-mode=data finds no shared buffer
                self.cover = set(cores)
        if waits_itself:
            self.early_start(None, cur)

    def relaxed(self, prev: SubtaskOp, cur: SubtaskOp) -> bool:
        """`sync-mode=data`: whether `cur` may follow `prev` after a local pipe barrier only.

        Only on one stream, and only when `cur` is independent of every sub-task since the last
        real barrier (no data-dependent pair may span a run of pipe barriers).
        """
        if self.launches is None or prev.stream != cur.stream:
            return False
        if not set(class_types(self.cls(cur))) <= self.cover:
            return False  # the last real sync did not order cur's other core type after earlier work
        access = self.access(cur)
        group = self.group or [self.access(prev)]
        if access is None or any(a is None or not a.independent(access) for a in group):
            return False
        if not self.group:
            self.group_types = set(class_types(self.cls(prev)))
        self.group = [*group, access]
        self.group_types |= set(class_types(self.cls(cur)))
        return True

    def run_class(self, prev: SubtaskOp | None) -> CoreClass | None:
        """The class of `prev`, widened to the core types of the run of pipe barriers it ends."""
        if prev is None:
            return None
        types = self.group_types | set(class_types(self.cls(prev)))
        if len(types) == 2:
            return CoreClass.MIX
        return CoreClass.AIC if types == {CoreType.AIC} else CoreClass.AIV

    def access(self, sub: SubtaskOp) -> Access | None:
        launch = self.launches.get(sub.seq.data) if self.launches is not None else None
        return None if launch is None else launch_access(launch, self.kernel(sub))

    def early_start(self, prev: SubtaskOp | None, cur: SubtaskOp | None, prev_cls: CoreClass | None = None) -> int:
        """The early-start handshake between `prev` (of class `prev_cls`) and `cur` (None: the
        entry's start or end), on every core type the SuperKernel launches; returns its cfg."""
        types = self.sk.core_types()
        all_class = types_class(types)
        if prev_cls is None:
            prev_cls = self.cls(prev) if prev is not None else all_class
        cur_cls = self.cls(cur) if cur is not None else all_class
        sets_itself = prev is not None and self.kernel(prev).early_start_set is not None
        waits_itself = cur is not None and self.kernel(cur).early_start_wait is not None
        set_idle = (prev.blocks.data, self.cls(prev)) if sets_itself and prev is not None else None
        wait_idle = cur.blocks.data if waits_itself and cur is not None else None
        self.emit(DependEarlyStartOp(all_class, prev_cls, cur_cls, set_idle=set_idle,
                           wait_idle=wait_idle))
        return 4 * CLASS_CODE[prev_cls] + CLASS_CODE[cur_cls]

    # ---- queue -------------------------------------------------------------------------

    def queue(self, ops: list[SkProgramOp]) -> None:
        members = [op for op in ops if isinstance(op, SubtaskOp | LockOp)]
        assert len(members) == len(ops), "a queue program before sync placement holds sub-tasks and lock ops"
        by_key = dict(enumerate(members))
        nodes = program_nodes(members, {op: key for key, op in by_key.items()})
        reserved = {f.data for sub in ops if isinstance(sub, SubtaskOp) for f in (self.kernel(sub).sync_flags or ())}
        try:
            plan = plan_queues(nodes, reserved)
        except FlagsExhausted as err:
            raise PassFailedException(f"sk.kernel @{self.sk.sym_name.data}: {err}") from None
        per_core: dict[CoreType, list[tuple[Operation, int | None]]] = {}
        for core in CoreType:
            entries: list[tuple[Operation, int | None]] = []
            per_core[core] = entries
            for item in plan.queues[core]:
                if item.kind == "node":
                    entries.append((by_key[item.key], item.key))  # type: ignore[index]
                elif item.kind == "barrier":
                    own = types_class((core,))
                    entries.append((DependBarrierOp(own, own), None))
                else:
                    half = DependFlagSignalOp if item.kind == "set" else DependFlagAwaitOp
                    entries.append((half(plan.pairs[item.pair].flag, types_class((core,))), None))
        self.merge(ops, per_core)

    def merge(self, ops: list[SkProgramOp], per_core: dict[CoreType, list[tuple[Operation, int | None]]]) -> None:
        """Interleave the two queues along the node order, so that the program follows a topological order."""
        by_key = dict(enumerate(ops))
        heads = dict.fromkeys(CoreType, 0)
        next_node: dict[CoreType, list[int | None]] = {}
        for core, entries in per_core.items():
            upcoming: int | None = None
            marks: list[int | None] = [None] * len(entries)
            for i in range(len(entries) - 1, -1, -1):
                if entries[i][1] is not None:
                    upcoming = entries[i][1]
                marks[i] = upcoming
            next_node[core] = marks
        for key in [*range(len(ops)), None]:
            cores: list[CoreType] = []
            for core in CoreType:
                entries, i = per_core[core], heads[core]
                if i < len(entries) and next_node[core][i] == key:
                    while entries[i][1] is None:
                        self.emit(entries[i][0])
                        i += 1
                        if i == len(entries):
                            break
                    else:
                        cores.append(core)
                        i += 1
                heads[core] = i
            if cores:
                assert key is not None and tuple(cores) == by_key[key].core_set(), "a queue runs an op off its cores"
                self.emit(by_key[key])
        assert all(heads[core] == len(per_core[core]) for core in CoreType)


def plan_superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp], options: SkOptions,
                     launches: dict[int, LaunchOp] | None = None) -> SuperKernelOp:
    """Place a depend op for every dependency of one SuperKernel (see the module docstring;
    each in the place of the ops its rule gives); `launches` (the model's launches by seq) lets
    `sync-mode=data` read buffer args. Returns the `sk.kernel` that replaced `sk`."""
    placement = _Placement(sk, kernels, options, launches)
    placement.run()
    return placement.sk


@dataclass(frozen=True)
class PlaceSyncPass(OptionsPass):
    """Place an `sk.depend_<rule>` op for every dependency inside each SuperKernel."""

    name = "sk-place-sync"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        base = self.sk_options()
        launches: dict[ModelOp, dict[int, LaunchOp]] = {}
        for sk, kernels, options in superkernels(op, base):
            model = sk.parent_op()
            assert isinstance(model, ModelOp)
            if options.sync_mode == "data" and model not in launches:
                launches[model] = launches_by_seq([s for s in model.body.block.ops if isinstance(s, StreamOp)])
            plan_superkernel(sk, kernels, options, launches.get(model))
