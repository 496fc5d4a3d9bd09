"""The discrete-event model of one device running a model in one mode.

Resources are the model's cube (AIC) and vector (AIV) cores; streams are FIFOs; events,
value cells and named notifies order tasks across streams (the `TaskGraph` edges), and a stream activated by a
`stream_active` task starts when that task has run. A task
begins when its stream predecessor has ended, every task it depends on has ended and,
in eager mode, the host has enqueued it. Then, by kind:

- kernel launch: the dispatch gap, then it holds min(blocks, cores) of each core type it
  uses (1:2: blocks AICs and 2·blocks AIVs) for an instruction-cache miss plus its duration;
- SuperKernel launch: the dispatch gap and its entry, then it holds all its blocks (batch
  mode) while `SuperKernelRun` runs its programs;
- event record / wait / reset: `event_us`; value write / wait: `value_task_us` (a wait also
  waits for the write that satisfies it, or for an in-kernel notify);
- opaque task (memcpy, aicpu, ...): `opaque_us`; scope marker or placeholder: `marker_us`;
  a disabled slot costs nothing; a condition task lasts what `durations` gives for it (the
  makespan of the sub-model it runs, `skir.sim.modes`).

Modes: `eager` adds the host (one thread enqueueing the tasks in seq order, `host_launch_us`
per kernel and `host_task_us` per other task); `aclgraph`, `aclgraph_es` and `superkernel`
start every stream after one `graph_launch_us`. `aclgraph_es` is aclgraph with every kernel
compiled with early-start (the fair baseline): a kernel that follows a kernel on its stream is
launched when its predecessor signals `SetNextTaskStart`, up to `early_start_overlap_us` (never
more than half the predecessor's duration) before that one ends, so that much of its dispatch
gap and then of its instruction-cache miss is hidden; it pays the `early_start_us` handshake.
A task that finds too few free cores waits (idle) and the first waiting task that fits takes
the cores freed. One heap of timed events: O((V + E)
log V) plus the SuperKernel programs.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import DictionaryAttr, FloatData, ModuleOp, StringAttr

from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import (
    CondOp,
    DisabledOp,
    EventTaskOp,
    LaunchOp,
    LaunchSkOp,
    ModelOp,
    OpaqueOp,
    StreamActiveOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import core_demand, rule_holds
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SuperKernelOp
from skir.dialects.superkernel_sync import ICACHE_UNITS
from skir.errors import ExitCode, SkirError
from skir.sim.costs import Costs
from skir.sim.sk_run import ProgramSpan, SuperKernelRun
from skir.sim.stamp import COMPUTE, DISPATCH, IDLE, SYNC, ZERO, Stamp, add, later, wait_until

MODES = ("eager", "aclgraph", "aclgraph_es", "superkernel")
BASELINES = ("aclgraph", "aclgraph_es")
"""The modes without SuperKernels a SuperKernel is judged against: the fastest of them is the
fair baseline (docs/design.md §7)."""


@dataclass
class TaskSpan:
    """One task as simulated: `ready` (dependencies met), `start` (running), `end`."""

    node: int
    stream: str
    seq: int
    kind: str
    """kernel, superkernel, event, value, opaque, marker or disabled."""
    name: str
    ready: float
    start: float
    end: float
    ready_stamp: Stamp = ZERO
    end_stamp: Stamp = ZERO
    program: list[ProgramSpan] = field(default_factory=list)
    """For a SuperKernel: what each core type did."""
    program_flows: list[tuple[int, int]] = field(default_factory=list)
    """For a SuperKernel: (set, wait) indices into `program` of each in-kernel sync edge (a flag
    set and the wait that took its credit, a notify and the wait on its cell)."""


@dataclass
class Simulation:
    """The result of simulating one model in one mode."""

    mode: str
    tasks: list[TaskSpan]
    last: Stamp
    """The stamp of the task that ended last (its breakdown is the model's)."""
    host: list[tuple[str, int, float, float]] = field(default_factory=list)
    """Eager only: the host enqueueing each task, as (stream, seq, start, end)."""

    @property
    def makespan(self) -> float:
        return self.last[0]

    def device_op_time(self) -> float:
        """Summed device time of kernel and SuperKernel tasks (as a profiler's op-time sum)."""
        return sum(t.end - t.start for t in self.tasks if t.kind in ("kernel", "superkernel"))

    def dispatches(self) -> int:
        return sum(t.kind in ("kernel", "superkernel") for t in self.tasks)


def _kind(op: object) -> str:
    if isinstance(op, LaunchOp):
        return "kernel"
    if isinstance(op, LaunchSkOp):
        return "superkernel"
    if isinstance(op, EventTaskOp):
        return "event"
    if isinstance(op, ValueWriteOp | ValueWaitOp):
        return "value"
    if isinstance(op, OpaqueOp):
        return "opaque"
    if isinstance(op, StreamActiveOp):
        return "event"  # a synchronisation task: it starts its stream (docs/design.md §3)
    if isinstance(op, DisabledOp):
        return "disabled"
    if isinstance(op, CondOp):
        return "cond"
    return "marker"


class Engine:
    """Simulates `model` in `mode`; `durations` gives a kernel task's duration by (stream, seq)."""

    def __init__(self, model: ModelOp, mode: str, costs: Costs, durations: dict[tuple[str, int], float],
                 graph: TaskGraph | None = None, *, programs: bool = True):
        """`graph`: `model`'s task graph when the caller has it (the engine only reads it);
        `programs`: give each SuperKernel task what its cores did (`TaskSpan.program`, `.program_flows`)."""
        if mode not in MODES:
            raise SkirError(f"unknown simulation mode '{mode}' (one of {', '.join(MODES)})")
        self.model = model
        self.mode = mode
        self.costs = costs
        self.durations = durations
        self.programs = programs
        self.graph = graph if graph is not None and graph.model is model else TaskGraph(model)
        self.cores = {CoreType.AIC: model.aic_cores.data, CoreType.AIV: model.aiv_cores.data}
        self.free = dict(self.cores)
        self.kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
        self.superkernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, SuperKernelOp)}
        g = self.graph
        self.names = [s.sym_name.data for s in g.streams]
        self.kinds = [_kind(op) for op in g.ops]
        n = len(g)
        self.succ: list[list[int]] = [[] for _ in range(n)]
        self.remaining = [0] * n
        self.waiting: list[Stamp] = [ZERO] * n
        self.cell_waiters: dict[str, list[int]] = defaultdict(list)
        self.run_waiters: dict[str, list[tuple[int, SuperKernelRun]]] = defaultdict(list)
        self.fired: dict[str, Stamp] = {}
        self.spans: list[TaskSpan | None] = [None] * n
        self.ready: list[Stamp] = [ZERO] * n
        self.pending: list[tuple[int, Stamp]] = []
        self.heap: list[tuple[float, int, int, int]] = []
        self.counter = 0
        self.last: Stamp = ZERO
        self._ends: dict[int, Stamp] = {}
        self.host: list[tuple[str, int, float, float]] = []
        self.signals: list[tuple[str, Stamp]] = []
        self.hidden: dict[int, float] = {}
        """`aclgraph_es`: how much of a kernel's launch its early start hides (node -> us)."""
        self._build()

    # ---- set-up ---------------------------------------------------------------------

    def _build(self) -> None:
        g = self.graph
        for node in range(len(g)):
            nxt = g.next_on_stream(node)
            if nxt is not None:
                self.succ[node].append(nxt)
                self.remaining[nxt] += 1
        activates = g.activates
        for target, preds in g.cross_pred.items():
            waits = isinstance(g.ops[target], WaitOp | OpaqueOp)
            for p in preds:
                if waits or p in activates:  # cell edges are signals (below); an activated stream
                    self.succ[p].append(target)  # starts when its stream_active task has run
                    self.remaining[target] += 1
        for node, op in enumerate(g.ops):
            if isinstance(op, ValueWaitOp) and not rule_holds(op.rule.data, 0, op.value.data) and not (
                op.external is not None and not g.cells[op.cell.root_reference.data].satisfying
            ):  # an external wait nothing of the model satisfies is satisfied from outside
                self.cell_waiters[op.cell.root_reference.data].append(node)
                self.remaining[node] += 1
        self.satisfying = {w for use in g.cells.values() for w in use.satisfying}
        host = self.costs.graph_launch_us
        host_stamp = add(ZERO, DISPATCH, host) if self.mode != "eager" else ZERO
        for node in (g.by_seq if self.mode == "eager" else range(len(g))):
            if self.mode == "eager":
                kind = self.kinds[node]
                cost = (self.costs.host_launch_us if kind in ("kernel", "superkernel")
                        else 0.0 if kind in ("marker", "disabled") else self.costs.host_task_us)
                if cost > 0:
                    self.host.append((self.names[g.stream_of[node]], g.seq[node], host_stamp[0],
                                      host_stamp[0] + cost))
                host_stamp = add(host_stamp, DISPATCH, cost)
            self.ready[node] = host_stamp
        for node in range(len(g)):
            self.waiting[node] = self.ready[node]
            if self.remaining[node] == 0:
                self._push(self.ready[node][0], 0, node)

    def _push(self, time: float, action: int, node: int) -> None:
        self.counter += 1
        heapq.heappush(self.heap, (time, self.counter, action, node))

    # ---- the event loop -------------------------------------------------------------

    _BEGIN, _ACQUIRE, _END, _SIGNAL = 0, 1, 2, 3

    def run(self) -> Simulation:
        """Run to the end; a task left waiting is an internal error naming it."""
        while self.heap:
            _, _, action, node = heapq.heappop(self.heap)
            if action == self._BEGIN:
                self._begin(node)
            elif action == self._ACQUIRE:
                self._acquire(node, self.waiting[node])
            elif action == self._END:
                self._end(node)
            else:
                cell, stamp = self.signals[node]
                self._fire(cell, stamp)
        missing = [n for n, s in enumerate(self.spans) if s is None]
        if missing:
            raise SkirError(
                f"simulation ({self.mode}) stalled: {self.graph.name(missing[0])} never ran "
                f"({len(missing)} task(s) left); run sk-check on the module", ExitCode.INTERNAL)
        return Simulation(self.mode, [s for s in self.spans if s is not None], self.last, self.host)

    def _begin(self, node: int) -> None:
        stamp = self.waiting[node]
        self.ready[node] = stamp
        kind = self.kinds[node]
        c = self.costs
        if kind == "kernel":
            hide = self._early_start(node)
            self.waiting[node] = add(stamp, DISPATCH, max(0.0, c.dispatch_gap_us - hide))
            self._push(self.waiting[node][0], self._ACQUIRE, node)
            return
        if kind == "superkernel":
            self.waiting[node] = add(add(stamp, DISPATCH, c.dispatch_gap_us), DISPATCH, c.sk_entry_us)
            self._push(self.waiting[node][0], self._ACQUIRE, node)
            return
        cost, category = {
            "event": (c.event_us, SYNC), "value": (c.value_task_us, SYNC), "opaque": (c.opaque_us, COMPUTE),
            "marker": (c.marker_us, DISPATCH), "disabled": (0.0, DISPATCH),
            # a condition task runs a sub-model in its place: the durations give its makespan
            "cond": (self.durations.get((self.names[self.graph.stream_of[node]], self.graph.seq[node]), 0.0), COMPUTE),
        }[kind]
        end = add(stamp, category, cost)
        self._finish(node, stamp, end)

    def _early_start(self, node: int) -> float:
        """`aclgraph_es`: the part of `node`'s launch hidden behind its stream predecessor, a
        kernel that lets it start early (0 in every other mode and after any other task)."""
        if self.mode != "aclgraph_es":
            return 0.0
        prev = self.graph.prev_on_stream(node)
        if prev is None or self.kinds[prev] != "kernel":
            return 0.0
        before = self._duration(self.names[self.graph.stream_of[prev]], self.graph.seq[prev])
        hide = min(self.costs.early_start_overlap_us, before / 2)
        self.hidden[node] = hide
        return hide

    def _demand(self, node: int) -> tuple[int, int]:
        op = self.graph.ops[node]
        if isinstance(op, LaunchSkOp):
            sk = self.superkernels[op.sk.root_reference.data]
            aic, aiv = core_demand(sk.type, sk.blocks.data)
        else:
            assert isinstance(op, LaunchOp)
            kernel = self.kernels[op.kernel.root_reference.data]
            aic, aiv = core_demand(kernel.type, op.blocks.data)
        return min(aic, self.cores[CoreType.AIC]), min(aiv, self.cores[CoreType.AIV])

    def _fits(self, demand: tuple[int, int]) -> bool:
        return bool(demand[0] <= self.free[CoreType.AIC] and demand[1] <= self.free[CoreType.AIV])

    def _acquire(self, node: int, stamp: Stamp) -> None:
        demand = self._demand(node)
        if not self._fits(demand) or self.pending:
            self.pending.append((node, stamp))
            self._drain(stamp[0])
            return
        self._take(node, stamp, demand)

    def _take(self, node: int, stamp: Stamp, demand: tuple[int, int]) -> None:
        self.free[CoreType.AIC] -= demand[0]
        self.free[CoreType.AIV] -= demand[1]
        op = self.graph.ops[node]
        if isinstance(op, LaunchOp):
            kernel = self.kernels[op.kernel.root_reference.data]
            code = None if kernel.code_bytes is None else kernel.code_bytes.data
            cap = ICACHE_UNITS[CoreType.AIC if demand[0] else CoreType.AIV] * 2048
            miss = self.costs.icache_miss(code, cap)
            d = self._duration(self.names[self.graph.stream_of[node]], op.seq.data)
            hide = self.hidden.get(node)
            if hide is not None:  # aclgraph_es: the rest of the overlap hides the miss; the handshake
                miss = max(0.0, miss - max(0.0, hide - self.costs.dispatch_gap_us))
                stamp = add(stamp, SYNC, self.costs.early_start_us)
            end = add(add(stamp, DISPATCH, miss), COMPUTE, d)
            self.waiting[node] = stamp
            self._push(end[0], self._END, node)
            self.spans[node] = self._span(node, stamp, end)
            self._ends[node] = end
            return
        assert isinstance(op, LaunchSkOp)
        sk = self.superkernels[op.sk.root_reference.data]
        run = SuperKernelRun(sk, self.kernels, self._duration, self.costs, stamp, self.fired.get,
                             record=self.programs)
        self.waiting[node] = stamp
        self._advance(node, run)

    def _duration(self, stream: str, seq: int) -> float:
        return self.durations.get((stream, seq), self.costs.default_duration_us)

    def _advance(self, node: int, run: SuperKernelRun) -> None:
        for cell, stamp in run.advance():
            self.signals.append((cell, stamp))
            self._push(stamp[0], self._SIGNAL, len(self.signals) - 1)
        if run.finished is not None:
            end = run.finished
            self.spans[node] = self._span(node, self.waiting[node], end)
            self.spans[node].program = run.spans  # type: ignore[union-attr]
            self.spans[node].program_flows = run.flows  # type: ignore[union-attr]
            self._ends[node] = end
            self._push(end[0], self._END, node)
        else:
            assert run.blocked_on is not None
            self.run_waiters[run.blocked_on].append((node, run))

    def _drain(self, now: float) -> None:
        """Start waiting tasks, in order, that fit the free cores."""
        kept = []
        for node, stamp in self.pending:
            demand = self._demand(node)
            if self._fits(demand):
                self._take(node, wait_until(stamp, now, IDLE), demand)
            else:
                kept.append((node, stamp))
        self.pending = kept

    def _end(self, node: int) -> None:
        end = self._ends.pop(node)
        demand = self._demand(node)
        self.free[CoreType.AIC] += demand[0]
        self.free[CoreType.AIV] += demand[1]
        self._release(node, end)
        self._drain(end[0])

    def _finish(self, node: int, start: Stamp, end: Stamp) -> None:
        self.spans[node] = self._span(node, start, end)
        self._release(node, end)

    def _release(self, node: int, end: Stamp) -> None:
        self.last = later(self.last, end)
        for nxt in self.succ[node]:
            self._satisfy(nxt, end)
        op = self.graph.ops[node]
        if node in self.satisfying and isinstance(op, ValueWriteOp):
            self._fire(op.cell.root_reference.data, end)

    def _satisfy(self, node: int, stamp: Stamp) -> None:
        self.waiting[node] = later(self.waiting[node], stamp)
        self.remaining[node] -= 1
        if self.remaining[node] == 0:
            self._push(self.waiting[node][0], self._BEGIN, node)

    def _fire(self, cell: str, stamp: Stamp) -> None:
        if cell in self.fired:
            return
        self.fired[cell] = stamp
        for node in self.cell_waiters.pop(cell, []):
            self._satisfy(node, stamp)
        for node, run in self.run_waiters.pop(cell, []):
            self._advance(node, run)

    def _span(self, node: int, start: Stamp, end: Stamp) -> TaskSpan:
        g = self.graph
        op = g.ops[node]
        kind = self.kinds[node]
        if isinstance(op, LaunchOp):
            name = op.kernel.root_reference.data
        elif isinstance(op, LaunchSkOp):
            name = op.sk.root_reference.data
        elif isinstance(op, EventTaskOp):
            name = f"{op.name.split('.')[-1]} @{op.event.root_reference.data}"
        elif isinstance(op, ValueWriteOp | ValueWaitOp):
            name = f"{op.name.split('.')[-1]} @{op.cell.root_reference.data}"
        elif isinstance(op, OpaqueOp):
            name = op.kind.data.value
        else:
            name = op.name.split(".")[-1]
        return TaskSpan(node, self.names[g.stream_of[node]], op.seq.data, kind, name,
                        self.ready[node][0], start[0], end[0], self.ready[node], end)


def durations_of(module: ModuleOp | ModelOp) -> dict[tuple[str, int], float]:
    """(stream, seq) -> duration of every kernel task that has one (disabled slots included)."""
    from skir.dialects.aclgraph import StreamOp

    model = module if isinstance(module, ModelOp) else next(op for op in module.ops if isinstance(op, ModelOp))
    found: dict[tuple[str, int], float] = {}
    for stream in model.body.block.ops:
        if not isinstance(stream, StreamOp):
            continue
        name = stream.sym_name.data
        for task in stream.body.block.ops:
            if isinstance(task, LaunchOp):
                if task.duration is not None:
                    found[(name, task.seq.data)] = task.duration.data
                continue
            kind, was = task.properties.get("was_kind"), task.properties.get("was")
            if isinstance(kind, StringAttr) and kind.data == "launch" and isinstance(was, DictionaryAttr):
                duration = was.data.get("duration")
                if isinstance(duration, FloatData):
                    found[(name, task.seq.data)] = duration.data
    return found


def simulate(model: ModelOp, mode: str, costs: Costs,
             durations: dict[tuple[str, int], float] | None = None,
             hook: Callable[[Engine], None] | None = None, graph: TaskGraph | None = None, *,
             programs: bool = True) -> Simulation:
    """Simulate `model` in `mode` (eager and aclgraph on the original, superkernel on the
    rewritten); `graph` is `model`'s task graph if the caller has it; without `programs` a
    SuperKernel task's `program` and `program_flows` stay empty."""
    engine = Engine(model, mode, costs, durations if durations is not None else durations_of(model), graph,
                    programs=programs)
    if hook is not None:
        hook(engine)
    return engine.run()


def comm_durations(module: ModuleOp | ModelOp, costs: Any) -> dict[tuple[str, int], float]:
    """(stream, seq) -> the duration of every communication kernel task (disabled slots and
    SuperKernel hosts included): `comm_latency_us` + its bytes / `comm_gbps` (its `bytes`, else
    the sizes of the buffers its `out` params write, as far as the model declares them)."""
    from skir.analysis.graph.data_deps import launches_by_seq
    from skir.dialects.aclgraph import StreamOp
    from skir.dialects.aclgraph_decls import BufferOp, KernelOp
    from skir.dialects.aclgraph_enums import ParamRole

    model = module if isinstance(module, ModelOp) else next(op for op in module.ops if isinstance(op, ModelOp))
    sizes = {op.sym_name.data: op.size.data for op in model.body.block.ops
             if isinstance(op, BufferOp) and op.size is not None}
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    streams = [op for op in model.body.block.ops if isinstance(op, StreamOp)]
    launches = launches_by_seq(streams)
    found: dict[tuple[str, int], float] = {}
    for stream in streams:
        for task in stream.body.block.ops:
            launch = launches.get(task.seq.data)
            if launch is None or launch.comm is None:
                continue
            if launch.comm_bytes is not None:
                size = launch.comm_bytes.data
            else:
                roles = kernels[launch.kernel.root_reference.data].roles or ()
                args = [a.root_reference.data for a in launch.args.data] if launch.args is not None else []
                size = sum(sizes.get(a, 0) for a, r in zip(args, roles, strict=False)
                           if r in (ParamRole.OUT, ParamRole.INOUT))
            found[(stream.sym_name.data, task.seq.data)] = costs.comm_latency_us + size / (costs.comm_gbps * 1e3)
    return found
