"""One SuperKernel run: its `aic` and `aiv` programs executed core by core.

The run starts when the SuperKernel's cores are all free (it is launched in batch mode:
every block co-resident) and ends when the last core finishes its program. Each core
keeps a `Stamp`; the SuperKernel has `blocks` AICs and `blocks x ratio` AIVs as its type
says. Ops (docs/design.md §3, §4):

- `sk.subtask`: runs on its block-guarded cores (others skip it; a placed sub-task on its
  range, paying `placement_us`): the duration of the
  original task, plus an instruction-cache miss unless a preload covered it (a preload
  for its kernel on that core type, `preload max` while the code fits, or the same kernel
  just before). A mix sub-task is a rendezvous: its AIC and AIV halves start together.
- `sk.barrier`: all cores of the type (`sync_all`: both types) meet, then pay the
  barrier's cost; `pipe_all` is local to each core.
- `sk.set_flag` / `sk.wait_flag`: credits per (target type, flag id), first in first out;
  mode 2 reaches the peers of the setter's block, mode 0 / 1 every core of the target.
- `sk.early_start_set` / `_wait`: waits pair in order with the sets of the previous
  class; a sub-task after the handshake may start up to the overlap δ before its
  predecessor ends on the same core (at most half the predecessor's duration).
- `sk.notify` / `sk.wait_lock` / `sk.reset_lock`: block 0 of the type stores or polls a
  GM lock; a notify signals the model's cell, a wait blocks the run until the cell is
  set (the wait counts as sync).
- `sk.preload`, `sk.dcci`: their issue costs.

`advance()` runs both programs as far as they can go and returns the cells notified and
whether the run finished or waits on a cell.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Operation

from skir.analysis.sync.progress_points import point_state, wants_progress
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_demand
from skir.dialects.hardware import BARRIER_TYPE, CORE_FACTS, EARLY_WAIT_RECIPES, CoreType, subtask_vector_cores
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    DcciOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
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
from skir.dialects.superkernel_sync import ICACHE_UNITS
from skir.errors import ExitCode, SkirError
from skir.options import SkOptions
from skir.sim.costs import Costs
from skir.sim.stamp import COMPUTE, DISPATCH, SYNC, Stamp, add, later, latest, wait_until


@dataclass
class ProgramSpan:
    """What one core type did for one op: `kind` is subtask, barrier, flag, lock, early_start, ..."""

    core: CoreType
    kind: str
    label: str
    start: float
    end: float
    seq: int | None = None
    stream: str | None = None


@dataclass
class _Core:
    """The program of one core type: its ops, program counter and per-core stamps."""

    core: CoreType
    ops: list[SkProgramOp]
    stamps: list[Stamp]
    pc: int = 0
    tail: list[float] = field(default_factory=list)
    warm: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    budget: float | None = None
    last_kernel: str | None = None
    early_sent: int = -1
    """The pc of the early-start wait whose direct wait and relay have run."""
    stored: set[SkProgramOp] = field(default_factory=set)
    """The points whose progress word this core type has stored (`debug-progress=1`)."""


class SuperKernelRun:
    """The state of one running SuperKernel (see the module docstring)."""

    def __init__(self, sk: SuperKernelOp, kernels: dict[str, KernelOp], duration: Callable[[str, int], float],
                 costs: Costs, start: Stamp, cell_time: Callable[[str], Stamp | None], *, record: bool = True):
        """`record`: keep what each core type did (`spans`, `flows`); without it the run gives its
        end alone."""
        self.sk = sk
        self.record = record
        self.name = sk.sym_name.data
        self.kernels = kernels
        self.duration = duration
        self.costs = costs
        self.cell_time = cell_time
        blocks = sk.blocks.data
        n_aic, n_aiv = core_demand(sk.type, blocks)
        self.ratio = max(1, n_aiv // blocks) if n_aiv else 1
        self.cores: dict[CoreType, _Core] = {}
        self.where = sk.positions()
        shared: dict[Operation, set[CoreType]] = defaultdict(set)
        for core, n in ((CoreType.AIC, n_aic), (CoreType.AIV, n_aiv)):
            if n == 0:
                continue
            ops = sk.program_for(core)
            self.cores[core] = _Core(core, ops, [start] * n, tail=[0.0] * n)
            for op in ops:
                shared[op].add(core)
        self.needs = shared
        self.arrived: dict[Operation, set[CoreType]] = defaultdict(set)
        self.done_shared: set[Operation] = set()
        self.early_sets: dict[CoreType, list[Stamp]] = defaultdict(list)
        self.early_used: dict[CoreType, int] = defaultdict(int)
        self.early_relays: dict[CoreType, deque[Stamp]] = defaultdict(deque)
        self.spans: list[ProgramSpan] = []
        self.flows: list[tuple[int, int]] = []
        """(set, wait) indices into `spans` of each in-kernel sync edge, for the timeline's arrows."""
        self.credit_spans: dict[tuple[CoreType, int], deque[int]] = defaultdict(deque)
        self.round_sets: dict[tuple[CoreType, int], list[deque[Stamp]]] = {}
        """(core type, flag id) -> per core the stamps of its mode-0 sets not yet in a complete round
        (a round completes once every core of the type has set: a lane's round, docs/design.md §3
        "Lanes")."""
        self.core_credits: dict[tuple[CoreType, int], list[deque[Stamp]]] = {}
        """(core type, flag id) -> per core the credits its counter holds: when each arrived."""
        self.notify_spans: dict[str, int] = {}
        self.progress = wants_progress(sk.sk_options(SkOptions()))
        """`debug-progress=1`: each core stores a progress word before each point (`progress_us`)."""
        self.blocked_on: str | None = None
        self.finished: Stamp | None = None

    # ---- driving --------------------------------------------------------------------

    def advance(self) -> list[tuple[str, Stamp]]:
        """Run until done or blocked on an unset cell; returns the (cell, stamp) notifies."""
        notifies: list[tuple[str, Stamp]] = []
        self.blocked_on = None
        progress = True
        while progress:
            progress = False
            for state in self.cores.values():
                while state.pc < len(state.ops):
                    if not self._step(state, state.ops[state.pc], notifies):
                        break
                    state.pc += 1
                    progress = True
        if all(s.pc >= len(s.ops) for s in self.cores.values()):
            self.finished = latest(st for s in self.cores.values() for st in s.stamps)
            self.blocked_on = None
        elif self.blocked_on is None:
            where = ", ".join(f"{s.core.value} at op {self.where[s.ops[s.pc]]}" for s in self.cores.values()
                              if s.pc < len(s.ops))
            raise SkirError(f"simulation of @{self.name} stalled ({where}); run sk-check on the module",
                            ExitCode.INTERNAL)
        return notifies

    # ---- ops --------------------------------------------------------------------------

    def _step(self, s: _Core, op: SkProgramOp, notifies: list[tuple[str, Stamp]]) -> bool:
        if self.progress and op not in s.stored and point_state(op) is not None:
            s.stored.add(op)  # the progress word before the point, once (a blocked op is stepped again)
            s.stamps = [add(st, SYNC, self.costs.progress_us) for st in s.stamps]
        if isinstance(op, SubtaskOp):
            return self._subtask(s, op)
        if isinstance(op, BarrierOp):
            return self._barrier(s, op)
        if isinstance(op, SetFlagOp):
            self._set_flag(s, op)
            return True
        if isinstance(op, WaitFlagOp):
            return self._wait_flag(s, op)
        if isinstance(op, EarlyStartSetOp):
            points = [add(st, COMPUTE, -tail) for st, tail in zip(s.stamps, s.tail)]
            self.early_sets[s.core].append(latest(points))
            return True
        if isinstance(op, EarlyStartWaitOp):
            return self._early_wait(s, op)
        if isinstance(op, NotifyOp):
            s.stamps[0] = add(s.stamps[0], SYNC, self.costs.lock_notify_us)
            notifies.append((op.cell.root_reference.data, s.stamps[0]))
            self._span(s.core, "lock", f"notify @{op.cell.root_reference.data}", s.stamps[0][0] -
                       self.costs.lock_notify_us, s.stamps[0][0])
            if self.record:
                self.notify_spans[op.cell.root_reference.data] = len(self.spans) - 1
            return True
        if isinstance(op, WaitLockOp):
            cell = op.cell.root_reference.data
            fired = self.cell_time(cell)
            if fired is None:
                self.blocked_on = cell
                return False
            s.stamps[0] = add(wait_until(s.stamps[0], fired[0], SYNC), SYNC, self.costs.lock_wait_us)
            self._span(s.core, "lock", f"wait @{cell}", s.stamps[0][0] - self.costs.lock_wait_us, s.stamps[0][0])
            if cell in self.notify_spans:  # notified inside this SuperKernel
                self.flows.append((self.notify_spans[cell], len(self.spans) - 1))
            return True
        if isinstance(op, ResetLockOp):
            s.stamps[0] = add(s.stamps[0], SYNC, self.costs.lock_reset_us)
            return True
        if isinstance(op, PreloadOp):
            self._preload(s, op)
            return True
        if isinstance(op, DcciOp):
            s.stamps = [add(st, SYNC, self.costs.dcci_us) for st in s.stamps]
            return True
        return True

    def _shared(self, s: _Core, op: SkProgramOp) -> tuple[bool, bool]:
        """(may go on, must execute) for an op both programs hold (mix sub-task, sync_all)."""
        needs = self.needs[op]
        if len(needs) == 1:
            return True, True
        if op in self.done_shared:
            return True, False
        self.arrived[op].add(s.core)
        if self.arrived[op] != needs:
            return False, False
        self.done_shared.add(op)
        return True, True

    def _subtask_cores(self, core: CoreType, sub: SubtaskOp, kernel: KernelOp | None) -> range:
        b, first = sub.blocks.data, sub.first_block
        n = len(self.cores[core].stamps)
        if core is CoreType.AIV and kernel is not None:
            b = subtask_vector_cores(kernel.type, b, self.ratio)
            if sub.cores.data is not CoreClass.AIV:  # a mix sub-task placed by block: its blocks' AIVs
                first *= self.ratio
        return range(min(first, n), min(first + b, n))

    def _miss(self, s: _Core, kernel_name: str, kernel: KernelOp | None) -> float:
        cap = ICACHE_UNITS[s.core] * 2048
        code = None if kernel is None or kernel.code_bytes is None else kernel.code_bytes.data
        size = min(self.costs.default_code_bytes if code is None else code, cap)
        warm = False
        if s.last_kernel == kernel_name:
            warm = True
        elif s.warm[kernel_name] > 0:
            s.warm[kernel_name] -= 1
            warm = True
        elif s.budget is not None and size <= s.budget:
            s.budget -= size
            warm = True
        s.last_kernel = kernel_name
        return 0.0 if warm else self.costs.icache_miss(code, cap)

    def _subtask(self, s: _Core, sub: SubtaskOp) -> bool:
        go, execute = self._shared(s, sub)
        if not execute:
            return go
        name = sub.kernel.root_reference.data
        kernel = self.kernels.get(name)
        stream, seq = sub.stream.root_reference.data, sub.seq.data
        d = self.duration(stream, seq)
        types = [c for c in self.cores if c in self.needs[sub]]
        misses = {c: self._miss(self.cores[c], name, kernel) for c in types}
        miss = max(misses.values()) + (self.costs.placement_us if sub.first is not None else 0.0)
        ranges = {c: self._subtask_cores(c, sub, kernel) for c in types}
        if len(types) > 1:
            begin = latest(self.cores[c].stamps[i] for c in types for i in ranges[c])
            starts = {c: [begin] * len(ranges[c]) for c in types}
        else:
            starts = {c: [self.cores[c].stamps[i] for i in ranges[c]] for c in types}
        for c in types:
            state = self.cores[c]
            first, last = float("inf"), 0.0
            for i, begin in zip(ranges[c], starts[c]):
                end = add(add(begin, DISPATCH, miss), COMPUTE, d)
                state.stamps[i] = end
                state.tail[i] = min(self.costs.early_start_overlap_us, d / 2)
                first, last = min(first, begin[0]), max(last, end[0])
            if ranges[c]:
                self._span(c, "subtask", name, first, last, seq, stream)
        return True

    def _barrier(self, s: _Core, op: BarrierOp) -> bool:
        kind = op.kind.data
        if kind is BarrierKind.PIPE_ALL:
            s.stamps = [add(st, SYNC, self.costs.pipe_barrier_us) for st in s.stamps]
            return True
        go, execute = self._shared(s, op)
        if not execute:
            return go
        types = [c for c in self.cores if c in self.needs[op]] if kind is BarrierKind.SYNC_ALL else [s.core]
        cost = (self.costs.sync_all_us if kind is BarrierKind.SYNC_ALL
                else getattr(self.costs, CORE_FACTS[BARRIER_TYPE[kind]].barrier_cost))
        done = add(latest(st for c in types for st in self.cores[c].stamps), SYNC, cost)
        arrive = done[0] - cost
        for c in types:
            state = self.cores[c]
            state.stamps = [done] * len(state.stamps)
            state.tail = [0.0] * len(state.tail)
            self._span(c, "barrier", kind.value, arrive, done[0])
        return True

    def _block_of(self, core: CoreType, i: int) -> int:
        return i // self.ratio if core is CoreType.AIV else i

    def _guarded(self, s: _Core, op: SetFlagOp | WaitFlagOp) -> range:
        """The cores of `s` that run a flag op (all unless it is guarded)."""
        guard = op.guard()
        n = len(s.stamps)
        return range(n) if guard is None else range(min(guard.start, n), min(guard.stop, n))

    def _counters(self, core: CoreType, flag: int) -> list[deque[Stamp]]:
        """Each core's credits of one flag id."""
        key = (core, flag)
        if key not in self.core_credits:
            self.core_credits[key] = [deque() for _ in self.cores[core].stamps] if core in self.cores else []
        return self.core_credits[key]

    def _set_flag(self, s: _Core, op: SetFlagOp) -> None:
        """A set on the cores its guard names: mode 0 counts each core's sets and credits every
        core of the type once all have set (a round); mode 2 credits the other type of each block
        once the block's setters have set (its AIC, each of its AIVs); mode 1 the AIVs of the block."""
        cores = self._guarded(s, op)
        for i in cores:
            s.stamps[i] = add(s.stamps[i], SYNC, self.costs.flag_set_us)
        flag, mode, target = op.flag.data, op.mode.data, op.credited()
        if mode == 0:
            sets = self.round_sets.setdefault((s.core, flag), [deque() for _ in s.stamps])
            for i in cores:
                sets[i].append(s.stamps[i])
            while sets and all(sets):
                done = latest(q.popleft() for q in sets)
                for queue in self._counters(s.core, flag):
                    queue.append(done)
        else:
            by_block: dict[int, Stamp] = {}
            for i in cores:
                b = self._block_of(s.core, i)
                old = by_block.get(b)
                by_block[b] = s.stamps[i] if old is None or s.stamps[i][0] > old[0] else old
            for j, queue in enumerate(self._counters(target, flag)):
                credit = by_block.get(self._block_of(target, j))
                if credit is not None:
                    queue.append(credit)
        if cores:
            end = max(s.stamps[i][0] for i in cores)
            self._span(s.core, "flag", f"set flag {flag}", end - self.costs.flag_set_us, end)
            if self.record:
                self.credit_spans[(target, flag)].append(len(self.spans) - 1)

    def _wait_flag(self, s: _Core, op: WaitFlagOp) -> bool:
        """Each core the op runs on takes one credit of its own counter, waiting for it to arrive."""
        counters = self._counters(s.core, op.flag.data)
        cores = self._guarded(s, op)
        if any(not counters[i] for i in cores):
            return False
        for i in cores:
            s.stamps[i] = add(later(s.stamps[i], counters[i].popleft()), SYNC, self.costs.flag_wait_us)
            s.tail[i] = 0.0
        if cores:
            end = max(s.stamps[i][0] for i in cores)
            self._span(s.core, "flag", f"wait flag {op.flag.data}", end - self.costs.flag_wait_us, end)
            sets = self.credit_spans[(s.core, op.flag.data)]
            if sets:
                self.flows.append((sets.popleft(), len(self.spans) - 1))
        return True

    def _early_wait(self, s: _Core, op: EarlyStartWaitOp) -> bool:
        """`WaitPreTaskEndImpl<cfg>` by its recipe (`EARLY_WAIT_RECIPES`): the next early-start
        set of the core's own type, then a relay to the other type, then the other type's relay;
        a core type the recipe gives nothing to do passes at no cost."""
        step = EARLY_WAIT_RECIPES[op.cfg.data][s.core]
        if not any(step):
            return True
        if s.early_sent != s.pc:
            if step.direct:
                used = self.early_used[s.core]
                if len(self.early_sets[s.core]) <= used:
                    return False
                self._early_credit(s, self.early_sets[s.core][used])
                self.early_used[s.core] += 1
            if step.send:
                other = CoreType.AIV if s.core is CoreType.AIC else CoreType.AIC
                self.early_relays[other].append(latest(s.stamps))
            s.early_sent = s.pc
        if step.via:
            relays = self.early_relays[s.core]
            if not relays:
                return False
            self._early_credit(s, relays.popleft())
        s.stamps = [add(st, SYNC, self.costs.early_start_us) for st in s.stamps]
        done = max(st[0] for st in s.stamps)
        self._span(s.core, "early_start", "early-start", done - self.costs.early_start_us, done)
        return True

    @staticmethod
    def _early_credit(s: _Core, credit: Stamp) -> None:
        """Every core of `s` goes on from its set point (its stamp less the overlapped tail) or
        from `credit`, whichever is later."""
        s.stamps = [later(add(st, COMPUTE, -tail), credit) for st, tail in zip(s.stamps, s.tail)]
        s.tail = [0.0] * len(s.tail)

    def _preload(self, s: _Core, op: PreloadOp) -> None:
        if op.kernel is None:
            s.budget = float(ICACHE_UNITS[s.core] * 2048)
            cores = range(len(s.stamps))
        else:
            s.warm[op.kernel.root_reference.data] += 1
            first = op.first_block
            cores = range(min(first, len(s.stamps)), min(first + op.blocks.data, len(s.stamps)))  # type: ignore[union-attr]
        for i in cores:
            s.stamps[i] = add(s.stamps[i], DISPATCH, self.costs.preload_us)

    def _span(self, core: CoreType, kind: str, label: str, start: float, end: float,
              seq: int | None = None, stream: str | None = None) -> None:
        if not self.record:
            return
        self.spans.append(ProgramSpan(core, kind, label, start, end, seq, stream))

