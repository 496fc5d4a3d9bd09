"""Every shared GM word on its own 64-byte line: the plan's layout, the runtime's check of a
placement, the workspace strides the entries use, and the line check beside sk-check."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.analysis.proof.line_check import Word, check_lines, line_violations, model_words
from skir.dialects.ascendc import SourceOp
from skir.dialects.model_lookup import models
from skir.runtime import apply_plan
from skir.targets.ascendc import emit_source
from skir.targets.plan import dump_plan, plan
from skir.targets.sk_meta import sk_meta

ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted([*ROOT.glob("examples/*.json"), *ROOT.glob("examples/*.mlir"), *ROOT.glob("examples/torch/*.json"),
                 *(ROOT / "test" / "unit" / "models").iterdir()])
LOCKS = ROOT / "test" / "unit" / "models" / "locks.mlir"
LINE = 64


def _plan(result: skir.CompileResult) -> dict[str, Any]:
    return json.loads(dump_plan(plan(result.module, sk_meta(result.module, result.original))))


def _regions(the_plan: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(key, bytes, align) of every cell and workspace of the plan and its sub-models."""
    out = [(c["name"], c["bytes"], c["align"]) for c in the_plan["cells"]]
    out += [(f"{w['superkernel']}:{w['slot']}", w["bytes"], w["align"]) for w in the_plan["workspaces"]]
    for sub in the_plan.get("submodels", []):
        out += _regions(sub)
    return out


def _by_hand(regions: list[tuple[str, int, int]]) -> dict[str, tuple[int, int]]:
    """A runtime's placement: one region after the other, each at the next multiple of its align."""
    placed, address = {}, 0
    for key, size, align in regions:
        address = -(-address // align) * align
        placed[key] = (address, size)
        address += size
    return placed


@pytest.mark.parametrize("options", ["", "feed-sync-all=1:profiling=1"])
@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_every_cell_and_workspace_owns_its_lines(path: Path, options: str) -> None:
    result = skir.compile(path, options=options)
    regions = _regions(_plan(result))
    assert all(align == LINE and size >= LINE and size % LINE == 0 for _, size, align in regions), regions
    placed = _by_hand(regions)
    lines = {key: {a // LINE for a in range(start, start + size)} for key, (start, size) in placed.items()}
    for a in lines:  # brute force, pairwise: no line of one region is a line of another
        for b in lines:
            assert a == b or not lines[a] & lines[b], (a, b)
    if result.original is not None:
        apply_plan(result.original, _plan(result), addresses=placed)  # the runtime's check agrees
    meta = sk_meta(result.module, result.original)
    assert all((c["bytes"], c["align"]) == (LINE, LINE) for c in meta["cells"])
    in_meta = sorted((sk["name"], w["slot"], w["bytes"], w["align"]) for sk in meta["superkernels"]
                     for w in sk["workspaces"])
    in_plan = sorted((w["superkernel"], w["slot"], w["bytes"], w["align"]) for w in _plan(result)["workspaces"])
    assert in_meta == in_plan  # SK meta states the plan's layout
    for model in models(result.module):
        assert check_lines(model) == []


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_the_entries_strides_are_whole_lines(path: Path) -> None:
    """Read from the emitted C++, not the IR: the profiling area of a core, each feed config
    word and each core's share of the zeroing start a line."""
    result = skir.compile(path, options="feed-sync-all=1:profiling=1")
    texts = [emit_source(op) for op in result.module.ops if isinstance(op, SourceOp)]
    assert texts
    for text in texts:
        for first, stride in re.findall(r"base \+ (\d+) \+ idx \* (\d+)", text):
            assert int(first) % LINE == 0 and int(stride) % LINE == 0
        for offset in re.findall(r"ConfigGmAddr = workspace \+ (\d+);", text):
            assert int(offset) % LINE == 0
        for step in re.findall(r"off \+= \(uint64_t\)\d+ \* (\d+)\)", text):
            assert int(step) % LINE == 0


def _addresses(result: skir.CompileResult, **moved: tuple[int, int]) -> dict[str, tuple[int, int]]:
    placed = _by_hand(_regions(_plan(result)))
    placed.update(moved)
    return placed


@pytest.mark.parametrize(("moved", "message"), [
    ({"decode_updated_sk0:13": (0x10008, 19008)},
     "plan.json: workspaces[0]: workspace decode_updated_sk0:13 (profiling) is at 0x10008, not a multiple of 64"),
    ({"join1_cell": (0, 8)}, "plan.json: cells[0]: cell 'join1_cell' gets 8 bytes; the plan asks for 64"),
    ({"join1_cell": (64, 64)}, "shares the 64-byte line 0x40 with cell 'join1_cell' at 0x40"),
    ({"join1_cell": 64}, "plan.json: cells[0]: the layout gives 64 for cell 'join1_cell'; expected (address, bytes)"),
    ({"nowhere": (4096, 64)}, "plan.json: the layout places 'nowhere', which is no cell or workspace of the plan"),
])
def test_a_placement_that_shares_a_line_is_refused(moved: dict[str, tuple[int, int]], message: str) -> None:
    result = skir.compile(ROOT / "examples" / "decode_updated.json", options="profiling=1")
    assert result.original is not None
    the_plan = _plan(result)
    assert [c["name"] for c in the_plan["cells"]] == ["join1_cell"]
    assert [w["slot"] for w in the_plan["workspaces"]][:1] == [13]
    placed = _addresses(result, **moved)
    with pytest.raises(skir.SkirError) as err:
        apply_plan(result.original, the_plan, addresses=placed)
    assert message in str(err.value) and "\n" not in str(err.value), str(err.value)


def test_a_missing_address_is_refused() -> None:
    result = skir.compile(ROOT / "examples" / "decode_updated.json")
    assert result.original is not None
    with pytest.raises(skir.SkirError, match=r"cells\[0\]: the layout gives no address for cell 'join1_cell'"):
        apply_plan(result.original, _plan(result), addresses={})


def test_packed_cells_are_flagged_with_their_words_and_writers() -> None:
    result = skir.compile(LOCKS)
    (model,) = models(result.module)
    words = model_words(model)
    cells = sorted({w.region for w in words})
    assert cells == ["e1_cell", "e2_cell"]
    assert line_violations(words) == []  # the plan's rule: a line each
    packed = {cell: 8 * i for i, cell in enumerate(cells)}  # one 64-byte area, 8 bytes apart
    by_hand = {packed[c] // LINE for c in cells}
    assert by_hand == {0}  # both words in line 0: two writers, different words
    (found,) = check_lines(model, packed)
    assert found.startswith("line: 0x0 holds e1_cell (+0, by ") and "e2_cell (+0, by " in found
    assert "locks_sk0 aiv0" in found and "stream s1" in found
    apart = {cell: LINE * i for i, cell in enumerate(cells)}
    assert check_lines(model, apart) == []


def test_one_writer_never_conflicts_with_itself_and_strides_matter() -> None:
    same = [Word("p", 0, 8, "k aiv0"), Word("p", 8, 8, "k aiv0")]
    assert line_violations(same) == []
    # profiling areas 48 bytes apart: core 1's area starts inside core 0's last line
    areas = [Word("k:9", 64 + i * 48, 48, f"k aiv{i}") for i in range(3)]
    found = line_violations(areas)
    assert len(found) == 2 and "k:9 (+64, by k aiv0), k:9 (+112, by k aiv1)" in found[0], found
    assert line_violations([Word("k:9", 64 + i * 64, 64, f"k aiv{i}") for i in range(3)]) == []
    # the zeroing is compared with itself only (a barrier orders it before the rest)
    assert line_violations([Word("k:8", 0, 512, "k aiv0", "zero"), Word("k:8", 0, 64, "k aiv cores")]) == []


def test_emulation_catches_a_planted_packed_layout(tmp_path: Path) -> None:
    """Two cores write different lock words; 8 bytes apart they share a line, and a core's clean
    of its word writes back its stale copy of the other's (the shim's line model)."""
    import dataclasses
    import random

    from skir.hostsim.runner import emulate
    from skir.hostsim.stubs import driver_source, lock_offsets
    from skir.targets.emulation import emulation_specs
    from skir.testing.random_models import random_model

    result = skir.compile(random_model(random.Random(73), max_streams=4, max_tasks=20))
    (spec,) = [s for s in emulation_specs(result.module, result.original) if s.lock_slots]  # type: ignore[arg-type]
    cores = {op.core.data.value for op in result.module.walk() if op.name in ("sk.notify", "sk.reset_lock")}
    assert cores == {"aic", "aiv"}  # writers on both core types: the premise of the test
    assert all(offset % LINE == 0 for offset in lock_offsets(spec).values())  # by default a line each
    assert len({offset // LINE for offset in lock_offsets(spec).values()}) == len(spec.lock_slots)
    assert emulate(spec, tmp_path / "lines", timeout_ms=500).ok
    packed = dataclasses.replace(spec, lock_layout=tuple((slot, 8 * i) for i, slot in enumerate(spec.lock_slots)))
    assert "sk_lock_area + 8)" in driver_source(packed)
    emu = emulate(packed, tmp_path / "packed", timeout_ms=500)
    assert not emu.ok
    shared = [p for p in emu.problems if p.startswith("shim: line: lock words of slots ")]
    assert shared and all(re.search(r"slots \d+ and \d+ share a 64-byte line", p) for p in shared), emu.problems
    assert any(p.startswith(("lock: ", "deadlock: ")) for p in emu.problems), emu.problems  # a wrong value or a hang


def test_a_lock_layout_must_name_lock_slots_at_free_words() -> None:
    import dataclasses

    from skir.targets.emulation import emulation_specs

    result = skir.compile(LOCKS)
    (spec,) = emulation_specs(result.module, result.original)  # type: ignore[arg-type]
    a, b = spec.lock_slots[:2]
    with pytest.raises(ValueError, match="not a free multiple of 8"):
        dataclasses.replace(spec, lock_layout=((a, 0), (b, 0))).validate()
    with pytest.raises(ValueError, match="not a free multiple of 8"):
        dataclasses.replace(spec, lock_layout=((a, 4),)).validate()
    other = max(spec.lock_slots) + 1
    with pytest.raises(ValueError, match=f"names slot {other}, not a lock slot"):
        dataclasses.replace(spec, lock_layout=((other, 0),)).validate()
