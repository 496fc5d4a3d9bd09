"""The records of a compile: the rewritten module and what happened to every kernel task.

`ResultData` holds what `skir.compile` found and what its follow-ups added (the proof, the
simulation, the calibration, the vendor comparison, the files written); `skir.CompileResult`
(`skir.compile_result`) adds the follow-ups themselves. The targets that print a result (the
summary, the products, the vendor comparison) read these classes only, so they import nothing
of the API or the follow-ups that run them:

```python
def render(result: ResultData) -> str:
    return f"{result.launches_saved} launches saved by {len(result.superkernels)} SuperKernels"
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import ModuleOp

if TYPE_CHECKING:
    from skir.analysis.graph.task_graph import TaskGraph
    from skir.dialects.aclgraph import ModelOp


@dataclass(frozen=True)
class Member:
    """One kernel task fused into a SuperKernel."""

    stream: str
    seq: int
    kernel: str


@dataclass(frozen=True)
class SuperKernelInfo:
    name: str
    kernel_type: str
    blocks: int
    members: tuple[Member, ...]


@dataclass(frozen=True)
class Unfused:
    """A kernel task left unfused, and why."""

    stream: str
    seq: int
    kernel: str
    reason: str
    detail: str | None = None


@dataclass(frozen=True)
class CutInfo:
    """Where formation closed a SuperKernel for a reason that has a detail (the trigger task)."""

    stream: str
    seq: int
    reason: str
    detail: str


@dataclass(frozen=True)
class SkWarning:
    """A warning about a SuperKernel: `unreset_event` (an event epoch with no closing reset
    crosses its boundary, so the cell that replaces the event ends the model at 1: `event`,
    `cell`) or `predicted_slower` (under `select=all` the simulator predicts the SuperKernel
    slower than its members in the fair baseline, `baseline`: `before_us`, `after_us`, with `costs`)."""

    superkernel: str
    warning: str
    event: str = ""
    cell: str = ""
    before_us: float = 0.0
    after_us: float = 0.0
    costs: str = ""
    baseline: str = "aclgraph"

    def text(self) -> str:
        """The summary's line."""
        if self.warning == "predicted_slower":
            return (f"warning {self.superkernel}: predicted_slower: the simulator predicts {self.after_us:.1f} us "
                    f"for the SuperKernel against {self.before_us:.1f} us for its members under {self.baseline} "
                    f"({self.costs} costs); select=gain would leave them unfused")
        return (f"warning {self.superkernel}: {self.warning}: event @{self.event} has no closing reset; its cell "
                f"@{self.cell} ends the model at 1, as the event stays recorded")

    def as_dict(self) -> dict[str, object]:
        """Its entry in SK meta's `warnings` of the SuperKernel."""
        if self.warning == "predicted_slower":
            return {"warning": self.warning, "predicted_before_us": round(self.before_us, 3),
                    "predicted_after_us": round(self.after_us, 3), "costs": self.costs, "compared_with": self.baseline}
        return {"warning": self.warning, "event": self.event, "cell": self.cell}


@dataclass(frozen=True)
class ModelWarning:
    """A hazard of the input model itself (docs/design.md §3, "Communication kernels"):
    `comm_unordered` (two communication kernels of `group` that happens-before leaves
    unordered: ranks may run them in different orders) or `comm_coresidency` (two that may run
    at the same time and together need more cores of a type than the device has)."""

    warning: str
    first: tuple[str, int]
    second: tuple[str, int]
    group: str = ""

    def text(self) -> str:
        a, b = (f"@{s} seq {q}" for s, q in (self.first, self.second))
        if self.warning == "comm_unordered":
            return (f"warning: comm_unordered: {a} and {b} of group {self.group} are not ordered; every rank must "
                    "run a group's collectives in one order")
        return (f"warning: comm_coresidency: {a} and {b} may run at the same time and need more cores than the "
                "device has; each spins on its peers, so neither may get all its blocks")

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"warning": self.warning,
                                  "tasks": [{"stream": s, "seq": q} for s, q in (self.first, self.second)]}
        if self.group:
            out["group"] = self.group
        return out


@dataclass
class ResultData:
    """What a compile found (`module`, `superkernels`, `fail_reasons`, ...) and what the follow-ups
    of `skir.CompileResult` added (`proof`, `report`, `calibration`, `vendor_compare`, `emulation`,
    `outputs`)."""

    module: ModuleOp
    superkernels: list[SuperKernelInfo]
    fail_reasons: list[Unfused]
    cuts: list[CutInfo] = field(default_factory=list)
    warnings: list[SkWarning] = field(default_factory=list)
    model_warnings: list[ModelWarning] = field(default_factory=list)
    """Hazards of the input itself (communication kernels), said and kept (the input may be
    right by means skir cannot see)."""
    outputs: dict[str, Path] = field(default_factory=dict)
    """Product name (path relative to the output folder) -> path written."""
    emulation: list[Any] = field(default_factory=list)
    """One `skir.hostsim.EmulationResult` per SuperKernel, once `emulate()` or `write(emulate=True)` ran."""
    original: ModuleOp | None = None
    """The verified input module, before any rewrite (used to prove the result)."""
    proof: Any = None
    """The `skir.analysis.proof.sk_check.CheckReport`, once `check()` ran."""
    report: Any = None
    """The `skir.sim.Report` (timeline estimate of every mode), once `simulate()` ran."""
    vendor_compare: dict[str, Any] | None = None
    """The comparison with the vendor's result (`compare_with_vendor()`): `OUT/vendor_compare.json`."""
    selection: list[Any] = field(default_factory=list)
    """`select=gain`: one `skir.selection.Decision` per SuperKernel judged, round by round."""
    measured: Any = None
    """`profiles=`: the `skir.profiles.Measured` durations the simulator used."""
    calibration: Any = None
    """`calibrate(off, on)`: the `skir.sim.calibrate.Calibration` (`OUT/costs.calibrated.json`)."""
    updates: list[tuple[int, str, int, str]] = field(default_factory=list)
    """(task group, stream, seq, SuperKernel) of each fused updated member (`fuse-updated=1`); the
    argument slots the runtime writes are in `plan.json`'s `updates`."""
    shared: Any = None
    """The `skir.targets.shared_entries.SharedEntries` of `module`, once a product, the summary or
    the emulation needed them (`skir.targets.shared_entries.shared_of`: computed once)."""
    plan_updates: Any = None
    """`plan.json`'s update map, once the products computed it: the emulation forwards updates
    through it instead of computing SK meta again."""
    graph: Any = None
    """The `TaskGraph` of `original`'s model, once something needed it (`graph_of`)."""

    def graph_of(self, model: ModelOp) -> TaskGraph:
        """The task graph of `model`, a model of `original`: the top model's is built once per
        compile and kept (the model hazards, the prediction, the simulation and the vendor fail
        log read it), a sub-model's each time it is asked for."""
        from skir.analysis.graph.task_graph import TaskGraph

        if self.original is None or model.parent_op() is not self.original:
            return TaskGraph(model)
        if self.graph is None or self.graph.model is not model:
            self.graph = TaskGraph(model)
        graph: TaskGraph = self.graph
        return graph

    @property
    def kernel_tasks(self) -> int:
        return sum(len(sk.members) for sk in self.superkernels) + len(self.fail_reasons)

    @property
    def launches_saved(self) -> int:
        return sum(len(sk.members) - 1 for sk in self.superkernels)
