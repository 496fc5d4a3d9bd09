"""Emulation specs from a compiled module: what to run, and which orders to prove (the
adapter between the IR and `skir.hostsim`, which takes emitted sources and specs only).

The dependency edges come from the *original* model's happens-before relation, not
from the SuperKernel IR, so the emulation checks the emitted entry against the input
rather than against skir's own reading of it.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.analysis.graph.data_deps import launch_access
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, LaunchSkOp, ModelOp, ValueWaitOp
from skir.dialects.aclgraph_enums import core_class
from skir.dialects.ascendc import DeclareOp, SourceOp
from skir.dialects.model_lookup import kernel_table, models, qualified_name, updated_launches
from skir.dialects.superkernel import LockOp, NotifyOp, SubtaskOp, SuperKernelOp, WaitLockOp
from skir.hostsim.runner import EmulationSpec, SubTaskInstance
from skir.names import entry_symbol
from skir.targets.ascendc import emit_source
from skir.targets.shared_entries import SharedEntries, entry_text, shared_entries
from skir.targets.workspaces import entry_buffer_sizes, progress_slot


def _model(module: ModuleOp) -> ModelOp:
    return next(op for op in module.ops if isinstance(op, ModelOp))


ANY_VALUE = -1
"""A final lock value the emulation does not judge (`_FinalLocks`)."""


class _FinalLocks:
    """What each lock word must hold when a SuperKernel has finished, from the rewritten model.

    A lock the SuperKernel notifies stays 1 for its waiters. Any other (it waits on it, or
    only resets it, like a front-wait cell) the SuperKernel must clear at exit when every wait
    of the epoch is its own (docs/design.md §3 (h)): no stream task waits on the cell and no
    other SuperKernel does. A wait elsewhere — a stream's `value_wait`, or another
    SuperKernel's in-kernel lock wait — that may still run after the launch needs the lock: 1.
    When every such wait is before the launch, (h) leaves the clear to the stream's own reset
    (or to nobody: an unreset cell, which the compile warns of), and clearing it too is
    harmless: either value (`ANY_VALUE`; sk-check proves the cell ends as the original's event).
    """

    def __init__(self, model: ModelOp):
        self.graph = TaskGraph(model)
        self.hb = HappensBefore(self.graph)
        self.waits: dict[str, list[int]] = {}  # cell -> the stream value waits on it
        self.launch: dict[str, int] = {}
        for n, op in enumerate(self.graph.ops):
            if isinstance(op, ValueWaitOp):
                self.waits.setdefault(op.cell.root_reference.data, []).append(n)
            elif isinstance(op, LaunchSkOp):
                self.launch[op.sk.root_reference.data] = n
        self.waiting_sks: dict[str, set[str]] = {}
        for sk in model.body.block.ops:
            if isinstance(sk, SuperKernelOp):
                for cell in {op.cell.root_reference.data for op in sk.program() if isinstance(op, WaitLockOp)}:
                    self.waiting_sks.setdefault(cell, set()).add(sk.sym_name.data)

    def value(self, sk: str, ops: list[LockOp]) -> int:
        if any(isinstance(op, NotifyOp) for op in ops):
            return 1
        launch = self.launch.get(sk)
        cell = ops[0].cell.root_reference.data
        others = sorted(self.waiting_sks.get(cell, set()) - {sk})
        outside = self.waits.get(cell, [])
        if not outside and not others:
            return 0  # every wait of the epoch is this SuperKernel's: it clears the lock
        if any(self.launch.get(other) is None for other in others):
            return 1  # a waiter whose launch this model does not hold: assume it may come later
        nodes = [*outside, *(self.launch[other] for other in others)]
        done = launch is not None and all(self.hb.before(w, launch) for w in nodes)
        return ANY_VALUE if done else 1


def _is_comm(graph: TaskGraph, n: int | None) -> bool:
    """Whether node `n` of the original is a communication kernel."""
    op = graph.ops[n] if n is not None else None
    return isinstance(op, LaunchOp) and op.comm is not None


def _update_slots(module: ModuleOp, original: ModuleOp, updates: list[dict[str, Any]] | None,
                  shared: SharedEntries) -> dict[str, dict[tuple[str, int], tuple[int, ...]]]:
    """SuperKernel -> (stream, seq) -> argument-table slots of each updated member, from the
    plan's update map (`updates`; computed as `plan.json` does when not given, with the
    module's `shared` entries: their keys are not computed again)."""
    if updates is None:
        if not any(updated_launches(m) for m in models(module)):
            return {}
        from skir.targets.sk_meta import sk_meta

        updates = sk_meta(module, original, shared=shared)["updates"]
    found: dict[str, dict[tuple[str, int], tuple[int, ...]]] = {}
    for entry in updates:
        if entry["slots"]:  # a kernel without params has nothing to forward
            found.setdefault(entry["superkernel"], {})[(entry["stream"], entry["seq"])] = tuple(entry["slots"])
    return found


def emulation_specs(module: ModuleOp, original: ModuleOp, updates: list[dict[str, Any]] | None = None,
                    shared: SharedEntries | None = None) -> list[EmulationSpec]:
    """One spec per emitted SuperKernel of `module`, with edges from `original`'s hb; a
    SuperKernel with updated members runs twice, forwarding an update through `updates` (the
    plan's update map; by default the one `plan.json` gets); `shared` the module's shared entries
    if the caller has them."""
    shared = shared_entries(module) if shared is None else shared
    update_slots = _update_slots(module, original, updates, shared)
    sources = {op.sym_name.data: op for op in module.ops if isinstance(op, SourceOp)}
    before = {qualified_name(m): m for m in models(original)}
    texts: dict[str, str] = {}
    specs: list[tuple[str, EmulationSpec]] = []
    for model in models(module):  # the model, then each sub-model on its own
        specs += _specs(model, before[qualified_name(model)], sources, update_slots, shared, texts)
    return _once_per_entry(specs)


def _once_per_entry(specs: list[tuple[str, EmulationSpec]]) -> list[EmulationSpec]:
    """One run per shared entry (docs/design.md §5 "Shared entries"): each sharing SuperKernel's
    spec is derived on its own (its original's orders, its lock words' final values, its update
    map) and named by the entry; a SuperKernel whose spec equals one already kept adds no run, one
    that asks for something else runs the same entry under its own name."""
    kept: dict[str, EmulationSpec] = {}
    out: list[EmulationSpec] = []
    for sk_name, spec in specs:
        if spec.name not in kept:
            kept[spec.name] = spec
            out.append(spec)
        elif kept[spec.name] != spec:
            out.append(replace(spec, name=sk_name))
    return out


def _specs(model: ModelOp, original: ModelOp, sources: dict[str, SourceOp],
           update_slots: dict[str, dict[tuple[str, int], tuple[int, ...]]], shared: SharedEntries,
           texts: dict[str, str]) -> list[tuple[str, EmulationSpec]]:
    """(SuperKernel, spec) of each emitted SuperKernel of `model`; a shared one's spec runs the
    shared entry (`texts`: each shared entry's C++, emitted once)."""
    kernels = kernel_table(model)
    graph = TaskGraph(original)
    hb = HappensBefore(graph)
    node_of_seq = {seq: n for n, seq in enumerate(graph.seq)}
    final = _FinalLocks(model)
    specs = []
    for sk in model.body.block.ops:
        if not isinstance(sk, SuperKernelOp) or sk.sym_name.data not in sources:
            continue
        name = sk.sym_name.data
        source = sources[name]
        copies = {op.symbol.data: op.copies.value.data for op in source.body.block.ops
                  if isinstance(op, DeclareOp)}
        subtasks = sk.subtasks()
        early = sk.sk_options().early_start == 1
        forwarded = update_slots.get(name, {})
        place = sk.positions()
        instances = []
        for sub in subtasks:
            kernel = kernels[sub.kernel.root_reference.data]
            instances.append(
                SubTaskInstance(
                    key=place[sub],
                    symbol=kernel.sub_symbol,
                    offset=sub.offset.data,
                    core_class=core_class(kernel.type).value,
                    blocks=sub.blocks.data,
                    split_copies=copies.get(kernel.sub_symbol, 1),
                    batch=kernel.is_batch,
                    early_set=early and kernel.early_start_set is not None,
                    early_wait=early and kernel.early_start_wait is not None,
                    comm=_is_comm(graph, node_of_seq.get(sub.seq.data)),
                    params=kernel.num_params if forwarded else 0,
                    first=sub.first_block,
                    system_args=kernel.takes_system_args,
                )
            )
        options = sk.sk_options()
        access = {}
        if options.sync_mode == "data":  # independent same-stream sub-tasks need no order
            for sub in subtasks:
                op = graph.ops[node_of_seq[sub.seq.data]]
                access[place[sub]] = launch_access(op, kernels[op.kernel.root_reference.data])  # type: ignore

        def free(a: SubtaskOp, b: SubtaskOp) -> bool:
            x, y = access.get(place[a]), access.get(place[b])
            return a.stream == b.stream and x is not None and y is not None and x.independent(y)

        edges = tuple(
            (place[a], place[b]) if hb.before(node_of_seq[a.seq.data], node_of_seq[b.seq.data])
            else (place[b], place[a])
            for a, b in combinations(subtasks, 2)
            if hb.ordered(node_of_seq[a.seq.data], node_of_seq[b.seq.data]) and not free(a, b)
        )
        lock_ops: dict[int, list[LockOp]] = {}
        for prog_op in sk.program():
            if isinstance(prog_op, LockOp):
                lock_ops.setdefault(prog_op.slot.data, []).append(prog_op)
        locks = lock_ops.keys()
        notified = {slot for slot, ops in lock_ops.items() if any(isinstance(op, NotifyOp) for op in ops)}
        group = shared.shared_group(name)
        if group is None:
            label, entry, text = name, entry_symbol(name), emit_source(source)
        else:
            if group.name not in texts:
                texts[group.name] = entry_text(group)
            label, entry, text = group.name, group.entry, texts[group.name]
        specs.append((name,
            EmulationSpec(
                name=label,
                entry=entry,
                source=text,
                kernel_type=sk.type.value,
                blocks=sk.blocks.data,
                param_slots=sk.arg_slots.data,
                subtasks=tuple(instances),
                edges=edges,
                lock_slots=tuple(sorted(locks)),
                # a lock the SuperKernel does not notify itself is set by work outside it
                preset_locks=tuple((slot, 1) for slot in sorted(locks) if slot not in notified),
                final_locks=tuple((slot, final.value(name, ops)) for slot, ops in sorted(lock_ops.items())),
                buffer_bytes=entry_buffer_sizes(source, sk),
                progress_slot=progress_slot(source),
                updates=tuple((place[sub], forwarded[(sub.stream.root_reference.data, sub.seq.data)])
                              for sub in subtasks if (sub.stream.root_reference.data, sub.seq.data) in forwarded),
            )))
    return specs
