"""What an independent checker found (it recomputes happens-before from the original capture,
replays the plan and runs the entries under a strict shim of its own), each with its minimal
model: a racy entry sk-check proved, a self-deadlocking model blamed on skir, a missing
`unreset_event`, and a cell rule the contract and the code disagreed on (docs/design.md §3).
Then what the soak found once it drew option combinations: in-kernel notifies of records
placed after the wrong member (a crossed capture) or after only one of two members, and
lock waits held before only one of two.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import skir
import skir.passes.place_sync
from skir.analysis.proof.original import unreset_by_superkernel
from skir.analysis.proof.sk_check import check_module
from skir.api import the_model
from skir.dialects.aclgraph import StreamOp, ValueWaitOp, ValueWriteOp
from skir.dialects.hardware import EARLY_CLASS_TYPES, EARLY_WAIT_RECIPES, CoreType, early_ordered_types
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    EarlyStartWaitOp,
    NotifyOp,
    SubtaskOp,
    SuperKernelOp,
    WaitLockOp,
)
from skir.errors import CheckFailedError, SkirError
from skir.testing.rewrite_oracle import cells_left_at_one
from skir.tools import sk_compile

HEAD = {"format": "skir.aclgraph.capture", "version": 1, "cores": {"aic": 24, "aiv": 48}}


def capture(name: str, kernels: dict[str, Any], streams: list[list[dict[str, Any]]], **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {**copy.deepcopy(HEAD), "model": name, "kernels": kernels, **top}
    data["streams"] = [{"name": f"s{i}", "tasks": tasks} for i, tasks in enumerate(streams)]
    return data


def kernel(seq: int, name: str, *args: str) -> dict[str, Any]:
    return {"seq": seq, "type": "kernel", "kernel": name, "blocks": 4, "args": list(args)}


# ---- 1. early-start=1 with sync-mode=data: a lost dependency sk-check proved ----------------

RACE = capture(
    "race",
    {"c_w": {"kernel_type": "aic_only", "params": ["out"]},
     "c_r": {"kernel_type": "aic_only", "params": ["in"]},
     "m_r": {"kernel_type": "mix_aic_1_1", "params": ["in"]}},
    [[kernel(0, "c_w", "x"), kernel(1, "c_r", "x"), kernel(2, "m_r", "x")]],
    buffers={"x": 4096},
)
"""c_w writes x on the AIC cores, c_r and m_r only read it; m_r's AIV half must still wait for
every AIC core to finish c_w, which the aic -> aic handshake between c_w and c_r does not order."""
RACE_OPTIONS = "early-start=1:sync-mode=data"


def _program(module: Any) -> tuple[list[Any], list[Any]]:
    sk = next(op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp))
    return sk.program_for(CoreType.AIC), sk.program_for(CoreType.AIV)


def test_the_race_is_lowered_with_a_real_sync_and_proved() -> None:
    result = skir.compile(RACE, options=RACE_OPTIONS).check()
    assert result.proof.ok
    aic, aiv = _program(result.module)
    # the c_r | m_r gap is the aic -> mix handshake (cfg 2), not a local pipe barrier
    assert not any(isinstance(op, BarrierOp) and op.kind.data is BarrierKind.PIPE_ALL for op in aic + aiv)
    waits = [op.cfg.data for op in aiv if isinstance(op, EarlyStartWaitOp)]
    assert waits == [0, 2], waits


def test_without_the_fix_sk_check_rejects_the_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """The relaxation as it was (every handshake taken to order both core types) gives the entry
    the checker found racy; sk-check itself rejects it, not only emulation."""
    monkeypatch.setattr(skir.passes.place_sync, "early_ordered_types", lambda cfg: frozenset(CoreType))
    with pytest.raises(CheckFailedError) as info:
        skir.compile(RACE, options=RACE_OPTIONS).check()
    assert "edge not enforced: @race/@s0/seq 0 -> @race/@s0/seq 2 (not after every aic core of race_sk0)" \
        in str(info.value) + " ".join(info.value.details)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_the_race_emulates_clean() -> None:
    result = skir.compile(RACE, options=RACE_OPTIONS).emulate()
    assert [e.ok for e in result.emulation] == [True], [e.problems for e in result.emulation]


def test_the_recipe_table_follows_from_the_classes() -> None:
    """A second reading of `WaitPreTaskEndImpl<cfg>`: a core type waits on its own mode-0 flag
    exactly when it set (it is of the previous class); it waits on the other type's mode-2 flag
    when it is of the next class and the other type set; a type sends what the other waits on."""
    for prev, producers in EARLY_CLASS_TYPES.items():
        for cur, consumers in EARLY_CLASS_TYPES.items():
            cfg = 4 * prev + cur
            for core in CoreType:
                other = CoreType.AIV if core is CoreType.AIC else CoreType.AIC
                via = core in consumers and other in producers
                sends = other in consumers and core in producers
                want = (core in producers, sends, via)
                assert tuple(EARLY_WAIT_RECIPES[cfg][core]) == want, (cfg, core)


def test_which_types_a_handshake_orders() -> None:
    """By hand, from the recipes: aic -> aic and mix -> aic leave the AIVs unordered after the
    previous class's AICs; aiv -> aiv and mix -> aiv leave the AICs."""
    both = frozenset(CoreType)
    want = {0: {CoreType.AIC}, 1: both, 2: both, 4: both, 5: {CoreType.AIV}, 6: both,
            8: {CoreType.AIC}, 9: {CoreType.AIV}, 10: both}
    assert {cfg: early_ordered_types(cfg) for cfg in EARLY_WAIT_RECIPES} == want


# ---- 2. a model that deadlocks by itself is bad input, never skir's failure -----------------

OR_WAITS = capture(
    "or_waits",
    {"k": {"kernel_type": "aiv_only", "params": []}},
    [[{"seq": 0, "type": "event_wait", "event": "e"}, kernel(1, "k"),
      {"seq": 2, "type": "event_record", "event": "e"}],
     [{"seq": 3, "type": "event_wait", "event": "e"}, kernel(4, "k"),
      {"seq": 5, "type": "event_record", "event": "e"}]],
    events=["e"],
)


@pytest.mark.parametrize("extra", [[], ["--check"]])
def test_waits_that_block_each_other_are_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   extra: list[str]) -> None:
    model = tmp_path / "or_waits.json"
    model.write_text(json.dumps(OR_WAITS))
    code = sk_compile.main([str(model), "-o", str(tmp_path / "out"), *extra])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1, err
    assert err == [f"sk-compile: error: {model}: streams[0].tasks[0]: @or_waits/@s0/seq 0: the model deadlocks by "
                   "itself: this task waits for ever on wait @e (not recorded in its epoch), as do @or_waits/@s1/seq 3 "
                   "on wait @e (not recorded in its epoch); order a record or write before the waits that need it"]
    assert not (tmp_path / "out").exists()


def test_one_record_first_runs() -> None:
    """The same model with s1's record before its wait: s0's wait returns, and so does s1's."""
    data = copy.deepcopy(OR_WAITS)
    tasks = data["streams"][1]["tasks"]
    tasks[0], tasks[2] = {**tasks[2], "seq": 3}, {**tasks[0], "seq": 5}
    assert skir.compile(data).check().proof.ok


# ---- 3. an epoch converted to a cell that ends the model at 1 is warned about ----------------

VOID_WAIT = capture(
    "void_wait",
    {"a": {"kernel_type": "aiv_only", "params": []}, "c": {"kernel_type": "aiv_only", "params": []}},
    [[{"seq": 0, "type": "event_record", "event": "e"}],
     [{"seq": 1, "type": "event_wait", "event": "e"}, kernel(2, "a"), kernel(5, "a")],
     [{"seq": 3, "type": "event_wait", "event": "e"}, kernel(4, "c")]],
    events=["e"],
)
"""s2's wait joins the SuperKernel hosted on s1, whose launch already follows the record (s1
waits first): the joined wait is void. The epoch used to be converted all the same, to a cell
that no SuperKernel touched, that ended the model at 1 and that nothing warned about."""


def warned_cells(original: Any, module: Any) -> set[str]:
    unreset = unreset_by_superkernel(the_model(module), the_model(original))
    return {cell for pairs in unreset.values() for cell, _ in pairs}


def test_a_void_boundary_wait_keeps_its_event() -> None:
    result = skir.compile(VOID_WAIT).check()
    assert [len(sk.members) for sk in result.superkernels] == [3]
    model = the_model(result.module)
    value_tasks = [op for s in model.body.block.ops if isinstance(s, StreamOp) for op in s.body.block.ops
                   if isinstance(op, ValueWriteOp | ValueWaitOp)]
    assert value_tasks == []  # the record and s1's wait stay event tasks
    assert result.original is not None
    assert cells_left_at_one(result.original, result.module) == set() == warned_cells(result.original, result.module)


def test_an_unreset_cell_a_superkernel_waits_on_is_warned() -> None:
    """The converted case that stays: s2's wait is not void once s1 does not wait first, so the
    SuperKernel waits on the cell; a wait on s3 outside it keeps the cell at 1, warned."""
    data = copy.deepcopy(VOID_WAIT)
    data["streams"][1]["tasks"][0] = {"seq": 1, "type": "placeholder"}
    data["streams"].append({"name": "s3", "tasks": [{"seq": 6, "type": "event_wait", "event": "e"}]})
    result = skir.compile(data).check()
    assert result.original is not None
    assert cells_left_at_one(result.original, result.module) == {"e_cell"}
    assert [(w.warning, w.event, w.cell) for w in result.warnings if w.warning != "predicted_slower"] == [
        ("unreset_event", "e", "e_cell")]


# ---- 4. a cell whose waits the initial 0 already satisfies -----------------------------------


def _nor_model(*writes: int) -> dict[str, Any]:
    tasks: list[dict[str, Any]] = [{"seq": i, "type": "value_write", "cell": "c", "value": v}
                                   for i, v in enumerate(writes)]
    return capture("nor", {"k": {"kernel_type": "aiv_only", "params": []}},
                   [tasks, [{"seq": 10, "type": "value_wait", "cell": "c", "value": 5, "rule": "nor"},
                            kernel(11, "k")]], cells=["c"])


def test_writes_that_all_pass_a_rule_zero_passes_are_accepted() -> None:
    """`nor 5` passes on 0, 3 and 8: the wait never blocks and gives no edge, so two writes that
    pass it are no ambiguity (docs/design.md §3 "Happens-before")."""
    assert skir.compile(_nor_model(3, 8)).check().proof.ok


def test_a_write_that_fails_a_rule_zero_passes_is_refused() -> None:
    with pytest.raises(SkirError, match=r"@nor/@s0/seq 1: value_write 18446744073709551615 to @c fails the rule of "
                                        r"its waits \(nor 5\), which the initial 0 passes"):
        skir.compile(_nor_model(3, (1 << 64) - 1))


def test_every_suite_compile_proves() -> None:
    """The findings' models pass sk-check from the module alone, too."""
    for data, options in ((RACE, RACE_OPTIONS), (VOID_WAIT, ""), (_nor_model(3, 8), "")):
        assert check_module(skir.compile(data, options=options).module).ok


# ---- found by the soak with option combinations: in-kernel notifies of records ----------------

CROSSED = capture(
    "crossed",
    {"k": {"kernel_type": "aiv_only", "params": []}, "d": {"kernel_type": "aiv_only", "params": [],
                                                            "sk_capable": False}},
    [[{"seq": 0, "type": "event_wait", "event": "e1"}, kernel(1, "k"),
      {"seq": 2, "type": "event_record", "event": "e2"}, kernel(5, "k")],
     [kernel(3, "k"), {"seq": 4, "type": "event_record", "event": "e1"}],
     [{"seq": 6, "type": "event_wait", "event": "e2"}, kernel(7, "d")]],
    events=["e1", "e2"],
)
"""A crossed capture: s1's seq 3 runs before s0's seq 1 (through e1). The record of e2 after
seq 1 becomes an in-kernel notify after the member it follows last in the members' order, seq
1; by seq it was put after seq 3, and @s2's seq 7 no longer waited for seq 1."""


def _notify(module: Any) -> Any:
    sk = next(op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp))
    return next(op for op in sk.program() if isinstance(op, NotifyOp))


def test_a_notify_follows_the_member_its_record_follows_last() -> None:
    result = skir.compile(CROSSED).check()
    sk = next(op for op in the_model(result.module).body.block.ops if isinstance(op, SuperKernelOp))
    program = sk.program()
    notify = _notify(result.module)
    before = [op for op in program[:program.index(notify)] if isinstance(op, SubtaskOp)]
    assert [(op.stream.root_reference.data, op.seq.data) for op in before] == [("s1", 3), ("s0", 1)]


FORK = capture(
    "fork",
    {"a": {"kernel_type": "aic_only", "params": []}, "k": {"kernel_type": "aiv_only", "params": []},
     "d": {"kernel_type": "aiv_only", "params": [], "sk_capable": False}},
    [[kernel(0, "a"), {"seq": 3, "type": "event_wait", "event": "e1"},
      {"seq": 4, "type": "event_record", "event": "e2"}, kernel(5, "k")],
     [kernel(1, "k"), {"seq": 2, "type": "event_record", "event": "e1"}],
     [{"seq": 6, "type": "event_wait", "event": "e2"}, kernel(7, "d")]],
    events=["e1", "e2"],
)
"""A queue SuperKernel: the record of e2 on s0 follows the AIC sub-task of s0 and, through e1,
the AIV one of s1, which do not follow each other. Its notify (on the AIVs) must wait for both:
`after %a, %b` names them, and the AIC's barrier and a mode-2 flag carry the AIC side to it."""


def test_a_notify_after_two_unordered_members_waits_for_both() -> None:
    result = skir.compile(FORK).check()
    notify = _notify(result.module)
    assert sorted((op.stream.root_reference.data, op.seq.data) for op in notify.dep_subtasks()) == [
        ("s0", 0), ("s1", 1)]


def test_without_the_notify_deps_sk_check_rejects_the_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    import skir.analysis.formation.boundary as boundary

    original = boundary._Planner._members_before

    def latest_only(self: Any, p: Any, n: int) -> tuple[int | None, tuple[int, ...]]:
        return original(self, p, n)[0], ()

    monkeypatch.setattr(boundary._Planner, "_members_before", latest_only)
    with pytest.raises(CheckFailedError, match=r"edge not enforced: @fork/@s0/seq 0 -> @fork/@s2/seq 7"):
        skir.compile(FORK).check()


JOIN = capture(
    "join",
    {"k": {"kernel_type": "aiv_only", "params": []}, "c": {"kernel_type": "aic_only", "params": []},
     "d": {"kernel_type": "aiv_only", "params": [], "sk_capable": False}},
    [[kernel(2, "k"), {"seq": 3, "type": "event_wait", "event": "e2"},
      {"seq": 4, "type": "event_record", "event": "e1"}, kernel(5, "k")],
     [{"seq": 6, "type": "event_wait", "event": "e1"}, kernel(7, "c")],
     [kernel(0, "d"), {"seq": 1, "type": "event_record", "event": "e2"}]],
    events=["e1", "e2"],
)
"""The mirror of FORK: the wait of e2 on s0 precedes s0's next sub-task and, through e1, the AIC
sub-task of s1. Both name its lock wait's token (`after %w`), so the flag to the AIC follows it."""


def test_a_lock_wait_before_two_unordered_members_holds_both() -> None:
    result = skir.compile(JOIN).check()
    sk = next(op for op in the_model(result.module).body.block.ops if isinstance(op, SuperKernelOp))
    wait = next(op for op in sk.program() if isinstance(op, WaitLockOp))
    held = [use.operation for use in wait.token.uses]
    assert all(isinstance(op, SubtaskOp) for op in held)
    assert sorted((op.stream.root_reference.data, op.seq.data) for op in held) == [  # type: ignore[attr-defined]
        ("s0", 5), ("s1", 7)]


def test_without_the_wait_deps_sk_check_rejects_the_join(monkeypatch: pytest.MonkeyPatch) -> None:
    import skir.analysis.formation.boundary as boundary

    original = boundary._Planner._members_after

    def earliest_only(self: Any, p: Any, n: int) -> tuple[int | None, tuple[int, ...]]:
        return original(self, p, n)[0], ()

    monkeypatch.setattr(boundary._Planner, "_members_after", earliest_only)
    with pytest.raises(CheckFailedError, match=r"edge not enforced: @join/@s2/seq 0 -> @join/@s1/seq 7"):
        skir.compile(JOIN).check()


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("data", [CROSSED, FORK, JOIN], ids=["crossed", "fork", "join"])
def test_the_notify_findings_emulate_clean(data: dict[str, Any]) -> None:
    result = skir.compile(data).emulate()
    assert [e.ok for e in result.emulation] == [True], [e.problems for e in result.emulation]
