"""SuperKernel entry text in the shape of the vendor generator's entries (docs/design.md §5),
written by hand for host-emulation tests, and the `EmulationSpec` that runs it.

- `LOCK_HELPERS`, `AIV_BARRIER`, `AIC_BARRIER`, `SYNC_ALL_MIX`: vendor code snippets.
- `call(cls, sym, blocks, off, split)`: the per-op call block of one sub-task.
- `entry(name, body, symbols, trailer)`: a whole entry source around `body`.
- `aiv_trailer(name)`, `mix12_trailer(name)`: the kernel-type meta sections after the entry.
- `st(...)`: a `SubTaskInstance`; `spec(name, body, subtasks, edges, ...)`: the `EmulationSpec`.
"""

from __future__ import annotations

from typing import Any

from skir.hostsim import EmulationSpec, SubTaskInstance

__all__ = [
    "AIC_BARRIER",
    "AIV_BARRIER",
    "LOCK_HELPERS",
    "SYNC_ALL_MIX",
    "aiv_trailer",
    "call",
    "decls",
    "entry",
    "mix12_trailer",
    "spec",
    "split_call",
    "st",
]

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


def st(key: int, sym: str, off: int, cls: str, blocks: int, split: int = 4, **kw: Any) -> SubTaskInstance:
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
