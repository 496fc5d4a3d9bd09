"""Host emulation: hand-written entries in the vendor shape, run under the g++ shim."""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

from skir.errors import MissingToolError
from skir.hostsim import EmulationSpec, SubTaskInstance, emulate
from skir.hostsim.logcheck import parse_log

if shutil.which(shlex.split(os.environ.get("CXX") or "g++")[0]) is None:
    pytest.skip("no C++ compiler (g++) for the host emulation", allow_module_level=True)

# ---------------------------------------------------------------------------------------------
# Entry text in the shape of the vendor generator (ascend-superkernel.md §3.3 / §3.11)
# ---------------------------------------------------------------------------------------------
LOCK_HELPERS = """
template<bool aic_flag>
__aicore__ inline void NotifyFunc(GM_ADDR notify_lock_addr)
{
    if constexpr (aic_flag) {
        if (get_block_idx() == 0) {
            *(reinterpret_cast<__gm__ uint64_t*>(notify_lock_addr)) = 1;
            dcci(notify_lock_addr, 0, 2);
        }
    } else {
        if (AscendC::GetBlockIdx() == 0) {
            *(reinterpret_cast<__gm__ uint64_t*>(notify_lock_addr)) = 1;
            dcci(notify_lock_addr, 0, 2);
        }
    }
}

template<bool aic_flag>
__aicore__ inline void WaitFunc(GM_ADDR wait_lock_addr)
{
    if constexpr (aic_flag) {
        if (get_block_idx() == 0) {
            dcci(wait_lock_addr, 0, 2);
            while(*(reinterpret_cast<__gm__ volatile uint64_t*>(wait_lock_addr)) != 1) {
                dcci(wait_lock_addr, 0, 2);
            }
        }
    } else {
        if (AscendC::GetBlockIdx() == 0) {
            dcci(wait_lock_addr, 0, 2);
            while(*(reinterpret_cast<__gm__ volatile uint64_t*>(wait_lock_addr)) != 1) {
                dcci(wait_lock_addr, 0, 2);
            }
        }
    }
}
"""

AIV_BARRIER = """    // begin inter ops barrier
    // reason2: inter op barrier when EarlyStartDisable
    ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL));
    wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL);
"""
AIC_BARRIER = """    // begin inter ops barrier
    if ASCEND_IS_AIC {
        ffts_cross_core_sync(PIPE_FIX, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIC_FLAG));
        wait_flag_dev(AscendC::SYNC_AIC_FLAG);
    }
"""
SYNC_ALL_MIX = "    // begin inter ops barrier\n    AscendC::SyncAll<false>();\n"


def decls(*symbols: str, split: int = 4) -> str:
    out = []
    for s in symbols:
        out.append(f'extern "C"  __aicore__ void {s}(uint64_t args_offset);')
        out += [f'extern "C"  __aicore__ void {s}_split{i}(uint64_t args_offset);' for i in range(1, split)]
    return "\n".join(out) + "\n"


def split_call(sym: str, arg: str, split: int, indent: str, preload: bool = False) -> str:
    if split == 1:
        return f"{indent}{sym}({arg});\n"
    out = [f"{indent}uint8_t coreid = (uint8_t)get_coreid();\n"]
    for i in range(split):
        fn = sym if i == 0 else f"{sym}_split{i}"
        what = f"preload((const void *){fn}, 2);" if preload else f"{fn}({arg});"
        kw = "if" if i == 0 else "} else if"
        out.append(f"{indent}{kw} ((coreid % {split}) == {i}) {{\n{indent}    {what}\n")
    out.append(f"{indent}}}\n")
    return "".join(out)


def call(cls: str, sym: str, blocks: int, off: int, split: int = 4) -> str:
    """The per-op call block: aiv guards on GetBlockIdx(), aic and mix on get_block_idx()."""
    out = [f"    //begin func call of sub operator {sym}\n"]
    sides = {"aiv": ["AIV"], "aic": ["AIC"], "mix": ["AIC", "AIV"]}[cls]
    for side in sides:
        idx = "AscendC::GetBlockIdx()" if cls == "aiv" else "get_block_idx()"
        out.append(f"    if ASCEND_IS_{side} {{\n        if ({idx} < {blocks}) {{\n")
        out.append(split_call(sym, str(off), split, " " * 12))
        out.append("        }\n    }\n")
    return "".join(out)


def entry(name: str, body: str, symbols: tuple[str, ...], trailer: str = "", split: int = 4) -> str:
    return (
        '\n#if 1\n#include "kernel_operator.h"\n'
        + LOCK_HELPERS
        + "\n"
        + decls(*symbols, split=split)
        + f'\nextern "C"  __global__ __attribute__((aligned(512))) __aicore__ void auto_gen_{name}_kernel(void)\n{{\n'
        + "    GM_ADDR *param_base = (GM_ADDR *)get_para_base();\n"
        + "    GM_ADDR ffts_addr = param_base[0];\n"
        + "    if (ffts_addr != nullptr) {\n        set_ffts_base_addr((uint64_t)ffts_addr);\n    }\n"
        + body
        + "}\n"
        + trailer
        + "#endif\n"
    )


def aiv_trailer(name: str) -> str:
    return (
        "#if TILING_KEY_VAR == 0UL\n"
        f"static const struct FunLevelMixCoreType {name}_mix_aiv_section __attribute__ ((used, section "
        f'(".ascend.meta.{name}_mix_aiv"))) = {{ {{{{F_TYPE_KTYPE, sizeof(unsigned int)}}, K_TYPE_MIX_AIV_MAIN}}, '
        "{{F_TYPE_MIX_TASK_RATION, sizeof(unsigned int)}, 0, 1} };\n#endif\n"
    )


def mix12_trailer(name: str) -> str:
    sec = (
        "static const struct FunLevelMixCoreType {n}_mix_{s}_section __attribute__ ((used, section "
        '(".ascend.meta.{n}_mix_{s}"))) = {{ {{{{F_TYPE_KTYPE, sizeof(unsigned int)}}, K_TYPE_MIX_AIC_MAIN}}, '
        "{{{{F_TYPE_MIX_TASK_RATION, sizeof(unsigned int)}}, 1, 2}} }};\n"
    )
    return (
        "#if TILING_KEY_VAR == 0UL\n#if (defined(__DAV_CUBE__) && __NPU_ARCH__ == 2201)\n"
        + sec.format(n=name, s="aic")
        + "#endif\n#if (defined(__DAV_VEC__) && __NPU_ARCH__ == 2201)\n"
        + sec.format(n=name, s="aiv")
        + "#endif\n#endif\n"
        + f"static const struct FunLevelKType {name}_ktype __attribute__ ((used)) = "
        "{{F_TYPE_KTYPE, sizeof(unsigned int)}, K_TYPE_AIC};\n"
    )


def st(key: int, sym: str, off: int, cls: str, blocks: int, split: int = 4, **kw: bool) -> SubTaskInstance:
    return SubTaskInstance(key, sym, off, cls, blocks, split, **kw)


def spec(
    name: str,
    body: str,
    subtasks: tuple[SubTaskInstance, ...],
    edges: tuple[tuple[int, int], ...],
    *,
    kernel_type: str = "mix_aiv_1_0",
    blocks: int = 8,
    slots: int = 12,
    trailer: str | None = None,
    **kw: object,
) -> EmulationSpec:
    symbols = tuple(dict.fromkeys(s.symbol for s in subtasks))
    if trailer is None:
        trailer = aiv_trailer(name) if kernel_type == "mix_aiv_1_0" else mix12_trailer(name)
    source = entry(name, body, symbols, trailer)
    return EmulationSpec(name, f"auto_gen_{name}_kernel", source, kernel_type, blocks, slots, subtasks, edges, **kw)  # type: ignore[arg-type]


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
    assert dead == [f"deadlock: aiv {i} (block {i}.0): wait_flag_dev(3)" for i in range(4)]


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
    assert "deadlock: aiv 0 (block 0.0): spin-dcci on slot 9 (value 0)" in dead
    assert "deadlock: aiv 7 (block 7.0): wait_flag_dev(14)" in dead

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
        "shim: credit overflow: aiv ",  # whichever core sets last holds 16
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
