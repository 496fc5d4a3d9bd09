"""`select=gain`: SuperKernels the simulator predicts to lose are dropped (`no_gain`), the others
kept; the result is proved, and its simulated makespan is never worse than keeping them all."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skir
from skir.selection import CUT_DETAIL
from skir.sim import compare

ROOT = Path(__file__).resolve().parents[2]
# two 12-block cube kernels on two streams, which aclgraph runs side by side and a queue
# SuperKernel runs one after the other on blocks 0..11
PARALLEL = ROOT / "test" / "unit" / "models" / "parallel_matmuls.json"
DECODE = ROOT / "examples" / "decode_layer.json"


def makespan(result: skir.CompileResult) -> float:
    assert result.original is not None
    return compare(result.original, result.module, None, ("superkernel",)).runs["superkernel"].makespan


def test_a_superkernel_that_loses_is_dropped(tmp_path: Path) -> None:
    kept = skir.compile(PARALLEL).check()
    assert len(kept.superkernels) == 1 and not kept.selection  # select=all: the vendor's behaviour
    chosen = skir.compile(PARALLEL, options="select=gain").check().write(tmp_path / "out")
    assert chosen.proof.ok and not chosen.superkernels
    (decision,) = chosen.selection
    assert not decision.kept and decision.gain_us < 0 and decision.superkernel == "par_sk0"
    assert {u.reason for u in chosen.fail_reasons} == {"no_gain"} and len(chosen.fail_reasons) == 4
    assert all("par_sk0 predicted -" in (u.detail or "") for u in chosen.fail_reasons)
    # the oracle: the simulated makespans of both results, computed here
    assert makespan(chosen) < makespan(kept)
    meta = json.loads((tmp_path / "out" / "sk_meta.json").read_text())
    assert meta["selection"][0]["decision"] == "no_gain" and meta["selection"][0]["predicted_gain_us"] < 0
    assert "select=gain round 1: par_sk0 dropped (no_gain)" in (tmp_path / "out" / "README.txt").read_text()


def _lose_then_win() -> dict:  # type: ignore[type-arg]
    """parallel_matmuls (its SuperKernel loses), a kernel that cannot fuse, then three small
    vector kernels (their SuperKernel wins): round 1 judges par_sk0 and par_sk1."""
    data = json.loads(PARALLEL.read_text())
    data["kernels"]["x"] = {"kernel_type": "aiv_only", "params": ["in", "out"], "sk_capable": False}
    tail = [{"type": "kernel", "kernel": "x", "blocks": 8, "args": ["d", "f"], "duration_us": 2.0}] + [
        {"type": "kernel", "kernel": "v", "blocks": 8, "args": [a, b], "duration_us": 1.0}
        for a, b in (("f", "g"), ("g", "h"), ("h", "i"))]
    s0 = data["streams"][0]["tasks"]
    data["streams"][0]["tasks"] = s0[:5] + tail + s0[5:]
    return data


def test_names_stay_stable_across_rounds(tmp_path: Path) -> None:
    data = _lose_then_win()
    every = skir.compile(data)
    assert [sk.name for sk in every.superkernels] == ["par_sk0", "par_sk1"]
    chosen = skir.compile(data, options="select=gain").check().write(tmp_path / "out")
    assert [(d.round, d.superkernel, d.kept) for d in chosen.selection][:3] == [
        (1, "par_sk0", False), (1, "par_sk1", True), (2, "par_sk1", True)]
    # the one kept is the one judged kept in round 1: the same members under the same name
    assert [sk.name for sk in chosen.superkernels] == ["par_sk1"]
    assert {(m.stream, m.seq) for m in chosen.superkernels[0].members} == {
        (m.stream, m.seq) for m in every.superkernels[1].members}
    # no name is both dropped and kept in the log
    log = (tmp_path / "out" / "README.txt").read_text()
    dropped = {d.superkernel for d in chosen.selection if not d.kept}
    kept = {d.superkernel for d in chosen.selection if d.kept}
    assert not dropped & kept and "par_sk0 dropped" in log and "par_sk0 kept" not in log


def test_select_all_warns_of_a_superkernel_predicted_slower(tmp_path: Path) -> None:
    from skir.schemas import validate

    result = skir.compile(PARALLEL).write(tmp_path / "out")  # select=all: kept, but warned
    (warning,) = [w for w in result.warnings if w.warning == "predicted_slower"]
    assert warning.superkernel == "par_sk0" and warning.costs == "default"
    # the oracle: a simulation run here predicts the same, slower, span
    assert result.original is not None
    (estimate,) = compare(result.original, result.module).superkernels
    assert (warning.before_us, warning.after_us) == pytest.approx((estimate.before, estimate.after))
    assert estimate.after > estimate.before
    text = (tmp_path / "out" / "README.txt").read_text()
    assert ("warning par_sk0: predicted_slower: the simulator predicts 106.4 us for the SuperKernel against "
            "61.4 us for its members under aclgraph (default costs); select=gain would leave them unfused") in text
    meta = json.loads((tmp_path / "out" / "sk_meta.json").read_text())
    validate("sk_meta", meta)
    assert meta["superkernels"][0]["warnings"] == [{"warning": "predicted_slower", "predicted_before_us": 61.4,
                                                    "predicted_after_us": 106.42, "costs": "default",
                                                    "compared_with": "aclgraph"}]
    # a SuperKernel that pays, or one select=gain judged, is not warned of
    assert not [w for w in skir.compile(DECODE).warnings if w.warning == "predicted_slower"]
    assert not skir.compile(PARALLEL, options="select=gain").warnings


def test_superkernels_that_pay_are_kept() -> None:
    every = skir.compile(DECODE)
    chosen = skir.compile(DECODE, options="select=gain").check()
    assert chosen.proof.ok and chosen.selection and all(d.kept for d in chosen.selection)
    assert [sk.name for sk in chosen.superkernels] == [sk.name for sk in every.superkernels]
    # recomputed here, not by the selection: every SuperKernel left gains at least the threshold
    assert chosen.original is not None
    for estimate in compare(chosen.original, chosen.module).superkernels:
        assert estimate.before - estimate.after >= max(1.0, 0.03 * estimate.before)


def test_a_threshold_above_every_gain_drops_them_all() -> None:
    chosen = skir.compile(DECODE, options="select=gain:select-min-gain-us=100000").check()
    assert not chosen.superkernels and chosen.selection and not any(d.kept for d in chosen.selection)
    assert makespan(chosen) == pytest.approx(compare(chosen.original, chosen.module, None, ("aclgraph",))
                                             .runs["aclgraph"].makespan)


@pytest.mark.parametrize(("options", "message"), [
    ("select=best", "option 'select': expected one of all, gain, got 'best'"),
    ("select-min-gain-us=-1", "option 'select-min-gain-us': expected a number of microseconds >= 0, got '-1'"),
    ("select-min-gain-us=nan", "option 'select-min-gain-us': expected a number of microseconds >= 0"),
])
def test_bad_selection_options(options: str, message: str) -> None:
    with pytest.raises(skir.SkirError, match=message):
        skir.compile(DECODE, options=options)


OFF = ROOT / "test" / "unit" / "profiles" / "op_summary_par_off.csv"
ON = ROOT / "test" / "unit" / "profiles" / "sk_prof_device_par_on.json"


def test_measured_evidence_decides_over_the_prediction(tmp_path: Path) -> None:
    """SuperKernel-off rows (msprof, three runs: the members span 56 us) and SuperKernel-on spans
    (the vendor's device trace, three runs of 40 us): the vendor's protocol says beneficial
    (+16 us, outside the noise band of max(MAD, 3 %, 1 us)), so the SuperKernel the simulator
    would drop (50 us matmuls serialised) is kept."""
    from skir.profiles import load_profiles, measure, protocol_class

    measured = measure(load_profiles([OFF, ON]), skir.load_model(PARALLEL))
    members = (("s0", 0), ("s0", 2), ("s1", 4), ("s0", 7))
    assert protocol_class(measured, members) == ("beneficial", pytest.approx(16.0))
    result = skir.compile(PARALLEL, options="select=gain", profiles=[OFF, ON]).check().write(tmp_path / "o")
    (decision,) = result.selection
    assert decision.kept and decision.evidence == "beneficial" and decision.gain_us < 0  # the prediction lost
    meta = json.loads((tmp_path / "o" / "sk_meta.json").read_text())["selection"][0]
    assert (meta["class"], meta["measured_gain_us"], meta["decision"]) == ("beneficial", 16.0, "kept")
    assert "measured +16.0 us: beneficial" in (tmp_path / "o" / "README.txt").read_text()


def test_too_few_runs_leave_the_decision_to_the_prediction(tmp_path: Path) -> None:
    from skir.profiles import load_profiles, measure, protocol_class

    short = tmp_path / "short.csv"
    short.write_text("".join(OFF.read_text().splitlines(keepends=True)[:9]))  # the header and two runs
    measured = measure(load_profiles([short, ON]), skir.load_model(PARALLEL))
    assert protocol_class(measured, (("s0", 0), ("s0", 2), ("s1", 4), ("s0", 7))) == ("insufficient_evidence", None)
    (decision,) = skir.compile(PARALLEL, options="select=gain", profiles=[short, ON]).selection
    assert not decision.kept and decision.evidence == "predicted"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), threshold=st.sampled_from(["1", "5", "20"]))
def test_random_models_with_selection(seed: int, threshold: str) -> None:
    """Random models through `skir.compile` with `select=gain`: the result is proved, and every
    SuperKernel left gains its threshold by a simulation run here (the selection's contract)."""
    from skir.testing import random_model

    data = random_model(random.Random(seed), max_streams=3, max_tasks=30, with_scopes=seed % 2 == 0,
                        spare_slots=seed % 3 == 0)
    result = skir.compile(data, options=f"select=gain:select-min-gain-us={threshold}").check()
    assert result.proof.ok, result.proof.violations
    assert result.original is not None
    for estimate in compare(result.original, result.module).superkernels:
        assert estimate.before - estimate.after >= max(float(threshold), 0.03 * estimate.before) - 1e-9
    dropped = {m for d in result.selection if not d.kept for m in d.members}
    unfused = {(u.stream, u.seq): u.detail for u in result.fail_reasons if u.reason == "no_gain"}
    # every dropped member is unfused for no_gain, and so is only a lone kernel a cut left
    assert dropped <= unfused.keys()
    assert all(unfused[m] in CUT_DETAIL.values() for m in unfused.keys() - dropped)
    # names are stable: a name dropped is never kept later, and a name names one set of members
    # per round at most once
    names_dropped = {d.superkernel for d in result.selection if not d.kept}
    assert not names_dropped & {sk.name for sk in result.superkernels}
    per_round = [(d.round, d.superkernel) for d in result.selection]
    assert len(per_round) == len(set(per_round))


def _chain_model() -> dict:
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_model", ROOT / "tools" / "gen_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.generate("chain", 60, seed=1)


def test_a_faster_variant_is_chosen_per_superkernel(tmp_path: Path) -> None:
    data = _chain_model()
    plain = skir.compile(data, options="select=gain").check().write(tmp_path / "out")
    final = [d for d in plain.selection if d.round == max(x.round for x in plain.selection)]
    (decision,) = final
    assert decision.kept and decision.variant == "early-start=1"
    assert plain.proof.ok  # the variant's programs are proved like any other
    assert len(plain.superkernels) == 1
    kernel = next(op for op in plain.module.walk() if op.name == "sk.kernel")
    assert "early-start=1" in kernel.options.text()  # type: ignore[attr-defined]
    # the oracles, computed here: the same model compiled with each option string by hand
    base = skir.compile(data)
    early = skir.compile(data, options="early-start=1")
    assert makespan(early) < makespan(base)
    assert makespan(plain) == pytest.approx(makespan(early))
    meta = json.loads((tmp_path / "out" / "sk_meta.json").read_text())
    assert meta["selection"][-1]["variant"] == "early-start=1"
    assert "; with early-start=1" in (tmp_path / "out" / "README.txt").read_text()


def test_a_variant_already_in_force_is_not_chosen_again() -> None:
    chosen = skir.compile(_chain_model(), options="select=gain:early-start=1").check()
    assert chosen.proof.ok and chosen.selection and all(d.kept and not d.variant for d in chosen.selection)
