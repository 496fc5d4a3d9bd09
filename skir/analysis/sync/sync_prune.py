"""Which synchronisation of a lowered SuperKernel the rest already implies (`sk-prune-sync`).

*Queue* SuperKernels. Each dependency u -> v of the program (sub-tasks and lock accesses,
`skir.analysis.formation.sk_program.queue_nodes`) needs, per pair of core types (X of u, Y of v):

- X = Y: an all-X barrier between u and v in X's queue: an *interval* to stab. Intervals are
  stabbed greedily by right end with the latest existing barrier before it (optimal for
  interval stabbing with given points).
- X != Y: a kept mode-2 pair X -> Y whose producer is at or after u in X's queue and whose
  consumer is at or before v in Y's queue (the barrier right before the pair's set orders
  every X core's u before the set; v follows the wait). The pair is then said to *dominate*
  the dependency. Dependencies are covered in increasing consumer position, each, when no
  kept pair dominates it, by the pair with the latest producer among those whose consumer is
  no later than its own (a prefix maximum), which dominates every later one it can.

A kept pair keeps the barrier right before its set. Pairs are removed whole, so in each
direction and flag id the k-th set of a block still meets its k-th wait. Near-linear:
O(E log E) in the dependencies.

*Chain* SuperKernels. In the gap between two consecutive sub-tasks a barrier is dropped
when a later barrier of the same gap runs on at least its core types and no notify lies
between them (a notify needs the full barrier before it, docs/design.md §3 (f)), or when an earlier
one does and only notifies lie between them.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass

from xdsl.ir import Operation

from skir.analysis.formation.sk_program import program_nodes
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import class_types
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import (
    BARRIER_TYPES,
    BarrierKind,
    BarrierOp,
    EarlyStartSetOp,
    EarlyStartWaitOp,
    LockOp,
    NotifyOp,
    SetFlagOp,
    SkForm,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
)

_BARRIER_CORES = {**{kind: frozenset(types) for kind, types in BARRIER_TYPES.items()},
                  BarrierKind.PIPE_ALL: frozenset()}


class UnsyncedQueue(ValueError):
    """A queue SuperKernel holds a dependency that no barrier or flag pair keeps (its syncs
    were not placed and lowered): there is nothing to prune against."""


@dataclass
class PruneResult:
    """Sync ops (counted once per id) before and after pruning, and the sub-tasks."""

    before: int
    after: int
    subtasks: int


Pair = tuple[Operation, Operation]
"""The set and the wait of one cross-core flag pair."""
Candidate = tuple[int, int, int, Pair]
"""A flag pair in one direction: (wait position, producer position, set position, (set, wait))."""

_SYNC_KINDS = frozenset({BarrierOp, SetFlagOp, WaitFlagOp, EarlyStartSetOp, EarlyStartWaitOp})
"""The sync op classes (compared by type: an `isinstance` miss on an op class costs an ABC check)."""


def count_syncs(sk: SuperKernelOp) -> tuple[int, int]:
    """(sync ops, sub-tasks) of a SuperKernel."""
    syncs = subtasks = 0
    for op in sk.body.block.ops:
        kind = type(op)
        if kind is SubtaskOp:
            subtasks += 1
        elif kind in _SYNC_KINDS:
            syncs += 1
    return syncs, subtasks


def implied_syncs(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> set[Operation]:
    """The syncs of `sk` that the others imply (`sk-prune-sync` erases them)."""
    if sk.form.data is SkForm.CHAIN:
        return _prune_chain(sk)
    return _prune_queue(sk, kernels)


# ---- chain --------------------------------------------------------------------------------


def _prune_chain(sk: SuperKernelOp) -> set[Operation]:
    drop: set[Operation] = set()
    gap: list[SkProgramOp] = []
    for op in [*sk.program(), None]:
        if op is None or isinstance(op, SubtaskOp):
            drop |= _redundant_in_gap(gap)
            gap = []
        else:
            gap.append(op)
    return drop


def _redundant_in_gap(gap: list[SkProgramOp]) -> set[Operation]:
    """Barriers of one gap between sub-tasks that another barrier of the gap repeats.

    Backwards: a barrier a later one covers, with no notify between (the notify needs the
    earlier one). Forwards: a barrier an earlier one covers with only notifies between
    (nothing that must be ordered before the next sub-task ran since).
    """
    drop: set[Operation] = set()
    later: frozenset[CoreType] = frozenset()  # core types of the barriers after, up to a notify
    for op in reversed(gap):
        if isinstance(op, NotifyOp):
            later = frozenset()
        elif isinstance(op, BarrierOp):
            cores = _BARRIER_CORES[op.kind.data]
            if cores and cores <= later:
                drop.add(op)
            else:
                later = later | cores
    earlier: frozenset[CoreType] = frozenset()
    for op in gap:
        if isinstance(op, BarrierOp) and op not in drop:
            cores = _BARRIER_CORES[op.kind.data]
            if cores and cores <= earlier:
                drop.add(op)
            else:
                earlier = earlier | cores
        elif not isinstance(op, NotifyOp | BarrierOp):
            earlier = frozenset()
    return drop


# ---- queue --------------------------------------------------------------------------------


class _Queues:
    """Per core type: the ops of its program and the position of each node and sync in it."""

    def __init__(self, sk: SuperKernelOp):
        self.ops: dict[CoreType, list[SkProgramOp]] = {core: sk.program_for(core) for core in CoreType}
        self.pos: dict[CoreType, dict[Operation, int]] = {}
        for core, ops in self.ops.items():
            self.pos[core] = {op: i for i, op in enumerate(ops) if isinstance(op, SubtaskOp | LockOp)}

    def pairs(self) -> list[tuple[CoreType, int, int, Pair]]:
        """(source, set position, wait position, (set, wait)) of every flag pair, by FIFO order."""
        sets: dict[tuple[CoreType, int], list[tuple[int, Operation]]] = defaultdict(list)
        for core, ops in self.ops.items():
            for i, op in enumerate(ops):
                if type(op) is SetFlagOp:
                    sets[(core, op.flag.data)].append((i, op))
        taken: dict[tuple[CoreType, int], int] = defaultdict(int)
        out: list[tuple[CoreType, int, int, Pair]] = []
        for core, ops in self.ops.items():
            source = CoreType.AIV if core is CoreType.AIC else CoreType.AIC
            for i, op in enumerate(ops):
                if type(op) is WaitFlagOp:
                    key = (source, op.flag.data)
                    k = taken[key]
                    taken[key] += 1
                    if k < len(sets[key]):
                        set_pos, set_op = sets[key][k]
                        out.append((source, set_pos, i, (set_op, op)))
        return out


def _prune_queue(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> set[Operation]:
    q = _Queues(sk)
    program = [op for op in sk.program() if isinstance(op, SubtaskOp | LockOp)]
    by_key = dict(enumerate(program))

    intervals: dict[CoreType, list[tuple[int, int]]] = defaultdict(list)
    points: dict[tuple[CoreType, CoreType], list[tuple[int, int]]] = defaultdict(list)
    for node in program_nodes(program, {op: key for key, op in by_key.items()}):
        for dep in node.deps:
            for x in _types_of(by_key[dep]):
                for y in node.types:
                    u, v = q.pos[x][by_key[dep]], q.pos[y][by_key[node.key]]
                    if x is y:
                        intervals[x].append((u, v))
                    else:
                        points[(x, y)].append((u, v))
    keep: set[Operation] = set()
    chosen_barriers: dict[CoreType, list[int]] = {core: [] for core in CoreType}
    candidates: dict[tuple[CoreType, CoreType], list[Candidate]] = defaultdict(list)
    for source, set_pos, wait_pos, pair in q.pairs():
        target = CoreType.AIV if source is CoreType.AIC else CoreType.AIC
        producer = _last_node_before(q, source, set_pos)
        candidates[(source, target)].append((wait_pos, producer, set_pos, pair))
    for direction, pts in points.items():
        for _, set_pos, pair in _dominating_pairs(pts, candidates[direction]):
            keep.update(pair)
            barrier = _barrier_before(q, direction[0], set_pos)
            if barrier is not None:
                chosen_barriers[direction[0]].append(barrier)
    for core, ivs in intervals.items():
        chosen_barriers[core] = _stab(ivs, _barrier_positions(q, core), chosen_barriers[core])
    for core in CoreType:
        keep.update(q.ops[core][i] for i in chosen_barriers[core])
    return {op for ops in q.ops.values() for op in ops
            if isinstance(op, BarrierOp | SetFlagOp | WaitFlagOp) and op not in keep}


def _types_of(op: SubtaskOp | LockOp) -> tuple[CoreType, ...]:
    if isinstance(op, SubtaskOp):
        return class_types(op.cores.data)
    return (op.core.data,)


def _last_node_before(q: _Queues, core: CoreType, pos: int) -> int:
    ops = q.ops[core]
    for i in range(pos - 1, -1, -1):
        if isinstance(ops[i], SubtaskOp | LockOp):
            return i
    return -1


def _barrier_before(q: _Queues, core: CoreType, pos: int) -> int | None:
    ops = q.ops[core]
    for i in range(pos - 1, -1, -1):
        if isinstance(ops[i], BarrierOp):
            return i
        if isinstance(ops[i], SubtaskOp | LockOp):
            return None
    return None


def _barrier_positions(q: _Queues, core: CoreType) -> list[int]:
    return [i for i, op in enumerate(q.ops[core]) if isinstance(op, BarrierOp)]


def _dominating_pairs(points: list[tuple[int, int]], pairs: list[Candidate]) -> list[tuple[int, int, Pair]]:
    """A least set of pairs (wait, producer, set, ops) such that each point (u, v) has one with
    producer >= u and wait < v; returns (producer, set, ops) of each chosen."""
    pairs = sorted(pairs, key=lambda c: c[:3])
    chosen: list[tuple[int, int, Pair]] = []
    best_kept = -1  # the latest producer of a chosen pair (all wait before every later point)
    best: Candidate | None = None  # prefix maximum by producer
    i = 0
    for u, v in sorted(points, key=lambda p: p[1]):
        while i < len(pairs) and pairs[i][0] < v:
            if best is None or pairs[i][1] > best[1]:
                best = pairs[i]
            i += 1
        if best_kept >= u:
            continue
        if best is None or best[1] < u:
            raise UnsyncedQueue(f"no flag pair orders queue position {u} before {v}")
        chosen.append(best[1:])
        best_kept = best[1]
    return chosen


def _stab(intervals: list[tuple[int, int]], barriers: list[int], chosen: list[int]) -> list[int]:
    """The chosen barrier positions plus, greedily, the latest existing barrier stabbing each
    interval (u, v) that no chosen barrier does."""
    picked = sorted(set(chosen))
    for u, v in sorted(intervals, key=lambda iv: iv[1]):
        j = bisect.bisect_left(picked, v) - 1
        if j >= 0 and picked[j] > u:
            continue
        k = bisect.bisect_left(barriers, v) - 1
        if k < 0 or barriers[k] <= u:
            raise UnsyncedQueue(f"no barrier between queue positions {u} and {v}")
        bisect.insort(picked, barriers[k])
    return picked
