"""The three modes side by side: eager and aclgraph on the original model, superkernel on
the rewritten one, with the lower bound and a comparison per SuperKernel.

```python
from skir.sim.modes import compare
cmp = compare(result.original, result.module)           # default costs
cmp.runs["superkernel"].makespan, cmp.bound.value, cmp.superkernels[0].after
```
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import ModelOp, StreamOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.model_lookup import submodels, the_model
from skir.dialects.superkernel import SuperKernelOp
from skir.gc_pause import paused_gc
from skir.sim.bound import Bound, model_bound, superkernel_bound
from skir.sim.costs import Costs, default_costs
from skir.sim.engine import BASELINES, MODES, Simulation, TaskSpan, comm_durations, durations_of, simulate
from skir.sim.stamp import breakdown

NO_BOUND = Bound(0.0, 0.0, 0.0)
"""The bounds of a `spans_only` comparison (not computed)."""


def _model(module: ModuleOp | ModelOp) -> ModelOp:
    return module if isinstance(module, ModelOp) else the_model(module)


@dataclass(frozen=True)
class SuperKernelEstimate:
    """One SuperKernel: its members' span under aclgraph (before) and its own span (after)."""

    name: str
    kernel_type: str
    blocks: int
    form: str
    members: int
    before: float
    after: float
    bound: Bound
    breakdown: dict[str, float]
    syncs: int
    """Sync ops in its programs (barriers, flag sets and waits, handshakes, locks; a shared op once)."""
    baseline: str = "aclgraph"
    """The mode without SuperKernels `before` comes from: the fastest for these members among
    those simulated (`aclgraph`, `aclgraph_es`: the fair baseline)."""


@dataclass
class Comparison:
    """Every mode's simulation of one model, its bound and the per-SuperKernel estimates."""

    runs: dict[str, Simulation]
    bound: Bound
    superkernels: list[SuperKernelEstimate]
    costs: Costs
    submodels: list[tuple[str, Comparison]] = field(default_factory=list)
    """(sub-model, its own comparison) for each sub-model of the model, depth first: a
    condition task lasts, in each mode, the makespan of its first sub-model (the then branch,
    a while body once, the first switch case; docs/design.md §3 "Conditional sub-models")."""

    def ratio(self, mode: str) -> float | None:
        """Makespan of `mode` over the lower bound (None when the bound is 0: no kernel work)."""
        value = self.bound.value
        return self.runs[mode].makespan / value if value > 0 else None

    def syncs_per_subtask(self) -> float:
        subtasks = sum(sk.members for sk in self.superkernels)
        return sum(sk.syncs for sk in self.superkernels) / subtasks if subtasks else 0.0


def _sync_count(sk: SuperKernelOp) -> int:
    from skir.dialects.superkernel import PreloadOp, SubtaskOp

    return sum(not isinstance(op, SubtaskOp | PreloadOp) for op in sk.program())


def compare(original: ModuleOp | ModelOp, rewritten: ModuleOp | ModelOp, costs: Costs | None = None,
            modes: tuple[str, ...] = MODES, measured: dict[tuple[str, int], float] | None = None, *,
            graph: TaskGraph | None = None, spans_only: bool = False) -> Comparison:
    """Simulate `modes` (eager / aclgraph on `original`, superkernel on `rewritten`); `measured`
    durations by (stream, seq) (`skir.profiles`) replace the model's own and the default.
    `graph`: the original model's task graph if the caller has it (every mode on the original
    shares one). `spans_only`: each SuperKernel's `before`, `after` and `baseline` alone, what
    selection and the `predicted_slower` warning read (no bounds, breakdowns or sync counts:
    those are zero; a baseline's run keeps its makespan, not its tasks, which are dropped once
    its members' spans are read; the superkernel run's tasks carry no `program`).

    The cyclic collector is paused meanwhile: the runs allocate a few objects per task, and its
    full collections, which scan the whole heap (the compiled modules included), made the
    prediction every compile runs superlinear (docs/benchmarks.md, "Schedule")."""
    with paused_gc():
        return _compare(original, rewritten, costs, modes, measured, graph, spans_only)


def _compare(original: ModuleOp | ModelOp, rewritten: ModuleOp | ModelOp, costs: Costs | None,
             modes: tuple[str, ...], measured: dict[tuple[str, int], float] | None, graph: TaskGraph | None,
             spans_only: bool) -> Comparison:
    costs = costs if costs is not None else default_costs()
    before, after = _model(original), _model(rewritten)
    graph = graph if graph is not None and graph.model is before else TaskGraph(before)
    durations = {**durations_of(before), **comm_durations(before, costs)}
    if measured:
        durations.update(measured)
    subs: list[tuple[str, Comparison]] = []
    cond: dict[str, dict[tuple[str, int], float]] = {mode: {} for mode in modes}
    after_subs = {sub.sym_name.data: sub for _, _, sub in submodels(after)}
    for task, branch, sub in submodels(before):
        part = compare(sub, after_subs[sub.sym_name.data], costs, modes, measured, spans_only=spans_only)
        subs.append((sub.sym_name.data, part))
        subs.extend((f"{sub.sym_name.data}/{name}", c) for name, c in part.submodels)
        if branch == 0:
            where = (_stream_of(task), task.seq.data)
            for mode in modes:
                cond[mode][where] = part.runs[mode].makespan
    sks = [op for op in after.body.block.ops if isinstance(op, SuperKernelOp)]
    keys_of = {sk.sym_name.data: [(s.stream.root_reference.data, s.seq.data) for s in sk.subtasks()] for sk in sks}
    runs: dict[str, Simulation] = {}
    old_of: dict[str, dict[str, float]] = {}
    for mode in modes:
        run = (simulate(after, mode, costs, {**durations, **cond[mode]}, programs=not spans_only)
               if mode == "superkernel" else
               simulate(before, mode, costs, {**durations, **cond[mode]}, graph=graph))
        if mode in BASELINES and "superkernel" in modes and keys_of:
            old_of[mode] = _member_spans(run, keys_of)
        # spans_only: a baseline's tasks are read for the members' spans alone; its makespan stays
        runs[mode] = Simulation(mode, [], run.last) if spans_only and mode != "superkernel" else run
        del run
    bound = NO_BOUND if spans_only else model_bound(before, costs, durations, graph)
    estimates: list[SuperKernelEstimate] = []
    if sks and "superkernel" in runs:
        kernels = {op.sym_name.data: op for op in after.body.block.ops if isinstance(op, KernelOp)}
        aic, aiv = after.aic_cores.data, after.aiv_cores.data
        baselines = [mode for mode in BASELINES if mode in runs]
        sk_spans = {t.name: t for t in runs["superkernel"].tasks if t.kind == "superkernel"}
        for sk in sks:
            name = sk.sym_name.data
            old = {mode: old_of[mode][name] for mode in baselines if name in old_of[mode]}
            baseline = min(old, key=lambda mode: old[mode]) if old else "aclgraph"  # the fastest; ties: aclgraph
            span = sk_spans.get(name)
            new = span.end - span.ready if span is not None else float("nan")
            extras = ((NO_BOUND, {}, 0) if spans_only else
                      (superkernel_bound(sk, kernels, costs, durations, aic, aiv), _span_breakdown(span),
                       _sync_count(sk)))
            estimates.append(SuperKernelEstimate(
                name, sk.type.value, sk.blocks.data, sk.form.data.value, len(keys_of[name]),
                old.get(baseline, float("nan")), new, *extras, baseline))
    return Comparison(runs, bound, estimates, costs, subs)


def _member_spans(run: Simulation, keys_of: dict[str, list[tuple[str, int]]]) -> dict[str, float]:
    """SuperKernel -> its members' span in `run` (the latest end less the earliest ready of
    those `run` holds), for each SuperKernel with a member there."""
    by_task = {(t.stream, t.seq): t for t in run.tasks}
    spans: dict[str, float] = {}
    for name, keys in keys_of.items():
        found = [t for t in (by_task.get(k) for k in keys) if t is not None]
        if found:
            spans[name] = max(t.end for t in found) - min(t.ready for t in found)
    return spans


def _stream_of(task: object) -> str:
    stream = task.parent_op()  # type: ignore[attr-defined]
    assert isinstance(stream, StreamOp)
    return stream.sym_name.data


def _span_breakdown(span: TaskSpan | None) -> dict[str, float]:
    """Compute / dispatch / sync / idle of one SuperKernel's span (its dispatch gap included)."""
    if span is None:
        return {}
    return breakdown(span.end_stamp, span.ready_stamp)


__all__ = ["MODES", "Comparison", "SuperKernelEstimate", "breakdown", "compare"]
