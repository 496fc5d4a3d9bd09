"""The cross-core flag self-test (`debug-cross-core-sync-check=1`, docs/design.md §3): the
entries of the examples and suite models are proved and emulate clean with it; a planted
sub-kernel that leaks a wait hangs right after its own sub-task with it, later (in the
sub-kernel whose credit it took) without it; one that leaks a set overflows a counter right
after its own sub-task with it (the fill), and shows only as a leftover at the end without it;
the fill counts of a queue SuperKernel whose own sync has a credit pending across a mixed
sub-task are those derived by hand."""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from pathlib import Path

import pytest
from xdsl.parser import Parser

import skir
from skir.analysis.proof.sk_check import CheckReport, _check_pending
from skir.analysis.proof.sync_machine import SyncMachine
from skir.analysis.sync.self_test_fill import SELF_TEST_FLAGS, plan_fills
from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SetFlagOp, SubtaskOp, SuperKernelOp, WaitFlagOp
from skir.hostsim.runner import emulate
from skir.hostsim.spec import EmulationSpec
from skir.passes.insert_debug import InsertDebugPass
from skir.registry import make_context
from skir.targets.emulation import emulation_specs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CHECK = "debug-cross-core-sync-check=1"

# Sub-kernels on disjoint buffers: with sync-mode=data the barriers between them are local pipe
# barriers, so nothing of skir's own sync stands between a leaked wait in @mm and the
# credit @mm2 sets for itself.
LEAKY = """
aclgraph.model @leaky cores(aic = 24, aiv = 48) {
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @mm2 mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @norm aiv_only params(in, out)
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.buffer @a
  aclgraph.buffer @b
  aclgraph.buffer @c
  aclgraph.buffer @d
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @mm blocks 4 args(@x, @x, @y)
    aclgraph.launch seq 1 @norm blocks 8 args(@c, @d)
    aclgraph.launch seq 2 @mm2 blocks 4 args(@a, @a, @b)
  }
}
"""


def _program(options: str) -> list[object]:
    result = skir.compile(LEAKY, options=options)
    (sk,) = [op for op in result.module.walk() if isinstance(op, SuperKernelOp)]
    return list(sk.program())


def test_the_self_test_follows_each_mixed_subtask_only() -> None:
    program = _program("sync-mode=data:" + CHECK)
    subtasks = [i for i, op in enumerate(program) if isinstance(op, SubtaskOp)]
    names = [program[i].kernel.root_reference.data for i in subtasks]  # type: ignore[attr-defined]
    assert names == ["mm", "norm", "mm2"]
    for i, j, name in zip(subtasks, [*subtasks[1:], len(program)], names, strict=True):
        after = program[i + 1: j]  # up to the next sub-task
        tested = [op.flag.data for op in after if isinstance(op, SetFlagOp | WaitFlagOp)]
        if name == "norm":  # an aiv-only sub-task: no self-test
            assert not tested
        else:  # the balanced round first, then the fill
            assert tested[:4 * len(SELF_TEST_FLAGS)] == [f for f in SELF_TEST_FLAGS for _ in range(4)]
            assert len(tested) > 4 * len(SELF_TEST_FLAGS)
    assert not [op for op in _program("sync-mode=data") if isinstance(op, SetFlagOp | WaitFlagOp)]


def _spec(options: str) -> EmulationSpec:
    result = skir.compile(LEAKY, options=options)
    (spec,) = emulation_specs(result.module, result.original)  # type: ignore[arg-type]
    # plant: @mm leaks one wait on flag 5; @mm2 uses flag 5 itself, balanced
    subtasks = tuple(
        dataclasses.replace(st, leak_wait=5) if st.symbol.startswith("mm_") or st.symbol == "mm"
        else dataclasses.replace(st, flag_use=5) if st.symbol.startswith("mm2") else st
        for st in spec.subtasks
    )
    assert sum(st.leak_wait is not None for st in subtasks) == 1
    assert sum(st.flag_use is not None for st in subtasks) == 1
    return dataclasses.replace(spec, subtasks=subtasks)


needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


@needs_gxx
def test_a_leaked_wait_is_caught_right_after_its_subtask(tmp_path: Path) -> None:
    with_check = _spec("sync-mode=data:" + CHECK)
    leaky = next(st for st in with_check.subtasks if st.leak_wait is not None).label
    user = next(st for st in with_check.subtasks if st.flag_use is not None).label
    emu = emulate(with_check, tmp_path / "on")
    assert not emu.ok and emu.verdict.startswith("deadlock: aic "), emu.problems
    # the leaked wait holds the AIC inside @mm: its AIVs wait in the self-test for the AIC's
    # set of flag 0 and never reach @mm2, whose set of flag 5 the leak would take
    assert emu.verdict.split(" (+")[0] == f"deadlock: aic 0: wait_flag_dev(5) (in {leaky})", emu.problems
    assert all(p.endswith((f"(in {leaky})", f"(after {leaky})")) for p in emu.problems if p.startswith("deadlock")), \
        emu.problems
    assert not any(user in p for p in emu.problems), emu.problems

    # without the self-test the same plant takes @mm2's credit: the hang shows inside @mm2
    emu = emulate(_spec("sync-mode=data"), tmp_path / "off")
    assert not emu.ok and emu.verdict.startswith("deadlock: aic "), emu.problems
    assert emu.verdict.split(" (+")[0] == f"deadlock: aic 0: wait_flag_dev(5) (in {user})", emu.problems
    assert not any(leaky in p for p in emu.problems if p.startswith("deadlock")), emu.problems


@needs_gxx
def test_clean_subkernels_pass_the_self_test(tmp_path: Path) -> None:
    spec = _spec("sync-mode=data:" + CHECK)
    clean = dataclasses.replace(spec, subtasks=tuple(dataclasses.replace(st, leak_wait=None) for st in spec.subtasks))
    emu = emulate(clean, tmp_path / "emu")
    assert emu.ok, emu.problems


@needs_gxx
@pytest.mark.parametrize("options", ["", ":early-start=1", ":stream-fusion=0", ":debug-sync-all=1", ":placement=auto"])
def test_examples_emulate_clean_with_the_self_test(tmp_path: Path, options: str) -> None:
    for example in ("chain.mlir", "decode_layer.json", "decode_branches.json"):
        result = skir.compile(EXAMPLES / example, options=CHECK + options).check().write(
            tmp_path / example, emulate=True)
        assert result.emulation and all(e.ok for e in result.emulation), [e.verdict for e in result.emulation]


@pytest.mark.parametrize("flag", [12, 16, -1])
def test_a_planted_flag_must_be_one_a_sub_kernel_may_use(flag: int) -> None:
    spec = _spec("sync-mode=data")
    bad = dataclasses.replace(spec, subtasks=tuple(
        dataclasses.replace(st, leak_wait=flag) if st.leak_wait is not None else st for st in spec.subtasks))
    with pytest.raises(ValueError, match=f"uses flag {flag}; a mix sub-kernel uses cross-core flag ids 0-10 and 15"):
        bad.validate()
    aiv = dataclasses.replace(spec, subtasks=tuple(
        dataclasses.replace(st, flag_use=5) if st.core_class == "aiv" else st for st in spec.subtasks))
    with pytest.raises(ValueError, match="uses flag 5"):
        aiv.validate()


def _leaky_set(options: str, flag: int, leak_from: str) -> EmulationSpec:
    """LEAKY with @mm leaking one set of `flag` (from its AIVs or its AIC), @mm2 using the id itself."""
    spec = _spec(options)
    return dataclasses.replace(spec, subtasks=tuple(
        dataclasses.replace(st, leak_wait=None, leak_set=flag, leak_from=leak_from) if st.leak_wait is not None
        else dataclasses.replace(st, flag_use=flag) if st.flag_use is not None else st
        for st in spec.subtasks))


@needs_gxx
@pytest.mark.parametrize(("flag", "leak_from", "holder"), [
    (5, "aiv", "aic"), (0, "aic", "aiv"), (1, "aiv", "aic"), (3, "aic", "aiv"), (15, "aiv", "aic")])
def test_a_leaked_set_is_caught_right_after_its_subtask(tmp_path: Path, flag: int, leak_from: str,
                                                         holder: str) -> None:
    with_check = _leaky_set("sync-mode=data:" + CHECK, flag, leak_from)
    leaky = next(st for st in with_check.subtasks if st.leak_set is not None).label
    emu = emulate(with_check, tmp_path / "on")
    assert not emu.ok and emu.verdict.startswith(f"overflow: {holder} "), emu.problems
    overflows = [p for p in emu.problems if p.startswith("overflow:")]
    assert overflows and not [p for p in emu.problems if p.startswith("deadlock")], emu.problems
    # the fill's set takes the counter holding the leaked credit to 16, in the self-test after @mm
    assert emu.verdict.split(" (+")[0].endswith(f"(after {leaky})"), emu.verdict
    for line in overflows:  # the leaked counter only, whichever leak: every signal is a proof
        assert line.startswith(f"overflow: {holder} ") and f"holds 16 pending credits on flag {flag} (max 15)" in line
        assert f"set by {leak_from} " in line and "(after " in line, line

    # without the self-test the surplus credit only shows at the end, as a leftover
    emu = emulate(_leaky_set("sync-mode=data", flag, leak_from), tmp_path / "off")
    assert not emu.ok and emu.verdict.startswith(f"leftover: {holder} "), emu.problems
    assert not [p for p in emu.problems if p.startswith(("overflow", "deadlock"))], emu.problems


# A queue SuperKernel, written by hand as `sk-lower-sync` leaves it: the AIC sets flag 15 for the
# AIVs after @c, before the mix sub-task @mm, and the AIVs wait for it after @mm, before @v.
STRADDLE = """
aclgraph.model @straddle cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @v aiv_only params(in, out)
  sk.kernel @straddle_sk0 mix_aic_1_2 blocks 4 queue slots 8 options "debug-cross-core-sync-check=1" {
    %0 = sk.subtask @c blocks 4 offset 1 from @s1 seq 0 on aic
    sk.barrier all_aic
    sk.set_flag mode 2 flag 15 pipe fix on aic
    %1 = sk.subtask @mm blocks 4 offset 3 from @s0 seq 1 on mix
    sk.wait_flag flag 15 on aiv
    %2 = sk.subtask @v blocks 8 offset 6 from @s1 seq 2 on aiv after %0
  }
}
"""


def _expected_counts() -> dict[tuple[str, str, int], int]:
    """The sets and waits the self-test after @mm has on each id, derived by hand.

    At @mm one credit of skir's own is pending on the AIVs' flag 15 (set before, waited after),
    none elsewhere; ids 0, 1, 2, 3 are the quiet ids r, q, s, t. Sets of the AIVs (toward the
    AIC), per id: 1 in the balanced round, 15 in the fill (none has a credit pending), and for r
    and q 1 in the handshake and 1 signal of step 1, for s and t 1 signal of step 3 and 1 last
    signal. Sets of the AIC (toward the AIVs): 1 in the round, the fill 15 but 14 for flag 15,
    and for r and q 1 in the handshake and 1 signal of step 2, for s and t 1 signal of step 4.
    Each side waits what the other sets.
    """
    aiv = {f: 1 + 15 + (2 if f in (0, 1, 2, 3) else 0) for f in SELF_TEST_FLAGS}
    aic = {f: 1 + 15 + (2 if f in (0, 1) else 1 if f in (2, 3) else 0) for f in SELF_TEST_FLAGS}
    aic[15] -= 1
    out: dict[tuple[str, str, int], int] = {}
    for f in SELF_TEST_FLAGS:
        out[("set", "aiv", f)] = out[("wait", "aic", f)] = aiv[f]
        out[("set", "aic", f)] = out[("wait", "aiv", f)] = aic[f]
    return out


def test_the_fill_counts_of_a_straddling_queue_are_the_hand_derived_ones() -> None:
    module = Parser(make_context(), STRADDLE).parse_module()
    (sk,) = [op for op in module.walk() if isinstance(op, SuperKernelOp)]
    (plan,) = plan_fills(sk.program(), lambda op: op.kernel.root_reference.data == "mm")
    assert plan.subtask == 3 and plan.pending == {(CoreType.AIV, 15): 1} and plan.handshake == (0, 1, 2, 3)
    assert plan.fill[(CoreType.AIV, 15)] == 14 and not plan.unfilled
    assert {n for c, n in plan.fill.items() if c != (CoreType.AIV, 15)} == {15}

    InsertDebugPass().apply(make_context(), module)
    (sk,) = [op for op in module.walk() if isinstance(op, SuperKernelOp)]
    program = sk.program()
    mm = next(i for i, op in enumerate(program) if isinstance(op, SubtaskOp) and op.kernel.root_reference.data == "mm")
    # the self-test ends before skir's own wait for flag 15 and @v
    assert isinstance(program[-2], WaitFlagOp) and program[-2].flag.data == 15 and isinstance(program[-1], SubtaskOp)
    counts = Counter(("set" if isinstance(op, SetFlagOp) else "wait", op.core.data.value, op.flag.data)
                     for op in program[mm + 1:-2] if isinstance(op, SetFlagOp | WaitFlagOp))
    assert dict(counts) == _expected_counts()
    # the sync machine runs it to the end, no credit left, none over 15 on any schedule
    machine = SyncMachine.isolated(sk)
    assert machine.run() == []
    assert all(n == machine.waits[key] for key, n in machine.sets.items())
    report = CheckReport()
    _check_pending(report, sk)
    assert report.ok, report.violations


SUITES = [EXAMPLES / "decode_updated.json", *sorted((EXAMPLES / "torch").glob("*.json")),
          *sorted((ROOT / "test" / "unit" / "models").iterdir())]


@needs_gxx
@pytest.mark.parametrize("model", SUITES, ids=[p.name for p in SUITES])
def test_suite_models_are_proved_and_emulate_clean_with_the_fill(tmp_path: Path, model: Path) -> None:
    for options in ("", ":stream-fusion=0"):
        result = skir.compile(model, options=CHECK + options).check().write(tmp_path / options, emulate=True)
        assert result.emulation and all(e.ok for e in result.emulation), [e.verdict for e in result.emulation]


# A capture whose queue SuperKernel has a credit of skir's own pending across the mix @mm: the
# AIC sets flag 15 for the AIVs after @c (before @mm in its queue), the AIVs wait for it before
# @v (after @mm in theirs).
STRADDLING_MODEL = """
aclgraph.model @straddle cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @v aiv_only params(in, out)
  aclgraph.buffer @x
  aclgraph.buffer @y
  aclgraph.buffer @a
  aclgraph.buffer @b
  aclgraph.buffer @d
  aclgraph.stream @s0 {
    aclgraph.launch seq 1 @mm blocks 4 args(@x, @x, @y)
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 0 @c blocks 4 args(@a, @b)
    aclgraph.launch seq 2 @v blocks 8 args(@b, @d)
  }
}
"""


@needs_gxx
def test_a_straddling_credit_is_filled_around_and_a_leak_on_its_id_caught(tmp_path: Path) -> None:
    result = skir.compile(STRADDLING_MODEL, options=CHECK).check()
    (sk,) = [op for op in result.module.walk() if isinstance(op, SuperKernelOp)]
    assert sk.form.data.value == "queue"
    (plan,) = plan_fills(sk.program(), lambda op: op.kernel.root_reference.data == "mm")
    assert plan.pending == {(CoreType.AIV, 15): 1} and plan.fill[(CoreType.AIV, 15)] == 14
    (spec,) = emulation_specs(result.module, result.original)  # type: ignore[arg-type]
    emu = emulate(spec, tmp_path / "clean")
    assert emu.ok, emu.problems
    leaky = dataclasses.replace(spec, subtasks=tuple(
        dataclasses.replace(st, leak_set=15, leak_from="aic") if st.symbol.startswith("mm") else st
        for st in spec.subtasks))
    label = next(st.label for st in leaky.subtasks if st.leak_set is not None)
    emu = emulate(leaky, tmp_path / "leak")
    # the AIVs' flag 15 holds skir's credit and the leaked one: the AIC's 14 fill sets overflow it
    head = emu.verdict.split(" (+")[0]
    assert head.startswith("overflow: aiv ") and "holds 16 pending credits on flag 15 (max 15), set by aic " in head, \
        emu.problems
    assert head.endswith(f"(after {label})"), emu.problems
    assert all("flag 15 " in p for p in emu.problems if p.startswith("overflow")), emu.problems


# The AIC sets nine ids for the AIVs before @mm, which wait for them after it: only 0, 1, 2 are
# quiet, the fill needs four, so the self-test after @mm is the balanced round alone.
_HELD = (15, 10, 9, 8, 7, 6, 5, 4, 3)
FEW_QUIET = """
aclgraph.model @few cores(aic = 24, aiv = 48) {
  aclgraph.kernel @c aic_only params(in, out)
  aclgraph.kernel @mm mix_aic_1_2 params(in, in, out)
  aclgraph.kernel @v aiv_only params(in, out)
  sk.kernel @few_sk0 mix_aic_1_2 blocks 4 queue slots 8 options "debug-cross-core-sync-check=1" {
    %0 = sk.subtask @c blocks 4 offset 1 from @s1 seq 0 on aic
    sk.barrier all_aic
""" + "".join(f"    sk.set_flag mode 2 flag {f} pipe fix on aic\n" for f in _HELD) + """
    %1 = sk.subtask @mm blocks 4 offset 3 from @s0 seq 1 on mix
""" + "".join(f"    sk.wait_flag flag {f} on aiv\n" for f in _HELD) + """
    %2 = sk.subtask @v blocks 8 offset 6 from @s1 seq 2 on aiv after %0
  }
}
"""


def test_sk_meta_names_the_counters_a_self_test_does_not_fill() -> None:
    from skir.schemas import validate
    from skir.targets.sk_meta import sk_meta

    module = Parser(make_context(), FEW_QUIET).parse_module()
    (sk,) = [op for op in module.walk() if isinstance(op, SuperKernelOp)]
    (plan,) = plan_fills(sk.program(), lambda op: op.kernel.root_reference.data == "mm")
    assert plan.handshake is None and not plan.fill and len(plan.unfilled) == 2 * len(SELF_TEST_FLAGS)
    InsertDebugPass().apply(make_context(), module)
    (sk,) = [op for op in module.walk() if isinstance(op, SuperKernelOp)]
    assert sum(isinstance(op, SetFlagOp | WaitFlagOp) for op in sk.program()) == 18 + 4 * len(SELF_TEST_FLAGS)
    meta = sk_meta(module)
    validate("sk_meta", meta)
    reason = "only 3 id(s) with no pending credit on either side; the fill needs 4"
    assert meta["superkernels"][0]["warnings"] == [
        {"warning": "self_test_unfilled", "subtask": 11, "core": core, "flags": list(SELF_TEST_FLAGS), "reason": reason}
        for core in ("aic", "aiv")]
    # the straddling queue fills every counter: no warning
    straddle = Parser(make_context(), STRADDLE).parse_module()
    InsertDebugPass().apply(make_context(), straddle)
    assert sk_meta(straddle)["superkernels"][0]["warnings"] == []
