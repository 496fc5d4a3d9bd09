"""The stream half of the sync machine (`skir.analysis.proof.sync_machine`): the model's streams run
their tasks in order, each carrying its knowledge vector.

```
s0: launch_sk @m_sk0, record @e0       s1: wait @e0, value_wait @c eq 1
```

An event wait needs a record of its epoch (an external wait with no record in the model
passes) and takes the single record's knowledge; a value wait needs its rule to hold of the
cell's value (an external wait nothing in the model satisfies passes); a notify wait needs a
notify record of its name; a cascade stream starts once a `stream_active` task has activated
it. A `launch_sk` starts its SuperKernel's core agents (`start`) and blocks its stream until
they finish (`join`); both are the machine's. Each completed task raises its stream's entry.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import (
    LaunchSkOp,
    OpaqueOp,
    RecordOp,
    StreamActiveOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_enums import OpaqueKind, rule_holds


class StreamSteps:
    """The model's streams, stepped one task at a time (see the module docstring); the machine
    deriving from it gives `start` and `join`."""

    def __init__(self, graph: TaskGraph | None, width: int):
        self.graph = graph
        self.width = width
        """The length of a knowledge vector."""
        self.n_streams = len(graph.streams) if graph is not None else 0
        self.stream_clock = [self.zero() for _ in range(self.n_streams)]
        self.stream_pc = [0] * self.n_streams
        self.task_start: dict[int, np.ndarray] = {}
        """Node of a stream task -> knowledge when it starts."""
        self.recorded: dict[int, np.ndarray] = {}
        """Record node -> knowledge it published."""
        self.cells: dict[str, tuple[int, np.ndarray]] = {}
        """Cell -> (its value, the knowledge of its last write); the cores' GM locks are cells too."""
        self.notifies: dict[str, list[np.ndarray]] = defaultdict(list)
        self.activated: dict[int, np.ndarray] = {}
        """Stream activated by a `stream_active` task that has run -> the knowledge it passed on."""
        self.notify_names = {o.notify.data for o in graph.ops if isinstance(o, OpaqueOp) and o.notify is not None
                             and o.kind.data is OpaqueKind.NOTIFY_RECORD} if graph is not None else set()

    @property
    def model_graph(self) -> TaskGraph:
        """The model's task graph; only stream code reads it, and an isolated machine has no stream."""
        assert self.graph is not None, "an isolated SuperKernel's machine has no streams"
        return self.graph

    def zero(self) -> np.ndarray:
        return np.zeros(self.width, dtype=np.int64)

    def start_superkernel(self, op: LaunchSkOp, clock: np.ndarray) -> None:
        """Start the SuperKernel `op` launches with the launching stream's knowledge `clock`."""
        raise NotImplementedError

    def join(self, op: LaunchSkOp, clock: np.ndarray) -> bool:
        """Whether the SuperKernel `op` launched has finished; if so, `clock` learns what its cores knew."""
        raise NotImplementedError

    def blocked_streams(self) -> list[tuple[str, str, int]]:
        """(task name, why it waits, node) of each stream's next task, for the streams not done."""
        out: list[tuple[str, str, int]] = []
        for s in range(self.n_streams):
            g = self.model_graph
            if self.stream_pc[s] < g.start[s + 1] - g.start[s]:
                n = g.start[s] + self.stream_pc[s]
                out.append((g.name(n), self._stream_wait_reason(n), n))
        return out

    def _stream_wait_reason(self, n: int) -> str:
        op = self.model_graph.ops[n]
        if isinstance(op, LaunchSkOp):
            return f"launch_sk @{op.sk.root_reference.data} (the SuperKernel has not finished)"
        if isinstance(op, ValueWaitOp):
            cell = op.cell.root_reference.data
            value = self.cells.get(cell, (0, None))[0]
            return f"value_wait @{cell} {op.rule.data.value} {op.value.data} (cell is {value})"
        if isinstance(op, WaitOp):
            return f"wait @{op.event.root_reference.data} (not recorded in its epoch)"
        s = self.model_graph.stream_of[n]
        if n == self.model_graph.start[s] and s in self.model_graph.activator and s not in self.activated:
            return f"activation by {self.model_graph.name(self.model_graph.activator[s])}"
        return op.name

    def _step_stream(self, s: int) -> bool:
        g = self.model_graph
        if self.stream_pc[s] >= g.start[s + 1] - g.start[s]:
            return False
        n = g.start[s] + self.stream_pc[s]
        op = g.ops[n]
        clock = self.stream_clock[s]
        if n not in self.task_start:
            if not self._stream_ready(n, op, clock):
                return False
            self.task_start[n] = clock.copy()
            if isinstance(op, LaunchSkOp):
                self.start_superkernel(op, clock)
                return True
        if isinstance(op, LaunchSkOp) and not self.join(op, clock):
            return False
        clock[s] = self.stream_pc[s] + 1
        self._complete_stream_task(n, op, clock)
        self.stream_pc[s] += 1
        return True

    def _stream_ready(self, n: int, op: object, clock: np.ndarray) -> bool:
        g = self.model_graph
        s = g.stream_of[n]
        if n == g.start[s] and s in g.activator:  # a cascade stream starts once it is activated
            knowledge = self.activated.get(s)
            if knowledge is None:
                return False
            np.maximum(clock, knowledge, out=clock)
        if isinstance(op, WaitOp):
            epoch = g.epoch_of[n]
            if op.external is not None and not epoch.records:
                return True
            done = [r for r in epoch.records if r in self.recorded]
            if not done:
                return False
            if epoch.single_record:
                np.maximum(clock, self.recorded[done[0]], out=clock)
            return True
        if isinstance(op, ValueWaitOp):
            cell = op.cell.root_reference.data
            value, knowledge = self.cells.get(cell, (0, None))
            if not rule_holds(op.rule.data, value, op.value.data):
                # an external wait that nothing of the model satisfies is satisfied from outside
                return op.external is not None and not self.model_graph.cells[cell].satisfying
            if knowledge is not None:
                np.maximum(clock, knowledge, out=clock)
            return True
        if isinstance(op, OpaqueOp) and op.notify is not None and op.kind.data is OpaqueKind.NOTIFY_WAIT:
            name = op.notify.data
            if not self.notifies[name] and name in self.notify_names:
                return False
            for knowledge in self.notifies[name]:
                np.maximum(clock, knowledge, out=clock)
        return True

    def _complete_stream_task(self, n: int, op: object, clock: np.ndarray) -> None:
        if isinstance(op, RecordOp):
            self.recorded[n] = clock.copy()
        elif isinstance(op, ValueWriteOp):
            self.cells[op.cell.root_reference.data] = (op.value.data, clock.copy())
        elif isinstance(op, OpaqueOp) and op.notify is not None and op.kind.data is OpaqueKind.NOTIFY_RECORD:
            self.notifies[op.notify.data].append(clock.copy())
        elif type(op) is StreamActiveOp:
            self.activated[self.model_graph.activates[n]] = clock.copy()
