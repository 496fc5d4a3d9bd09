"""`sk-check`: prove from a rewritten module alone that it keeps every order and cannot hang.

It rebuilds the original model (`skir.analysis.proof.original`), runs the rewritten one once on
the abstract machine of `skir.analysis.proof.sync_machine`, and reports, one line each:

- a deadlock: every agent left blocked, with what it waits for;
- every happens-before edge of the original model between two working tasks (kernels,
  opaque tasks) that the rewrite no longer enforces: the consumer may start before the
  producer has finished on every core that runs it (for a producer that runs the
  early-start handshake itself, before it reached its set point);
- a cross-core credit left over at the end, or more than 15 pending on one core and flag
  in some schedule (the maximum over schedules: each core type's waits on a flag are
  held back one at a time while everything else runs as far as it can);
- a cell skir added that is not 0 at the end (the model could not be replayed), except 1 for a
  cell that converts an event epoch with no closing reset (the original event stays recorded);
- an updated member that may start before its group prefix (the external wait the capture
  put before it) has ended;
- a stream whose slot count changed;
- a sub-task whose blocks are not its launch's (or, for a `block_dim_scale_up` batch kernel,
  the SuperKernel's cores of its type);
- a 64-byte line that two cores may write different words of without an order
  (`skir.analysis.proof.line_check`, under the plan's layout);
- a block of a sub-task that does not run exactly once: a placed sub-task whose kernel does not
  take `SkSystemArgs` or whose range leaves the SuperKernel, or an emitted call whose guard or
  handed index differs from its sub-task's range (`skir.analysis.placement.placement_check`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from skir.analysis.comm.comm_check import comm_violations
from skir.analysis.formation.updated import group_prefix
from skir.analysis.graph.data_deps import Access, launch_access
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.analysis.placement.core_ranges import range_label
from skir.analysis.placement.placement_check import check_placement
from skir.analysis.proof.line_check import check_lines
from skir.analysis.proof.original import original_model, unreset_cells
from skir.analysis.proof.sync_machine import SyncMachine
from skir.dialects.aclgraph import LaunchOp, ModelOp, OpaqueOp, StreamOp, TaskOp, ValueWaitOp, ValueWriteOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.ascendc import SourceOp
from skir.dialects.hardware import EARLY_WAIT_RECIPES, CoreType, EarlyWait
from skir.dialects.superkernel import (
    BarrierOp,
    DcciOp,
    EarlyStartWaitOp,
    PreloadOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
)
from skir.dialects.superkernel_flags import MAX_CREDITS


@dataclass
class CheckReport:
    """What `sk-check` found: one line per violation (none: the module is proved)."""

    violations: list[str] = field(default_factory=list)
    edges: int = 0
    """Happens-before edges checked."""
    superkernels: int = 0
    syncs: int = 0
    """Sync and lock ops in the SuperKernels' programs (an op both core types run counts once)."""
    subtasks: int = 0

    @property
    def ok(self) -> bool:
        return not self.violations


def check_model(model: ModelOp) -> CheckReport:
    """Check one rewritten `aclgraph.model` (see the module docstring)."""
    report = CheckReport()
    sks = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, SuperKernelOp)}
    graph = TaskGraph(model)
    machine = SyncMachine(graph, sks)
    blocked = machine.run()
    report.violations += machine.errors
    report.violations += [f"deadlock: {b.agent} waits on {b.what}" for b in blocked]
    _count(report, sks)
    _check_slots(report, model)
    _check_blocks(report, model, sks)
    _check_edges(report, model, graph, machine)
    if not blocked:
        _check_leftovers(report, machine)
        _check_cells(report, model, machine)
    for sk in sks.values():
        _check_pending(report, sk)
        _check_local(report, sk)
    report.violations += comm_violations(model, graph, sks)
    report.violations += check_lines(model)
    return report


_SEPARATING = (BarrierOp, WaitFlagOp, EarlyStartWaitOp)
_NO_STEP = EarlyWait(False, False, False)
"""An early-start wait whose recipe has nothing to do on a core type separates nothing there."""


def _check_local(report: CheckReport, sk: SuperKernelOp) -> None:
    """A sub-task that directly follows one it depends on, on the same core, needs at least a
    barrier between them (a pipe barrier when nothing else: the core's pipes must drain)."""
    for core in CoreType:
        last: SubtaskOp | None = None
        separated = True
        for op in sk.program_for(core):
            if isinstance(op, SubtaskOp):
                if last is not None and not separated and last in op.dep_subtasks():
                    place = sk.positions()  # on a violation only
                    report.violations.append(
                        f"{sk.sym_name.data} {core.value}: sub-task {place[op]} follows sub-task {place[last]}, "
                        "which it depends on, with no barrier between them"
                    )
                last, separated = op, False
            elif isinstance(op, _SEPARATING) and (
                    not isinstance(op, EarlyStartWaitOp) or EARLY_WAIT_RECIPES[op.cfg.data][core] != _NO_STEP):
                separated = True


def _count(report: CheckReport, sks: dict[str, SuperKernelOp]) -> None:
    report.superkernels = len(sks)
    for sk in sks.values():
        ops = sk.program()
        report.subtasks += sum(isinstance(op, SubtaskOp) for op in ops)
        report.syncs += sum(not isinstance(op, SubtaskOp | PreloadOp | DcciOp) for op in ops)


def _check_slots(report: CheckReport, model: ModelOp) -> None:
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp) and stream.slots is not None:
            count = sum(1 for _ in stream.body.block.ops)
            if count != stream.slots.data:
                report.violations.append(
                    f"slots: @{stream.sym_name.data} has {count} slots, {stream.slots.data} were captured"
                )


class _Members:
    """Where each fused kernel task runs: its SuperKernel and its place in each program."""

    def __init__(self, machine: SyncMachine, sks: dict[str, SuperKernelOp]):
        self.machine = machine
        self.of_seq: dict[int, tuple[int, SubtaskOp]] = {}
        self.index: dict[tuple[int, CoreType, SubtaskOp], tuple[int, SubtaskOp]] = {}
        for k, name in enumerate(machine.names):
            sk = sks[name]
            for core in CoreType:
                for i, op in enumerate(sk.program_for(core)):
                    if isinstance(op, SubtaskOp):
                        self.of_seq[op.seq.data] = (k, op)
                        self.index[(k, core, op)] = (i, op)

    def places(self, seq: int) -> list[tuple[int, CoreType, int, SubtaskOp]]:
        """Its SuperKernel, each core type that runs it, its position in that type's program and the op."""
        k, sub = self.of_seq[seq]
        return [(k, core, *self.index[(k, core, sub)]) for core in CoreType if (k, core, sub) in self.index]


def _check_blocks(report: CheckReport, model: ModelOp, sks: dict[str, SuperKernelOp]) -> None:
    """Every sub-task runs with its launch's blocks; a `block_dim_scale_up` batch kernel with
    the SuperKernel's cores of its type (docs/design.md §3 "Launch shape")."""
    from skir.analysis.formation.superkernel_shape import SkShape

    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    launches: dict[int, LaunchOp] = {}
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            for op in stream.body.block.ops:
                task = op.was_task() if not isinstance(op, LaunchOp) else op
                if isinstance(task, LaunchOp):
                    launches[task.seq.data] = task
    for sk in sks.values():
        shape = SkShape(sk.type, sk.blocks.data, 0, 0)
        for sub in sk.subtasks():
            launch, kernel = launches.get(sub.seq.data), kernels.get(sub.kernel.root_reference.data)
            if launch is None or kernel is None:
                continue
            want = shape.cores_of(kernel.type) if kernel.scales_up else launch.blocks.data
            if sub.blocks.data != want:
                report.violations.append(
                    f"blocks: {sk.sym_name.data} sub-task {sk.positions()[sub]} (@{sub.stream.root_reference.data} seq "
                    f"{sub.seq.data}) runs on {sub.blocks.data} blocks; its launch asked for {launch.blocks.data}"
                    + (f" and it scales up to the SuperKernel's {want}" if kernel.scales_up else "")
                )


def _check_edges(report: CheckReport, model: ModelOp, graph: TaskGraph, machine: SyncMachine) -> None:
    sks = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, SuperKernelOp)}
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    original = original_model(model)
    g0 = TaskGraph(original)
    hb0 = HappensBefore(g0)
    members = _Members(machine, sks)
    node = {seq: n for n, seq in enumerate(graph.seq)}
    work = [isinstance(op, LaunchOp | OpaqueOp) for op in g0.ops]
    last_work: list[list[int]] = []
    for s in range(len(g0.streams)):
        last, row = -1, []
        for n in g0.stream_nodes(s):
            if work[n]:
                last = n
            row.append(last)
        last_work.append(row)

    data_mode = {k for k, name in enumerate(machine.names) if sks[name].options is not None
                 and sks[name].sk_options().sync_mode == "data"}

    def access(n: int) -> Access | None:
        op = g0.ops[n]
        return launch_access(op, kernels[op.kernel.root_reference.data]) if isinstance(op, LaunchOp) else None

    def skip_independent(a: int, b: int) -> int:
        """Under sync-mode=data, the last same-stream work task before `b` that `b` depends on
        (sub-tasks of b's SuperKernel that are provably independent of b need no order)."""
        k = members.of_seq.get(g0.seq[b], (None,))[0]
        if k not in data_mode:
            return a
        mine = access(b)
        while a >= 0 and mine is not None and members.of_seq.get(g0.seq[a], (None,))[0] == k:
            theirs = access(a)
            if theirs is None or not theirs.independent(mine):
                break
            p = g0.pos[a] - 1
            a = last_work[g0.stream_of[a]][p] if p >= 0 else -1
        return a

    def starts(seq: int) -> list[np.ndarray] | None:
        if seq in members.of_seq:
            k, sub = members.of_seq[seq]
            found = [a.starts[sub] for (sk, _, _), a in machine.agents.items() if sk == k and sub in a.starts]
            return found if found else None
        start = machine.task_start.get(node[seq])
        return None if start is None else [start]

    def finished(seq: int, op: TaskOp) -> list[tuple[int, int, str]]:
        if seq in members.of_seq:
            setpoint = isinstance(op, LaunchOp) and kernels[op.kernel.root_reference.data].early_start_set is not None
            return [
                (machine.entry(k, core, part), 2 * i + (1 if setpoint else 2), f"{machine.names[k]} {core.value}")
                for k, core, i, sub in members.places(seq) for part in machine.parts_running(k, core, sub)
            ]
        n = node[seq]
        return [(graph.stream_of[n], graph.pos[n] + 1, "")]

    for b in range(len(g0)):
        if not work[b]:
            continue
        knowledge = starts(g0.seq[b])
        if knowledge is None:
            continue
        clock = hb0.clock(b)
        for t in range(len(g0.streams)):
            p = int(clock[t]) - (1 if t == g0.stream_of[b] else 0)
            if p < 0:
                continue
            a = last_work[t][p]
            if t == g0.stream_of[b]:
                a = skip_independent(a, b)
            if a < 0:
                continue
            report.edges += 1
            for entry, need, where in finished(g0.seq[a], g0.ops[a]):
                if any(k[entry] < need for k in knowledge):
                    by = f" (not after every {where.split()[-1]} core of {where.split()[0]})" if where else ""
                    report.violations.append(f"edge not enforced: {g0.name(a)} -> {g0.name(b)}{by}")
                    break
        if g0.seq[b] in members.of_seq:
            # an updated member still follows its group prefix (docs/design.md §3 "Updated kernels")
            for w in group_prefix(g0, b):
                report.edges += 1
                n = node[g0.seq[w]]
                if any(k[graph.stream_of[n]] <= graph.pos[n] for k in knowledge):
                    report.violations.append(f"update not ordered: {g0.name(b)} may start before its group's "
                                             f"{g0.name(w)}")


def _check_leftovers(report: CheckReport, machine: SyncMachine) -> None:
    for key, sets in machine.sets.items():
        left = sets - machine.waits[key]
        if left:
            k, core, part, flag = key
            where = f" {range_label(machine.ranges[k][core][part])}" if machine.split[k] and part >= 0 else ""
            report.violations.append(
                f"leftover: {machine.names[k]} {core.value}{where} flag {flag} holds {left} credit(s) at the end"
            )
    for k, core, flag in machine.counters.incomplete():
        report.violations.append(
            f"leftover: {machine.names[k]} {core.value} flag {flag}: a set some cores made and the others "
            "never did (a mode-0 round, or a block's mode-2 pairing, never completes)"
        )
    for (k, core), early in machine.early_sets.items():
        waits = machine.early_waits[(k, core)]
        if waits != len(early):
            report.violations.append(
                f"leftover: {machine.names[k]}: {len(early)} early-start set(s) of {core.value} but "
                f"{waits} wait(s) on them"
            )
    for (k, core), relays in machine.early_relays.items():
        if relays:
            report.violations.append(
                f"leftover: {machine.names[k]}: {len(relays)} early-start relay(s) to {core.value} never waited on"
            )


def _check_cells(report: CheckReport, model: ModelOp, machine: SyncMachine) -> None:
    original = original_model(model)
    unreset = unreset_cells(model, original)
    used = set()
    for stream in original.body.block.ops:
        if isinstance(stream, StreamOp):
            for op in stream.body.block.ops:
                if isinstance(op, ValueWriteOp | ValueWaitOp):
                    used.add(op.cell.root_reference.data)
    for cell, (value, _) in sorted(machine.cells.items()):
        if cell in used or value == 0 or (value == 1 and cell in unreset):
            continue  # (e): an epoch with no closing reset leaves its cell at 1, as the event stays recorded
        report.violations.append(f"cell @{cell} holds {value} at the end; the model cannot be replayed")


def _check_pending(report: CheckReport, sk: SuperKernelOp) -> None:
    """The most credits one core type can hold on a flag, over every schedule."""
    waited: dict[tuple[CoreType, int], int] = defaultdict(int)
    for core in CoreType:
        for op in sk.program_for(core):
            if isinstance(op, WaitFlagOp):
                waited[(core, op.flag.data)] += 1
    for (core, flag), total in sorted(waited.items()):
        limit = [0]

        def release(_k: int, c: CoreType, f: int, done: int, core: CoreType = core, flag: int = flag) -> bool:
            return (c, f) != (core, flag) or done < limit[0]

        machine = SyncMachine.isolated(sk, release)
        worst = 0
        for held in range(total + 1):
            limit[0] = held
            machine.run()
            for part in range(len(machine.ranges[0].get(core, []))):
                key = (0, core, part, flag)
                worst = max(worst, machine.sets[key] - machine.waits[key])
        if worst > MAX_CREDITS:
            report.violations.append(
                f"credits: {sk.sym_name.data} {core.value} flag {flag} can hold {worst} credits (more than "
                f"{MAX_CREDITS})"
            )


def check_module(module: object) -> CheckReport:
    """Check every `aclgraph.model` of a module, each sub-model on its own (docs/design.md §3
    "Conditional sub-models"); one report for all."""
    from xdsl.dialects.builtin import ModuleOp

    from skir.dialects.model_lookup import models

    assert isinstance(module, ModuleOp)
    total = CheckReport()
    sources = {op.sym_name.data: op for op in module.ops if isinstance(op, SourceOp)}
    for op in models(module):
        if isinstance(op, ModelOp):
            report = check_model(op)
            report.violations += check_placement(op, sources)
            total.violations += report.violations
            total.edges += report.edges
            total.superkernels += report.superkernels
            total.syncs += report.syncs
            total.subtasks += report.subtasks
    return total
