"""The whole-model verifier of `aclgraph.model`, one O(V + E) sweep.

Checks, each failing with a message that names the task and says what to change:
symbols resolve to the right kind; kernel args match the kernel's parameter count;
`seq` is unique in the model and increasing along each stream; a stream's recorded
slot count matches its tasks; scope markers are balanced (in seq order, an end closes
the most recent open scope of its name; not checked once a rewrite has used marker
slots as spares); the happens-before rules of docs/design.md §3 (a non-external wait has a
record in its epoch; a reset is after every record and wait of the epoch it closes; one
satisfying write per cell, writes to a cell totally ordered; waits on a cell agree; a stream
activated at most once and never by itself; no cycle, activations included).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise

from xdsl.dialects.builtin import ArrayAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import (
    CondOp,
    DisabledOp,
    LaunchSkOp,
    ModelOp,
    ScopeBeginOp,
    ScopeEndOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    install_model_rule,
)
from skir.dialects.aclgraph_decls import BufferOp, CellOp, EventOp, KernelOp
from skir.dialects.aclgraph_enums import rule_holds
from skir.errors import TaskVerifyException, task_path
from skir.names import NAME_MAX_BYTES, SYMBOL_MAX_BYTES, name_problem, shown

# property name -> (declaration op name, what it is called in messages)
_SYMBOL_FIELDS: dict[str, tuple[str, str]] = {
    "kernel": (KernelOp.name, "kernel"),
    "event": (EventOp.name, "event"),
    "cell": (CellOp.name, "cell"),
    "sk": ("sk.kernel", "SuperKernel"),
    "stream": (StreamOp.name, "stream"),
}


_STAMP = "_skir_checked_stamp"
# the in-kernel ops the task graph reads (a SuperKernel launch writes / waits their cells)
_LOCK_OPS = frozenset(("sk.notify", "sk.reset_lock", "sk.wait_lock"))


def check_model(model: ModelOp) -> None:
    """Raise `TaskVerifyException` on the first violated model invariant.

    A model that passed keeps a stamp of everything this check reads (`model_stamp`); while
    the stamp is unchanged (a pass that rewrote only SuperKernel bodies), the check is not
    repeated: verification between passes then costs what the pass changed."""
    stamp = model_stamp(model)
    if getattr(model, _STAMP, None) == stamp:
        return
    _check_model(model)
    setattr(model, _STAMP, stamp)


def model_stamp(model: ModelOp) -> tuple[object, ...]:
    """Every input of `check_model`, by identity: the model's properties, each op of its body
    and each task of each stream with its properties, and each lock op of each SuperKernel
    body with its properties (attributes are immutable, so an unchanged entry is the same
    object). Ops compare by identity; a new, moved or edited op changes the stamp."""
    parts: list[object] = [tuple(model.properties.items())]
    add = parts.append
    for op in model.body.block.ops:
        add(op)
        add(tuple(op.properties.items()))
        if isinstance(op, StreamOp):
            for task in op.body.block.ops:
                add(task)
                add(tuple(task.properties.items()))
        elif op.name == "sk.kernel":
            for region in op.regions:
                for child in region.block.ops:
                    if child.name in _LOCK_OPS:
                        add(child)
                        add(tuple(child.properties.items()))
    return tuple(parts)


def _check_model(model: ModelOp) -> None:
    symbols: dict[str, Operation] = {}
    _check_name(model)
    for op in model.body.block.ops:
        name = op.properties.get("sym_name")
        if name is not None:
            symbols[name.data] = op
            _check_name(op)
    seen_seq: dict[int, TaskOp] = {}
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            _check_stream(stream, symbols, seen_seq)
    _check_submodels(model, symbols, seen_seq)
    graph = TaskGraph(model)
    rewritten = any(isinstance(op, LaunchSkOp | DisabledOp) for op in graph.ops)
    if not rewritten:
        # after a rewrite, marker slots may have become value or disabled slots (spares)
        _check_markers(graph)
    hb = HappensBefore(graph)
    _check_resets(graph, hb)
    _check_cell_writes(graph, hb)
    if not rewritten:
        # a rewritten model that hangs is skir's fault, which sk-check reports (exit 3)
        _check_cell_resets(graph, hb)
        _check_satisfiable(graph, hb)


def _check_submodels(model: ModelOp, symbols: dict[str, Operation], seen_seq: dict[int, TaskOp]) -> None:
    """docs/design.md §3 "Conditional sub-models": a sub-model runs on the parent's device,
    declares what it uses as the parent declares it (a cell of its own only where a rewrite of
    it added one), and its seqs, stream names and name are
    unique across the parent and every other sub-model (each sub-model checks its own
    streams when it is verified)."""
    names: dict[str, Operation] = {}
    streams = {s.sym_name.data: s for s in model.body.block.ops if isinstance(s, StreamOp)}
    for cond, _, sub in _all_conds(model):
        where = f"{task_path(cond)}: sub-model @{sub.sym_name.data}"
        if (sub.aic_cores.data, sub.aiv_cores.data) != (model.aic_cores.data, model.aiv_cores.data):
            raise TaskVerifyException(cond, f"{where} has cores(aic = {sub.aic_cores.data}, aiv = "
                                            f"{sub.aiv_cores.data}); a sub-model runs on its parent's device")
        if sub.sym_name.data in names or sub.sym_name.data == model.sym_name.data:
            raise TaskVerifyException(cond, f"{where}: the name is used twice in the model; name each sub-model "
                                            "once")
        names[sub.sym_name.data] = sub
        for op in sub.body.block.ops:
            if isinstance(op, StreamOp):
                if op.sym_name.data in streams:
                    raise TaskVerifyException(cond, f"{where}: stream @{op.sym_name.data} is also a stream of "
                                                    f"{task_path(streams[op.sym_name.data])}; stream names are unique "
                                                    "across a model and its sub-models")
                streams[op.sym_name.data] = op
                for task in op.body.block.ops:
                    if isinstance(task, TaskOp):
                        other = seen_seq.setdefault(task.seq.data, task)
                        if other is not task:
                            raise TaskVerifyException(task, f"{task_path(task)}: seq {task.seq.data} is also used "
                                                            f"by {task_path(other)}; seq must be unique across a "
                                                            "model and its sub-models")
            elif isinstance(op, KernelOp | BufferOp | EventOp | CellOp):
                mine = symbols.get(op.sym_name.data)
                if mine is None and isinstance(op, CellOp):
                    continue  # a cell a rewrite of the sub-model added
                if mine is None or mine.name != op.name or mine.properties != op.properties:
                    raise TaskVerifyException(cond, f"{where}: {op.name} @{op.sym_name.data} is not declared so in "
                                                    f"@{model.sym_name.data}; a sub-model declares what it uses as "
                                                    "its parent does")


def _all_conds(model: ModelOp) -> list[tuple[TaskOp, int, ModelOp]]:
    """(condition task, branch, sub-model) of every sub-model below `model`, depth first."""
    found: list[tuple[TaskOp, int, ModelOp]] = []
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            for task in stream.body.block.ops:
                if isinstance(task, CondOp):
                    for i, sub in enumerate(task.submodels()):
                        found.append((task, i, sub))
                        found.extend(_all_conds(sub))
    return found


def _check_name(op: Operation) -> None:
    """docs/design.md §1 "Names": every symbol a C identifier of at most 128 bytes (a
    SuperKernel's, which skir derives from the model's, of at most `SYMBOL_MAX_BYTES`)."""
    name = op.properties["sym_name"].data  # type: ignore[attr-defined]
    problem = name_problem(name, SYMBOL_MAX_BYTES if op.name == "sk.kernel" else NAME_MAX_BYTES)
    if problem is not None:
        raise TaskVerifyException(op, f"{op.name} {shown(name)}: {problem}")


def _check_stream(stream: StreamOp, symbols: dict[str, Operation], seen_seq: dict[int, TaskOp]) -> None:
    last = -1
    count = 0
    for op in stream.body.block.ops:
        count += 1
        if not isinstance(op, TaskOp):
            raise TaskVerifyException(
                op, f"{task_path(stream)}: '{op.name}' is not a task; streams hold aclgraph tasks only"
            )
        seq = op.seq.data
        if seq in seen_seq:
            raise TaskVerifyException(
                op, f"{task_path(op)}: seq {seq} is also used by {task_path(seen_seq[seq])}; seq must be unique"
            )
        seen_seq[seq] = op
        if seq <= last:
            raise TaskVerifyException(
                op, f"{task_path(op)}: seq must increase along a stream (the previous task has seq {last})"
            )
        last = seq
        _check_symbols(op, op.properties, symbols)
        if isinstance(op, DisabledOp):
            _check_symbols(op, op.was.data, symbols)
    if stream.slots is not None and stream.slots.data != count:
        raise TaskVerifyException(
            stream,
            f"{task_path(stream)}: the stream records {stream.slots.data} slots but holds {count}; "
            "a rewrite must keep each stream's slot count",
        )


def _check_symbols(op: TaskOp, props: Mapping[str, Attribute], symbols: dict[str, Operation]) -> None:
    for field, ref in props.items():
        spec = _SYMBOL_FIELDS.get(field)
        if spec is not None:
            if type(ref) is SymbolRefAttr or isinstance(ref, SymbolRefAttr):
                _resolve(op, ref, spec[0], spec[1], symbols)
        elif field == "args" and isinstance(ref, ArrayAttr):
            for arg in ref.data:
                _resolve(op, arg, BufferOp.name, "buffer", symbols)
            kernel = _resolve(op, props["kernel"], KernelOp.name, "kernel", symbols)  # type: ignore[arg-type]
            assert isinstance(kernel, KernelOp)
            if len(ref.data) != kernel.num_params:
                raise TaskVerifyException(
                    op,
                    f"{task_path(op)}: {len(ref.data)} args for kernel @{kernel.sym_name.data}, which has "
                    f"{kernel.num_params} params; pass one buffer per param",
                )


def _resolve(op: TaskOp, ref: SymbolRefAttr, decl: str, what: str, symbols: dict[str, Operation]) -> Operation:
    """The declaration `ref` names, which must be a `decl` op."""
    name = ref.root_reference.data
    target = symbols.get(name)
    if target is None:
        raise TaskVerifyException(op, f"{task_path(op)}: unknown {what} @{name}; declare it in the model")
    if target.name != decl:
        raise TaskVerifyException(
            op, f"{task_path(op)}: @{name} is declared by '{target.name}', not by '{decl}'; name a {what}"
        )
    return target


def _check_markers(graph: TaskGraph) -> None:
    open_scopes: dict[str | None, list[int]] = {}
    for n in graph.by_seq:
        op = graph.ops[n]
        if isinstance(op, ScopeBeginOp | ScopeEndOp):
            name = op.scope.data if op.scope is not None else None
            stack = open_scopes.setdefault(name, [])
            if isinstance(op, ScopeBeginOp):
                stack.append(n)
            elif stack:
                stack.pop()
            else:
                label = "none" if name is None else f'"{name}"'
                raise TaskVerifyException(
                    op, f"{graph.name(n)}: scope_end {label} closes no open scope; add its scope_begin first"
                )
    for name, stack in open_scopes.items():
        if stack:
            label = "none" if name is None else f'"{name}"'
            n = stack[-1]
            raise TaskVerifyException(
                graph.ops[n], f"{graph.name(n)}: scope_begin {label} is never closed; add a scope_end {label}"
            )


def _check_resets(graph: TaskGraph, hb: HappensBefore) -> None:
    for epoch in graph.epochs:
        if epoch.reset is None:
            continue
        for n in (*epoch.records, *epoch.waits):
            if not hb.before(n, epoch.reset):
                raise TaskVerifyException(
                    graph.ops[epoch.reset],
                    f"{graph.name(epoch.reset)}: reset of @{epoch.event} is not ordered after "
                    f"{graph.name(n)} of the epoch it closes; make the reset wait for it",
                )


def _check_cell_resets(graph: TaskGraph, hb: HappensBefore) -> None:
    """A write after a cell's satisfying one ends what its waits see, as a reset ends an event
    epoch: it must be hb-after every wait of the cell, or a wait could miss the value and block
    for ever."""
    for use in graph.cells.values():
        if len(use.satisfying) != 1 or len(use.writes) < 2:
            continue
        (good,) = use.satisfying
        for write in use.writes:
            if write == good or not hb.before(good, write):
                continue
            for w in use.waits:
                if not hb.before(w, write):
                    raise TaskVerifyException(
                        graph.ops[write],
                        f"{graph.name(write)}: value_write to @{use.cell} after the write its waits need "
                        f"({graph.name(good)}) is not ordered after {graph.name(w)}, which could then miss "
                        "the value and block for ever; make the write wait for it",
                    )


def _check_satisfiable(graph: TaskGraph, hb: HappensBefore) -> None:
    """A model must not deadlock by itself (docs/design.md §3): a `value_wait` that no write of
    the model satisfies must be `external`; an event wait whose every record happens after it
    can never be satisfied. (A single satisfying record or write after its wait is a cycle.)"""
    for use in graph.cells.values():
        if not use.waits or use.satisfying:
            continue
        rule, target = use.rule[use.waits[0]]
        if rule_holds(rule, 0, target):
            continue
        for w in use.waits:
            op = graph.ops[w]
            if isinstance(op, ValueWaitOp) and op.external is None:
                raise TaskVerifyException(
                    op, f"{graph.name(w)}: value_wait on @{use.cell} ({rule.value} {target}) is satisfied by no "
                    "write of the model, so the model deadlocks; write the value first or mark the wait external",
                )
    or_waits = False
    for epoch in graph.epochs:
        if len(epoch.records) < 2 or not epoch.waits:
            continue
        or_waits = True
        for w in epoch.waits:
            if all(hb.before(w, r) for r in epoch.records):
                raise TaskVerifyException(
                    graph.ops[w], f"{graph.name(w)}: wait on @{epoch.event} can never be satisfied: every record of "
                    f"its epoch ({', '.join(graph.name(r) for r in epoch.records[:3])}) happens after it, so the "
                    "model deadlocks",
                )
    if or_waits or any(use.waits for use in graph.cells.values()):
        _check_runs(graph)


def _check_runs(graph: TaskGraph) -> None:
    """Run the model once on sk-check's abstract machine: or-waits (an epoch of several records)
    and value waits block on what happens at run time, which hb alone does not show (two waits
    of a twice-recorded event, each before the other stream's record, block each other). Where
    every wait has one record, hb being acyclic already proves the model runs to its end."""
    from skir.analysis.proof.sync_machine import SyncMachine

    blocked = SyncMachine(graph, {}).run()
    if blocked:
        first = blocked[0]
        assert first.node is not None
        others = "; ".join(f"{b.agent} on {b.what}" for b in blocked[1:3])
        more = f" and {len(blocked) - 3} more" if len(blocked) > 3 else ""
        raise TaskVerifyException(
            graph.ops[first.node],
            f"{first.agent}: the model deadlocks by itself: this task waits for ever on {first.what}"
            + (f", as do {others}{more}" if others else "")
            + "; order a record or write before the waits that need it",
        )


def _check_cell_writes(graph: TaskGraph, hb: HappensBefore) -> None:
    topo_index: dict[int, int] | None = None
    for use in graph.cells.values():
        if len(use.writes) < 2:
            continue
        if topo_index is None:
            topo_index = {n: i for i, n in enumerate(hb.order)}
        writes = sorted(use.writes, key=topo_index.__getitem__)
        for a, b in pairwise(writes):
            if not hb.before(a, b):
                raise TaskVerifyException(
                    graph.ops[b],
                    f"{graph.name(b)}: writes to @{use.cell} are not ordered ({graph.name(a)} and this "
                    "one may run in either order); order them with an event or use two cells",
                )


def install() -> None:
    """Have every `aclgraph.model` verification run `check_model` (idempotent). `make_context()`,
    the dialect registry and every verifying entry point call it; importing this module does not."""
    install_model_rule(check_model)
