"""Host emulation of hand-written entries in the vendor shape (skir.testing.vendor_entries), under
the g++ shim: MIX 1:2 SyncAll chains, every early-start recipe, and batch kernels with
feed-sync-all.  The AIV chain and the faults the shim reports are in test_hostsim_chain_faults.py."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest

from skir.hostsim import emulate
from skir.hostsim.logcheck import parse_log
from skir.testing.vendor_entries import (
    AIC_BARRIER,
    AIV_BARRIER,
    SYNC_ALL_MIX,
    call,
    spec,
    st,
)

if shutil.which(shlex.split(os.environ.get("CXX") or "g++")[0]) is None:
    pytest.skip("no C++ compiler (g++) for the host emulation", allow_module_level=True)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostsim")


# ---------------------------------------------------------------------------------------------
# MIX 1:2
# ---------------------------------------------------------------------------------------------
MIX_TASKS = (
    st(0, "mm_a_middle", 1, "aic", 2),
    st(1, "mm_b_middle", 3, "aic", 1),
    st(2, "vec_c_middle", 5, "aiv", 3),
    st(3, "fa_d_middle", 7, "mix", 1, split=1),
)
MIX_EDGES = ((0, 1), (1, 2), (2, 3), (0, 3))


def mix_body(sync: str = SYNC_ALL_MIX) -> str:
    return (
        call("aic", "mm_a_middle", 2, 1)
        + AIC_BARRIER
        + call("aic", "mm_b_middle", 1, 3)
        + sync
        + call("aiv", "vec_c_middle", 3, 5)
        + sync
        + call("mix", "fa_d_middle", 1, 7, split=1)
    )


def test_mix12_syncall_chain_passes_with_right_core_counts(work: Path) -> None:
    s = spec("mix", mix_body(), MIX_TASKS, MIX_EDGES, kernel_type="mix_aic_1_2", blocks=2)
    res = emulate(s, work / "mix")
    assert res.ok, res.problems
    assert res.verdict == "ok: 4 sub-tasks on 6 cores, 4 edges proven"
    log = parse_log(res.log_path.read_text())  # type: ignore[union-attr]
    ran: dict[str, set[str]] = {}
    names = {c.tid: c.name for c in log.cores}
    for r in log.records:
        if r.kind == "BEGIN":
            ran.setdefault(r.symbol, set()).add(names[r.tid])
    assert ran == {
        "mm_a_middle": {"aic 0", "aic 1"},
        "mm_b_middle": {"aic 0"},
        "vec_c_middle": {"aiv 0 (block 0.0)", "aiv 1 (block 0.1)", "aiv 2 (block 1.0)"},
        "fa_d_middle": {"aic 0", "aiv 0 (block 0.0)", "aiv 1 (block 0.1)"},
    }


def test_full_device_mix12(work: Path) -> None:
    body = (
        call("aic", "mm_a_middle", 24, 1)
        + SYNC_ALL_MIX
        + call("aiv", "vec_c_middle", 48, 3)
        + SYNC_ALL_MIX
        + call("mix", "fa_d_middle", 20, 5)
        + SYNC_ALL_MIX
        + call("aiv", "vec_e_middle", 40, 7)
    )
    tasks = (
        st(0, "mm_a_middle", 1, "aic", 24),
        st(1, "vec_c_middle", 3, "aiv", 48),
        st(2, "fa_d_middle", 5, "mix", 20),
        st(3, "vec_e_middle", 7, "aiv", 40),
    )
    edges = tuple((a, b) for a in range(4) for b in range(a + 1, 4))
    res = emulate(spec("full", body, tasks, edges, kernel_type="mix_aic_1_2", blocks=24), work / "full")
    assert res.verdict == "ok: 4 sub-tasks on 72 cores, 6 edges proven", res.problems


def test_mix12_syncall_true_does_not_order_aic_to_aiv(work: Path) -> None:
    s = spec(
        "mix",
        mix_body(sync="    AscendC::SyncAll<true>();\n"),
        MIX_TASKS,
        MIX_EDGES,
        kernel_type="mix_aic_1_2",
        blocks=2,
    )
    res = emulate(s, work / "mix_true")
    assert any(p.startswith("race: mm_b_middle@3 -> vec_c_middle@5") for p in res.problems), res.problems


CLASS_SIDES = {"aic": ("AIC",), "aiv": ("AIV",), "mix": ("AIC", "AIV")}


@pytest.mark.parametrize(("prev", "cur"), [(p, c) for p in ("aic", "aiv", "mix") for c in ("aic", "aiv", "mix")])
def test_early_start_recipes(work: Path, prev: str, cur: str) -> None:
    cls = {"aic": 0, "aiv": 1, "mix": 2}
    cfg = 4 * cls[prev] + cls[cur]
    sets = "".join(
        f"    if ASCEND_IS_{side} {{\n        if (true) {{\n            AscendC::SetNextTaskStart();\n"
        "        }\n    }\n"
        for side in CLASS_SIDES[prev]
    )
    waits = "".join(
        f"    if ASCEND_IS_{side} {{\n        AscendC::WaitPreTaskEndImpl<{cfg}>();\n    }}\n"
        for side in ("AIV", "AIC")
    )
    body = (
        call(prev, "p_middle", 2, 1)
        + sets
        + f"    g_super_kernel_early_start_config = {cfg};\n"
        + waits
        + call(cur, "c_middle", 1, 3)
    )
    tasks = (st(0, "p_middle", 1, prev, 2), st(1, "c_middle", 3, cur, 1))
    res = emulate(spec(f"es{cfg}", body, tasks, ((0, 1),), kernel_type="mix_aic_1_2", blocks=2), work / f"es{cfg}")
    assert res.ok, res.problems
    assert res.edges_proven == 1


def test_sub_kernel_early_start_capabilities(work: Path) -> None:
    body = (
        call("aiv", "add_a_middle", 4, 1)
        + "    if ASCEND_IS_AIV {\n        if (AscendC::GetBlockIdx() >= 4) {\n"
        + "            AscendC::SetNextTaskStart();\n        }\n    }\n"
        + "    g_super_kernel_early_start_config = 5;\n"
        + "    if ASCEND_IS_AIV {\n        if (AscendC::GetBlockIdx() >= 2) {\n"
        + "            AscendC::WaitPreTaskEndImpl<5>();\n        }\n    }\n"
        + call("aiv", "mul_b_middle", 2, 4)
    )
    tasks = (st(0, "add_a_middle", 1, "aiv", 4, early_set=True), st(1, "mul_b_middle", 4, "aiv", 2, early_wait=True))
    res = emulate(spec("cap", body, tasks, ((0, 1),)), work / "cap")
    assert res.ok, res.problems


# ---------------------------------------------------------------------------------------------
# Batch kernels and feed-sync-all
# ---------------------------------------------------------------------------------------------
FEED_PROLOGUE = (
    """    GM_ADDR workspace = param_base[10];
    AscendC::g_superKernelAutoSyncAllConfigGmBaseAddr = workspace;
    if ASCEND_IS_AIV {
        AscendC::DuplicateImpl<uint32_t>((__ubuf__ uint32_t*)0, (uint32_t)0, 128);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        copy_ubuf_to_gm(workspace + AscendC::GetBlockIdx() * 128, (__ubuf__ void*)0, 0, 1, 4, 1, 1);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
"""
    + AIV_BARRIER
)


def feed_body(complement: bool) -> str:
    other = "        } else {\n            AscendC::SuperKernelAutoSyncAllComplementImpl();\n" if complement else ""
    return (
        FEED_PROLOGUE
        + call("aiv", "add_a_middle", 8, 1)
        + AIV_BARRIER
        + "    AscendC::g_superKernelAutoSyncAllSyncIdx = 1;\n"
        + "    AscendC::g_superKernelAutoSyncAllEnable = true;\n"
        + "    AscendC::g_superKernelAutoSyncAllConfigGmAddr = workspace + 64;\n"
        + "    if ASCEND_IS_AIV {\n        if (AscendC::GetBlockIdx() < 4) {\n"
        + "            sync_k_middle(4);\n            AscendC::SuperKernelAutoSyncAllEndImpl();\n"
        + other
        + "        }\n    }\n"
        + "    AscendC::g_superKernelAutoSyncAllEnable = false;\n"
        + AIV_BARRIER
        + call("aiv", "mul_b_middle", 8, 6)
    )


def test_batch_kernel_with_feed_sync_all(work: Path) -> None:
    tasks = (
        st(0, "add_a_middle", 1, "aiv", 8),
        st(1, "sync_k_middle", 4, "aiv", 4, split=1, batch=True),
        st(2, "mul_b_middle", 6, "aiv", 8),
    )
    kw = dict(buffer_bytes=((10, 1024),))
    res = emulate(spec("feed", feed_body(True), tasks, ((0, 1), (1, 2)), **kw), work / "feed")
    assert res.ok, res.problems
    res = emulate(spec("feed", feed_body(False), tasks, ((0, 1), (1, 2)), **kw), work / "feed", timeout_ms=300)
    assert res.verdict.startswith("deadlock: "), res.problems
