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

from collections.abc import Callable
from dataclasses import dataclass

from skir.analysis.placement import busiest, placeable, shelves
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass
from skir.dialects.hardware import CoreType, Pipe
from skir.dialects.superkernel import (
    BARRIER_TYPES,
    BarrierKind,
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
BARRIER_OF = {CoreType.AIV: BarrierKind.ALL_AIV, CoreType.AIC: BarrierKind.ALL_AIC}
ROUND_PIPE = {CoreType.AIV: Pipe.MTE3, CoreType.AIC: Pipe.FIX}
"""The pipe a lane's set waits on: the last writes of a vector core (MTE3) or a cube core (FIX), as the barriers'."""


@dataclass(frozen=True)
class LaneCosts:
    """What the decision charges (µs; the simulator's costs of the same names)."""

    placement_us: float
    barrier_us: float
    flag_set_us: float
    flag_wait_us: float


@dataclass(frozen=True)
class Lane:
    """One lane: its sub-tasks (ids, program order), its cores, its flag and the barriers (ids)
    at which it has a round."""

    ids: tuple[int, ...]
    first: int
    width: int
    flag: int
    rounds: tuple[int, ...]


@dataclass(frozen=True)
class Region:
    """A region worth splitting into lanes (see the module docstring)."""

    core: CoreType
    start: int
    """Id of its first sub-task: the early arrivals go before it."""
    end: int
    """Id of its last sub-task: the drains (and the closing barrier) go after it."""
    barriers: tuple[int, ...]
    """Ids of the barriers the lanes' rounds replace."""
    close: bool
    """Whether an all-core barrier must close it (none follows in the type's program)."""
    lanes: tuple[Lane, ...]
    cores: int
    """The cores of its type the SuperKernel has."""
    before_us: float
    after_us: float


Run = tuple[CoreType, list[SkProgramOp], SkProgramOp | None]


def _runs(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> list[Run]:
    """Each maximal run of one type's program of placeable single-type sub-tasks and that type's
    barriers, trimmed to its first and last sub-task, with the op that follows it."""
    out = []
    for core in sk.core_types():
        program = sk.program_for(core)
        barrier = BARRIER_OF[core]
        run: list[SkProgramOp] = []
        for position, op in enumerate([*program, None]):
            fits = op is not None and (
                (type(op) is SubtaskOp and TYPE_OF_CLASS.get(op.cores.data) is core
                 and op.first is None and placeable(sk, op, kernels[op.kernel.root_reference.data]))
                or (type(op) is BarrierOp and op.kind.data is barrier and bool(run)))
            if fits:
                run.append(op)  # type: ignore[arg-type]
                continue
            trailing = 0
            while run and type(run[-1]) is BarrierOp:
                run.pop()
                trailing += 1
            if sum(type(o) is SubtaskOp for o in run) > 1 and any(type(o) is BarrierOp for o in run):
                end = position - trailing  # the op after the run's last sub-task
                out.append((core, run, program[end] if end < len(program) else None))
            run = []
    return out


def _lanes_of(run: list[SkProgramOp]) -> list[list[SubtaskOp]]:
    """The sub-tasks of a run grouped by "depends on" within it, in order of their first sub-task."""
    subs = [op for op in run if type(op) is SubtaskOp]
    parent = {s.ident: s.ident for s in subs}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for s in subs:
        for d in s.dep_ids:
            if d in parent:
                parent[find(s.ident)] = find(d)
    groups: dict[int, list[SubtaskOp]] = {}
    for s in subs:
        groups.setdefault(find(s.ident), []).append(s)
    return list(groups.values())


def _free_flags(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> list[int]:
    """Flag ids no op of `sk` and no member kernel uses, from 15 down."""
    used = {op.flag.data for op in sk.body.block.ops if isinstance(op, SetFlagOp | WaitFlagOp)}
    for sub in sk.subtasks():
        flags = kernels[sub.kernel.root_reference.data].sync_flags
        if flags is not None:
            used |= {f.data for f in flags}
    return [f for f in reversed(FLAG_IDS) if f not in RESERVED_FLAGS and f not in used]


TRIM = 3
"""Levels a region may leave out at each end of a run (a fork's root, a join), so a run of L
levels is judged in at most 16 windows."""


def _levels(run: list[SkProgramOp]) -> list[list[SubtaskOp]]:
    """The sub-tasks of a run between its barriers."""
    levels: list[list[SubtaskOp]] = [[]]
    for op in run:
        if type(op) is SubtaskOp:
            levels[-1].append(op)
        elif levels[-1]:
            levels.append([])
    return levels


def plan_lanes(sk: SuperKernelOp, kernels: dict[str, KernelOp], duration: Callable[[SubtaskOp], float],
               costs: LaneCosts) -> list[Region]:
    """The regions of `sk` worth splitting into lanes (none for a chain SuperKernel): in each
    run, the window of levels (up to `TRIM` left out at either end) that gains most."""
    if sk.form.data is not SkForm.QUEUE:
        return []
    free = _free_flags(sk, kernels)
    out = []
    for core, run, after in _runs(sk, kernels):
        levels = _levels(run)
        position = {id(op): p for p, op in enumerate(run)}
        first = [position[id(level[0])] for level in levels]
        last_op = [position[id(level[-1])] for level in levels]
        best: Region | None = None
        last = len(levels) - 1
        for i in range(min(TRIM, last) + 1):
            for j in range(last, max(i, last - TRIM - 1), -1):
                follows = run[last_op[j] + 1] if j < last else after  # the barrier after level j
                region = _region(sk, core, run[first[i]:last_op[j] + 1], follows, free, duration, costs)
                if region is not None and (best is None or region.before_us - region.after_us >
                                           best.before_us - best.after_us):
                    best = region
        if best is not None:
            out.append(best)
    return out


def _region(sk: SuperKernelOp, core: CoreType, run: list[SkProgramOp], after: SkProgramOp | None, free: list[int],
            duration: Callable[[SubtaskOp], float], costs: LaneCosts) -> Region | None:
    """The region of one window of a run, if its lanes fit and gain (see the module docstring)."""
    if not any(type(op) is BarrierOp for op in run):
        return None
    groups = _lanes_of(run)
    count = sk.cores()[core]
    widths = [max(s.blocks.data for s in g) for g in groups]
    if len(groups) < 2 or sum(widths) > count or len(groups) > len(free):
        return None
    lane_of = {s.ident: j for j, g in enumerate(groups) for s in g}
    rounds: list[list[int]] = [[] for _ in groups]
    pending = [False] * len(groups)
    remaining = [len(g) for g in groups]
    for op in run:
        if type(op) is SubtaskOp:
            j = lane_of[op.ident]
            pending[j] = True
            remaining[j] -= 1
        else:
            for j in range(len(groups)):
                if pending[j] and remaining[j]:
                    rounds[j].append(op.ident)
                    pending[j] = False
    if any(len(r) > MAX_CREDITS for r in rounds):
        return None
    firsts = [sum(widths[:j]) for j in range(len(groups))]
    before = _serial_time(run, count, duration, costs)
    close = after is not None and not (type(after) is BarrierOp and core in BARRIER_TYPES.get(after.kind.data, ()))
    lane_times = [sum(duration(s) + (costs.placement_us if f else 0.0) for s in g)
                  + len(r) * (costs.flag_set_us + costs.flag_wait_us)
                  for g, f, r in zip(groups, firsts, rounds)]
    arrivals = sum(len(r) for r in rounds) * (costs.flag_set_us + costs.flag_wait_us)
    after_us = max(lane_times) + arrivals + (costs.barrier_us if close else 0.0)
    if after_us >= before:
        return None
    lanes = tuple(Lane(tuple(s.ident for s in g), f, w, free[j], tuple(r))
                  for j, (g, f, w, r) in enumerate(zip(groups, firsts, widths, rounds)))
    subs = [op for op in run if type(op) is SubtaskOp]
    return Region(core, subs[0].ident, subs[-1].ident, tuple(op.ident for op in run if type(op) is BarrierOp),
                  close, lanes, count, before, after_us)


def _serial_time(run: list[SkProgramOp], cores: int, duration: Callable[[SubtaskOp], float],
                 costs: LaneCosts) -> float:
    """The busiest core's time over a run as it stands: per level (the sub-tasks between two
    barriers), the better of one after another from core 0 and shelves, plus each barrier."""
    total, level = 0.0, []
    for op in [*run, None]:
        if type(op) is SubtaskOp:
            level.append(op)
            continue
        blocks = [s.blocks.data for s in level]
        times = [duration(s) for s in level]
        plain = busiest(cores, [(0, n, t) for n, t in zip(blocks, times)])
        spread = busiest(cores, [(f, n, t + (costs.placement_us if f else 0.0))
                                 for f, n, t in zip(shelves(cores, blocks), blocks, times)])
        total += min(plain, spread) + (costs.barrier_us if op is not None else 0.0)
        level = []
    return total


def lane_ops(region: Region) -> tuple[list[SkProgramOp], dict[int, list[SkProgramOp]], list[SkProgramOp]]:
    """The ops a region gains: the early arrivals (before its first sub-task), each replaced
    barrier's rounds (by barrier id) and the drains (after its last sub-task, the closing
    barrier last)."""
    core = region.core
    pipe = ROUND_PIPE[core]
    arrive: list[SkProgramOp] = []
    drain: list[SkProgramOp] = []
    rounds: dict[int, list[SkProgramOp]] = {b: [] for b in region.barriers}
    for lane in region.lanes:
        own = range(lane.first, lane.first + lane.width)
        outside = [r for r in (range(0, own.start), range(own.stop, region.cores)) if len(r)]
        for span in outside:
            arrive += [SetFlagOp(0, 0, lane.flag, pipe, core, span) for _ in lane.rounds]
            drain += [WaitFlagOp(0, lane.flag, core, span) for _ in lane.rounds]
        for b in lane.rounds:
            rounds[b] += [SetFlagOp(0, 0, lane.flag, pipe, core, own), WaitFlagOp(0, lane.flag, core, own)]
    if region.close:
        drain.append(BarrierOp(0, BARRIER_OF[core]))
    return arrive, rounds, drain
