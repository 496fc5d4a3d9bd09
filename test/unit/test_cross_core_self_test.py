"""The cross-core flag self-test (`debug-cross-core-sync-check=1`, docs/design.md §3): the
entries of the examples emulate clean with it, and a planted leaky sub-kernel hangs right after
its own sub-task with it, later (in the sub-kernel whose credit it took) without it."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

import skir
from skir.dialects.superkernel import SetFlagOp, SubtaskOp, SuperKernelOp, WaitFlagOp
from skir.hostsim.runner import emulate
from skir.hostsim.spec import EmulationSpec
from skir.passes.insert_debug import SELF_TEST_FLAGS
from skir.targets.emulation import emulation_specs

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
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
        else:
            assert tested == [f for f in SELF_TEST_FLAGS for _ in range(4)]
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
@pytest.mark.parametrize("options", ["", ":early-start=1", ":stream-fusion=0", ":debug-sync-all=1"])
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
