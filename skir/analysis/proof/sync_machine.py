"""An abstract machine that executes a rewritten model: streams, SuperKernels and their syncs.

Agents: one per stream (its tasks in order) and, while a SuperKernel runs, one per core
range of each core type it uses (`skir.analysis.placement.core_ranges`: all cores of the type unless a
flag op is guarded to part of them, a lane's round). Cores of one range run the same program
(block guards only skip calls), so one agent stands for all of them. Every agent carries
*knowledge*, a vector with one entry per stream (tasks completed there) and one per core range
of each SuperKernel (how far every core of the range has provably got, in half-steps of its
program: `2 i` = all ops before op `i` done, `2 i + 1` = every core reached the early-start set
point inside op `i`).

A range's agent keeps two vectors: `common` (what every core of the range knows) and
`block0` (what block 0 knows: it alone polls and stores GM locks; only the range holding core
0 has it). A barrier of a type is a rendezvous of the type's ranges: each leaves knowing what
all knew, block 0's knowledge included, with every range's entry raised; a mode-0 round
completes when every range of the type has set once more, and gives every range a credit
with what all the setters knew; mode-2 flags carry the setter range's common knowledge as a
credit the other type's ranges of the same blocks consume (first in, first out; an AIC range
of several blocks takes the credit once its one AIV range has set); a guarded op runs only on
the ranges inside its guard, a sub-task only on those its range covers;
`SyncAll` is a rendezvous of both types; early-start waits follow their recipe (a wait
takes the sets of its own type in order, and the other type's relayed knowledge where the
recipe passes it); GM locks
carry block 0's knowledge through the cell. Stream tasks: event waits need a record of
their epoch, value waits their rule; a SuperKernel launch blocks its stream until both
agents finish (the streams' half is `skir.analysis.proof.sync_streams`).

Waits only ever become satisfiable (a reset is always ordered after the waits it could
starve), so one schedule decides deadlock: the machine runs a worklist until nothing can
move and reports every agent still blocked.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from skir.analysis.graph.task_graph import TaskGraph
from skir.analysis.placement.core_ranges import core_ranges, range_label, ratio_of, subtask_range
from skir.analysis.proof.flag_counters import FlagCounters
from skir.analysis.proof.sync_streams import StreamSteps
from skir.dialects.aclgraph import (
    LaunchSkOp,
)
from skir.dialects.hardware import EARLY_WAIT_RECIPES, CoreType
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    NotifyOp,
    ResetLockOp,
    SetFlagOp,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
    WaitLockOp,
)

_TYPES = (CoreType.AIC, CoreType.AIV)


@dataclass
class Blocked:
    """Why an agent cannot move: a one-line description."""

    agent: str
    what: str
    node: int | None = None
    """The task graph node of a blocked stream's task (None for a core agent)."""


@dataclass
class CoreAgent:
    """The program of one core range of one core type of a running SuperKernel."""

    sk: int
    core: CoreType
    part: int
    """The index of its range among its type's (`SyncMachine.ranges`)."""
    span: range
    """The cores of its type it stands for."""
    ops: list[SkProgramOp]
    common: np.ndarray
    block0: np.ndarray
    pc: int = 0
    done: bool = False
    starts: dict[SkProgramOp, np.ndarray] = field(default_factory=dict)
    """Sub-task -> the common knowledge when it starts."""
    early_sent: int = -1
    """The pc of the early-start wait whose direct wait and send have run (its `via` wait may block)."""
    skips: set[SkProgramOp] = field(default_factory=set)
    """Ids of the ops its cores do not run (a guard or a sub-task's range leaves them out)."""


class SyncMachine(StreamSteps):
    """Runs the rewritten model once (see the module docstring); its streams step as
    `skir.analysis.proof.sync_streams.StreamSteps` says."""

    def __init__(self, graph: TaskGraph | None, superkernels: dict[str, SuperKernelOp],
                 release: Callable[[int, CoreType, int, int], bool] | None = None):
        self.names = list(superkernels)
        self.sks = superkernels
        self.sk_index = {name: i for i, name in enumerate(self.names)}
        self.ranges: list[dict[CoreType, list[range]]] = [core_ranges(superkernels[n]) for n in self.names]
        """Per SuperKernel, the core ranges of each type it launches (`skir.analysis.placement.core_ranges`)."""
        self.split = [any(len(r) > 1 for r in ranges.values()) for ranges in self.ranges]
        self._entry: dict[tuple[int, CoreType, int], int] = {}
        width = len(graph.streams) if graph is not None else 0
        for k, ranges in enumerate(self.ranges):
            for core in _TYPES:
                for part in range(len(ranges.get(core, [range(0)]))):
                    self._entry[(k, core, part)] = width
                    width += 1
        super().__init__(graph, width)
        self.release = release
        self.agents: dict[tuple[int, CoreType, int], CoreAgent] = {}
        """(SuperKernel, core type, range index) -> its agent, once the SuperKernel has started."""
        self.running: dict[tuple[int, CoreType, int], CoreAgent] = {}
        self.finished: dict[int, list[CoreAgent]] = {}
        self.counters = FlagCounters()
        self.credits, self.sets, self.waits = self.counters.credits, self.counters.sets, self.counters.waits
        self.max_pending = self.counters.max_pending
        self.early_sets: dict[tuple[int, CoreType], list[np.ndarray]] = defaultdict(list)
        self.early_waits: dict[tuple[int, CoreType], int] = defaultdict(int)
        """(SuperKernel, core type) -> the early-start sets of that type its direct waits took."""
        self.early_relays: dict[tuple[int, CoreType], deque[np.ndarray]] = defaultdict(deque)
        """(SuperKernel, core type) -> the other type's early-start mode-2 sets not yet waited on."""
        self.sync_all: dict[tuple[int, SkProgramOp], dict] = defaultdict(dict)  # type: ignore[type-arg]
        self.alone = graph is None
        """A machine of one SuperKernel without its model (`isolated`): its lock waits pass."""
        self.errors: list[str] = []

    # ---- knowledge ---------------------------------------------------------------------

    def entry(self, sk: int, core: CoreType, part: int = 0) -> int:
        """The knowledge entry of one core range of a SuperKernel (how far its cores have got)."""
        return self._entry[(sk, core, part)]

    def parts_running(self, sk: int, core: CoreType, sub: SubtaskOp) -> list[int]:
        """The ranges of `core` whose cores may run `sub`'s call."""
        ranges = self.ranges[sk].get(core, [])
        if len(ranges) == 1:
            return [0]
        span = subtask_range(self.sks[self.names[sk]], sub, core)
        return [i for i, r in enumerate(ranges) if r.start < span.stop and span.start < r.stop]

    def agent_name(self, agent: CoreAgent) -> str:
        """How a diagnostic names an agent: `m_sk0 aiv`, with its range when its type is split."""
        where = f" {range_label(agent.span)}" if self.split[agent.sk] else ""
        return f"{self.names[agent.sk]} {agent.core.value}{where}"

    @classmethod
    def isolated(cls, sk: SuperKernelOp,
                 release: Callable[[int, CoreType, int, int], bool] | None = None) -> SyncMachine:
        """A machine running one SuperKernel alone: its lock waits are taken as satisfied."""
        machine = cls(None, {sk.sym_name.data: sk}, release)
        machine.start(0, machine.zero())
        return machine

    # ---- running -----------------------------------------------------------------------

    def run(self) -> list[Blocked]:
        """Run to quiescence; the agents left blocked (empty: no deadlock).

        Streams advance one task per round, so a value wait sees each value a cell holds
        between two writes of another stream (the schedule the capture recorded); the cores
        of running SuperKernels run until they block.
        """
        progress = True
        while progress:
            progress = False
            for s in range(self.n_streams):
                if self._step_stream(s):
                    progress = True
            for key, agent in list(self.running.items()):
                while not agent.done and self._step_core(agent):
                    progress = True
                if agent.done:
                    del self.running[key]
        return self.blocked()

    def blocked(self) -> list[Blocked]:
        out = [Blocked(name, what, n) for name, what, n in self.blocked_streams()]
        for agent in self.agents.values():
            if not agent.done:
                op = agent.ops[agent.pc]
                place = self.sks[self.names[agent.sk]].positions()[op]  # on a deadlock only
                out.append(Blocked(self.agent_name(agent), f"{op.name} {place}"))
        return out

    def start_superkernel(self, op: LaunchSkOp, clock: np.ndarray) -> None:
        self.start(self.sk_index[op.sk.root_reference.data], clock)

    def join(self, op: LaunchSkOp, clock: np.ndarray) -> bool:
        k = self.sk_index[op.sk.root_reference.data]
        if k not in self.finished:
            return False
        for agent in self.finished[k]:
            np.maximum(clock, agent.common, out=clock)
            np.maximum(clock, agent.block0, out=clock)
            clock[self.entry(k, agent.core, agent.part)] = 2 * len(agent.ops)
        return True

    def start(self, k: int, clock: np.ndarray) -> None:
        """Start SuperKernel `k`'s core agents with the launching stream's knowledge."""
        sk = self.sks[self.names[k]]
        for core in _TYPES:
            # the verifier admits no op on a core type the SuperKernel does not launch
            for part, span in enumerate(self.ranges[k].get(core, [])):
                ops = sk.program_for(core)
                agent = CoreAgent(k, core, part, span, ops, clock.copy(), clock.copy())
                if self.split[k]:  # every range keeps the type's program, so positions agree; it skips the rest
                    agent.skips = {op for op in ops if not self._runs(k, core, part, span, op)}
                self.agents[(k, core, part)] = agent
                if ops:
                    self.running[(k, core, part)] = agent
                else:
                    agent.done = True
        self._maybe_finish(k)

    def _runs(self, k: int, core: CoreType, part: int, span: range, op: SkProgramOp) -> bool:
        """Whether the cores of one range run `op` (a guard covers the range; a lock is block 0's)."""
        if isinstance(op, SetFlagOp | WaitFlagOp):
            guard = op.guard()
            return guard is None or (guard.start <= span.start and span.stop <= guard.stop)
        if isinstance(op, SubtaskOp):
            return part in self.parts_running(k, core, op)
        if isinstance(op, NotifyOp | WaitLockOp | ResetLockOp):
            return span.start == 0
        return True

    def _type_agents(self, k: int, core: CoreType) -> list[CoreAgent]:
        return [self.agents[(k, core, part)] for part in range(len(self.ranges[k].get(core, [])))]

    def _maybe_finish(self, k: int) -> None:
        agents = [a for c in _TYPES if (k, c, 0) in self.agents for a in self._type_agents(k, c)]
        if agents and all(a.done for a in agents) and k not in self.finished:
            self.finished[k] = agents

    # ---- the programs of a running SuperKernel -------------------------------------------

    def _step_core(self, a: CoreAgent) -> bool:
        if a.pc >= len(a.ops):
            a.done = True
            self._maybe_finish(a.sk)
            return False
        op = a.ops[a.pc]
        moved = self._execute(a, op)
        if moved:
            np.maximum(a.block0, a.common, out=a.block0)
            a.pc += 1
            if a.pc >= len(a.ops):
                a.done = True
                self._maybe_finish(a.sk)
        return moved

    def _execute(self, a: CoreAgent, op: SkProgramOp) -> bool:
        k, core = a.sk, a.core
        if op in a.skips:
            return True
        if isinstance(op, SubtaskOp):
            a.starts[op] = a.common.copy()
        elif isinstance(op, BarrierOp):
            kind = op.kind.data
            if kind is BarrierKind.SYNC_ALL:
                return self._rendezvous(a, op, _TYPES)
            if kind is not BarrierKind.PIPE_ALL and self.split[k]:
                return self._rendezvous(a, op, (core,))
            if kind is not BarrierKind.PIPE_ALL:  # one range: its agent stands for every core of the type
                np.maximum(a.common, a.block0, out=a.common)
                e = self.entry(k, core)
                a.common[e] = max(a.common[e], 2 * a.pc)
        elif isinstance(op, SetFlagOp):
            self._set_flag(a, op)
        elif isinstance(op, WaitFlagOp):
            key = (k, core, a.part, op.flag.data)
            if self.release is not None and not self.release(k, core, op.flag.data, self.waits[key]):
                return False
            if not self.credits[key]:
                return False
            np.maximum(a.common, self.credits[key].popleft(), out=a.common)
            self.waits[key] += 1
        elif isinstance(op, EarlyStartSetOp | EarlyStartWaitOp) and self.split[k]:
            self.errors.append(f"{self.names[k]}: early-start in a SuperKernel with guarded flags is not modelled; "
                               "lanes are formed in queue SuperKernels only")
        elif isinstance(op, EarlyStartSetOp):
            message = a.common.copy()
            e = self.entry(k, core)
            follows_subtask = a.pc > 0 and isinstance(a.ops[a.pc - 1], SubtaskOp)
            point = 2 * (a.pc - 1) + 1 if op.idle is not None and follows_subtask else 2 * a.pc
            message[e] = max(message[e], point)
            self.early_sets[(k, core)].append(message)
        elif isinstance(op, EarlyStartWaitOp):
            return self._early_wait(a, op)
        elif isinstance(op, NotifyOp):
            self.cells[op.cell.root_reference.data] = (1, a.block0.copy())
        elif isinstance(op, WaitLockOp):
            value, knowledge = self.cells.get(op.cell.root_reference.data, (0, None))
            if value != 1 and not self.alone:
                return False
            if knowledge is not None:
                np.maximum(a.block0, knowledge, out=a.block0)
        elif isinstance(op, ResetLockOp):
            self.cells[op.cell.root_reference.data] = (0, self.zero())
        return True

    def _early_wait(self, a: CoreAgent, op: EarlyStartWaitOp) -> bool:
        """`WaitPreTaskEndImpl<cfg>` on one core type, by its recipe (`EARLY_WAIT_RECIPES`): a
        `direct` wait takes the next early-start set of its own type, a `send` passes what the
        type then knows to the other type, a `via` wait takes the other type's send. A type
        with no step learns nothing. The direct part and the send happen once, even when the
        `via` wait blocks and is tried again."""
        k, core = a.sk, a.core
        step = EARLY_WAIT_RECIPES[op.cfg.data][core]
        if a.early_sent != a.pc:
            if step.direct:
                index = self.early_waits[(k, core)]
                if len(self.early_sets[(k, core)]) <= index:
                    return False
                np.maximum(a.common, self.early_sets[(k, core)][index], out=a.common)
                self.early_waits[(k, core)] += 1
            if step.send:
                other = CoreType.AIV if core is CoreType.AIC else CoreType.AIC
                self.early_relays[(k, other)].append(a.common.copy())
            a.early_sent = a.pc
        if step.via:
            relays = self.early_relays[(k, core)]
            if not relays:
                return False
            np.maximum(a.common, relays.popleft(), out=a.common)
        return True

    def _set_flag(self, a: CoreAgent, op: SetFlagOp) -> None:
        """A set on the cores of one range: a mode-0 round completes once every range of the type
        has set, a mode-2 pairing once every range of the block's other side has (see the
        module docstring); mode 1 credits the setter's own AIVs."""
        k, core, flag, mode = a.sk, a.core, op.flag.data, op.mode.data
        message = a.common.copy()
        ranges = self.ranges[k]
        target = op.credited()
        if mode == 0:
            e = self.entry(k, core, a.part)
            message[e] = max(message[e], 2 * a.pc)
            every = range(len(ranges[core]))
            self.counters.pair(k, core, flag, -1, a.part, message, every, core, every)
        elif target not in ranges:  # a type the SuperKernel does not launch: no wait takes it
            if a.part == 0:  # counted once a set op, whichever ranges run it
                self.counters.deliver(k, target, -1, flag, message)
        elif mode == 1 or not self.split[k]:
            if mode == 1 and self.split[k]:
                self.errors.append(f"{self.names[k]}: a mode-1 set in a SuperKernel with guarded flags is not modelled")
            self.counters.deliver(k, target, 0, flag, message)
        elif core is CoreType.AIC:
            r = ratio_of(self.sks[self.names[k]])
            for part, span in enumerate(ranges[CoreType.AIV]):
                if a.span.start * r <= span.start and span.stop <= a.span.stop * r:
                    self.counters.deliver(k, CoreType.AIV, part, flag, message)
        else:
            r = ratio_of(self.sks[self.names[k]])
            aic = ranges[CoreType.AIC]
            to = next(i for i, span in enumerate(aic) if span.start <= a.span.start // r < span.stop)
            members = [i for i, span in enumerate(ranges[CoreType.AIV])
                       if aic[to].start * r <= span.start and span.stop <= aic[to].stop * r]
            self.counters.pair(k, core, flag, to, a.part, message, members, CoreType.AIC, [to])

    def _rendezvous(self, a: CoreAgent, op: BarrierOp, types: tuple[CoreType, ...]) -> bool:
        """A barrier: every range of `types` meets (`SyncAll<false>` both types, an all-core barrier
        its own); each leaves knowing what all knew on arrival, block 0's knowledge and each
        range's arrival point included."""
        state = self.sync_all[(a.sk, op)]
        key = (a.core, a.part)
        if key not in state:
            state[key] = (a.pc, a.common.copy(), a.block0.copy())
        members = [(c, part) for c in types if (a.sk, c, 0) in self.agents for part in range(len(self.ranges[a.sk][c]))]
        if any(m not in state for m in members):
            return False
        merged = state.get("merged")
        if merged is None:
            merged = self.zero()
            for c, part in members:
                pc, common, block0 = state[(c, part)]
                np.maximum(merged, common, out=merged)
                np.maximum(merged, block0, out=merged)
                e = self.entry(a.sk, c, part)
                merged[e] = max(merged[e], 2 * pc)
            state["merged"] = merged
        np.maximum(a.common, merged, out=a.common)
        return True
