"""Host emulation of hand-written entries in the vendor shape (skir.testing.vendor_entries), under
the g++ shim: an AIV chain that passes, and the faults the shim reports on variants of it (races,
deadlocks, GM lock words, leftover credits, shim misuse, tooling failures).  MIX 1:2 launches, the
early-start recipes and feed-sync-all are in test_hostsim_mix_sync.py."""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

from skir.errors import MissingToolError
from skir.hostsim import emulate
from skir.hostsim.logcheck import parse_log
from skir.testing.vendor_entries import (
    AIV_BARRIER,
    aiv_trailer,
    call,
    spec,
    split_call,
    st,
)

if shutil.which(shlex.split(os.environ.get("CXX") or "g++")[0]) is None:
    pytest.skip("no C++ compiler (g++) for the host emulation", allow_module_level=True)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostsim")


# ---------------------------------------------------------------------------------------------
# An AIV chain: A (8 blocks) -> all-AIV barrier -> B (4 blocks) -> early start (cfg 5) -> C
# ---------------------------------------------------------------------------------------------
EARLY_START_AIV = """    // begin inter ops barrier
    if ASCEND_IS_AIV {
        if (true) {
            AscendC::SetNextTaskStart();
        }
    }
    // AIV only, no complement early start set flag.
    g_super_kernel_early_start_config = 5;
    if ASCEND_IS_AIV {
        AscendC::WaitPreTaskEndImpl<5>();
    }
    if ASCEND_IS_AIC {
        AscendC::WaitPreTaskEndImpl<5>();
    }
"""
CHAIN_TASKS = (
    st(0, "add_a_middle", 1, "aiv", 8),
    st(1, "mul_b_middle", 4, "aiv", 4),
    st(2, "add_a_middle", 7, "aiv", 8),
)
CHAIN_EDGES = ((0, 1), (1, 2), (0, 2))


def chain_body(barrier: str = AIV_BARRIER) -> str:
    return (
        "    if ASCEND_IS_AIV {\n        if (AscendC::GetBlockIdx() < 8) {\n"
        + split_call("add_a_middle", "", 4, " " * 12, preload=True)
        + "        }\n    }\n"
        + call("aiv", "add_a_middle", 8, 1)
        + barrier
        + call("aiv", "mul_b_middle", 4, 4)
        + EARLY_START_AIV
        + call("aiv", "add_a_middle", 8, 7)
        + "    dcci((__gm__ uint64_t*)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);\n"
    )


def test_chain_passes_and_splits_vary(work: Path) -> None:
    res = emulate(spec("chain", chain_body(), CHAIN_TASKS, CHAIN_EDGES), work / "chain")
    assert res.ok, res.problems
    assert res.verdict == "ok: 3 sub-tasks on 8 cores, 3 edges proven"
    log = parse_log(res.log_path.read_text())  # type: ignore[union-attr]
    begins = [r for r in log.records if r.kind == "BEGIN"]
    assert Counter((r.symbol, r.offset) for r in begins) == {
        ("add_a_middle", 1): 8,
        ("mul_b_middle", 4): 4,
        ("add_a_middle", 7): 8,
    }
    assert {r.copy for r in begins if r.offset == 1} == {0, 1, 2, 3}  # coreid % 4 selects every copy


def test_deleted_barrier_is_a_race_for_every_seed(work: Path) -> None:
    s = spec("chain", chain_body(barrier=""), CHAIN_TASKS, CHAIN_EDGES)
    for seed in (0, 1, 2):
        res = emulate(s, work / "race", seed=seed)
        assert not res.ok
        races = [p for p in res.problems if p.startswith("race:")]
        assert len(races) == 1, res.problems
        assert races[0].startswith("race: add_a_middle@1 -> mul_b_middle@4: END on aiv ")
        assert " before BEGIN on aiv " in races[0]
        assert res.verdict.startswith("race:")


def test_aiv_only_launch_has_no_ffts(work: Path) -> None:
    res = emulate(
        spec("chain", chain_body(), CHAIN_TASKS, CHAIN_EDGES, kernel_type="aiv_only", trailer=aiv_trailer("chain")),
        work / "aiv_only",
    )
    assert not res.ok
    assert any("no FFTS cross-core sync" in p for p in res.problems), res.problems


# ---------------------------------------------------------------------------------------------
# Deadlocks, GM locks, leftovers
# ---------------------------------------------------------------------------------------------
def test_wait_on_unset_flag_is_a_deadlock(work: Path) -> None:
    body = call("aiv", "add_a_middle", 8, 1) + "    wait_flag_dev(3);\n" + call("aiv", "mul_b_middle", 4, 4)
    s = spec("hang", body, CHAIN_TASKS[:2], ((0, 1),), blocks=4)
    t0 = time.monotonic()
    res = emulate(s, work / "hang", timeout_ms=300)
    assert time.monotonic() - t0 < 15
    assert not res.ok
    assert res.verdict.startswith("deadlock: ")
    dead = sorted(p for p in res.problems if p.startswith("deadlock:"))
    # each line says where the core stands: after the sub-task its last record ended
    assert dead == [f"deadlock: aiv {i} (block {i}.0): wait_flag_dev(3) (after add_a_middle@1)" for i in range(4)]


LOCK_BODY = (
    call("aiv", "add_a_middle", 8, 1)
    + AIV_BARRIER
    + "    if ASCEND_IS_AIV {\n        NotifyFunc<false>(param_base[3]);\n    }\n"
    + "    if ASCEND_IS_AIV {\n        WaitFunc<false>(param_base[9]);\n    }\n"
    + AIV_BARRIER
    + call("aiv", "mul_b_middle", 4, 4)
    + "    if ASCEND_IS_AIV {\n        if (AscendC::GetBlockIdx() == 0) {\n"
    + "            *(reinterpret_cast<__gm__ uint64_t*>(param_base[9])) = 0;\n        }\n    }\n"
)


def test_wait_lock_never_set_deadlocks_and_preset_passes(work: Path) -> None:
    base = dict(blocks=8, lock_slots=(3, 9))
    res = emulate(spec("lock", LOCK_BODY, CHAIN_TASKS[:2], ((0, 1),), **base), work / "lock", timeout_ms=300)
    assert not res.ok
    dead = [p for p in res.problems if p.startswith("deadlock:")]
    assert "deadlock: aiv 0 (block 0.0): spin-dcci on slot 9 (value 0) (after add_a_middle@1)" in dead
    assert "deadlock: aiv 7 (block 7.0): wait_flag_dev(14) (after add_a_middle@1)" in dead

    res = emulate(spec("lock", LOCK_BODY, CHAIN_TASKS[:2], ((0, 1),), preset_locks=((9, 1),), **base), work / "lock")
    assert res.ok, res.problems
    log = parse_log(res.log_path.read_text())  # type: ignore[union-attr]
    assert log.locks == {3: 1, 9: 0}  # notified lock stays 1 (the caller decides), wait lock reset


def test_in_kernel_notify_wait_orders_through_lock_clocks(work: Path) -> None:
    body = (
        call("aiv", "vec_a_middle", 1, 1)
        + "    if ASCEND_IS_AIV {\n        NotifyFunc<false>(param_base[3]);\n    }\n"
        + "    if ASCEND_IS_AIC {\n        WaitFunc<true>(param_base[3]);\n    }\n"
        + call("aic", "mm_b_middle", 1, 4)
    )
    tasks = (st(0, "vec_a_middle", 1, "aiv", 1), st(1, "mm_b_middle", 4, "aic", 1))
    s = spec("notify", body, tasks, ((0, 1),), kernel_type="mix_aic_1_2", blocks=2, lock_slots=(3,))
    for seed in (0, 1, 2):
        res = emulate(s, work / "notify", seed=seed)
        assert res.ok, res.problems
        assert res.edges_proven == 1


def test_leftover_credits_are_reported(work: Path) -> None:
    body = (
        call("aiv", "add_a_middle", 8, 1)
        + "    ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, 5));\n"
        + AIV_BARRIER
        + call("aiv", "mul_b_middle", 4, 4)
    )
    res = emulate(spec("leak", body, CHAIN_TASKS[:2], ((0, 1),), blocks=2), work / "leak")
    assert not res.ok
    assert sorted(p for p in res.problems if p.startswith("leftover:")) == [
        "leftover: aiv 0 (block 0.0) holds 1 unconsumed credit(s) on flag 5 at the end",
        "leftover: aiv 1 (block 1.0) holds 1 unconsumed credit(s) on flag 5 at the end",
    ]


MISUSE = {
    "overflow": (
        "    for (int i = 0; i < 16; ++i) ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, 5));\n"
        "    for (int i = 0; i < 16; ++i) wait_flag_dev(5);\n",
        "overflow: aiv ",  # whichever core sets last holds 16
    ),
    "local": (
        "    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);\n    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n",
        "shim: set_flag(1,5,0) set twice without a wait on aiv 0 (block 0.0)",
    ),
    "pipe": (
        "    ffts_cross_core_sync(PIPE_ALL, AscendC::GetffstMsg(0x0, 7));\n    wait_flag_dev(7);\n",
        "shim: ffts_cross_core_sync on PIPE_ALL (not allowed; first on aiv",
    ),
    "mode2": ("    AscendC::SyncAll<false>();\n", "shim: ffts_cross_core_sync mode 2 in launch type mix_aiv_1_0"),
    "trap": (
        "    if (AscendC::GetBlockIdx() == 1) { AscendC::Trap(); }\n",
        "abort: AscendC::Trap on aiv 1 (block 1.0)",
    ),
}


@pytest.mark.parametrize("case", sorted(MISUSE))
def test_shim_misuse_is_reported(work: Path, case: str) -> None:
    code, expected = MISUSE[case]
    body = call("aiv", "add_a_middle", 2, 1) + code + AIV_BARRIER + call("aiv", "mul_b_middle", 2, 4)
    res = emulate(spec(case, body, CHAIN_TASKS[:2], ((0, 1),), blocks=2), work / case, timeout_ms=300)
    assert not res.ok
    assert any(p.startswith(expected) for p in res.problems), res.problems


# ---------------------------------------------------------------------------------------------
# Tooling failures
# ---------------------------------------------------------------------------------------------
def test_compile_error_is_a_problem(work: Path) -> None:
    body = "    this_is_not_declared(1);\n"
    res = emulate(spec("broken", body, CHAIN_TASKS[:1], ()), work / "broken")
    assert not res.ok
    assert res.problems[0].startswith("compile: broken_kernel.cpp:")
    assert "error" in res.problems[0]
    assert "this_is_not_declared" in res.problems[0]


def test_missing_compiler_raises(work: Path) -> None:
    with pytest.raises(MissingToolError):
        emulate(spec("chain", chain_body(), CHAIN_TASKS, CHAIN_EDGES), work / "nocxx", cxx="definitely-not-a-compiler")
