"""The order a rewritten model runs each group's collectives in, and whether ranks agree
(docs/design.md §3, "Communication kernels"; `sk-check-ranks`).

Every rank runs its own graph, and a collective completes only when every rank of its group has
entered it: the ranks must run each group's collectives in one sequence. After skir's rewrite a
collective runs either as a launch (outside every SuperKernel) or as a sub-task of the
SuperKernel launched from a slot. `collective_sequences` lists, per group, the collectives in
the order the rewritten model runs them: its slots in an order of happens-before (the lowest
seq first among the ready), a SuperKernel's sub-tasks at its launch in program order (their ids
are a topological order of what the SuperKernel keeps). The collective a slot or sub-task runs
is read from the task the slot holds (or held: `was launch ... comm group G op OP`).

```python
report = check_ranks([module_rank0, module_rank1])
report.ok, report.difference     # False, "rank 1, group tp0, position 2: all_gather, rank 0 has all_reduce"
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from skir.analysis.graph.data_deps import launches_by_seq
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, LaunchSkOp
from skir.dialects.model_lookup import the_model
from skir.dialects.superkernel import SuperKernelOp

Collective = tuple[str, str]
"""(op, where: `@stream seq N`, inside `@sk` when a SuperKernel runs it)."""


def collective_sequences(module: ModuleOp) -> dict[str, list[Collective]]:
    """Group -> its collectives in the order the (rewritten) model runs them."""
    model = the_model(module)
    graph = TaskGraph(model)
    sks = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, SuperKernelOp)}
    launches = launches_by_seq(graph.streams)  # what each slot holds, or held before the rewrite
    out: dict[str, list[Collective]] = {}

    def add(launch: LaunchOp | None, where: str) -> None:
        if launch is not None and (comm := launch.comm) is not None:
            out.setdefault(comm[0], []).append((comm[1].value, where))

    for n in HappensBefore(graph).seq_order:
        op = graph.ops[n]
        if isinstance(op, LaunchOp):
            add(op, f"@{graph.streams[graph.stream_of[n]].sym_name.data} seq {graph.seq[n]}")
        elif isinstance(op, LaunchSkOp):
            sk = sks[op.sk.root_reference.data]
            for sub in sk.subtasks():
                add(launches.get(sub.seq.data),
                    f"@{sub.stream.root_reference.data} seq {sub.seq.data} in @{sk.sym_name.data}")
    return out


@dataclass(frozen=True)
class RanksReport:
    """`ok`, or the first difference between the ranks' sequences (rank, group, position)."""

    ranks: int
    groups: dict[str, int]
    """Group -> how many collectives each rank runs in it."""
    difference: str | None = None

    @property
    def ok(self) -> bool:
        return self.difference is None


def check_ranks(modules: list[ModuleOp], names: list[str] | None = None) -> RanksReport:
    """Whether every rank (`modules`, rewritten models; `names` say them) runs each group's
    collectives in one sequence of ops; else the first rank, group and position that differ
    from rank 0."""
    names = names or [f"rank {i}" for i in range(len(modules))]
    sequences = [collective_sequences(m) for m in modules]
    first = sequences[0]
    groups = {g: len(s) for g, s in sorted(first.items())}
    for name, seq in zip(names[1:], sequences[1:], strict=True):
        for group in sorted(set(first) | set(seq)):
            mine, theirs = seq.get(group, []), first.get(group, [])
            for i in range(max(len(mine), len(theirs))):
                a = mine[i] if i < len(mine) else None
                b = theirs[i] if i < len(theirs) else None
                if a is None or b is None or a[0] != b[0]:
                    said = f"{a[0]} ({a[1]})" if a else "nothing"
                    other = f"{b[0]} ({b[1]})" if b else "nothing"
                    return RanksReport(len(modules), groups,
                                       f"{name}, group {group}, position {i}: {said}, {names[0]} has {other}")
    return RanksReport(len(modules), groups)
