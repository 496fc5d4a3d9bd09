"""`select=gain`: keep only the SuperKernels the timeline simulator predicts to pay.

The vendor keeps every legal scope and finds out afterwards, by profiling, which SuperKernels
helped. With `select=gain` (skir's own option key; default `all`, as the vendor), `skir.compile`
simulates each SuperKernel formation proposed against its members in the fastest mode without
SuperKernels — aclgraph, or aclgraph with every kernel compiled with early-start (`aclgraph_es`,
the fair baseline; `Decision.baseline` says which) — with the
vendor's interval metric (the members' span: latest end minus earliest start, never a sum of
durations), and drops one whose predicted gain is below `select-min-gain-us` (default 1 us) or
below 3 % of that span: its members stay unfused with reason `no_gain` (detail: the prediction)
and the pipeline runs again on the input, until every SuperKernel left pays (a drop can change
what forms around it). The options are each SuperKernel's own (scope options apply). Then each
of `VARIANTS` (two options, two cuts: `skir.analysis.formation.cut_points`) is tried on every SuperKernel
kept, and each gets the one predicted fastest for its members, if any. A SuperKernel keeps its
name from round to round (`sk.select_name` on the members when compiling again): a name is
judged once per round and never reused by another SuperKernel after a drop.

```python
result = skir.compile("model.json", options="select=gain")
for d in result.selection:      # every SuperKernel judged, round by round
    print(d.superkernel, d.before_us, d.after_us, d.gain_us, d.kept)
```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import ModuleOp, StringAttr

from skir.analysis.formation.cut_points import CutPoints, Member, cut_points
from skir.analysis.formation.fail_reasons import NO_GAIN_ATTR, SELECT_CUT_ATTR, SELECT_NAME_ATTR
from skir.analysis.formation.scopes import VARIANT_ATTR
from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.options_attr import SkOptionsAttr
from skir.dialects.superkernel import SuperKernelOp
from skir.options import SkOptions

MIN_SHARE = 0.03
"""A SuperKernel must save at least this share of its members' span (and `select-min-gain-us`)."""
MAX_ROUNDS = 64
"""A bound on the rounds (each drops at least one SuperKernel, so a model converges long before)."""
VARIANTS = ("early-start=1", "sync-mode=data", "cut=batch", "cut=width")
"""The variants tried on every SuperKernel kept (docs/design.md §3, "Selection"): two options,
and cuts at the cut points of `skir.analysis.formation.cut_points`."""
CUT_DETAIL = {"cut=batch": "select=gain cut beside a batch kernel",
              "cut=width": "select=gain cut where the hb width changes"}
"""The detail of a selection cut (in `cuts[]` and on a part's lone kernel)."""
VARIANT_OPTIONS = {"early-start=1": SkOptions(early_start=1, given=frozenset({"early-start"})),
                   "sync-mode=data": SkOptions(sync_mode="data", given=frozenset({"sync-mode"}))}
"""The option variants, typed (a test holds them against their strings parsed)."""
MIN_VARIANT_GAIN_US = 0.05
"""A variant replaces a SuperKernel's options only when it is predicted faster by this much."""


class Estimate(Protocol):
    """What selection reads of one SuperKernel's simulation (`skir.sim.SuperKernelEstimate`)."""

    @property
    def name(self) -> str: ...
    @property
    def before(self) -> float: ...
    @property
    def after(self) -> float: ...
    @property
    def baseline(self) -> str: ...


class Span(Protocol):
    """What selection reads of one simulated task (`skir.sim.engine.TaskSpan`)."""

    @property
    def stream(self) -> str: ...
    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def ready(self) -> float: ...
    @property
    def end(self) -> float: ...


class Run(Protocol):
    @property
    def tasks(self) -> Sequence[Span]: ...


class Simulated(Protocol):
    """What selection reads of a simulation of both models (`skir.sim.Comparison`)."""

    @property
    def superkernels(self) -> Sequence[Estimate]: ...
    @property
    def runs(self) -> Mapping[str, Run]: ...


Simulate = Callable[[ModuleOp, ModuleOp], Simulated]
Evidence = Callable[[tuple[tuple[str, int], ...]], tuple[str, float | None]]
"""Members (stream, seq) -> (measured class, measured gain): `skir.profiles.protocol_class`."""


@dataclass(frozen=True)
class Decision:
    """One SuperKernel judged by `select=gain` (in the round it was formed)."""

    superkernel: str
    round: int
    members: tuple[tuple[str, int], ...]
    """(stream, seq) of its kernel tasks."""
    before_us: float
    """The members' span in the fair baseline, `baseline` (the interval metric)."""
    after_us: float
    """The SuperKernel's own span (its launch gap included)."""
    threshold_us: float
    kept: bool
    evidence: str = "predicted"
    """`predicted` (the simulator decided), or the measured class that decided: `beneficial`,
    `neutral`, `regressed` (the vendor's protocol over SuperKernel-off and -on profiles)."""
    measured_gain_us: float | None = None
    variant: str = ""
    """The option variant chosen for it (`early-start=1`, `sync-mode=data`), or none."""
    baseline: str = "aclgraph"
    """The mode `before_us` comes from: the fastest without SuperKernels for its members."""

    @property
    def gain_us(self) -> float:
        return self.before_us - self.after_us

    def detail(self) -> str:
        """The fail-reason detail of a dropped SuperKernel's members."""
        if self.measured_gain_us is not None and self.evidence != "predicted":
            return f"{self.superkernel} measured {self.measured_gain_us:+.1f} us ({self.evidence})"
        return (f"{self.superkernel} predicted {self.gain_us:+.1f} us of {self.before_us:.1f} us under "
                f"{self.baseline} (needs {self.threshold_us:.1f})")

    def as_dict(self) -> dict[str, object]:
        return {"superkernel": self.superkernel, "round": self.round,
                "members": [{"stream": s, "seq": q} for s, q in self.members],
                "predicted_before_us": round(self.before_us, 3), "predicted_after_us": round(self.after_us, 3),
                "predicted_gain_us": round(self.gain_us, 3), "compared_with": self.baseline,
                "threshold_us": round(self.threshold_us, 3),
                "measured_gain_us": None if self.measured_gain_us is None else round(self.measured_gain_us, 3),
                "class": self.evidence if self.evidence != "predicted" else None,
                "variant": self.variant or None,
                "decision": "kept" if self.kept else "no_gain"}


def selects_gain(module: ModuleOp, base: SkOptions) -> bool:
    """Whether any SuperKernel of `module` was formed with `select=gain`."""
    return any(_options(sk, base).select == "gain" for sk in _superkernels(module))


def judge(original: ModuleOp, rewritten: ModuleOp, base: SkOptions, round_: int, simulate: Simulate,
          evidence: Evidence | None = None, variant_of: dict[Member, str] | None = None) -> list[Decision]:
    """A decision for every SuperKernel of `rewritten` formed with `select=gain`: by the measured
    class where `evidence` has one (beneficial: kept; neutral, regressed: dropped), else by the
    prediction; `variant_of` gives the variant chosen for the SuperKernel each member was in."""
    sks = {sk.sym_name.data: sk for sk in _superkernels(rewritten) if _options(sk, base).select == "gain"}
    if not sks:
        return []
    decisions = []
    for estimate in simulate(original, rewritten).superkernels:
        sk = sks.get(estimate.name)
        if sk is None:
            continue
        threshold = max(_options(sk, base).select_min_gain_us, MIN_SHARE * estimate.before)
        members = tuple((s.stream.root_reference.data, s.seq.data) for s in sk.subtasks())
        kept = estimate.before - estimate.after >= threshold
        measured_class, measured_gain = evidence(members) if evidence is not None else ("predicted", None)
        if measured_class in ("beneficial", "neutral", "regressed"):
            kept = measured_class == "beneficial"
        else:
            measured_class = "predicted"
        decisions.append(Decision(estimate.name, round_, members, estimate.before, estimate.after, threshold, kept,
                                  measured_class, measured_gain, (variant_of or {}).get(members[0], ""),
                                  estimate.baseline))
    return decisions


def formed_with_select_all(rewritten: ModuleOp, base: SkOptions) -> set[str]:
    """The names of the SuperKernels of `rewritten` formed with `select=all` (nothing judged them)."""
    return {sk.sym_name.data for sk in _superkernels(rewritten) if _options(sk, base).select != "gain"}


def predicted_slower(rewritten: ModuleOp, base: SkOptions, simulated: Simulated) -> list[Estimate]:
    """The SuperKernels formed with `select=all` that `simulated` predicts slower than their
    members in the fair baseline (the interval metric, as `judge` reads it)."""
    kept_all = formed_with_select_all(rewritten, base)
    return [e for e in simulated.superkernels if e.name in kept_all and e.after > e.before]


def mark_dropped(module: ModuleOp, decisions: list[Decision]) -> None:
    """Put `no_gain` on the launches of every dropped SuperKernel's members, in `module` (an input
    model: the members are still plain launches)."""
    _mark_members(module, {m: d.detail() for d in decisions if not d.kept for m in d.members}, NO_GAIN_ATTR)


def _mark_members(module: ModuleOp, values: Mapping[tuple[str, int], str | SkOptions], attr: str) -> None:
    """Set `attr` to `values[(stream, seq)]` on each of those launches of `module`'s model (a
    string, or typed options)."""
    if not values:
        return
    model = next(op for op in module.ops if isinstance(op, ModelOp))
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            for task in stream.body.block.ops:
                key = (stream.sym_name.data, task.seq.data)
                if isinstance(task, LaunchOp) and key in values:
                    value = values[key]
                    task.attributes[attr] = StringAttr(value) if isinstance(value, str) else SkOptionsAttr(value)


Variants = dict[tuple[tuple[str, int], ...], str]
"""Members of a SuperKernel -> the option variant chosen for it."""
Names = dict[tuple[str, int], str]
"""A member -> the name of the SuperKernel it was last judged in."""


def mark_names(module: ModuleOp, names: Names) -> None:
    """Put on each launch of `module` (an input model) the name of the SuperKernel it was last
    judged in (`sk.select_name`), so that compiling again keeps the names."""
    _mark_members(module, names, SELECT_NAME_ATTR)


def mark_variants(module: ModuleOp, variants: Variants) -> None:
    """Put each chosen variant on the launches it names, in `module` (an input model): an option
    variant on every member of its SuperKernel (`sk.variant`), a cut on the members the
    SuperKernel is cut before (`sk.select_cut`)."""
    options = {m: VARIANT_OPTIONS[v] for members, v in variants.items() if not v.startswith("cut=") for m in members}
    cuts = {m: CUT_DETAIL[v] for members, v in variants.items() if v in CUT_DETAIL for m in members}
    _mark_members(module, options, VARIANT_ATTR)
    _mark_members(module, cuts, SELECT_CUT_ATTR)


def select(original: ModuleOp, module: ModuleOp, base: SkOptions,
           recompile: Callable[[list[Decision], Variants, Names], ModuleOp], simulate: Simulate,
           evidence: Evidence | None = None) -> tuple[ModuleOp, list[Decision]]:
    """Judge, drop, recompile until every SuperKernel left pays; then try each of `VARIANTS` on
    every SuperKernel kept (one compile a variant, all at once) and give each the variant
    predicted fastest for it, if any, and judge and drop again (a cut's parts must pay too).
    `recompile(dropped, variants, names)` compiles the input again with every dropped decision so
    far, the chosen variants and the names so far marked; `simulate(original, rewritten)` gives the simulation of both
    (`skir.sim.compare(...)`, the aclgraph and superkernel modes). Returns the final module and
    every decision made."""
    names: Names = {}
    module, decisions, judged = _drop_rounds(original, module, base, lambda more: recompile(more, {}, names),
                                             simulate, evidence, 0, {}, names)
    round_ = decisions[-1].round if decisions else 0
    dropped = [d for d in decisions if not d.kept]
    best = {d.members: (d.after_us, "") for d in judged if d.evidence == "predicted"}
    points = cut_points(original, best) if best else {}
    for variant in VARIANTS:
        kind = variant.removeprefix("cut=")
        trial_variants = {m: variant for m in best if not variant.startswith("cut=") or points[m].of(kind)}
        if not trial_variants:
            continue
        marks = _with_cuts(trial_variants, points)
        trial = recompile(dropped, marks, names)
        if variant.startswith("cut="):  # a cut's parts are judged as they would be: those that do not pay go
            trial_names = dict(names)

            def again(more: list[Decision], marks: Variants = marks, tn: Names = trial_names) -> ModuleOp:
                return recompile(dropped + more, marks, tn)

            trial, _, _ = _drop_rounds(original, trial, base, again, simulate, None, round_, {}, trial_names)
        spans = _member_spans(trial, simulate(original, trial))
        for members in trial_variants:
            after = spans(members)
            if after < best[members][0] - MIN_VARIANT_GAIN_US:
                best[members] = (after, variant)
    chosen = {members: variant for members, (_, variant) in best.items() if variant}
    if chosen:
        marks = _with_cuts(chosen, points)
        module = recompile(dropped, marks, names)
        module, more, _ = _drop_rounds(original, module, base, lambda d: recompile(dropped + d, marks, names),
                                       simulate, evidence, round_, chosen, names)
        decisions += more
    return module, decisions


def _drop_rounds(original: ModuleOp, module: ModuleOp, base: SkOptions,
                 recompile: Callable[[list[Decision]], ModuleOp], simulate: Simulate,
                 evidence: Evidence | None, first_round: int, chosen: Variants, names: Names,
                 ) -> tuple[ModuleOp, list[Decision], list[Decision]]:
    """Judge and drop, round after round, until every SuperKernel left pays: (the module, every
    decision, the last round's). `recompile(dropped)` compiles with this call's drops marked;
    `names` gains the name each member was judged under."""
    decisions: list[Decision] = []
    judged: list[Decision] = []
    variant_of = {m: v for members, v in chosen.items() for m in members}
    for round_ in range(first_round + 1, first_round + MAX_ROUNDS + 1):
        judged = judge(original, module, base, round_, simulate, evidence, variant_of)
        decisions += judged
        names.update({m: d.superkernel for d in judged for m in d.members})
        if all(d.kept for d in judged):
            break
        module = recompile([d for d in decisions if not d.kept])
    return module, decisions, judged


def _with_cuts(variants: Variants, points: dict[tuple[Member, ...], CutPoints]) -> Variants:
    """`variants` as the marks to put: an option variant on every member, a cut (`cut=batch`,
    `cut=width`) on the members its cut points name."""
    out: Variants = {}
    for members, variant in variants.items():
        if variant.startswith("cut="):
            out[points[members].of(variant.removeprefix("cut="))] = variant
        else:
            out[members] = variant
    return out


def _member_spans(module: ModuleOp, simulated: Simulated) -> Callable[[tuple[Member, ...]], float]:
    """The interval metric over a set of members in `module`'s superkernel-mode simulation: the
    latest end minus the earliest ready of the SuperKernels holding them and of those left
    unfused."""
    home = {(s.stream.root_reference.data, s.seq.data): sk.sym_name.data
            for sk in _superkernels(module) for s in sk.subtasks()}
    spans = simulated.runs["superkernel"].tasks
    by_sk = {t.name: t for t in spans if t.kind == "superkernel"}
    by_task = {(t.stream, t.seq): t for t in spans if t.kind == "kernel"}

    def interval(members: tuple[Member, ...]) -> float:
        found = [by_sk.get(home[m]) if m in home else by_task.get(m) for m in members]
        hit = [t for t in found if t is not None]
        return max(t.end for t in hit) - min(t.ready for t in hit) if hit else float("inf")

    return interval


def _superkernels(module: ModuleOp) -> list[SuperKernelOp]:
    return [op for model in module.ops if isinstance(model, ModelOp)
            for op in model.body.block.ops if isinstance(op, SuperKernelOp)]


def _options(sk: SuperKernelOp, base: SkOptions) -> SkOptions:
    return sk.options.data if sk.options is not None else base
