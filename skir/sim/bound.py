"""Lower bounds on the makespan (docs/design.md §7): max(critical path, work per core type / cores).

- critical path: the longest path of kernel durations through the happens-before DAG
  (stream order and the `TaskGraph` edges); every other task counts 0;
- work per core type: the sum over kernel tasks of duration x cores it holds of that
  type (min(blocks, cores); a 1:2 kernel holds blocks AICs and 2·blocks AIVs), divided by
  the device's cores of that type.

No dispatch, sync or cache cost enters a bound. For one SuperKernel the same over its
members, with the sub-tasks' `after %t` dependencies as the DAG.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, ModelOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import core_demand
from skir.dialects.superkernel import SuperKernelOp
from skir.errors import ExitCode, SkirError
from skir.sim.costs import Costs


@dataclass(frozen=True)
class Bound:
    """A lower bound and its two parts."""

    critical_path: float
    work_aic: float
    work_aiv: float
    """Core-µs of work per type, divided by the device's cores of that type."""

    @property
    def value(self) -> float:
        return max(self.critical_path, self.work_aic, self.work_aiv)

    def as_json(self) -> dict[str, float]:
        return {"lower_bound_us": round(self.value, 3), "critical_path_us": round(self.critical_path, 3),
                "work_aic_us": round(self.work_aic, 3), "work_aiv_us": round(self.work_aiv, 3)}


def _held(kernel: KernelOp, blocks: int, aic: int, aiv: int) -> tuple[int, int]:
    c, v = core_demand(kernel.type, blocks)
    return min(c, aic), min(v, aiv)


def model_bound(model: ModelOp, costs: Costs, durations: dict[tuple[str, int], float],
                graph: TaskGraph | None = None) -> Bound:
    """The bound of a whole (original) model."""
    g = graph if graph is not None else TaskGraph(model)
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    aic, aiv = model.aic_cores.data, model.aiv_cores.data
    names = [s.sym_name.data for s in g.streams]
    weight = [0.0] * len(g)
    work_c = work_v = 0.0
    for n, op in enumerate(g.ops):
        if isinstance(op, LaunchOp):
            d = durations.get((names[g.stream_of[n]], op.seq.data), costs.default_duration_us)
            weight[n] = d
            c, v = _held(kernels[op.kernel.root_reference.data], op.blocks.data, aic, aiv)
            work_c += d * c
            work_v += d * v
    # Kahn's order over stream edges plus cross edges.
    indeg = [0] * len(g)
    for n in range(len(g)):
        if g.next_on_stream(n) is not None:
            indeg[n + 1] += 1
    for b, preds in g.cross_pred.items():
        indeg[b] += len(preds)
    finish = [0.0] * len(g)
    start = [0.0] * len(g)
    ready = [n for n in range(len(g)) if indeg[n] == 0]
    seen = 0
    while ready:
        n = ready.pop()
        seen += 1
        finish[n] = start[n] + weight[n]
        succs = list(g.cross_succ.get(n, ()))
        nxt = g.next_on_stream(n)
        if nxt is not None:
            succs.append(nxt)
        for m in succs:
            start[m] = max(start[m], finish[n])
            indeg[m] -= 1
            if indeg[m] == 0:
                ready.append(m)
    if seen != len(g):
        raise SkirError(f"@{model.sym_name.data}: the task graph has a cycle", ExitCode.INTERNAL)
    return Bound(max(finish, default=0.0), work_c / aic if aic else 0.0, work_v / aiv if aiv else 0.0)


def superkernel_bound(sk: SuperKernelOp, kernels: dict[str, KernelOp], costs: Costs,
                      durations: dict[tuple[str, int], float], aic: int, aiv: int) -> Bound:
    """The bound of one SuperKernel's members (their DAG from the sub-tasks' dependencies)."""
    finish: dict[Operation, float] = {}
    work_c = work_v = 0.0
    for sub in sk.subtasks():
        d = durations.get((sub.stream.root_reference.data, sub.seq.data), costs.default_duration_us)
        finish[sub] = max((finish.get(dep, 0.0) for dep in sub.dep_subtasks()), default=0.0) + d
        kernel = kernels.get(sub.kernel.root_reference.data)
        if kernel is not None:
            c, v = _held(kernel, sub.blocks.data, aic, aiv)
            work_c += d * c
            work_v += d * v
    return Bound(max(finish.values(), default=0.0), work_c / aic if aic else 0.0, work_v / aiv if aiv else 0.0)
