"""The hang locator (`debug-progress=1`, `sk-hang`, docs/design.md §6): progress words in the
entry, the area in the plan, and planted hangs named from the emulated dump."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.analysis.sync.progress_points import decode, encode
from skir.errors import CheckFailedError
from skir.hang import locate
from skir.hostsim.runner import EmulationSpec, emulate
from skir.targets import emulation
from skir.tools import sk_hang

ROOT = Path(__file__).resolve().parents[2]
DECODE = ROOT / "examples" / "decode_layer.json"
LOCKS = """
aclgraph.model @locks cores(aic = 24, aiv = 48) {
  aclgraph.kernel @v aiv_only params 0
  aclgraph.kernel @c aic_only params 0
  aclgraph.kernel @o aic_only params 0 not_sk_capable
  aclgraph.event @e1
  aclgraph.event @e2
  aclgraph.event @j
  aclgraph.stream @s0 {
    aclgraph.launch seq 0 @v blocks 16
    aclgraph.record seq 1 @e1
    aclgraph.launch seq 2 @c blocks 8
    aclgraph.wait seq 5 @e2
    aclgraph.launch seq 6 @v blocks 16
    aclgraph.wait seq 9 @j
    aclgraph.reset seq 10 @e1
    aclgraph.reset seq 11 @e2
    aclgraph.reset seq 12 @j
  }
  aclgraph.stream @s1 {
    aclgraph.launch seq 3 @o blocks 4
    aclgraph.record seq 4 @e2
    aclgraph.wait seq 7 @e1
    aclgraph.record seq 8 @j
  }
}
"""
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def test_the_word_as_written_by_hand() -> None:
    # magic 0x5c, SuperKernel 3, point 0x12, state 3 (a GM lock wait); the entry ORs in line 7
    word = encode(3, 0x12, "wait_lock") | 7
    assert word == 0x5C_0003_0012_03_0007
    assert decode(word) == (3, 0x12, "wait_lock", 7)
    assert decode(0) is None and decode(0x5D << 56) is None


def test_every_point_has_its_store_and_the_plan_its_area(tmp_path: Path) -> None:
    skir.compile(DECODE, "debug-progress=1").write(tmp_path)
    meta = json.loads((tmp_path / "sk_meta.json").read_text())
    (sk,) = meta["superkernels"]
    progress = sk["progress"]
    assert progress["lines"] == 24 + 48 and progress["aiv_lines"] == 48  # mix 1:2 on 24 blocks
    source = (tmp_path / sk["name"] / f"{sk['name']}_kernel.cpp").read_text()
    stored = [int(w, 16) for w in re.findall(r"SkProgress<(?:true|false)>\(param_base\[\d+\], (0x[0-9a-f]+)ULL\)",
                                             source)]
    # a second reader: each point once per core type that runs it, and entered + done per type
    expected = sum(len(p["on"]) for p in progress["points"]) + 2 * 2
    assert len(stored) == expected
    assert {decode(w)[1] for w in stored if decode(w)} == {p["point"] for p in progress["points"]} | {0xFFFF}  # type: ignore[index]
    plan = json.loads((tmp_path / "plan.json").read_text())
    assert {"superkernel": sk["name"], "slot": progress["slot"], "use": "progress", "bytes": 64 * 72} in \
        [{k: w[k] for k in ("superkernel", "slot", "use", "bytes")} for w in plan["workspaces"]]
    assert sk["args"][progress["slot"]] == {"slot": progress["slot"], "source": "progress"}


def _planted(plant: Callable[[EmulationSpec], EmulationSpec]) -> Callable[..., list[EmulationSpec]]:
    real = emulation.emulation_specs

    def specs(*args: Any, **kwargs: Any) -> list[EmulationSpec]:
        return [plant(spec) for spec in real(*args, **kwargs)]

    return specs


def _no_set(spec: EmulationSpec) -> EmulationSpec:
    """The AIVs' set of flag 15 to their AIC, after rms_norm, is gone."""
    lines = spec.source.split("\n")
    i = next(i for i, line in enumerate(lines) if "ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x2" in line)
    return dataclasses.replace(spec, source="\n".join(lines[:i] + lines[i + 1:]))


def _never_returns(spec: EmulationSpec) -> EmulationSpec:
    subs = list(spec.subtasks)
    subs[1] = dataclasses.replace(subs[1], hang=True)
    return dataclasses.replace(spec, subtasks=tuple(subs))


def _nobody_releases(spec: EmulationSpec) -> EmulationSpec:
    """The record outside the SuperKernel that sets its wait lock never happens."""
    return dataclasses.replace(spec, preset_locks=())


@needs_gxx
@pytest.mark.parametrize(("model", "options", "plant", "verdict"), [
    (DECODE, "", _no_set, r"24 cores \(aic 0, aic 1, aic 2, \.\.\.\) never completed: waiting on flag 15 \(point 6\) "
     r"after no sub-task; the set is sk\.set_flag 8 on aiv after sub-task 4 rms_norm \(@s0 seq 3\)"),
    (DECODE, "", _never_returns, r"never completed: inside sub-task 9 qkv_matmul \(@s0 seq 4\) \(point 9\): the "
     r"sub-kernel has not returned"),
    (LOCKS, "", _nobody_releases, r"aiv 0 never completed: waiting on the GM lock of @e2_cell \(slot 2, point 8\) "
     r"after sub-task 2 v \(@s0 seq 0\); set by the value write at @s1 seq 4"),
    (LOCKS, ":debug-wait-timeout-cycles=2000000", _nobody_releases, r"aiv 0 never completed: timed out waiting on "
     r"the GM lock of @e2_cell"),
], ids=["missing-flag-set", "never-returns", "lock-nobody-releases", "bounded-wait-traps"])
def test_a_planted_hang_is_named_from_the_emulated_dump(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], model: Any,
        options: str, plant: Callable[[EmulationSpec], EmulationSpec], verdict: str) -> None:
    monkeypatch.setattr(emulation, "emulation_specs", _planted(plant))
    out = tmp_path / "out"
    with pytest.raises(CheckFailedError) as info:
        skir.compile(model, "debug-progress=1" + options).write(out, emulate=True)
    assert ("abort: AscendC::Trap" if "timeout" in options else "deadlock: ") in str(info.value)
    (dump,) = out.glob("emulation/*/progress.bin")
    capsys.readouterr()
    assert sk_hang.main([str(out), str(dump)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert re.search(verdict, printed[-1]), printed[-1]
    assert len(printed) == 2 + json.loads((out / "sk_meta.json").read_text())["superkernels"][0]["progress"]["lines"]


@needs_gxx
@pytest.mark.parametrize("model", [DECODE, ROOT / "examples" / "chain.mlir", ROOT / "examples" / "decode_branches.json",
                                   LOCKS], ids=["decode_layer", "chain", "decode_branches", "locks"])
def test_the_suites_run_clean_with_progress_and_bounded_waits(tmp_path: Path, model: Any) -> None:
    result = skir.compile(model, "debug-progress=1:debug-wait-timeout-cycles=100000000").check()
    result.write(tmp_path / "out")
    for spec in emulation.emulation_specs(result.module, result.original):
        emu = emulate(spec, tmp_path / spec.name)
        assert emu.ok, (emu.verdict, emu.problems)
        assert emu.progress_path is not None
        report = locate(tmp_path / "out", emu.progress_path)
        assert report.verdict == "every core finished: no hang in this SuperKernel"
        assert {c.state for c in report.cores} == {"done"}  # every core of the launch wrote its line


@needs_gxx
def test_the_hex_an_exception_log_prints_decodes_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emulation, "emulation_specs", _planted(_no_set))
    out = tmp_path / "out"
    with pytest.raises(CheckFailedError):
        skir.compile(DECODE, "debug-progress=1").write(out, emulate=True)
    (dump,) = out.glob("emulation/*/progress.bin")
    raw = dump.read_bytes()
    as_bytes = "\n".join(f"{i:08x}: " + " ".join(f"{b:02x}" for b in raw[i:i + 16]) for i in range(0, len(raw), 16))
    as_words = "\n".join(f"0x{int.from_bytes(raw[i:i + 8], 'little'):016x}" for i in range(0, len(raw), 8))
    expected = locate(out, dump).text()
    for name, text in (("bytes.txt", as_bytes), ("words.txt", as_words)):
        (tmp_path / name).write_text(text + "\n")
        assert locate(out, tmp_path / name).text() == expected


def test_a_dump_it_cannot_read_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    skir.compile(DECODE, "debug-progress=1").write(tmp_path / "out")
    cases = {"short.bin": bytes(100), "zero.bin": bytes(64 * 72), "bad.txt": b"00000000: 5c zz\n"}
    expected = {"short.bin": "a whole number of 64-byte lines; it has 100 bytes",
                "zero.bin": "no progress word in the dump", "bad.txt": "bad.txt:1: 'zz' is neither a hex byte"}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        capsys.readouterr()
        assert sk_hang.main([str(tmp_path / "out"), str(tmp_path / name)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected[name] in err[0], err
    assert sk_hang.main([str(tmp_path / "missing"), str(tmp_path / "short.bin")]) == 1


def _area(lines: int, words: dict[int, int]) -> bytes:
    """A raw progress area of `lines` 64-byte lines, line i holding `words[i]` (with its line index)."""
    out = bytearray(64 * lines)
    for line, word in words.items():
        out[64 * line: 64 * line + 8] = (word | line).to_bytes(8, "little")
    return bytes(out)


def test_a_dump_that_does_not_fit_the_compile_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The words must fit the SK meta: a core of a type the point's op does not run on, or a state
    the point is not, means the dump is of another compile; an OUT without progress words says so
    before the dump is read."""
    skir.compile(DECODE, "debug-progress=1").write(tmp_path / "out")
    meta = json.loads((tmp_path / "out" / "sk_meta.json").read_text())["superkernels"][0]["progress"]
    aiv_only = next(p for p in meta["points"] if p["state"] == "subtask" and p["on"] == ["aiv"])
    barrier = next(p for p in meta["points"] if p["state"] == "barrier" and "aiv" in p["on"])
    aic_line = meta["aiv_lines"]  # the first AIC's line
    cases = {
        "aic_in_aiv_subtask.bin": (_area(meta["lines"], {aic_line: encode(meta["id"], aiv_only["point"], "subtask")}),
                                   f"line {aic_line} (aic 0) is at point {aiv_only['point']}, which only aiv cores"),
        "wrong_state.bin": (_area(meta["lines"], {0: encode(meta["id"], barrier["point"], "subtask")}),
                            f"line 0 (aiv 0) says subtask at point {barrier['point']}, which is a barrier point"),
    }
    for name, (data, expected) in cases.items():
        (tmp_path / name).write_bytes(data)
        capsys.readouterr()
        assert sk_hang.main([str(tmp_path / "out"), str(tmp_path / name)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected in err[0], err
    skir.compile(DECODE).write(tmp_path / "plain")  # no debug-progress=1: even an empty dump names that
    capsys.readouterr()
    assert sk_hang.main([str(tmp_path / "plain"), str(tmp_path / "wrong_state.bin")]) == 1
    err = capsys.readouterr().err
    assert "no SuperKernel keeps progress words; compile with --options debug-progress=1" in err
