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
until the residuals stop shrinking. The rank of the Jacobian at the fit says how many
parameters the observations determine, and its null space which: a parameter is **measured**
when no change the observations cannot see moves it (its unit vector lies in the Jacobian's
row space); a parameter the observations see only together with others (the two barrier costs
when every barrier of the profile is of both kinds) is **not separable**: the minimum-norm steps
move such a group only along what was observed, and the group stays an assumption; a parameter
no observation depends on is **unobserved** and keeps its value. The result is a
`skir.sim.costs` document (only the measured parameters lose `assumption`; its `fit` records
the rank and the classes) and the residual per observation kind, before and after.

Profiles that cannot calibrate this compile are bad input (`SkirError` naming the file): an
off profile without kernel start times, an on profile without SuperKernel spans, or one none
of whose SuperKernels has the sub-tasks of a SuperKernel skir formed.

```python
fit = calibrate(original, rewritten, off, on)       # `Measured` of each profile
fit.costs.dispatch_gap_us, fit.residuals             # {"kernel start (off)": (n, rms_us), ...}
fit.rank, fit.fitted, fit.not_separable              # 5, {"dispatch_gap_us": 2.0, ...}, (("a", "b"),)
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
from skir.errors import SkirError
from skir.sim.costs import FORMAT, VERSION, Costs, default_costs, default_table
from skir.sim.engine import durations_of, simulate

if TYPE_CHECKING:
    from skir.profiles import Measured

FITTED = ("dispatch_gap_us", "event_us", "sk_entry_us", "barrier_all_aiv_us", "barrier_all_aic_us", "sync_all_us",
          "flag_wait_us", "lock_notify_us", "lock_wait_us")
"""The parameters fitted: dispatch and the SuperKernel's own costs (durations are measured)."""
_STEP = 0.05
"""The finite-difference step, in us (the simulator is piecewise linear in its costs)."""
_RANK_TOL = 1e-6
"""Singular values below this fraction of the largest (and null-space weights below it) are 0."""


@dataclass(frozen=True)
class Calibration:
    costs: Costs
    fitted: dict[str, float]
    """Each measured parameter's fitted value (the observations determine it alone)."""
    residuals: dict[str, tuple[int, float]]
    """Observation kind -> (count, RMS residual in us) with the fitted costs."""
    before: dict[str, tuple[int, float]]
    """The same with the starting costs."""
    rank: int = 0
    """The rank of the Jacobian of the residuals in `FITTED` at the fit."""
    not_separable: tuple[tuple[str, ...], ...] = ()
    """Groups of parameters the observations see only together (each stays an assumption)."""
    unobserved: tuple[str, ...] = ()
    """Parameters of `FITTED` no observation depends on (they keep their value)."""

    @property
    def parameters(self) -> int:
        return len(FITTED)

    @property
    def observations(self) -> int:
        return sum(count for count, _ in self.residuals.values())

    def document(self, note: str) -> dict[str, Any]:
        """A `skir.sim.costs` document: every parameter, the measured ones not an assumption,
        and `fit`: the rank, the classes and the residuals."""
        table = default_table()
        partners = {name: group for group in self.not_separable for name in group}
        params = {}
        for name, value in self.costs.as_dict().items():
            entry = dict(table[name])
            entry["value"] = round(value, 6)
            if name in self.fitted:
                entry["assumption"] = False
            elif name in partners:
                entry["assumption"] = True
                others = ", ".join(n for n in partners[name] if n != name)
                said = str(entry.get("description", "")).rstrip()
                said += "." if said and not said.endswith((".", "!", "?")) else ""  # a sentence of its own follows
                entry["description"] = (f"{said} Not separable by the profiles from {others}: only their "
                                        "combination was fitted.").strip()
            params[name] = entry
        fit = {"rank": self.rank, "parameters": self.parameters, "observations": self.observations,
               "measured": sorted(self.fitted), "not_separable": [list(g) for g in self.not_separable],
               "unobserved": list(self.unobserved),
               "residuals": {kind: {"count": count, "rms_before_us": round(self.before[kind][1], 6),
                                    "rms_us": round(rms, 6)}
                             for kind, (count, rms) in self.residuals.items() if count}}
        return {"format": FORMAT, "version": VERSION, "note": note, "fit": fit, "parameters": params}


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
    _usable(off, on, sks)
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


def _usable(off: Measured, on: Measured, sks: dict[str, frozenset[int]]) -> None:
    """Refuse profiles that cannot calibrate this compile (see the module docstring)."""
    off_name, on_name = (m.files[0] if m.files else "<profile>" for m in (off, on))
    if not off.task_runs:
        raise SkirError(f"{off_name}: no kernel start times of the model: the SuperKernel-off profile is msprof's "
                        "op_summary CSV with 'Task Start Time(us)'")
    if not on.sk_runs:
        raise SkirError(f"{on_name}: no SuperKernel spans: the SuperKernel-on profile is the vendor's device trace "
                        "(sk_prof_device_<dev>.json)")
    formed = set(sks.values())
    if not any(seqs in formed for seqs in on.sk_runs):
        theirs = "; ".join(",".join(map(str, sorted(seqs))) for seqs in list(on.sk_runs)[:3])
        raise SkirError(f"{on_name}: none of its {len(on.sk_runs)} SuperKernels has the sub-tasks of a SuperKernel "
                        f"of this compile (its node ids: {theirs})")


def _classes(jac: np.ndarray) -> tuple[int, list[bool], tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """(rank, measured per parameter, not-separable groups, unobserved) of a Jacobian."""
    n = jac.shape[1]
    seen = [i for i in range(n) if np.abs(jac[:, i]).sum() > 1e-9]
    unobserved = tuple(FITTED[i] for i in range(n) if i not in seen)
    if not seen:
        return 0, [False] * n, (), unobserved
    _, sing, vt = np.linalg.svd(jac[:, seen], full_matrices=True)
    rank = int((sing > _RANK_TOL * float(sing[0])).sum())
    weight = np.abs(vt[rank:].T) > _RANK_TOL  # len(seen) x nullity: the changes no observation sees
    measured = [False] * n
    for row, i in enumerate(seen):
        measured[i] = not weight[row].any()
    # parameters sharing a null direction are confounded: one group per connected set
    group = list(range(len(seen)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for k in range(weight.shape[1]):
        rows = [row for row in range(len(seen)) if weight[row, k]]
        for row in rows[1:]:
            group[root(row)] = root(rows[0])
    groups: dict[int, list[str]] = {}
    for row, i in enumerate(seen):
        if not measured[i]:
            groups.setdefault(root(row), []).append(FITTED[i])
    return rank, measured, tuple(tuple(g) for g in groups.values()), unobserved


def _jacobian(residual: Callable[[np.ndarray], np.ndarray], theta: np.ndarray, r: np.ndarray) -> np.ndarray:
    jac = np.empty((len(r), len(theta)))
    for i in range(len(theta)):
        probe = theta.copy()
        probe[i] += _STEP
        jac[:, i] = (residual(probe) - r) / _STEP
    return jac


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
        jac = _jacobian(residual, theta, r)
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
    rank, measured, not_separable, unobserved = _classes(_jacobian(residual, theta, r) if len(r) else
                                                         np.zeros((0, len(theta))))
    fitted = {name: value for name, value, ok in zip(FITTED, theta.tolist(), measured, strict=True) if ok}
    last = observe(fitted_costs)
    return Calibration(fitted_costs, fitted, {k: _rms(v) for k, v in last.items()},
                       {k: _rms(v) for k, v in first.items()}, rank, not_separable, unobserved)
