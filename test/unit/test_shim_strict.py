"""The host shim is as strict as Ascend C: every call an emitted entry makes is audited against
the documented prototype, the shim declares exactly that prototype (one declaration, no
overloads or conversions a real compiler lacks), calls bisheng rejects fail against it, and
every entry the lit suites emit compiles with -Wall -Werror.

AUDIT below is the audit itself: for each Ascend C function or template an entry calls, the
prototype the shim declares, the call as skir emits it, and where the prototype comes from
(the groups of docs/design.md §6 "The Ascend C surface": core identity, synchronisation, and
what the vendor's generated entries call, whose spellings the vendor's golden entries confirm).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

import skir
from skir.hostsim import emulate
from skir.hostsim.runner import include_dir
from skir.targets.ascendc import emit_source, sources
from skir.targets.emulation import emulation_specs

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

ROOT = Path(__file__).resolve().parents[1]

AUDIT: dict[str, tuple[str, str, str]] = {
    # name: (prototype the shim declares, how the entry calls it, source)
    "get_block_idx": ("int64_t get_block_idx()", "get_block_idx() < 24",
                      "core identity: raw builtins return int64_t"),
    "get_block_num": ("int64_t get_block_num()", "(uint64_t)get_block_num() * 512", "core identity"),
    "get_coreid": ("int64_t get_coreid()", "(uint8_t)get_coreid()",
                   "core identity; the vendor entries' split dispatch"),
    "get_para_base": ("int64_t get_para_base()", "(GM_ADDR *)get_para_base()",
                      "core identity; the vendor entries read their arguments through it"),
    "set_ffts_base_addr": ("void set_ffts_base_addr(uint64_t config)", "set_ffts_base_addr((uint64_t)ffts_addr)",
                           "vendor entries: FFTS base set-up"),
    "ffts_cross_core_sync": ("void ffts_cross_core_sync(pipe_t pipe, uint64_t config)",
                             "ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x0, AscendC::SYNC_AIV_ONLY_ALL))",
                             "synchronisation"),
    "wait_flag_dev": ("void wait_flag_dev(int64_t flagID)", "wait_flag_dev(AscendC::SYNC_AIV_ONLY_ALL)",
                      "synchronisation: dav-c220 takes one argument (the two-argument form is c310's)"),
    "pipe_barrier": ("void pipe_barrier(pipe_t pipe)", "pipe_barrier(PIPE_ALL)", "synchronisation"),
    "dcci": ("void dcci(__gm__ volatile void* dst, uint64_t entire, uint64_t type)",
             "dcci((__gm__ uint64_t *)lock_addr, 0, 2); dcci((__gm__ uint64_t *)0, "
             "cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT)",
             "synchronisation; the vendor passes integer literals, the unscoped enumerators and volatile "
             "pointers, which only integer parameters and a volatile address all accept"),
    "preload": ("void preload(const void* addr, int64_t prefetchLen)", "preload((const void *)f_middle, 3)",
                "synchronisation (raw preload(const void*, int64)); vendor entries: the function is cast "
                "to (const void *)"),
    "copy_ubuf_to_gm": ("void copy_ubuf_to_gm(__gm__ void* dst, __ubuf__ void* src, uint8_t sid, uint16_t nBurst, "
                        "uint16_t lenBurst, uint16_t srcStride, uint16_t dstStride)",
                        "copy_ubuf_to_gm(workspace + off, (__ubuf__ void *)0, 0, 1, 16, 1, 1)",
                        "vendor entries: feed-sync-all workspace clear"),
    "copy_cbuf_to_gm": ("void copy_cbuf_to_gm(__gm__ void* dst, __cbuf__ void* src, uint8_t sid, uint16_t nBurst, "
                        "uint16_t lenBurst, uint16_t srcStride, uint16_t dstStride)",
                        "copy_cbuf_to_gm(workspace + off, (__cbuf__ void *)0, 0, 1, 16, 1, 1)",
                        "vendor entries: feed-sync-all workspace clear (AIC)"),
    "create_cbuf_matrix": ("void create_cbuf_matrix(__cbuf__ uint32_t* dst, int64_t config, uint32_t value)",
                           "create_cbuf_matrix((__cbuf__ uint32_t *)0, 0x10010, (uint32_t)0)",
                           "vendor entries: feed-sync-all workspace clear (512 B of uint32 zeros)"),
    "AscendC::GetBlockIdx": ("int64_t GetBlockIdx()", "AscendC::GetBlockIdx() < 48", "core identity"),
    "AscendC::GetBlockNum": ("int64_t GetBlockNum()", "(uint64_t)AscendC::GetBlockNum() * 512", "core identity"),
    "AscendC::GetSystemCycle": ("int64_t GetSystemCycle()", "static_cast<uint64_t>(AscendC::GetSystemCycle())",
                                "vendor entries: what the profiling records use"),
    "AscendC::GetffstMsg": ("uint64_t GetffstMsg(uint16_t mode, uint16_t flagId)",
                            "AscendC::GetffstMsg(0x2, 15)", "synchronisation (message packing)"),
    "AscendC::SyncAll": ("template <bool isAIVOnly = true> void SyncAll()", "AscendC::SyncAll<false>()",
                         "synchronisation"),
    "AscendC::SetNextTaskStart": ("template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, "
                                  "bool FORCE = false> void SetNextTaskStart()", "AscendC::SetNextTaskStart()",
                                  "synchronisation"),
    "AscendC::WaitPreTaskEndImpl": ("template <int8_t cfg> void WaitPreTaskEndImpl()",
                                    "AscendC::WaitPreTaskEndImpl<5>()", "synchronisation"),
    "AscendC::PipeBarrier": ("template <pipe_t pipe> void PipeBarrier()", "AscendC::PipeBarrier<PIPE_ALL>()",
                             "synchronisation"),
    "AscendC::SetFlag": ("template <HardEvent evt> void SetFlag(int32_t eventID)",
                         "AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0)", "synchronisation"),
    "AscendC::WaitFlag": ("template <HardEvent evt> void WaitFlag(int32_t eventID)",
                          "AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0)", "synchronisation"),
    "AscendC::PreLoad": ("void PreLoad(const int64_t preFetchLen)", "AscendC::PreLoad(8)",
                         "synchronisation (ICachePreLoad = PreLoad(n))"),
    "AscendC::DuplicateImpl": ("template <typename T> void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, "
                               "const int32_t& calCount)",
                               "AscendC::DuplicateImpl<uint32_t>((__ubuf__ uint32_t *)0, (uint32_t)0, 128)",
                               "vendor entries: feed-sync-all workspace clear"),
    "AscendC::SuperKernelAutoSyncAllEndImpl": ("void SuperKernelAutoSyncAllEndImpl()",
                                               "AscendC::SuperKernelAutoSyncAllEndImpl()",
                                               "vendor entries: SuperKernel SyncAll helpers"),
    "AscendC::SuperKernelAutoSyncAllComplementImpl": ("void SuperKernelAutoSyncAllComplementImpl()",
                                                      "AscendC::SuperKernelAutoSyncAllComplementImpl()",
                                                      "vendor entries: SuperKernel SyncAll helpers"),
}
"""Every Ascend C function an entry calls (the test below fails on a call not listed here)."""

OWN = {"NotifyFunc", "WaitFunc", "ResetFunc", "InitProfiling", "RecordProfiling", "ProfilingArea"}
"""Helpers the entry defines itself."""
CXX = {"if", "for", "while", "return", "sizeof", "static_cast", "defined", "__attribute__", "aligned", "section"}


def _lit_entries() -> dict[str, str]:
    """Every distinct entry the pass and target lit suites emit, with every option string they use."""
    found: dict[str, str] = {}
    lit = ROOT / "filecheck"
    for path in sorted([*(lit / "passes").glob("*/*.mlir"), *(lit / "targets").glob("*.mlir")]):
        text = path.read_text()
        options = sorted(set(re.findall(r'options="([^"]*)"', text)) | {""})
        for chunk in re.split(r"^// -----$", text, flags=re.MULTILINE):
            for o in options:
                try:
                    result = skir.compile(chunk, options=o)
                except skir.SkirError:
                    continue  # the lit files also hold bad input on purpose
                for source in sources(result.module):
                    found.setdefault(emit_source(source), f"{path.name} [{o}]")
    return found


@pytest.fixture(scope="module")
def entries() -> dict[str, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the lit files' option strings warn on purpose
        return _lit_entries()


def _calls(text: str) -> set[str]:
    text = re.sub(r"//[^\n]*", "", text)
    return {m.group(1) for m in re.finditer(r"([A-Za-z_][A-Za-z0-9_:]*)\s*(?:<[^<>()]*>)?\s*\(", text)}


def test_every_call_an_entry_makes_is_audited(entries: dict[str, str]) -> None:
    assert len(entries) > 50  # the sweep really found the suites' entries
    unknown: dict[str, str] = {}
    for text, where in entries.items():
        declared = set(re.findall(r'extern "C" __aicore__ void ([A-Za-z0-9_]+)\(', text))
        functions = set(re.findall(r"__aicore__ (?:inline )?void (auto_gen_[A-Za-z0-9_]+)\(", text))
        for name in _calls(text) - declared - functions - OWN - CXX:
            if name not in AUDIT:
                unknown.setdefault(name, where)
    assert not unknown, f"calls missing from AUDIT (add the documented prototype): {unknown}"


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", text)


@pytest.mark.parametrize("name", sorted(AUDIT))
def test_the_shim_declares_exactly_the_audited_prototype(name: str) -> None:
    header = _strip_comments((include_dir() / "kernel_operator.h").read_text())
    if name.startswith("AscendC::"):
        body = header[header.index("namespace AscendC {\n\nconstexpr uint16_t SYNC_AIC_FLAG"):]
        short = name.split("::", 1)[1]
    else:
        body, short = header[: header.index("namespace AscendC {\n\nconstexpr uint16_t SYNC_AIC_FLAG")], name
    decls = re.findall(rf"^(template <[^\n]*>\n)?(?:\[\[noreturn\]\] )?inline [^\n(]*\b{short}\(([^)]*)\)", body,
                       flags=re.MULTILINE)
    assert len(decls) == 1, f"{name}: {len(decls)} declarations in the shim (overloads hide what bisheng rejects)"
    template, params = decls[0]
    prototype = AUDIT[name][0]
    expected = prototype[prototype.index("(") + 1: prototype.rindex(")")]
    assert re.sub(r"\s+", " ", params).strip() == re.sub(r"\s+", " ", expected).strip(), (name, params, expected)
    expected_template = prototype[: prototype.index(">") + 1] if prototype.startswith("template") else ""
    assert template.strip() == expected_template, (name, template, expected_template)


def _compiles(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "snippet.cpp"
    src.write_text('#include "kernel_operator.h"\n' + code)
    return subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "-fsyntax-only", f"-I{include_dir()}", str(src)],
                          capture_output=True, text=True, check=False)


REJECTED = {
    "preload without the cast": ("preload(f_middle, 2);", "preload((const void *)f_middle, 2);"),
    "two-argument wait_flag_dev (c310 only)": ("wait_flag_dev(PIPE_S, 11);", "wait_flag_dev(11);"),
    "an int as the event of set_flag": ("set_flag(PIPE_V, PIPE_MTE3, 0);", "set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);"),
    "an unqualified flag name": ("wait_flag_dev(SYNC_AIC_FLAG);", "wait_flag_dev(AscendC::SYNC_AIC_FLAG);"),
    "dcci without its kind and destination": ("dcci(lock);", "dcci(lock, 0, 2);"),
    "a pipe given as an int": ("pipe_barrier(6);", "pipe_barrier(PIPE_ALL);"),
    "an index builtin with an argument": ("(void)get_block_idx(0);", "(void)get_block_idx();"),
    "a config-less WaitPreTaskEndImpl": ("AscendC::WaitPreTaskEndImpl();", "AscendC::WaitPreTaskEndImpl<5>();"),
    "the feed-sync-all end as a template": ("AscendC::SuperKernelAutoSyncAllEndImpl<true>();",
                                            "AscendC::SuperKernelAutoSyncAllEndImpl();"),
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_calls_bisheng_rejects_fail_against_the_shim(tmp_path: Path, case: str) -> None:
    bad, good = REJECTED[case]
    prelude = 'extern "C" __aicore__ void f_middle(uint64_t args_offset);\n'
    wrap = "void probe(GM_ADDR lock) {\n    (void)lock;\n    %s\n}\n"
    assert _compiles(prelude + wrap % good, tmp_path).returncode == 0, case  # the real form compiles
    assert _compiles(prelude + wrap % bad, tmp_path).returncode != 0, case


def test_every_lit_entry_compiles_with_wall_werror(entries: dict[str, str], tmp_path: Path) -> None:
    files = []
    for i, text in enumerate(entries):
        path = tmp_path / f"entry{i}.cpp"
        path.write_text(text)
        files.append(str(path))
    proc = subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "-fsyntax-only", f"-I{include_dir()}", *files],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[:2000]


def test_an_entry_calling_preload_without_the_cast_fails_emulation(tmp_path: Path) -> None:
    result = skir.compile(ROOT.parent / "examples" / "decode_layer.json")
    (spec,) = emulation_specs(result.module, result.original)  # type: ignore[arg-type]
    assert "preload((const void *)" in spec.source
    uncast = spec.source.replace("preload((const void *)", "preload(")
    good = emulate(spec, tmp_path / "good")
    bad = emulate(dataclasses.replace(spec, source=uncast), tmp_path / "bad")
    assert good.ok, good.problems
    assert not bad.ok
    assert bad.problems[0].startswith("compile: ") and "invalid conversion" in bad.problems[0], bad.problems
