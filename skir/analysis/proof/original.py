"""The model as it was before `sk-outline`, rebuilt from a rewritten module alone.

Every slot a rewrite changed keeps its task in `was` (`aclgraph.disabled`, and the launches
and value tasks `sk-outline` put in member and event slots). Restoring every slot (and dropping
the `sk.kernel` ops) gives back the captured model, whose happens-before relation is what
a rewrite must preserve.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region

from skir.dialects.aclgraph import ModelOp, StreamOp, TaskOp


def original_task(op: TaskOp) -> TaskOp:
    """The task a slot held before the rewrite (a fresh op), or a clone of it if it was kept."""
    was = op.was_task()
    return was if was is not None else op.clone()


def original_model(model: ModelOp) -> ModelOp:
    """A copy of `model` with every rewritten slot restored and no `sk.kernel` ops."""
    body = Block()
    for op in model.body.block.ops:
        if isinstance(op, StreamOp):
            tasks: list[Operation] = [original_task(task) for task in op.body.block.ops]
            body.add_op(StreamOp(op.sym_name.data, Region(Block(tasks)), op.slots.data if op.slots else None))
        elif op.name != "sk.kernel":
            body.add_op(op.clone())
    soc = model.soc.data if model.soc is not None else None
    return ModelOp(model.sym_name.data, model.aic_cores.data, model.aiv_cores.data, Region(body), soc)


def unreset_cells(model: ModelOp, original: ModelOp | None = None) -> dict[str, str]:
    """Cells of a rewritten `model` that end the model at 1 by design (docs/design.md §3 (e)),
    mapped to their event: each converts an event epoch with no closing reset, and nothing
    resets it (no `value_write 0`, no SuperKernel `sk.reset_lock`), because a waiter outside
    the SuperKernel still needs it, as the event stays recorded in the original. The epochs
    are the original model's (rebuilt from `model` unless given), so a rewrite that dropped a
    reset's `value_write 0` is not excused."""
    from skir.analysis.graph.task_graph import TaskGraph
    from skir.dialects.aclgraph import DisabledOp, RecordOp, ValueWaitOp, ValueWriteOp
    from skir.dialects.superkernel import NotifyOp, ResetLockOp, SuperKernelOp

    converted: list[tuple[str, int]] = []  # (cell, seq) of each value task that was an event task
    reset: set[str] = set()
    disabled_records: set[int] = set()
    for op in model.body.block.ops:
        if isinstance(op, SuperKernelOp):
            reset.update(lk.cell.root_reference.data for lk in op.program() if isinstance(lk, ResetLockOp))
        if not isinstance(op, StreamOp):
            continue
        for task in op.body.block.ops:
            if isinstance(task, DisabledOp) and task.was_kind.data == "record":
                disabled_records.add(task.seq.data)
            if not isinstance(task, ValueWriteOp | ValueWaitOp):
                continue
            cell = task.cell.root_reference.data
            if isinstance(task, ValueWriteOp) and task.value.data == 0:
                reset.add(cell)
            if "was_kind" in task.properties:
                converted.append((cell, task.seq.data))
    notified = {lk.cell.root_reference.data for op in model.body.block.ops if isinstance(op, SuperKernelOp)
                for lk in op.program() if isinstance(lk, NotifyOp)}
    found: dict[str, str] = {}
    if converted or notified:  # the original's epochs, only when some event became a cell
        base = original if original is not None else original_model(model)
        graph = TaskGraph(base)
        node_of_seq = {seq: n for n, seq in enumerate(graph.seq)}
        for cell, seq in converted:
            epoch = graph.epoch_of.get(node_of_seq.get(seq, -1))
            if epoch is not None and epoch.reset is None:
                found[cell] = epoch.event
        # An epoch whose record and waits all went into SuperKernels leaves no value task: its
        # cell (named `<event>_cell`, or `<event>_cell_<N>` when taken) is known by the record
        # a SuperKernel range disabled.
        by_event: dict[str, list[str]] = {}
        for cell in notified - found.keys():
            stem, _, suffix = cell.rpartition("_")
            event = stem if suffix.isdigit() and stem.endswith("_cell") else cell
            if event.endswith("_cell"):
                by_event.setdefault(event.removesuffix("_cell"), []).append(cell)
        for n, op in enumerate(graph.ops):
            epoch = graph.epoch_of.get(n)
            if isinstance(op, RecordOp) and epoch is not None and epoch.reset is None \
                    and graph.seq[n] in disabled_records:
                for cell in by_event.get(epoch.event, ()):
                    found[cell] = epoch.event
    return {cell: event for cell, event in found.items() if cell not in reset}


def unreset_by_superkernel(model: ModelOp, original: ModelOp | None = None) -> dict[str, list[tuple[str, str]]]:
    """For each SuperKernel of a rewritten `model` that notifies or waits on an `unreset_cells`
    cell, its (cell, event) pairs in program order: the `unreset_event` warnings of SK meta
    and the summary."""
    from skir.dialects.superkernel import LockOp, SuperKernelOp

    sks = [op for op in model.body.block.ops if isinstance(op, SuperKernelOp)]
    unreset = unreset_cells(model, original) if sks else {}
    out: dict[str, list[tuple[str, str]]] = {}
    for sk in sks:
        cells = dict.fromkeys(lk.cell.root_reference.data for lk in sk.program() if isinstance(lk, LockOp))
        pairs = [(cell, unreset[cell]) for cell in cells if cell in unreset]
        if pairs:
            out[sk.sym_name.data] = pairs
    return out
