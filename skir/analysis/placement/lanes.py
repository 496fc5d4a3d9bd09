"""Lanes (`placement=auto`): independent chains of a queue SuperKernel on disjoint cores, each
ordered by its own barrier restricted to its cores.

A **region** is a run of one core type's program in a queue SuperKernel made only of
placeable sub-tasks of one single-type class (aiv on the AIVs, aic on the AICs) and the
all-core barriers of that type between them (docs/design.md §3 "Lanes"). Its sub-tasks fall
into **lanes**: the classes of "depends on" within the region (no dependency joins two lanes).
Today every barrier of the region stops every core until the slowest sub-task before it ends.
With lanes side by side, lane `j` on cores `[F_j, F_j + w_j)` (`w_j` its widest sub-task), each
barrier of the region becomes, for each lane with a sub-task before it and one after it since
its last round, a **round** of that lane: a mode-0 set and wait of the lane's own flag id,
guarded to the lane's cores. A mode-0 round completes only when every core of the type has set,
so the cores outside the lane **arrive early**: at the region's start they set the lane's id
once per round of the lane, and at its end they take the rounds' credits (the drain). A lane
then waits for its own sub-tasks only, and the lanes run side by side across the barriers.
After the region an all-core barrier of the type orders whatever follows after all of it (unless
one follows already or the program ends).

A **mixed** region (found after the single-type ones, on what they left) is a run of the whole
program of placeable aic and aiv sub-tasks, the all-core barriers of either type and unguarded
mode-2 flag ops between them, holding sub-tasks of both types (no mix sub-task: the cross-core
self-test after one must not find a lane's credits pending). Its lanes are laid out by whole
blocks (lane `j` on blocks `[B_j, B_j + b_j)`: the AICs of those blocks and their AIVs), each
barrier of type T becomes a round on T of each lane with a sub-task on T before it and any
sub-task after it, and the cores of each type outside a lane arrive early and drain. A mode-2
pair joins the AIC and the AIVs of one block, so it stays as it is: each block waits only on
its own; an all-core barrier closes the region on each type it touched.

Each lane needs a flag id nothing else in the SuperKernel uses (not 11-14, no member's
`sync_flags`), and at most 15 rounds (a core outside it holds at most that many credits).
Regions reuse the same ids: by a region's end every core has set each of its ids equally often
and taken every credit, so the next region's rounds count from even. The
decision is the cost model of groups: the busiest core's time over the region now (per level,
the sub-tasks' durations on shared cores, plus a barrier each) against the slowest lane's (its
sub-tasks, `placement_us` for each off core 0, a set and a wait per round) plus the early
arrivals, drains and closing barrier; lanes are formed only when that is lower.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from skir.analysis.placement.placement import busiest, placeable, shelves
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass
from skir.dialects.hardware import BARRIER_TYPE, CORE_FACTS, CoreType
from skir.dialects.superkernel import (
    BARRIER_TYPES,
    BarrierOp,
    SetFlagOp,
    SkForm,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
)
from skir.dialects.superkernel_flags import FLAG_IDS, MAX_CREDITS, RESERVED_FLAGS

TYPE_OF_CLASS = {CoreClass.AIV: CoreType.AIV, CoreClass.AIC: CoreType.AIC}
TRIM = 3
"""Levels a region may leave out at each end of a run (a fork's root, a join), so a run of L
levels is judged in at most 16 windows."""


@dataclass(frozen=True)
class LaneCosts:
    """What the decision charges (µs; the simulator's costs of the same names). `barrier_us`
    is per core type: an all-core barrier of a type costs that type's `CoreFacts.barrier_cost`
    (`barrier_all_aiv_us`, `barrier_all_aic_us`)."""

    placement_us: float
    barrier_us: dict[CoreType, float]
    flag_set_us: float
    flag_wait_us: float


@dataclass(frozen=True)
class Lane:
    """One lane: its sub-tasks (program order), its units (cores of a single-type region,
    blocks of a mixed one), its flag and the barriers at which it has a round."""

    subtasks: tuple[SubtaskOp, ...]
    first: int
    width: int
    flag: int
    rounds: tuple[SkProgramOp, ...]


@dataclass(frozen=True)
class Region:
    """A region worth splitting into lanes (see the module docstring)."""

    start: SubtaskOp
    """Its first sub-task: the early arrivals go before it."""
    end: SubtaskOp
    """Its last sub-task: the drains (and the closing barriers) go after it."""
    barriers: dict[SkProgramOp, CoreType]
    """The core type of each barrier the lanes' rounds replace."""
    close: tuple[CoreType, ...]
    """The core types an all-core barrier must close it on (none follows in their programs)."""
    lanes: tuple[Lane, ...]
    units: int
    """The units lanes are laid out in: the cores of the type, or the blocks of a mixed region."""
    scale: dict[CoreType, int]
    """Cores of each type it touches per unit (the AIVs a block, for the AIVs of a mixed region)."""
    placed: dict[SubtaskOp, int] = field(default_factory=dict)
    """Sub-task -> its first core (`at`), for each member off core 0."""
    before_us: float = 0.0
    after_us: float = 0.0


@dataclass
class _Run:
    """A run of ops a region may be cut from: per core type it spans the cores a unit holds, the
    units, and its ops."""

    scale: dict[CoreType, int]
    units: int
    ops: list[SkProgramOp]


Neighbours = dict[CoreType, dict[SkProgramOp, SkProgramOp | None]]
"""Per core type, op -> the nearest op of that type's program on one side (`_neighbours`)."""


def _neighbours(ops: list[SkProgramOp]) -> Neighbours:
    """Per type, op -> the nearest op of that type's program met walking `ops` from it (not
    counting itself; None past the end)."""
    out: Neighbours = {c: {} for c in CoreType}
    upcoming: dict[CoreType, SkProgramOp | None] = dict.fromkeys(CoreType)
    for op in ops:
        for core in CoreType:
            out[core][op] = upcoming[core]
        for core in op.core_set():
            upcoming[core] = op
    return out


def _ordered_before(op: SkProgramOp | None, core: CoreType) -> bool:
    """Whether everything of `core` before `op` is ordered before everything after it on every
    core of the type: `op` is an all-core barrier of that type, or there is nothing before."""
    return op is None or (type(op) is BarrierOp and core in BARRIER_TYPES.get(op.kind.data, ()))


def _subtask_fits(sk: SuperKernelOp, kernels: dict[str, KernelOp], op: SkProgramOp) -> bool:
    return type(op) is SubtaskOp and op.first is None and placeable(sk, op, kernels[op.kernel.root_reference.data])


def _single_runs(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> list[_Run]:
    """Each maximal run of one type's program of placeable single-type sub-tasks and that type's
    barriers."""
    out = []
    for core in sk.core_types():
        run: list[SkProgramOp] = []
        for op in [*sk.program_for(core), None]:
            if op is not None and ((_subtask_fits(sk, kernels, op) and TYPE_OF_CLASS.get(op.cores.data) is core)  # type: ignore[attr-defined]
                                   or (type(op) is BarrierOp and op.kind.data is CORE_FACTS[core].barrier and run)):
                run.append(op)
                continue
            if run:
                out.append(_Run({core: 1}, sk.cores()[core], run))
            run = []
    return out


def _mixed_runs(sk: SuperKernelOp, kernels: dict[str, KernelOp], taken: set[SkProgramOp]) -> list[_Run]:
    """Each maximal run of the whole program of placeable sub-tasks of any class, all-core
    barriers and unguarded mode-2 flag ops, none in a region already (`taken`)."""
    types = sk.core_types()
    if len(types) < 2:
        return []
    mode2 = {op.flag.data for op in sk.program() if isinstance(op, SetFlagOp) and op.mode.data == 2}
    other = {op.flag.data for op in sk.program() if isinstance(op, SetFlagOp) and op.mode.data != 2}
    ratio = max(1, sk.cores()[CoreType.AIV] // sk.blocks.data)
    out: list[_Run] = []
    run: list[SkProgramOp] = []
    for op in [*sk.program(), None]:
        fits = op is not None and op not in taken and (
            (_subtask_fits(sk, kernels, op) and op.cores.data is not CoreClass.MIX)  # type: ignore[attr-defined]
            or (type(op) is BarrierOp and op.kind.data in BARRIER_TYPE and run)
            or (isinstance(op, SetFlagOp) and op.mode.data == 2 and op.guard() is None and run)
            or (isinstance(op, WaitFlagOp) and op.guard() is None and op.flag.data in mode2
                and op.flag.data not in other and run))
        if fits:
            assert op is not None
            run.append(op)
            continue
        if len({c for o in run if type(o) is SubtaskOp for c in o.core_set()}) == 2:
            out.append(_Run({CoreType.AIC: 1, CoreType.AIV: ratio}, sk.blocks.data, run))
        run = []
    return out


def _lanes_of(run: list[SkProgramOp]) -> list[list[SubtaskOp]]:
    """The sub-tasks of a run grouped by "depends on" within it, in order of their first sub-task."""
    subs = [op for op in run if type(op) is SubtaskOp]
    parent = {s: s for s in subs}

    def find(x: SubtaskOp) -> SubtaskOp:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for s in subs:
        for d in s.dep_subtasks():
            if d in parent:
                parent[find(s)] = find(d)
    groups: dict[SubtaskOp, list[SubtaskOp]] = {}
    for s in subs:
        groups.setdefault(find(s), []).append(s)
    return list(groups.values())


def _free_flags(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> list[int]:
    """Flag ids no op of `sk` and no member kernel uses, from 15 down."""
    used = {op.flag.data for op in sk.body.block.ops if isinstance(op, SetFlagOp | WaitFlagOp)}
    for sub in sk.subtasks():
        flags = kernels[sub.kernel.root_reference.data].sync_flags
        if flags is not None:
            used |= {f.data for f in flags}
    return [f for f in reversed(FLAG_IDS) if f not in RESERVED_FLAGS and f not in used]


def plan_lanes(sk: SuperKernelOp, kernels: dict[str, KernelOp], duration: Callable[[SubtaskOp], float],
               costs: LaneCosts) -> list[Region]:
    """The regions of `sk` worth splitting into lanes (none for a chain SuperKernel): in each
    run, the window of levels (up to `TRIM` left out at either end) that gains most; the
    single-type runs first, then the mixed ones on what they left."""
    if sk.form.data is not SkForm.QUEUE:
        return []
    free = _free_flags(sk, kernels)
    program = sk.program()
    nexts = _neighbours(program[::-1])
    prevs = _neighbours(program)
    pairs = _flag_pairs(program)

    def best(run: _Run) -> Region | None:
        return _best(sk, run, free, (prevs, nexts), pairs, duration, costs)

    out = [r for run in _single_runs(sk, kernels) if (r := best(run))]
    position = {op: p for p, op in enumerate(program)}
    taken = {op for r in out for op in program[position[r.start]:position[r.end] + 1]}
    out += [r for run in _mixed_runs(sk, kernels, taken) if (r := best(run))]
    return out


def _best(sk: SuperKernelOp, run: _Run, free: list[int], around: tuple[Neighbours, Neighbours],
          pairs: dict[SkProgramOp, SkProgramOp | None], duration: Callable[[SubtaskOp], float],
          costs: LaneCosts) -> Region | None:
    """The window of `run` whose region gains most, if any does (`around`: each op's previous
    and next op of each type)."""
    prevs, nexts = around
    subs = [p for p, op in enumerate(run.ops) if type(op) is SubtaskOp]
    if len(subs) < 2:
        return None
    levels: list[list[int]] = [[]]  # positions of the sub-tasks between barriers
    for p, op in enumerate(run.ops):
        if type(op) is SubtaskOp:
            levels[-1].append(p)
        elif type(op) is BarrierOp and levels[-1]:
            levels.append([])
    if not levels[-1]:
        levels.pop()
    best: Region | None = None
    last = len(levels) - 1
    for i in range(min(TRIM, last) + 1):
        for j in range(last, max(i, last - TRIM - 1), -1):
            lo, hi = levels[i][0], levels[j][-1]
            window = run.ops[lo:hi + 1]
            if not _closed(window, prevs, pairs):
                continue
            follows = {c: nexts[c][run.ops[hi]] for c in run.scale}  # the op after its last sub-task
            region = _region(sk, run, window, follows, free, duration, costs)
            if region is not None and (best is None or region.before_us - region.after_us >
                                       best.before_us - best.after_us):
                best = region
    return best


def _flag_pairs(program: list[SkProgramOp]) -> dict[SkProgramOp, SkProgramOp | None]:
    """Set -> the wait that takes its credit, None if none does: the k-th set of a
    flag id toward a core type pairs with that type's k-th wait of the id, each counted in its own
    type's program (as the lowering pairs them; a wait may stand before its set in the whole
    program's order)."""
    sets: dict[tuple[int, CoreType], list[SkProgramOp]] = defaultdict(list)
    waits: dict[tuple[int, CoreType], list[SkProgramOp]] = defaultdict(list)
    for op in program:
        if isinstance(op, SetFlagOp):
            sets[(op.flag.data, op.credited())].append(op)
        elif isinstance(op, WaitFlagOp):
            waits[(op.flag.data, op.core.data)].append(op)
    return {op: (waits[key][k] if k < len(waits[key]) else None)
            for key, ops in sets.items() for k, op in enumerate(ops)}


def _closed(window: list[SkProgramOp], prevs: Neighbours,
            pairs: dict[SkProgramOp, SkProgramOp | None]) -> bool:
    """Whether the barriers a window would replace order only its own work: on each type, an
    all-core barrier (or the program's start) comes before the window's first sub-task of that
    type with only flag ops between (a barrier there *leads* and stays), so everything before
    is done on every core of the type; and the wait of every set that follows work of its type
    in the window is in the window too, so no wait after it relies on a barrier inside it."""
    firsts = _first_subtasks(window)
    for core, sub in firsts.items():
        before = prevs[core][sub]
        while isinstance(before, SetFlagOp | WaitFlagOp):  # flags do no work of the type
            before = prevs[core][before]
        if not _ordered_before(before, core):
            return False
    inside = set(window)
    started: set[CoreType] = set()
    for op in window:
        if type(op) is SubtaskOp:
            started |= set(op.core_set())
        elif isinstance(op, SetFlagOp) and op.core.data in started and pairs.get(op) not in inside:
            return False
    return True


def _first_subtasks(window: list[SkProgramOp]) -> dict[CoreType, SkProgramOp]:
    """Per core type, the window's first sub-task that runs on it."""
    first: dict[CoreType, SkProgramOp] = {}
    for op in window:
        if type(op) is SubtaskOp:
            for core in op.core_set():
                first.setdefault(core, op)
    return first


def _units(run: _Run, sub: SubtaskOp) -> int:
    """The units a sub-task takes: its blocks, or its AIVs' blocks for an aiv sub-task of a mixed region."""
    n = int(sub.blocks.data)
    if sub.cores.data is CoreClass.AIV and CoreType.AIC in run.scale:
        return -(-n // run.scale[CoreType.AIV])
    return n


def _region(sk: SuperKernelOp, run: _Run, window: list[SkProgramOp], follows: dict[CoreType, SkProgramOp | None],
            free: list[int], duration: Callable[[SubtaskOp], float], costs: LaneCosts) -> Region | None:
    """The region of one window of a run, if its lanes fit and gain (see the module docstring)."""
    started: set[CoreType] = set()
    barriers: dict[SkProgramOp, CoreType] = {}
    for op in window:  # a barrier before the window's first sub-task of its type stays (it leads)
        if type(op) is SubtaskOp:
            started |= set(op.core_set())
        elif type(op) is BarrierOp and BARRIER_TYPE[op.kind.data] in started:
            barriers[op] = BARRIER_TYPE[op.kind.data]
    if not barriers:
        return None
    groups = _lanes_of(window)
    widths = [max(_units(run, s) for s in g) for g in groups]
    if len(groups) < 2 or sum(widths) > run.units or len(groups) > len(free):
        return None
    lane_of = {s: j for j, g in enumerate(groups) for s in g}
    mixed = len(run.scale) > 1
    rounds: list[list[SkProgramOp]] = [[] for _ in groups]
    pending = [set[CoreType]() for _ in groups]
    remaining = [len(g) for g in groups]
    for op in window:
        if type(op) is SubtaskOp:
            j = lane_of[op]
            pending[j] |= set(op.core_set())
            remaining[j] -= 1
        elif type(op) is BarrierOp and op in barriers:
            core = barriers[op]
            for j in range(len(groups)):
                # in a mixed region a consumer may come before the barrier that orders it (the
                # other type's flag wait is placed ahead of the set), so every barrier after a
                # lane's work on its type is a round of the lane
                if core in pending[j] and (remaining[j] or mixed):
                    rounds[j].append(op)
                    pending[j].discard(core)
    per_type = [max((sum(1 for b in r if barriers[b] is c) for c in run.scale), default=0) for r in rounds]
    if any(n > MAX_CREDITS for n in per_type):
        return None
    firsts = [sum(widths[:j]) for j in range(len(groups))]
    touched = {c for op in window if type(op) in (SubtaskOp, BarrierOp) for c in op.core_set() if c in run.scale}
    close = tuple(c for c in run.scale if c in touched and follows[c] is not None and not (
        type(follows[c]) is BarrierOp and c in BARRIER_TYPES.get(follows[c].kind.data, ())))  # type: ignore[union-attr]
    before = _serial_time(window, run, duration, costs)
    lane_times = [sum(duration(s) + (costs.placement_us if f else 0.0) for s in g)
                  + len(r) * (costs.flag_set_us + costs.flag_wait_us)
                  for g, f, r in zip(groups, firsts, rounds)]
    arrivals = sum(len(r) for r in rounds) * (costs.flag_set_us + costs.flag_wait_us)
    after_us = max(lane_times) + arrivals + sum(costs.barrier_us[c] for c in close)
    if after_us >= before:
        return None
    placed: dict[SubtaskOp, int] = {}
    for g, f in zip(groups, firsts):
        for s in g:
            at = f * run.scale[CoreType.AIV] if s.cores.data is CoreClass.AIV and CoreType.AIC in run.scale else f
            if at:
                placed[s] = at
    lanes = tuple(Lane(tuple(g), f, w, free[j], tuple(r))
                  for j, (g, f, w, r) in enumerate(zip(groups, firsts, widths, rounds)))
    subs = [op for op in window if type(op) is SubtaskOp]
    assert isinstance(subs[0], SubtaskOp) and isinstance(subs[-1], SubtaskOp)
    return Region(subs[0], subs[-1], barriers, close, lanes, run.units, dict(run.scale), placed,
                  before, after_us)


def _serial_time(window: list[SkProgramOp], run: _Run, duration: Callable[[SubtaskOp], float],
                 costs: LaneCosts) -> float:
    """The busiest core's time over a window as it stands: per level (the sub-tasks between two
    barriers), the better of one after another from the first unit and shelves, plus each barrier."""
    total, level = 0.0, []
    for op in [*window, None]:
        if type(op) is SubtaskOp:
            level.append(op)
            continue
        if op is not None and type(op) is not BarrierOp:
            continue
        blocks = [_units(run, s) for s in level]
        times = [duration(s) for s in level]
        plain = busiest(run.units, [(0, n, t) for n, t in zip(blocks, times)])
        spread = busiest(run.units, [(f, n, t + (costs.placement_us if f else 0.0))
                                     for f, n, t in zip(shelves(run.units, blocks), blocks, times)])
        total += min(plain, spread) + (_barrier_cost(op, costs) if op is not None else 0.0)
        level = []
    return total


def _barrier_cost(op: SkProgramOp, costs: LaneCosts) -> float:
    """What an all-core barrier of a window costs: its core type's barrier (a region's barriers
    are all-core barriers of one type each)."""
    assert type(op) is BarrierOp
    return sum(costs.barrier_us[c] for c in BARRIER_TYPES[op.kind.data])


def lane_ops(region: Region) -> tuple[list[SkProgramOp], dict[SkProgramOp, list[SkProgramOp]], list[SkProgramOp]]:
    """The ops a region gains: the early arrivals (before its first sub-task), each replaced
    barrier's rounds (by barrier) and the drains (after its last sub-task, the closing
    barriers last)."""
    arrive: list[SkProgramOp] = []
    drain: list[SkProgramOp] = []
    rounds: dict[SkProgramOp, list[SkProgramOp]] = {b: [] for b in region.barriers}
    for lane in region.lanes:
        for core, scale in region.scale.items():
            count = sum(1 for b in lane.rounds if region.barriers[b] is core)
            own = range(lane.first * scale, (lane.first + lane.width) * scale)
            outside = [r for r in (range(0, own.start), range(own.stop, region.units * scale)) if len(r)]
            for span in outside:
                arrive += [SetFlagOp(0, lane.flag, CORE_FACTS[core].flag_pipe, core, span) for _ in range(count)]
                drain += [WaitFlagOp(lane.flag, core, span) for _ in range(count)]
        for b in lane.rounds:
            core = region.barriers[b]
            own = range(lane.first * region.scale[core], (lane.first + lane.width) * region.scale[core])
            rounds[b] += [SetFlagOp(0, lane.flag, CORE_FACTS[core].flag_pipe, core, own),
                          WaitFlagOp(lane.flag, core, own)]
    drain += [BarrierOp(CORE_FACTS[core].barrier) for core in region.close]
    return arrive, rounds, drain
