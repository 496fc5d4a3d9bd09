"""Communication kernels: co-residency, order within a group, and the model's own hazards
(docs/design.md §3, "Communication kernels").

A communication kernel (`comm group G op OP` on a launch) spins on the other ranks of its
group, so every block of whatever holds it must be resident at once, and every rank must run
group G's collectives in one order. For a SuperKernel holding one:

- **co-residency**: its cores plus the largest demand of any kernel that may run at the same
  time on the device — on a stream outside its ranges, after the last task there that happens
  before its launch and before the first that happens after its last member — fit the device,
  per core type (the deadlock rule, the remote ranks being outside work never before it);
- **order**: it holds no two communication kernels of one group that the input leaves
  unordered (their order inside could then differ from another rank's).

The model's own hazards are warnings (the input is the user's, and it may be right by means
skir cannot see): `comm_unordered` (two of one group unordered by hb) and `comm_coresidency`
(two that may run at the same time whose summed demand of a core type exceeds the device).

```python
rule = CommRule(graph, hb, demand, cores)
rule.coresident(ranges, (24, 48), others=[])    # False: something beside it may hold cores
rule.model_warnings()                            # [("comm_unordered", a, b, "tp0"), ...]
```
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.range_max import RangeMax
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import core_demand

Ranges = dict[int, tuple[int, int]]


class CommRule:
    """The rules above for one model (node ids of `graph`)."""

    def __init__(self, graph: TaskGraph, hb: HappensBefore, demand: RangeMax, cores: tuple[int, int],
                 own_demand: Callable[[int], tuple[int, int]]) -> None:
        self.graph, self.hb, self.demand, self.cores = graph, hb, demand, cores
        self.own_demand = own_demand
        self.group: dict[int, str] = {}
        """Communication kernel (node id) -> its group."""
        for n, op in enumerate(graph.ops):
            if isinstance(op, LaunchOp) and (comm := op.comm) is not None:
                self.group[n] = comm[0]

    def window(self, ranges: Ranges) -> dict[int, tuple[int, int]]:
        """Stream outside `ranges` -> the positions (lo, hi) of its tasks that may run while the
        ranges run: after the last one before the launch, before the first one after the end."""
        g, hb = self.graph, self.hb
        launch = [-1] * len(g.streams)
        for t, (lo, _) in ranges.items():
            prev = g.prev_on_stream(lo)
            if prev is not None:
                clock = hb.clock(prev)
                launch = [max(a, int(b)) for a, b in zip(launch, clock, strict=True)]
        out = {}
        for u in range(len(g.streams)):
            if u in ranges:
                continue
            nodes = g.stream_nodes(u)
            lo_pos, hi_pos = launch[u] + 1, len(nodes) - 1
            for _, hi in ranges.values():  # the first position on u after `hi`: binary search (monotone)
                a, b = lo_pos, hi_pos + 1
                while a < b:
                    mid = (a + b) // 2
                    if hb.before(hi, nodes[mid]):
                        b = mid
                    else:
                        a = mid + 1
                hi_pos = min(hi_pos, a - 1)
            if lo_pos <= hi_pos:
                out[u] = (lo_pos, hi_pos)
        return out

    def beside(self, ranges: Ranges, others: list[tuple[Ranges, tuple[int, int]]]) -> tuple[int, int]:
        """The largest (cube, vector) demand of a kernel, or of one of the SuperKernels `others`
        ((ranges, demand); `ranges` itself skipped), that may run while `ranges` run."""
        g = self.graph
        need_aic = need_aiv = 0
        for u, (lo_pos, hi_pos) in self.window(ranges).items():
            aic, aiv = self.demand.query(u, lo_pos, hi_pos)
            need_aic, need_aiv = max(need_aic, aic), max(need_aiv, aiv)
            for other, (o_aic, o_aiv) in others:
                span = other.get(u)
                if other is not ranges and span is not None and g.pos[span[0]] <= hi_pos and g.pos[span[1]] >= lo_pos:
                    need_aic, need_aiv = max(need_aic, o_aic), max(need_aiv, o_aiv)
        return need_aic, need_aiv

    def coresident(self, ranges: Ranges, demand: tuple[int, int],
                   others: list[tuple[Ranges, tuple[int, int]]] | None = None) -> bool:
        """Whether a SuperKernel of `ranges` holding `demand` cores keeps all its blocks resident
        beside whatever may run with it (see the module docstring)."""
        aic, aiv = self.beside(ranges, others or [])
        return demand[0] + aic <= self.cores[0] and demand[1] + aiv <= self.cores[1]

    def unordered_partner(self, members: list[int], c: int) -> int | None:
        """A communication kernel of `members` in `c`'s group that the input leaves unordered
        with `c` (None: none, or `c` is no communication kernel)."""
        group = self.group.get(c)
        if group is None:
            return None
        return next((m for m in members if self.group.get(m) == group
                     and not self.hb.ordered(m, c)), None)

    def model_warnings(self) -> list[tuple[str, int, int, str]]:
        """(warning, node, node, group or "") of the model's own hazards, in seq order."""
        g, hb = self.graph, self.hb
        found = []
        nodes = sorted(self.group, key=g.seq.__getitem__)
        for a, b in combinations(nodes, 2):
            if hb.ordered(a, b):
                continue
            if self.group[a] == self.group[b]:
                found.append(("comm_unordered", a, b, self.group[a]))
            demand_a, demand_b = self.own_demand(a), self.own_demand(b)
            if demand_a[0] + demand_b[0] > self.cores[0] or demand_a[1] + demand_b[1] > self.cores[1]:
                found.append(("comm_coresidency", a, b, ""))
        return found


def comm_hazards(model: ModelOp, graph_of: Callable[[ModelOp], TaskGraph] = TaskGraph,
                 ) -> list[tuple[str, tuple[str, int], tuple[str, int], str]]:
    """The model's own hazards (`CommRule.model_warnings`) as (warning, (stream, seq) twice,
    group); nothing to build when the model has no communication kernel, else its task graph
    from `graph_of` (a compile's, which it keeps: `ResultData.graph_of`)."""
    if not any(isinstance(op, LaunchOp) and op.comm is not None for stream in model.body.block.ops
               if isinstance(stream, StreamOp) for op in stream.body.block.ops):
        return []
    graph = graph_of(model)
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}

    def own(n: int) -> tuple[int, int]:
        op = graph.ops[n]
        if isinstance(op, LaunchOp):
            return core_demand(kernels[op.kernel.root_reference.data].type, op.blocks.data)
        return 0, 0

    rule = CommRule(graph, HappensBefore(graph), RangeMax.per_stream(graph, own),
                    (model.aic_cores.data, model.aiv_cores.data), own)

    def where(n: int) -> tuple[str, int]:
        return graph.streams[graph.stream_of[n]].sym_name.data, graph.seq[n]

    return [(w, where(a), where(b), group) for w, a, b, group in rule.model_warnings()]
