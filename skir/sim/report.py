"""The `--report` products in words and numbers: the terminal table and SK meta's `profiling`.

```
timeline estimate (skir.sim, default costs: every cost an assumption)
  superkernel        members  type         blocks  before us  vs           after us  bound us  after/bound
  decode_layer_sk0        12  mix_aic_1_2      24      97.04  aclgraph_es     89.37     81.85        1.092
  mode         makespan us  x bound  critical-path compute  dispatch  sync  idle  device op time us  dispatches
  eager             118.25    1.364    ...
lower bound 86.69 us = max(critical path 86.69, AIC work 64.43, AIV work 58.98)
```

*before* is the span of a SuperKernel's members in the fastest mode without SuperKernels,
*vs* (`aclgraph`, or `aclgraph_es`: every kernel compiled with early-start, the fair
baseline; from the first member's dispatch to the last member's end), *after* the span of its
launch (dispatch gap included)
in superkernel mode; *bound* is the members' own lower bound. The breakdown of a mode
follows the critical path of the task that ends last (see `skir.sim.stamp`): its compute is
the compute on that path, which changes with the mode as the path does; the summed device op
time (every kernel and SuperKernel task's duration, `Simulation.device_op_time`) is beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skir.sim.costs import Costs
from skir.sim.modes import Comparison
from skir.sim.stamp import CATEGORIES, breakdown

COLUMN = {"compute": "critical-path compute", "dispatch": "dispatch", "sync": "sync", "idle": "idle"}
"""How the table and the chart name the parts of a makespan (all along the critical path)."""
OP_TIME = "device op time us"
NOTE = ("simulated estimate (skir.sim), not a measurement: every cost parameter is an assumption "
        "unless a costs file says otherwise")


def _r(x: float) -> float | None:
    return None if x != x else round(x, 3)


def _ratio(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def ratio_text(x: float | None, width: int = 7) -> str:
    """A ratio to the bound for a table: 3 decimals, or `-` without a bound."""
    return f"{'-':>{width}}" if x is None else f"{x:{width}.3f}"


@dataclass
class Report:
    """A comparison plus where its costs came from (`default` or a costs file's name)."""

    comparison: Comparison
    costs_source: str = "default"

    @property
    def costs(self) -> Costs:
        return self.comparison.costs

    def profiling(self) -> dict[str, Any]:
        """SK meta's `profiling` section (numbers rounded to 0.001 µs)."""
        cmp = self.comparison
        modes = {}
        for mode, run in cmp.runs.items():
            modes[mode] = {
                "makespan_us": _r(run.makespan),
                "ratio_to_bound": _ratio(cmp.ratio(mode)),
                "device_op_time_us": _r(run.device_op_time()),
                "dispatches": run.dispatches(),
                "breakdown_us": {k: _r(v) for k, v in breakdown(run.last).items()},
            }
        sks = []
        for sk in cmp.superkernels:
            value = sk.bound.value
            sks.append({
                "name": sk.name, "members": sk.members, "kernel_type": sk.kernel_type, "blocks": sk.blocks,
                "form": sk.form, "before_us": _r(sk.before), "compared_with": sk.baseline, "after_us": _r(sk.after),
                "saved_us": _r(sk.before - sk.after), "lower_bound_us": _r(value),
                "ratio_to_bound": _r(sk.after / value) if value > 0 else None,
                "syncs": sk.syncs, "breakdown_us": {k: _r(v) for k, v in sk.breakdown.items()},
            })
        out = {
            "note": NOTE,
            "costs": self.costs_source,
            "parameters": {k: _r(v) for k, v in self.costs.as_dict().items()},
            "lower_bound": cmp.bound.as_json(),
            "modes": modes,
            "superkernels": sks,
        }
        if cmp.submodels:
            out["submodels"] = [{"name": name, "modes": {mode: {"makespan_us": _r(run.makespan)}
                                                        for mode, run in sub.runs.items()},
                                 "superkernels": [sk.name for sk in sub.superkernels]}
                                for name, sub in cmp.submodels]
        return out

    def table(self, limit: int | None = None) -> str:
        """The table `sk-compile --report` prints: at most `limit` SuperKernel rows (None: all,
        as `-v` and `OUT/README.txt` have them), then a line counting the rest."""
        cmp = self.comparison
        source = "default costs" if self.costs_source == "default" else f"costs from {self.costs_source}"
        lines = [f"timeline estimate (skir.sim, {source}; every default cost is an assumption)"]
        if cmp.superkernels:
            lines.append(f"  {'superkernel':<24} {'members':>7}  {'type':<12} {'blocks':>6}  {'before us':>9}  "
                         f"{'vs':<11}  {'after us':>9}  {'bound us':>9}  {'after/bound':>11}")
            for sk in cmp.superkernels[:limit]:
                value = sk.bound.value
                ratio = f"{sk.after / value:11.3f}" if value > 0 else f"{'-':>11}"
                lines.append(f"  {sk.name:<24} {sk.members:>7}  {sk.kernel_type:<12} {sk.blocks:>6}  "
                             f"{sk.before:9.2f}  {sk.baseline:<11}  {sk.after:9.2f}  {value:9.2f}  {ratio}")
            if limit is not None and len(cmp.superkernels) > limit:
                lines.append(f"  ... {len(cmp.superkernels) - limit} more SuperKernels in sk_meta.json's profiling "
                             "(-v lists them)")
        else:
            lines.append("  no SuperKernels")
        heads = [COLUMN[c] for c in CATEGORIES]
        header = "".join(f"  {h:>{max(9, len(h))}}" for h in heads)
        lines.append(f"  {'mode':<12} {'makespan us':>11}  {'x bound':>7}{header}  {OP_TIME:>17}  {'dispatches':>10}")
        for mode, run in cmp.runs.items():
            parts = breakdown(run.last)
            cells = "".join(f"  {parts[c]:{max(9, len(h))}.2f}" for c, h in zip(CATEGORIES, heads, strict=True))
            lines.append(f"  {mode:<12} {run.makespan:11.2f}  {ratio_text(cmp.ratio(mode))}{cells}  "
                         f"{run.device_op_time():17.2f}  {run.dispatches():>10}")
        b = cmp.bound
        lines.append("  (the four parts split the makespan along the critical path; device op time sums every "
                     "kernel and SuperKernel task)")
        lines.append(f"lower bound {b.value:.2f} us = max(critical path {b.critical_path:.2f}, "
                     f"AIC work {b.work_aic:.2f}, AIV work {b.work_aiv:.2f})")
        if cmp.submodels:
            lines.append("sub-models, each on its own (a condition task lasts its first sub-model's makespan):")
            for name, sub in cmp.submodels:
                spans = ", ".join(f"{mode} {run.makespan:.2f}" for mode, run in sub.runs.items())
                sks = len(sub.superkernels)
                lines.append(f"  {name:<24} makespan us: {spans}; {sks} SuperKernel{'s' if sks != 1 else ''}")
        return "\n".join(lines) + "\n"
