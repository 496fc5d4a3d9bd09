"""Placement (`placement=auto`): which sub-tasks of a queue SuperKernel run side by side.

The vendor runs every sub-task on cores `[0, n)` of its index, so two small hb-unordered
sub-tasks share the low cores and run one after the other while the rest idle. A sub-kernel
that takes `sk::SkSystemArgs` (kernel clause `sk_system_args`) reads its logical block index
and count from the entry, so it may run on cores `[F, F + n)`: the entry guards its call to
that range and passes `index - F` and `n` (docs/design.md §3 "Placement").

A **group** is a run of sub-tasks that nothing separates in the program of any core type they
run on (consecutive there: no barrier, flag, lock or other sub-task of those types between),
that are pairwise unordered by their dependencies, of one class, and placeable: the kernel
takes `SkSystemArgs`, is not a batch kernel (it syncs every core of its type), is not a 1:1
kernel widened under a 1:2 SuperKernel, and has no feed-sync-all bracket. Without placement,
the cores of a group run its sub-tasks one after another; with it, the group is laid out in
shelves: sub-tasks side by side from core 0 up while they fit the SuperKernel's cores of
their index, then a new shelf from core 0.

The decision is a cost model, not "always spread": each core's busy time over the group is
the sum of the durations (the simulator's: the task's duration or `default_duration_us`) of
the sub-tasks that run on it, plus `placement_us` for each placed sub-task (an assumption:
the data a core's cache holds is not the moved sub-task's); a group is placed only when the
busiest core's time drops. Placing a group changes no synchronisation: every unguarded sync
runs on every core of its types whatever the block guards, so the order the pruned program kept
still holds. (The lanes `sk-place-blocks` forms first, `skir.analysis.placement.lanes`, do change the
synchronisation of their regions: docs/design.md §3 "Lanes".)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import Operation

from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass
from skir.dialects.hardware import CoreType, widened_under
from skir.dialects.superkernel import SkForm, SubtaskOp, SuperKernelOp


@dataclass(frozen=True)
class GroupPlacement:
    """One placed group: its sub-tasks, the first core of each, and the predicted busiest
    core's time over the group before and after (µs)."""

    subtasks: tuple[SubtaskOp, ...]
    first: tuple[int, ...]
    before_us: float
    after_us: float


def placeable(sk: SuperKernelOp, sub: SubtaskOp, kernel: KernelOp) -> bool:
    """Whether `sub` may run on a core range at an offset (see the module docstring)."""
    widened = widened_under(kernel.type, sk.type)
    return kernel.takes_system_args and not kernel.is_batch and not widened and sub.feed is None


def _groups(sk: SuperKernelOp, kernels: dict[str, KernelOp], taken: set[tuple[str, int]]) -> list[list[SubtaskOp]]:
    """The groups of `sk`'s program, in program order (only those of two or more); the sub-tasks
    `taken` (stream, seq: in a lane already) join none."""
    position: dict[CoreType, dict[Operation, int]] = {core: {} for core in CoreType}
    count = dict.fromkeys(CoreType, 0)
    place: dict[Operation, int] = {}
    for i, op in enumerate(sk.program()):
        place[op] = i
        for core in op.core_set():
            position[core][op] = count[core]
            count[core] += 1
    groups: list[list[SubtaskOp]] = []
    current: list[SubtaskOp] = []
    for sub in sk.subtasks():
        ok = placeable(sk, sub, kernels[sub.kernel.root_reference.data]) and \
            (sub.stream.root_reference.data, sub.seq.data) not in taken
        last = current[-1] if current else None
        joins = (ok and last is not None and last.cores.data is sub.cores.data
                 and all(position[c][sub] == position[c][last] + 1 for c in sub.core_set())
                 and not _reaches(place, sub, set(current), place[current[0]]))
        if joins:
            current.append(sub)
            continue
        if len(current) > 1:
            groups.append(current)
        current = [sub] if ok else []
    if len(current) > 1:
        groups.append(current)
    return groups


def _reaches(place: dict[Operation, int], start: SubtaskOp, targets: set[SubtaskOp], floor: int) -> bool:
    """Whether sub-task `start` depends, directly or not, on one of `targets` (none of them is
    placed before `floor` in the program, so the search stops there)."""
    seen: set[SubtaskOp] = set()
    stack = list(start.dep_subtasks())
    while stack:
        sub = stack.pop()
        if sub in targets:
            return True
        if place[sub] < floor or sub in seen:
            continue
        seen.add(sub)
        stack.extend(sub.dep_subtasks())
    return False


def busiest(cores: int, ranges: list[tuple[int, int, float]]) -> float:
    """The busiest core's time when each (first, count, time) runs on cores [first, first + count)."""
    load = [0.0] * (cores + 1)
    for first, n, time in ranges:  # a difference array: O(cores + ranges)
        load[first] += time
        load[min(first + n, cores)] -= time
    best = running = 0.0
    for value in load[:cores]:
        running += value
        best = max(best, running)
    return best


def shelves(cores: int, blocks: list[int]) -> list[int]:
    """The first core of each sub-task laid out in shelves from core 0."""
    firsts, cursor = [], 0
    for n in blocks:
        if cursor + n > cores:
            cursor = 0
        firsts.append(cursor)
        cursor += n
    return firsts


def plan_placement(sk: SuperKernelOp, kernels: dict[str, KernelOp], duration: Callable[[SubtaskOp], float],
                   placement_us: float, taken: set[tuple[str, int]] | None = None) -> list[GroupPlacement]:
    """The groups of `sk` worth placing, each with its ranges (none for a chain SuperKernel:
    its sub-tasks are totally ordered); the sub-tasks `taken` (stream, seq) are in lanes already."""
    if sk.form.data is not SkForm.QUEUE:
        return []
    out = []
    for group in _groups(sk, kernels, taken or set()):
        cls: CoreClass = group[0].cores.data
        cores = sk.index_cores(cls)
        blocks = [sub.blocks.data for sub in group]
        times = [duration(sub) for sub in group]
        before = busiest(cores, [(0, n, t) for n, t in zip(blocks, times)])
        firsts = shelves(cores, blocks)
        after = busiest(cores, [(f, n, t + (placement_us if f else 0.0)) for f, n, t in zip(firsts, blocks, times)])
        if after < before and any(firsts):
            out.append(GroupPlacement(tuple(group), tuple(firsts), before, after))
    return out
