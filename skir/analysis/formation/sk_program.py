"""The unsynchronised program of a planned SuperKernel: sub-tasks and GM-lock accesses in order.

`sk-outline` builds the `sk.kernel` from it, and formation uses it to check that a
stream-fused SuperKernel gets the cross-core flag ids it needs (`resource_insufficient`)
before anything is rewritten. Order (docs/design.md §3 (d)-(h)): notifies with no preceding member,
then per member its lock waits, the member, its notifies; then waits with no following member,
then the resets at exit. A lock access runs on block 0 of the member's class (the AIC for mix).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from xdsl.ir import Operation

from skir.analysis.formation.boundary import SkPlan
from skir.analysis.formation.member_order import member_deps, member_order
from skir.analysis.formation.queue_plan import Node
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import CoreClass, class_types, core_class
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import LockOp, NotifyOp, ResetLockOp, SubtaskOp, WaitLockOp


def lock_core(cls: CoreClass) -> CoreType:
    """The core type whose block 0 performs a lock access for a sub-task of class `cls`."""
    return CoreType.AIV if cls is CoreClass.AIV else CoreType.AIC


@dataclass(frozen=True)
class ProgramStep:
    """`subtask` (of `member`, after the members `deps`) or a `notify` / `wait` / `reset` of `cell`."""

    kind: str
    core: CoreType | None = None
    """The core type of a lock access."""
    member: int = -1
    deps: tuple[int, ...] = ()
    cell: str = ""


def program_steps(graph: TaskGraph, hb: HappensBefore, kernel_of: Callable[[int], KernelOp],
                  plan: SkPlan) -> tuple[list[int], list[ProgramStep]]:
    """The member order and the program of one planned SuperKernel."""
    order = member_order(graph, hb, plan.members)
    deps = member_deps(graph, hb, order)

    def cls(m: int) -> CoreClass:
        return core_class(kernel_of(m).type)

    waits_before: dict[int | None, list[tuple[str, tuple[int, ...]]]] = defaultdict(list)
    notifies_after: dict[int | None, list[tuple[str, tuple[int, ...]]]] = defaultdict(list)
    for lk in plan.locks:
        if lk.kind == "wait":
            waits_before[lk.before].append((lk.cell, lk.deps))
        elif lk.kind == "notify":
            notifies_after[lk.after].append((lk.cell, lk.deps))
    steps = [ProgramStep("notify", lock_core(cls(order[0])), cell=cell) for cell, _ in notifies_after[None]]
    for m in order:
        core = lock_core(cls(m))
        steps += [ProgramStep("wait", core, deps=deps, cell=cell) for cell, deps in waits_before[m]]
        steps.append(ProgramStep("subtask", member=m, deps=tuple(deps[m])))
        steps += [ProgramStep("notify", core, deps=deps, cell=cell) for cell, deps in notifies_after[m]]
    steps += [ProgramStep("wait", lock_core(cls(order[-1])), cell=cell) for cell, _ in waits_before[None]]
    for lk in plan.locks:
        if lk.kind == "reset":
            owner = lk.owner if lk.owner is not None else order[-1]
            steps.append(ProgramStep("reset", lock_core(cls(owner)), cell=lk.cell))
    return order, steps


def queue_nodes(steps: list[tuple[int, ProgramStep]], types_of: Callable[[int], tuple[CoreType, ...]],
                stream_of: Callable[[int], Hashable]) -> list[Node]:
    """The dependency nodes of a queue SuperKernel (docs/design.md §3 (f)-(g)), keyed by the given ids.

    A notify depends on the sub-task before it (or on the sub-tasks its `deps` name); a
    sub-task on its members' sub-tasks, on the waits whose `deps` name it and on
    the lock waits just before it; a trailing wait on nothing; a reset on every wait on its cell.
    """
    nodes: list[Node] = []
    sub_key: dict[int, int] = {}
    pending: list[int] = []
    waits_of: dict[str | None, list[int]] = defaultdict(list)
    waited_by: dict[int, list[int]] = defaultdict(list)  # member -> the waits whose deps name it
    last: int | None = None
    for key, step in steps:
        if step.kind == "subtask":
            sub_key[step.member] = key
            after = [sub_key[d] for d in step.deps] + pending
            after += [w for w in waited_by.pop(step.member, ()) if w not in pending]
            node = Node(key, types_of(step.member), after, stream_of(step.member))
            nodes.append(node)
            pending = []
            last = key
        elif step.kind == "notify":
            # after the sub-task before it, or every sub-task it names (a record that follows
            # members of several streams that do not follow one another)
            deps = [sub_key[d] for d in step.deps] if step.deps else [last] if last is not None else []
            assert step.core is not None  # a lock step names its core type
            nodes.append(Node(key, (step.core,), deps))
        else:
            # a reset clears the cell every wait of the SuperKernel on it has consumed (on any
            # core type: a reset on one core must not run while the other still waits)
            after = list(waits_of.get(step.cell, ())) if step.kind == "reset" else []
            assert step.core is not None
            nodes.append(Node(key, (step.core,), after))
            if step.kind == "wait":
                pending.append(key)
                waits_of[step.cell].append(key)
                for member in step.deps:  # a wait that precedes members of several streams
                    waited_by[member].append(key)
    return nodes


_LOCK_KIND = {NotifyOp: "notify", WaitLockOp: "wait", ResetLockOp: "reset"}


def program_nodes(ops: Sequence[SubtaskOp | LockOp], pos: Mapping[Operation, int]) -> list[Node]:
    """The dependency nodes of a built queue program (its sub-tasks and lock ops, in program
    order), keyed by their places in the program (`pos`); a sub-task runs on the core types its
    `on` class names, a lock wait holds back the sub-tasks that name its token."""
    subtasks: dict[int, SubtaskOp] = {}
    steps: list[tuple[int, ProgramStep]] = []
    for op in ops:
        key = pos[op]
        if isinstance(op, SubtaskOp):
            subtasks[key] = op
            steps.append((key, ProgramStep("subtask", member=key, deps=tuple(pos[d] for d in op.dep_subtasks()))))
        elif isinstance(op, WaitLockOp):
            held = sorted(pos[use.operation] for use in op.token.uses)
            steps.append((key, ProgramStep("wait", op.core.data, deps=tuple(held))))
        elif isinstance(op, NotifyOp):
            steps.append((key, ProgramStep("notify", op.core.data, deps=tuple(pos[d] for d in op.dep_subtasks()))))
        else:
            steps.append((key, ProgramStep(_LOCK_KIND[type(op)], op.core.data)))
    return queue_nodes(steps, lambda key: class_types(subtasks[key].cores.data),
                       lambda key: subtasks[key].stream.root_reference.data)
