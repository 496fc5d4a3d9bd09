"""Fitting the simulator's sync and dispatch costs to a SuperKernel-off and a SuperKernel-on
profile of the same model, by least squares.

What each profile says (`skir.profiles`):

- off (msprof's `op_summary` rows, each kernel task's start and end in its first run): the
  start of every kernel task after the first, which under aclgraph is set by the dispatch gap
  and the event tasks between streams;
- on (the vendor's device trace): each SuperKernel's duration, whose children's durations the
  same trace gives, so that what is left is its barriers, flags and locks; and each
  SuperKernel's start after the first, which the dispatch gap and the SuperKernel's entry set.

`calibrate` simulates the model (aclgraph on the original with the off durations, superkernel
on the rewritten module with the on durations) and moves the parameters of `FITTED` by
Gauss-Newton steps (a finite-difference Jacobian, `numpy.linalg.lstsq`, no parameter below 0)
until the residuals stop shrinking; a parameter no observation depends on keeps its value. The
result is a `skir.sim.costs` document and the residual per observation kind, before and after.

```python
fit = calibrate(original, rewritten, off, on)       # `Measured` of each profile
fit.costs.dispatch_gap_us, fit.residuals             # {"kernel start (off)": (n, rms_us), ...}
```
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import ModelOp
from skir.dialects.superkernel import SuperKernelOp
from skir.sim.costs import FORMAT, VERSION, Costs, default_costs, default_table
from skir.sim.engine import durations_of, simulate

if TYPE_CHECKING:
    from skir.profiles import Measured

FITTED = ("dispatch_gap_us", "event_us", "sk_entry_us", "barrier_all_aiv_us", "barrier_all_aic_us", "sync_all_us",
          "flag_wait_us", "lock_notify_us", "lock_wait_us")
"""The parameters fitted: dispatch and the SuperKernel's own costs (durations are measured)."""
_STEP = 0.05
"""The finite-difference step, in us (the simulator is piecewise linear in its costs)."""


@dataclass(frozen=True)
class Calibration:
    costs: Costs
    fitted: dict[str, float]
    """Each fitted parameter's new value (the others keep theirs)."""
    residuals: dict[str, tuple[int, float]]
    """Observation kind -> (count, RMS residual in us) with the fitted costs."""
    before: dict[str, tuple[int, float]]
    """The same with the starting costs."""

    def document(self, note: str) -> dict[str, Any]:
        """A `skir.sim.costs` document: every parameter, the fitted ones not an assumption."""
        table = default_table()
        params = {}
        for name, value in self.costs.as_dict().items():
            entry = dict(table[name])
            entry["value"] = round(value, 6)
            if name in self.fitted:
                entry["assumption"] = False
            params[name] = entry
        return {"format": FORMAT, "version": VERSION, "note": note, "parameters": params}


def _model(module: ModuleOp) -> ModelOp:
    return next(op for op in module.ops if isinstance(op, ModelOp))


Observations = dict[str, list[tuple[float, float]]]
"""Observation kind -> (predicted, measured) pairs."""


def _observations(original: ModuleOp, rewritten: ModuleOp, off: Measured, on: Measured) -> Callable[
        [Costs], Observations]:
    """A function of the costs giving, per observation kind, (predicted, measured) pairs."""
    before, after = _model(original), _model(rewritten)
    own = durations_of(before)  # the model's own durations, under what each profile measured
    off_durations, on_durations = {**own, **off.durations}, {**own, **on.durations}
    firsts = {task: runs[0] for task, runs in off.task_runs.items() if runs}
    origin = min((start for start, _ in firsts.values()), default=0.0)
    measured_starts = {task: start - origin for task, (start, _) in firsts.items()}
    sks = {sk.sym_name.data: frozenset(s.seq.data for s in sk.subtasks())
           for sk in after.body.block.ops if isinstance(sk, SuperKernelOp)}
    measured_sk = {name: float(np.median(on.sk_runs[seqs])) for name, seqs in sks.items() if on.sk_runs.get(seqs)}
    starts = {name: on.sk_starts[seqs][0] for name, seqs in sks.items() if on.sk_starts.get(seqs)}
    sk_origin = min(starts.values(), default=0.0)
    measured_sk_starts = {name: start - sk_origin for name, start in starts.items()}

    def observe(costs: Costs) -> Observations:
        out: Observations = {"kernel start (off)": [], "superkernel duration (on)": [],
                                                     "superkernel start (on)": []}
        if measured_starts:
            run = simulate(before, "aclgraph", costs, off_durations)
            spans = {(t.stream, t.seq): t.start for t in run.tasks if t.kind == "kernel"}
            first = min((spans[k] for k in measured_starts if k in spans), default=0.0)
            out["kernel start (off)"] = [(spans[k] - first, v) for k, v in measured_starts.items() if k in spans]
        if measured_sk:
            run = simulate(after, "superkernel", costs, on_durations)
            spans2 = {t.name: (t.start, t.end) for t in run.tasks if t.kind == "superkernel"}
            out["superkernel duration (on)"] = [(spans2[n][1] - spans2[n][0], v) for n, v in measured_sk.items()
                                                if n in spans2]
            first_sk = min((spans2[n][0] for n in measured_sk_starts if n in spans2), default=0.0)
            out["superkernel start (on)"] = [(spans2[n][0] - first_sk, v) for n, v in measured_sk_starts.items()
                                             if n in spans2]
        return out

    return observe


def _rms(pairs: list[tuple[float, float]]) -> tuple[int, float]:
    if not pairs:
        return 0, 0.0
    return len(pairs), math.sqrt(sum((p - m) ** 2 for p, m in pairs) / len(pairs))


def calibrate(original: ModuleOp, rewritten: ModuleOp, off: Measured, on: Measured, start: Costs | None = None,
              iterations: int = 12) -> Calibration:
    """Fit `FITTED` to the off and on profiles (`skir.profiles.Measured`) of `original` and its
    rewrite `rewritten` (see the module docstring)."""
    costs = start if start is not None else default_costs()
    observe = _observations(original, rewritten, off, on)

    def residual(values: np.ndarray) -> np.ndarray:
        c = replace(costs, **dict(zip(FITTED, values.tolist(), strict=True)))
        obs = observe(c)
        return np.array([p - m for kind in sorted(obs) for p, m in obs[kind]], dtype=float)

    theta = np.array([getattr(costs, name) for name in FITTED], dtype=float)
    first = observe(costs)
    r = residual(theta)
    for _ in range(iterations):
        if not len(r):
            break
        jac = np.empty((len(r), len(theta)))
        for i in range(len(theta)):
            probe = theta.copy()
            probe[i] += _STEP
            jac[:, i] = (residual(probe) - r) / _STEP
        active = np.abs(jac).sum(axis=0) > 1e-9
        if not active.any():
            break
        step = np.zeros_like(theta)
        step[active] = np.linalg.lstsq(jac[:, active], -r, rcond=None)[0]
        candidate = np.maximum(theta + step, 0.0)
        r_new = residual(candidate)
        if float(r_new @ r_new) >= float(r @ r) - 1e-12:
            break
        theta, r = candidate, r_new
    fitted_costs = replace(costs, **dict(zip(FITTED, theta.tolist(), strict=True)))
    moved = {name: value for name, value, old in zip(FITTED, theta.tolist(), (getattr(costs, n) for n in FITTED),
                                                      strict=True) if abs(value - old) > 1e-9}
    last = observe(fitted_costs)
    return Calibration(fitted_costs, moved, {k: _rms(v) for k, v in last.items()},
                       {k: _rms(v) for k, v in first.items()})
