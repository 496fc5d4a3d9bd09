"""The C++ of the progress ops (`skir.dialects.ascendc_progress`, docs/design.md §6).

`SkProgress<aic>` stores a progress word on the calling core's own 64-byte line and cleans
that line (one store, one `dcci`); `WaitFuncBounded<aic>` is `WaitFunc` with a bound in system
cycles, after which it stores its timeout word and traps, so a lock nobody releases becomes a
located fault instead of a hang.
"""

from __future__ import annotations

from skir.dialects.ascendc_progress import ProgressHelpersOp, ProgressOp, WaitLockBoundedOp
from skir.dialects.hardware import CoreType

_HELPERS = """\
// debug-progress: each core owns one 64-byte line of the progress area; word 0 says where it is
// (docs/design.md section 6): AIVs at their logical block index, AICs from line {aiv_lines}
template <bool aic_flag>
__aicore__ inline void SkProgress(GM_ADDR base, uint64_t word)
{{
    uint64_t line = aic_flag ? (uint64_t)get_block_idx() + {aiv_lines} : (uint64_t)AscendC::GetBlockIdx();
    __gm__ volatile uint64_t *slot = (__gm__ volatile uint64_t *)(base + line * 64);
    *slot = word | line;
    dcci((__gm__ uint64_t *)slot, 0, 2);
}}

template <bool aic_flag>
__aicore__ inline void WaitFuncBounded(GM_ADDR wait_lock_addr, GM_ADDR progress, uint64_t word, uint64_t cycles)
{{
    bool first = aic_flag ? (get_block_idx() == 0) : (AscendC::GetBlockIdx() == 0);
    if (first) {{
        uint64_t start = (uint64_t)AscendC::GetSystemCycle();
        dcci((__gm__ uint64_t *)wait_lock_addr, 0, 2);
        while (*((__gm__ volatile uint64_t *)wait_lock_addr) != 1) {{
            if ((uint64_t)AscendC::GetSystemCycle() - start > cycles) {{
                SkProgress<aic_flag>(progress, word);
                AscendC::Trap();
            }}
            dcci((__gm__ uint64_t *)wait_lock_addr, 0, 2);
        }}
    }}
}}
"""


def helpers_text(op: ProgressHelpersOp) -> list[str]:
    """The helper templates, line by line."""
    return _HELPERS.format(aiv_lines=op.aiv_lines.value.data).rstrip("\n").split("\n")


def statement(op: ProgressOp | WaitLockBoundedOp, core: CoreType | None) -> str:
    """The one statement of a progress op on the enclosing core type."""
    aic = "true" if core is CoreType.AIC else "false"
    if isinstance(op, ProgressOp):
        return f"SkProgress<{aic}>(param_base[{op.slot.value.data}], {op.value:#x}ULL);"
    return (f"WaitFuncBounded<{aic}>(param_base[{op.lock.value.data}], param_base[{op.slot.value.data}], "
            f"{op.value:#x}ULL, {op.cycles.value.data}ULL);")
