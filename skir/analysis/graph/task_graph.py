"""The task DAG of an `aclgraph.model`: nodes, stream order and synchronisation edges.

Nodes are the task slots, numbered stream by stream in stream order, so stream order
is implicit (node i precedes node i+1 on the same stream). Explicit *cross* edges come
from (docs/design.md §3):

- `record` -> every `wait` of the same event and epoch, when the epoch has exactly one
  record (an event's tasks in seq order fall into epochs; each `reset` closes one);
- `value_write` -> `value_wait` on the same cell when the written value satisfies the
  wait's rule and the initial value 0 does not;
- `notify_record` -> `notify_wait` opaque tasks naming the same notify;
- `stream_active` -> the first task of the stream it activates (a stream is activated at most
  once and never by itself; `activator` maps each activated stream to its task).

After `sk-outline`, a SuperKernel launch writes (in-kernel notify: 1, reset: 0) and waits
(lock wait: eq 1) the cells its `sk.kernel`'s lock ops access, as one node.

Built once per pass in O(V + E) (plus one sort by seq).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import (
    EventTaskOp,
    LaunchSkOp,
    ModelOp,
    OpaqueOp,
    RecordOp,
    ResetOp,
    StreamActiveOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_enums import OpaqueKind, WaitRule, rule_holds
from skir.errors import TaskVerifyException, task_path

if TYPE_CHECKING:
    from skir.dialects.superkernel import SuperKernelOp


@dataclass
class EventEpoch:
    """The tasks of one event between two resets (`reset` is the one that closes it)."""

    event: str
    index: int
    records: list[int] = field(default_factory=list)
    waits: list[int] = field(default_factory=list)
    reset: int | None = None
    external: bool = False
    """Whether any task of the epoch is marked external."""

    @property
    def single_record(self) -> bool:
        return len(self.records) == 1


@dataclass
class CellUse:
    """The writes and waits of one value cell."""

    cell: str
    writes: list[int] = field(default_factory=list)
    waits: list[int] = field(default_factory=list)
    satisfying: list[int] = field(default_factory=list)
    value: dict[int, int] = field(default_factory=dict)
    """Writer node -> the value it writes."""
    rule: dict[int, tuple[WaitRule, int]] = field(default_factory=dict)
    """Waiter node -> (rule, value) it waits for."""

    def add_write(self, n: int, value: int) -> None:
        if n not in self.value:
            self.writes.append(n)
        self.value[n] = value

    def add_wait(self, n: int, rule: WaitRule, value: int) -> None:
        if n not in self.rule:
            self.waits.append(n)
        self.rule[n] = (rule, value)


def _the_model(model: object) -> ModelOp:
    if isinstance(model, ModelOp):
        return model
    if isinstance(model, ModuleOp):
        found = [op for op in model.ops if isinstance(op, ModelOp)]
        if len(found) == 1:
            return found[0]
        raise TypeError(f"TaskGraph: the module holds {len(found)} aclgraph.model ops; pass one of them")
    raise TypeError(f"TaskGraph takes an aclgraph.model (ModelOp) or a module holding one, not "
                    f"{type(model).__name__}")


class TaskGraph:
    """Nodes and edges of a model's happens-before graph (not yet closed transitively)."""

    def __init__(self, model: ModelOp | ModuleOp):
        """`model`: an `aclgraph.model`, or a module holding exactly one."""
        model = _the_model(model)
        self.model = model
        self.streams: list[StreamOp] = [op for op in model.body.block.ops if isinstance(op, StreamOp)]
        self.ops: list[TaskOp] = []
        self.stream_of: list[int] = []
        self.pos: list[int] = []
        self.start: list[int] = []
        for s, stream in enumerate(self.streams):
            self.start.append(len(self.ops))
            for i, op in enumerate(stream.body.block.ops):
                self.ops.append(op)  # type: ignore[arg-type]
                self.stream_of.append(s)
                self.pos.append(i)
        self.start.append(len(self.ops))
        self.node_of: dict[TaskOp, int] = {op: n for n, op in enumerate(self.ops)}
        self.seq: list[int] = [op.seq.data for op in self.ops]
        self.by_seq: list[int] = sorted(range(len(self.ops)), key=self.seq.__getitem__)
        self.cross_succ: dict[int, list[int]] = defaultdict(list)
        self.cross_pred: dict[int, list[int]] = defaultdict(list)
        self.epochs: list[EventEpoch] = []
        self.epoch_of: dict[int, EventEpoch] = {}
        self.cells: dict[str, CellUse] = {}
        self._superkernels: dict[str, SuperKernelOp] | None = None
        self._build_event_edges()
        self._build_cell_edges()
        self.activator: dict[int, int] = {}
        """Activated stream -> its `stream_active` node."""
        self.activates: dict[int, int] = {}
        """`stream_active` node -> the stream it activates."""
        self._build_notify_edges()
        self._build_activation_edges()

    def __len__(self) -> int:
        return len(self.ops)

    def stream_nodes(self, s: int) -> range:
        return range(self.start[s], self.start[s + 1])

    def next_on_stream(self, n: int) -> int | None:
        m = n + 1
        return m if m < self.start[self.stream_of[n] + 1] else None

    def prev_on_stream(self, n: int) -> int | None:
        return n - 1 if self.pos[n] > 0 else None

    def add_edge(self, a: int, b: int) -> None:
        self.cross_succ[a].append(b)
        self.cross_pred[b].append(a)

    def name(self, n: int) -> str:
        return task_path(self.ops[n])

    # ---- edges -----------------------------------------------------------------------

    def _build_event_edges(self) -> None:
        current: dict[str, EventEpoch] = {}
        for n in self.by_seq:
            op = self.ops[n]
            if not isinstance(op, EventTaskOp):
                continue
            event = op.event.root_reference.data
            epoch = current.get(event)
            if epoch is None:
                epoch = current[event] = EventEpoch(event, 0)
                self.epochs.append(epoch)
            self.epoch_of[n] = epoch
            if op.external is not None:
                epoch.external = True
            if isinstance(op, RecordOp):
                epoch.records.append(n)
            elif isinstance(op, WaitOp):
                epoch.waits.append(n)
            elif isinstance(op, ResetOp):
                epoch.reset = n
                nxt = EventEpoch(event, epoch.index + 1)
                current[event] = nxt
                self.epochs.append(nxt)
        self.epochs = [e for e in self.epochs if e.records or e.waits or e.reset is not None]
        for epoch in self.epochs:
            if epoch.single_record:
                record = epoch.records[0]
                for wait in epoch.waits:
                    self.add_edge(record, wait)
            elif not epoch.records:
                for wait in epoch.waits:
                    op = self.ops[wait]
                    assert isinstance(op, WaitOp)
                    if op.external is None:
                        raise TaskVerifyException(
                            op,
                            f"{self.name(wait)}: wait on @{epoch.event} has no record in its epoch; "
                            f"record @{epoch.event} before it (after the last reset) or mark the "
                            "wait external",
                        )

    def _build_cell_edges(self) -> None:
        for n in self.by_seq:
            op = self.ops[n]
            kind = type(op)  # by type: most tasks are none of these, and an isinstance miss costs
            if kind is ValueWriteOp:
                assert isinstance(op, ValueWriteOp)
                self._cell(op.cell.root_reference.data).add_write(n, op.value.data)
            elif kind is ValueWaitOp:
                assert isinstance(op, ValueWaitOp)
                self._cell(op.cell.root_reference.data).add_wait(n, op.rule.data, op.value.data)
            elif kind is LaunchSkOp:
                assert isinstance(op, LaunchSkOp)
                self._superkernel_cells(n, op)
        for use in self.cells.values():
            if not use.waits:
                continue
            first = use.waits[0]
            rule, target = use.rule[first]
            for w in use.waits[1:]:
                if use.rule[w] != (rule, target):
                    other_rule, other_value = use.rule[w]
                    raise TaskVerifyException(
                        self.ops[w],
                        f"{self.name(w)}: waits on @{use.cell} disagree: this one waits {other_rule.value} "
                        f"{other_value}, {self.name(first)} waits {rule.value} {target}; "
                        "use one (rule, value) per cell",
                    )
            if rule_holds(rule, 0, target):
                # the waits pass on the initial value and give no edge: that holds only while
                # every value the cell takes passes them too (docs/design.md §3 "Happens-before")
                for w in use.writes:
                    if not rule_holds(rule, use.value[w], target):
                        raise TaskVerifyException(
                            self.ops[w],
                            f"{self.name(w)}: value_write {use.value[w]} to @{use.cell} fails the rule of its "
                            f"waits ({rule.value} {target}), which the initial 0 passes: a wait could then "
                            "block until some later write, an order the model does not state; "
                            "give the waits a rule that 0 fails, or use two cells",
                        )
                continue
            use.satisfying = [w for w in use.writes if rule_holds(rule, use.value[w], target)]
            if len(use.satisfying) > 1:
                a, b = use.satisfying[:2]
                raise TaskVerifyException(
                    self.ops[b],
                    f"{self.name(b)}: a second write to @{use.cell} satisfies its waits (the first "
                    f"is {self.name(a)}); give each synchronisation its own cell",
                )
            for write in use.satisfying:
                for wait in use.waits:
                    if wait != write:
                        self.add_edge(write, wait)

    def _cell(self, name: str) -> CellUse:
        use = self.cells.get(name)
        if use is None:
            use = self.cells[name] = CellUse(name)
        return use

    def _superkernel_cells(self, n: int, launch: LaunchSkOp) -> None:
        """A SuperKernel launch writes and waits the cells its in-kernel lock ops access."""
        from skir.dialects.superkernel import NotifyOp, ResetLockOp, SuperKernelOp, WaitLockOp

        if self._superkernels is None:
            self._superkernels = {
                op.sym_name.data: op for op in self.model.body.block.ops if isinstance(op, SuperKernelOp)
            }
        sk = self._superkernels.get(launch.sk.root_reference.data)
        if sk is None:
            return
        for op in sk.body.block.ops:
            if isinstance(op, NotifyOp | ResetLockOp):
                self._cell(op.cell.root_reference.data).add_write(n, 1 if isinstance(op, NotifyOp) else 0)
            elif isinstance(op, WaitLockOp):
                self._cell(op.cell.root_reference.data).add_wait(n, WaitRule.EQ, 1)

    def _build_notify_edges(self) -> None:
        records: dict[str, list[int]] = defaultdict(list)
        waits: dict[str, list[int]] = defaultdict(list)
        for n, op in enumerate(self.ops):
            if isinstance(op, OpaqueOp) and op.notify is not None:
                kind = op.kind.data
                if kind is OpaqueKind.NOTIFY_RECORD:
                    records[op.notify.data].append(n)
                elif kind is OpaqueKind.NOTIFY_WAIT:
                    waits[op.notify.data].append(n)
        for name, recs in records.items():
            for r in recs:
                for w in waits.get(name, ()):
                    self.add_edge(r, w)

    def _build_activation_edges(self) -> None:
        """`stream_active` -> the first task of the stream it activates (docs/design.md §3)."""
        index: dict[str, int] | None = None
        for n, op in enumerate(self.ops):
            if type(op) is not StreamActiveOp:
                continue
            assert isinstance(op, StreamActiveOp)
            if index is None:
                index = {stream.sym_name.data: s for s, stream in enumerate(self.streams)}
            target = op.target
            s = index.get(target)
            if s is None:
                raise TaskVerifyException(op, f"{self.name(n)}: stream_active names @{target}, which is no stream of "
                                              "the model; name the stream it activates")
            if s == self.stream_of[n]:
                raise TaskVerifyException(op, f"{self.name(n)}: stream_active activates its own stream @{target}; "
                                              "name the stream the capture continues on")
            first = self.activator.get(s)
            if first is not None:
                raise TaskVerifyException(op, f"{self.name(n)}: stream @{target} is already activated by "
                                              f"{self.name(first)}; a stream is activated once")
            self.activator[s] = n
            self.activates[n] = s
            if self.start[s] < self.start[s + 1]:
                self.add_edge(n, self.start[s])
