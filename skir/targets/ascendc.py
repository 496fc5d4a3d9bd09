"""The `ascendc` target: print each `ascendc.source` as an Ascend C entry source.

`sk-opt model.mlir -p superkernel-pipeline -t ascendc` prints every entry, each after a
line `// ----- sk @name`; `-t 'ascendc{sk=name}'` prints just that one, ready to compile.
The text follows the shape of the vendor's generated entries (docs/design.md §5): GM-lock
helper templates, `extern "C"` sub-kernel declarations, the entry reading `get_para_base()`,
guarded calls and the kernel-type meta trailer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.target import Target

from skir.dialects.ascendc import (
    CallOp,
    CommentOp,
    CoreFunctionOp,
    DeclareOp,
    EntryOp,
    FftsBaseOp,
    IfBlockOp,
    IfCoreOp,
    IfIdleOp,
    InvokeOp,
    LockHelpersOp,
    PreloadAllOp,
    PreloadOp,
    SourceOp,
)
from skir.dialects.ascendc_attrs import BlockIndex
from skir.dialects.ascendc_feed import (
    FEED_OPS,
    FeedBeginOp,
    FeedComplementOp,
    FeedEndOp,
    FeedWorkspaceOp,
    ZeroWorkspaceOp,
)
from skir.dialects.ascendc_groups import FlagBarrierOp, GuardedCallOp
from skir.dialects.ascendc_intrinsics import (
    CrossCoreSetOp,
    CrossCoreWaitOp,
    DcciAllOp,
    EarlyStartConfigOp,
    NotifyLockOp,
    PipeBarrierOp,
    ResetLockOp,
    SetNextTaskStartOp,
    SyncAllOp,
    WaitLockOp,
    WaitPreTaskEndOp,
)
from skir.dialects.ascendc_profiling import ProfilingHelpersOp, ProfilingInitOp, ProfilingRecordOp
from skir.dialects.ascendc_progress import ProgressHelpersOp, ProgressOp, WaitLockBoundedOp
from skir.dialects.ascendc_system_args import CallSystemArgsOp
from skir.dialects.hardware import FLAG_NAMES, CoreType, KernelType, core_types, task_ratio
from skir.dialects.model_lookup import formed, require_passes
from skir.errors import SkirError
from skir.names import shown
from skir.targets.ascendc_progress import helpers_text as progress_helpers
from skir.targets.ascendc_progress import statement as progress_statement

_FLAG_NAMES = {flag: f"AscendC::{name}" for flag, name in FLAG_NAMES.items()}

_LOCK_HELPERS = """\
template <bool aic_flag>
__aicore__ inline void NotifyFunc(GM_ADDR notify_lock_addr)
{
    bool first = aic_flag ? (get_block_idx() == 0) : (AscendC::GetBlockIdx() == 0);
    if (first) {
        *((__gm__ volatile uint64_t *)notify_lock_addr) = 1;
        dcci((__gm__ uint64_t *)notify_lock_addr, 0, 2);
    }
}

template <bool aic_flag>
__aicore__ inline void ResetFunc(GM_ADDR lock_addr)
{
    bool first = aic_flag ? (get_block_idx() == 0) : (AscendC::GetBlockIdx() == 0);
    if (first) {
        *((__gm__ volatile uint64_t *)lock_addr) = 0;
        dcci((__gm__ uint64_t *)lock_addr, 0, 2);
    }
}

template <bool aic_flag>
__aicore__ inline void WaitFunc(GM_ADDR wait_lock_addr)
{
    bool first = aic_flag ? (get_block_idx() == 0) : (AscendC::GetBlockIdx() == 0);
    if (first) {
        dcci((__gm__ uint64_t *)wait_lock_addr, 0, 2);
        while (*((__gm__ volatile uint64_t *)wait_lock_addr) != 1) {
            dcci((__gm__ uint64_t *)wait_lock_addr, 0, 2);
        }
    }
}
"""


_READS_PARAMS = (CallSystemArgsOp, NotifyLockOp, WaitLockOp, ResetLockOp, FeedWorkspaceOp, ProfilingInitOp,
                 ProfilingRecordOp, ProgressOp,
                 WaitLockBoundedOp)
"""Ops whose C++ reads `param_base` (a core function declares it only then: -Wall)."""


_PROFILING_HELPERS = """\
// profiling: per core, a magic, the task id, a record count, then 16-byte records
// (index << 32 | end << 12 | type << 8, system cycles); AIVs at their block index, AICs from {aic_offset}
template <bool aic_flag>
__aicore__ inline __gm__ uint64_t *ProfilingArea(GM_ADDR base)
{{
    uint64_t idx = aic_flag ? (uint64_t)get_block_idx() + {aic_offset} : (uint64_t)AscendC::GetBlockIdx();
    return (__gm__ uint64_t *)(base + 64 + idx * {per_core});
}}

template <bool aic_flag>
__aicore__ inline void InitProfiling(GM_ADDR base, GM_ADDR task_id)
{{
    __gm__ uint64_t *area = ProfilingArea<aic_flag>(base);
    area[0] = 0x534b50524f46ULL;
    area[1] = *((__gm__ uint64_t *)task_id);
    area[2] = 0;
}}

template <bool aic_flag>
__aicore__ inline void RecordProfiling(GM_ADDR base, uint32_t index, uint32_t type, bool end)
{{
    __gm__ uint64_t *area = ProfilingArea<aic_flag>(base);
    uint64_t n = area[2];
    __gm__ uint64_t *record = area + 4 + 2 * n;
    record[0] = ((uint64_t)index << 32) | ((uint64_t)(end ? 1 : 0) << 12) | ((uint64_t)type << 8);
    record[1] = static_cast<uint64_t>(AscendC::GetSystemCycle());
    area[2] = n + 1;
}}
"""


def _flag(flag: int) -> str:
    return _FLAG_NAMES.get(flag, str(flag))


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str = "") -> None:
        self.lines.append(("    " * self.depth + text) if text else "")

    def open(self, text: str) -> None:
        self.line(text + " {")
        self.depth += 1

    def close(self, suffix: str = "") -> None:
        self.depth -= 1
        self.line("}" + suffix)


def _split_dispatch(w: _Writer, symbol: str, copies: int, statement: str) -> None:
    """`statement` with `{}` replaced by the copy of `symbol` this core runs."""
    if copies == 1:
        w.line(statement.format(symbol))
        return
    w.line("uint8_t coreid = (uint8_t)get_coreid();")
    for i in range(copies):
        name = symbol if i == 0 else f"{symbol}_split{i}"
        head = "if" if i == 0 else "} else if"
        w.line(f"{head} ((coreid % {copies}) == {i}) {{")
        w.depth += 1
        w.line(statement.format(name))
        w.depth -= 1
    w.line("}")


def _index(index: BlockIndex) -> str:
    return "get_block_idx()" if index is BlockIndex.BLOCK else "AscendC::GetBlockIdx()"


def _emit_body(w: _Writer, ops: list[Operation], core: CoreType | None = None) -> None:
    for op in ops:
        if isinstance(op, CommentOp):
            w.line(f"// {op.text.data}")
        elif isinstance(op, FftsBaseOp):
            w.line("GM_ADDR *param_base = (GM_ADDR *)get_para_base();")
            w.line("GM_ADDR ffts_addr = param_base[0];")
            w.open("if (ffts_addr != nullptr)")
            w.line("set_ffts_base_addr((uint64_t)ffts_addr);")
            w.close()
        elif isinstance(op, IfCoreOp):
            w.open("if ASCEND_IS_AIC" if op.core.data is CoreType.AIC else "if ASCEND_IS_AIV")
            _emit_body(w, list(op.body.block.ops), op.core.data)
            w.close()
        elif isinstance(op, IfBlockOp | IfIdleOp):
            compare = "<" if isinstance(op, IfBlockOp) else ">="
            index = _index(op.index.data)
            low = f"{index} >= {op.first.value.data} && " if isinstance(op, IfBlockOp) and op.first is not None else ""
            w.open(f"if ({low}{index} {compare} {op.bound.value.data})")
            _emit_body(w, list(op.body.block.ops), core)
            w.close()
        elif isinstance(op, GuardedCallOp | FlagBarrierOp):
            _emit_group(w, op)
        elif isinstance(op, InvokeOp):
            w.line(f"{op.symbol.data}();")
        elif isinstance(op, CallOp):
            _split_dispatch(w, op.symbol.data, op.copies.value.data, f"{{}}({op.offset.value.data});")
        elif isinstance(op, CallSystemArgsOp):
            w.line("sk::SkSystemArgs sys_args = {};")
            first = op.first.value.data
            shift = f" - {first}" if first else ""
            w.line(f"sys_args.skBlockIdx = (uint16_t)({_index(op.index.data)}{shift});")
            w.line(f"sys_args.skNumBlocks = {op.count.value.data};")
            statement = f"{{}}((const __gm__ void *)(param_base + {op.offset.value.data}), &sys_args);"
            _split_dispatch(w, op.symbol.data, op.copies.value.data, statement)
        elif isinstance(op, PreloadOp):
            statement = f"preload((const void *){{}}, {op.units.value.data});"
            _split_dispatch(w, op.symbol.data, op.copies.value.data, statement)
        elif isinstance(op, PreloadAllOp):
            w.line(f"AscendC::PreLoad({op.units.value.data});")
        elif isinstance(op, CrossCoreSetOp):
            pipe = "PIPE_" + op.pipe.data.value.upper()
            w.line(
                f"ffts_cross_core_sync({pipe}, AscendC::GetffstMsg(0x{op.mode.value.data:x}, "
                f"{_flag(op.flag.value.data)}));"
            )
        elif isinstance(op, CrossCoreWaitOp):
            w.line(f"wait_flag_dev({_flag(op.flag.value.data)});")
        elif isinstance(op, SyncAllOp):
            w.line("AscendC::SyncAll<false>();")
        elif isinstance(op, FEED_OPS):
            _emit_feed(w, op, core)
        elif isinstance(op, ProfilingInitOp):
            aic = "true" if core is CoreType.AIC else "false"
            slot = op.slot.value.data
            w.line(f"InitProfiling<{aic}>(param_base[{slot}], param_base[{slot + 1}]);")
        elif isinstance(op, ProgressOp | WaitLockBoundedOp):
            w.line(progress_statement(op, core))
        elif isinstance(op, ProfilingRecordOp):
            aic = "true" if core is CoreType.AIC else "false"
            end = "true" if op.end is not None else "false"
            w.line(f"RecordProfiling<{aic}>(param_base[{op.slot.value.data}], {op.index.value.data}, "
                   f"0x{op.type.value.data:x}, {end});")
        elif isinstance(op, SetNextTaskStartOp):
            w.line("AscendC::SetNextTaskStart();")
        elif isinstance(op, EarlyStartConfigOp):
            w.line(f"g_super_kernel_early_start_config = {op.cfg.value.data};")
        elif isinstance(op, WaitPreTaskEndOp):
            w.line(f"AscendC::WaitPreTaskEndImpl<{op.cfg.value.data}>();")
        elif isinstance(op, PipeBarrierOp):
            w.line("pipe_barrier(PIPE_ALL);")
        elif isinstance(op, DcciAllOp):
            w.line("dcci((__gm__ uint64_t *)0, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);")
        elif isinstance(op, NotifyLockOp | WaitLockOp | ResetLockOp):
            helper = {NotifyLockOp: "NotifyFunc", WaitLockOp: "WaitFunc", ResetLockOp: "ResetFunc"}[type(op)]
            w.line(f"{helper}<{'true' if core is CoreType.AIC else 'false'}>(param_base[{op.slot.value.data}]);")
        else:
            raise SkirError(f"the ascendc target cannot print '{op.name}'")


def _emit_group(w: _Writer, op: GuardedCallOp | FlagBarrierOp) -> None:
    """A statement group, exactly as its expansion prints (`skir.dialects.ascendc_groups`)."""
    if op.note is not None:
        w.line(f"// {op.note.data}")
    if op.core is not None:
        w.open("if ASCEND_IS_AIC" if op.core.data is CoreType.AIC else "if ASCEND_IS_AIV")
    if isinstance(op, GuardedCallOp):
        w.open(f"if ({_index(op.index.data)} < {op.bound.value.data})")
        _split_dispatch(w, op.symbol.data, op.copies.value.data, f"{{}}({op.offset.value.data});")
        w.close()
    else:
        flag = _flag(op.flag.value.data)
        w.line(f"ffts_cross_core_sync(PIPE_{op.pipe.data.value.upper()}, AscendC::GetffstMsg(0x{op.mode.value.data:x}, "
               f"{flag}));")
        w.line(f"wait_flag_dev({flag});")
    if op.core is not None:
        w.close()


def _emit_feed(w: _Writer, op: Operation, core: CoreType | None) -> None:
    if isinstance(op, FeedWorkspaceOp):
        w.line(f"GM_ADDR workspace = param_base[{op.slot.value.data}];")
        w.line("AscendC::g_superKernelAutoSyncAllConfigGmBaseAddr = workspace;")
    elif isinstance(op, ZeroWorkspaceOp):
        size = op.bytes.value.data
        if core is CoreType.AIC:
            w.line("create_cbuf_matrix((__cbuf__ uint32_t *)0, 0x10010, (uint32_t)0);")
            w.line("AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);")
            w.line("AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);")
            index, count, copy = "get_block_idx()", "get_block_num()", "copy_cbuf_to_gm"
            src = "(__cbuf__ void *)0"
        else:
            w.line("AscendC::DuplicateImpl<uint32_t>((__ubuf__ uint32_t *)0, (uint32_t)0, 128);")
            w.line("AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);")
            w.line("AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);")
            index, count, copy = "AscendC::GetBlockIdx()", "AscendC::GetBlockNum()", "copy_ubuf_to_gm"
            src = "(__ubuf__ void *)0"
        w.open(f"for (uint64_t off = (uint64_t){index} * 512; off < {size}; off += (uint64_t){count} * 512)")
        w.line(f"{copy}(workspace + off, {src}, 0, 1, 16, 1, 1);")
        w.close()
        w.line("AscendC::PipeBarrier<PIPE_ALL>();")
    elif isinstance(op, FeedBeginOp):
        w.line(f"AscendC::g_superKernelAutoSyncAllSyncIdx = {op.index.value.data};")
        w.line("AscendC::g_superKernelAutoSyncAllEnable = true;")
        w.line(f"AscendC::g_superKernelAutoSyncAllConfigGmAddr = workspace + {op.offset.value.data};")
    elif isinstance(op, FeedEndOp):
        w.line("AscendC::SuperKernelAutoSyncAllEndImpl();")
    elif isinstance(op, FeedComplementOp):
        w.line("AscendC::SuperKernelAutoSyncAllComplementImpl();")
    else:
        w.line("AscendC::g_superKernelAutoSyncAllEnable = false;")


def _meta_section(w: _Writer, name: str, side: str, main: str, ratio: tuple[int, int]) -> None:
    w.line(
        f"static const struct FunLevelMixCoreType {name}_mix_{side}_section "
        f'__attribute__((used, section(".ascend.meta.{name}_mix_{side}"))) = '
        f"{{{{{{F_TYPE_KTYPE, sizeof(unsigned int)}}, {main}}}, "
        f"{{{{F_TYPE_MIX_TASK_RATION, sizeof(unsigned int)}}, {ratio[0]}, {ratio[1]}}}}};"
    )


def _emit_trailer(w: _Writer, name: str, kernel_type: KernelType) -> None:
    ratio = task_ratio(kernel_type)
    types = core_types(kernel_type)
    if len(types) == 1:  # a one-type mix launch: its meta section, for that type alone
        side = types[0].value
        w.line("#if TILING_KEY_VAR == 0UL")
        _meta_section(w, name, side, f"K_TYPE_MIX_{side.upper()}_MAIN", ratio)
        w.line("#endif")
    else:
        for side, arch in (("aic", "__DAV_CUBE__"), ("aiv", "__DAV_VEC__")):
            w.line(f"#if (defined({arch}) && __NPU_ARCH__ == 2201)")
            _meta_section(w, name, side, "K_TYPE_MIX_AIC_MAIN", ratio)
            w.line("#endif")


def emit_source(source: SourceOp) -> str:
    """The C++ text of one `ascendc.source`."""
    name = source.sym_name.data
    w = _Writer()
    w.line(f"// SuperKernel {name} ({source.kernel_type.data.value}), generated by skir")
    w.line("#if 1")
    w.line('#include "kernel_operator.h"')
    for op in source.body.block.ops:
        if isinstance(op, LockHelpersOp):
            w.line()
            w.lines.extend(_LOCK_HELPERS.rstrip("\n").split("\n"))
        elif isinstance(op, ProgressHelpersOp):
            w.line()
            w.lines.extend(progress_helpers(op))
        elif isinstance(op, ProfilingHelpersOp):
            w.line()
            text = _PROFILING_HELPERS.format(per_core=op.per_core.value.data, aic_offset=op.aic_offset.value.data)
            w.lines.extend(text.rstrip("\n").split("\n"))
        elif isinstance(op, DeclareOp):
            if not w.lines[-1].startswith("extern"):
                w.line()
            copies = op.copies.value.data
            params = ("const __gm__ void *args, sk::SkSystemArgs *sys_args" if op.system_args is not None
                      else "uint64_t args_offset")
            for i in range(copies):
                symbol = op.symbol.data if i == 0 else f"{op.symbol.data}_split{i}"
                w.line(f'extern "C" __aicore__ void {symbol}({params});')
        elif isinstance(op, CoreFunctionOp):
            w.line()
            w.line(f"__aicore__ inline void {op.symbol.data}(void)")
            w.line("{")
            w.depth += 1
            if any(isinstance(inner, _READS_PARAMS) for inner in op.body.walk()):
                w.line("GM_ADDR *param_base = (GM_ADDR *)get_para_base();")
            _emit_body(w, list(op.body.block.ops), op.core.data)
            w.close()
        elif isinstance(op, EntryOp):
            align = op.align.value.data
            attr = f"__attribute__((aligned({align}))) " if align else ""
            w.line()
            w.line(f'extern "C" __global__ {attr}__aicore__ void {op.symbol.data}(void)')
            w.line("{")
            w.depth += 1
            _emit_body(w, list(op.body.block.ops))
            w.close()
    w.line()
    _emit_trailer(w, name, source.kernel_type.data)
    w.line("#endif")
    return "\n".join(w.lines) + "\n"


def sources(module: ModuleOp) -> list[SourceOp]:
    return [op for op in module.ops if isinstance(op, SourceOp)]


@dataclass(frozen=True)
class AscendCTarget(Target):
    """Print the Ascend C entry of every SuperKernel (or of the one named by `sk`)."""

    name = "ascendc"

    sk: str = ""
    """Print only the entry of this SuperKernel, with no separator line."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        require_passes(self.name, module, sources=True)
        found = sources(module)
        if not found and formed(module) and not self.sk:
            return  # the pipeline ran and nothing fused: no entries
        if not found:
            raise SkirError(
                "target 'ascendc': no Ascend C entries in the module; run 'superkernel-pipeline' (or up to "
                "'sk-to-ascendc') first"
            )
        if self.sk:
            match = [s for s in found if s.sym_name.data == self.sk]
            if not match:
                names = ", ".join(s.sym_name.data for s in found)
                raise SkirError(f"target 'ascendc': no SuperKernel named {shown(self.sk)} (have: {names})")
            output.write(emit_source(match[0]))
            return
        for source in found:
            output.write(f"// ----- sk @{source.sym_name.data}\n")
            output.write(emit_source(source))
