"""One entry for identical SuperKernels (docs/design.md §5 "Shared entries"): identical layers
write one entry, descriptor, build script and object; anything that changes the code keeps
them apart; the plan launches the one object with each SuperKernel's own argument table; the
emulation runs each shared entry once."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import IntAttr, SymbolRefAttr

import skir
from skir.dialects.ascendc import SourceOp
from skir.dialects.model_lookup import kernel_table, models, the_model
from skir.dialects.superkernel import SubtaskOp, SuperKernelOp
from skir.hostsim.spec import EmulationSpec
from skir.runtime import apply_plan, model_view
from skir.schemas import validate
from skir.targets.ascendc import emit_source
from skir.targets.emulation import _once_per_entry
from skir.targets.entry_key import entry_key, key_text
from skir.targets.shared_entries import HASH_HEX, shared_entries
from skir.testing.random_models import random_model

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ROOT / "test" / "unit" / "models" / "identical_layers.json"
sys.path.insert(0, str(ROOT / "tools"))
from gen_model import generate  # type: ignore[import-not-found]  # noqa: E402

NEEDS_GXX = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def decode_tasks(layers: int) -> int:
    """Tasks of a `gen_model.py decode` model of exactly `layers` layers (no filler kernels)."""
    return sum(24 + (layer % 4 == 3) + (layer % 8 == 7) for layer in range(layers))


def _layers() -> dict[str, Any]:
    return json.loads(LAYERS.read_text())


def _sks(result: skir.CompileResult) -> list[SuperKernelOp]:
    return [op for op in the_model(result.module).body.block.ops if isinstance(op, SuperKernelOp)]


def _own_text(result: skir.CompileResult, name: str) -> str:
    """The entry `name` would have alone, with its name and every comment taken out (the oracle:
    written without the key, from the text)."""
    source = next(op for op in result.module.ops if isinstance(op, SourceOp) and op.sym_name.data == name)
    return _normal(emit_source(source), name)


def _normal(text: str, name: str) -> str:
    text = re.sub(r"^\s*//.*\n", "", text, flags=re.M)
    return re.sub(rf"\b(auto_gen_)?{name}(?=_kernel|_mix|\b)", "NAME", text)


def _folders(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.is_dir() and p.name != "emulation")


def test_identical_layers_share_one_entry(tmp_path: Path) -> None:
    """Hand-derived: layers 0-2 are the same SuperKernel on other buffers and seqs; layer 3
    launches 16 blocks of mm instead of 12, so its SuperKernel has a launch shape of its own."""
    result = skir.compile(LAYERS).write(tmp_path)
    names = [sk.sym_name.data for sk in _sks(result)]
    assert names == [f"identical_layers_sk{i}" for i in range(4)]
    sk0 = _sks(result)[0]
    kernels = kernel_table(the_model(result.module))
    source = next(op for op in result.module.ops if isinstance(op, SourceOp) and op.sym_name.data == names[0])
    shared = "sk_" + hashlib.sha256(key_text(entry_key(sk0, kernels, source)).encode()).hexdigest()[:HASH_HEX]
    assert re.fullmatch(r"sk_[0-9a-f]{12}", shared)
    assert _folders(tmp_path) == sorted([shared, "identical_layers_sk3"])
    assert sorted(p.name for p in (tmp_path / shared).iterdir()) == sorted(
        ["build.sh", f"{shared}.json", f"{shared}_kernel.cpp"])
    text = (tmp_path / shared / f"{shared}_kernel.cpp").read_text()
    assert f"void auto_gen_{shared}_kernel(void)" in text and "identical_layers_sk1" in text  # the header lists it
    assert "(seq " not in text  # no one layer's seqs in the comments: sub-task positions
    for name in names[:3]:
        assert _normal(text, shared) == _own_text(result, name)
    assert _own_text(result, names[3]) != _own_text(result, names[0])

    meta = json.loads((tmp_path / "sk_meta.json").read_text())
    validate("sk_meta", meta)
    by_name = {sk["name"]: sk for sk in meta["superkernels"]}
    for name in names[:3]:
        assert by_name[name]["entry"] == f"auto_gen_{shared}_kernel"
        assert by_name[name]["shared_entry"] == {"name": shared, "superkernels": names[:3]}
    assert by_name[names[3]]["entry"] == "auto_gen_identical_layers_sk3_kernel"
    assert "shared_entry" not in by_name[names[3]]

    descriptor = json.loads((tmp_path / shared / f"{shared}.json").read_text())
    validate("descriptor", descriptor)
    assert descriptor["name"] == shared and "origin_op_name" not in descriptor
    assert [m["name"] for m in descriptor["shared_by"]] == names[:3]
    assert [m["origin_op_name"] for m in descriptor["shared_by"]] == [
        f"sk_layer{i}_start_v_end_v" for i in range(3)]
    assert [[s["seq"] for s in m["kernelList"]] for m in descriptor["shared_by"]] == [
        [sub.seq.data for sub in sk.subtasks()] for sk in _sks(result)[:3]]
    build = (tmp_path / shared / "build.sh").read_text()
    assert f'-o "$out/{shared}.o"' in build and "identical_layers_sk" not in build.split("\n", 3)[3]


def test_the_plan_launches_the_shared_object_with_each_own_table(tmp_path: Path) -> None:
    result = skir.compile(LAYERS).write(tmp_path)
    the_plan = json.loads((tmp_path / "plan.json").read_text())
    validate("plan", the_plan)
    launches = the_plan["superkernels"]
    shared = launches[0]["shared_entry"]
    for launch, sk in zip(launches, _sks(result), strict=True):
        own = sk.sym_name.data == "identical_layers_sk3"
        built = sk.sym_name.data if own else shared
        assert launch["object"] == f"{built}/build/{built}.o"
        assert launch["entry"] == f"auto_gen_{built}_kernel"
        assert ("shared_entry" in launch) is not own
        # its own argument table: the arguments of its own members' tasks
        seqs = {(a["stream"], a["seq"]) for a in launch["args"] if a["source"] == "task"}
        assert seqs == {(sub.stream.root_reference.data, sub.seq.data) for sub in sk.subtasks()}
    assert len({json.dumps(launch["args"]) for launch in launches}) == 4
    assert result.original is not None
    assert model_view(apply_plan(result.original, the_plan)) == model_view(result.module)


def test_apply_plan_refuses_a_shared_entry_launched_two_ways() -> None:
    result = skir.compile(LAYERS)
    assert result.original is not None
    from skir.targets.plan import plan
    from skir.targets.sk_meta import sk_meta

    bad = copy.deepcopy(plan(result.module, sk_meta(result.module, result.original)))
    bad["superkernels"][1]["blocks"] = 20
    with pytest.raises(skir.SkirError, match=r"superkernels\[1\]\.blocks: 20 differs from 12 of "
                                             r"'identical_layers_sk0', which launches the same shared entry"):
        apply_plan(result.original, bad)


@pytest.mark.parametrize(("layers", "entries", "options"), [(1, 1, ""), (8, 3, ""), (32, 3, ""),
                                                            (32, 3, "placement=auto")])
def test_decode_writes_one_entry_per_distinct_layer(tmp_path: Path, layers: int, entries: int, options: str) -> None:
    """The groups are exactly the classes of SuperKernels whose own entries (names and comments
    taken out) are equal; with placement=auto too, whose sub-task ranges are in the entries."""
    result = skir.compile(generate("decode", decode_tasks(layers)), options=options).write(tmp_path)
    sks = _sks(result)
    assert len(_folders(tmp_path)) == entries
    groups = shared_entries(result.module)
    classes: dict[str, list[str]] = {}
    for sk in sks:
        classes.setdefault(_own_text(result, sk.sym_name.data), []).append(sk.sym_name.data)
    assert sorted(classes.values()) == sorted(g.member_names for g in groups.groups)
    assert sorted(_folders(tmp_path)) == sorted(g.name for g in groups.groups)


def _with_layer(edit: Any) -> dict[str, Any]:
    data = _layers()
    edit(data)
    return data


def _rename_kernel(data: dict[str, Any]) -> None:  # layer 1 calls v2, declared as v is
    data["kernels"]["v2"] = dict(data["kernels"]["v"])
    for task in data["streams"][0]["tasks"]:
        if task.get("kernel") == "v" and 11 <= task["seq"] < 20:
            task["kernel"] = "v2"


def _scope_option(data: dict[str, Any]) -> None:  # layer 1's scope asks for split-mode=2
    next(t for t in data["streams"][0]["tasks"] if t.get("scope") == "layer1")["options"] = "split-mode=2"


def _member_blocks(data: dict[str, Any]) -> None:  # one member of layer 1 on 6 blocks instead of 8
    next(t for t in data["streams"][0]["tasks"] if t["seq"] == 11)["blocks"] = 6


@pytest.mark.parametrize("edit", [_rename_kernel, _scope_option, _member_blocks])
def test_a_difference_in_code_keeps_superkernels_apart(tmp_path: Path, edit: Any) -> None:
    result = skir.compile(_with_layer(edit)).write(tmp_path)
    groups = shared_entries(result.module)
    assert [g.member_names for g in groups.groups] == [
        ["identical_layers_sk0", "identical_layers_sk2"], ["identical_layers_sk1"], ["identical_layers_sk3"]]
    assert _own_text(result, "identical_layers_sk1") != _own_text(result, "identical_layers_sk0")
    assert len(_folders(tmp_path)) == 3


def test_the_key_covers_every_attribute_but_the_places_of_the_original() -> None:
    result = skir.compile(LAYERS)
    sk = _sks(result)[0]
    kernels = kernel_table(the_model(result.module))
    source = next(op for op in result.module.ops if isinstance(op, SourceOp) and op.sym_name.data == sk.sym_name.data)
    base = entry_key(sk, kernels, source)
    sub = next(op for op in sk.body.block.ops if isinstance(op, SubtaskOp))
    sub.properties["first_block"] = IntAttr(3)  # an attribute added later takes part by itself
    assert entry_key(sk, kernels, source) != base
    del sub.properties["first_block"]
    sub.properties["stream"] = SymbolRefAttr("s9")  # where the member came from does not
    assert entry_key(sk, kernels, source) == base
    kernels["v"].attributes["sk.extra"] = IntAttr(1)  # a member kernel's declaration does
    assert entry_key(sk, kernels, source) != base


@pytest.mark.parametrize("seed", range(12))
def test_random_models_share_only_identical_code(seed: int) -> None:
    """Soundness on random models: SuperKernels of one group have equal entries once their names
    and comments are taken out, and equal descriptors once their own fields are."""
    data = random_model(random.Random(seed), spare_slots=seed % 2 == 0, with_updates=seed % 4 == 1,
                        with_conds=seed % 3 == 2)
    result = skir.compile(data)
    from skir.targets.descriptor import descriptor

    by_name = {sk.sym_name.data: (sk, kernel_table(model)) for model in models(result.module)
               for sk in model.body.block.ops if isinstance(sk, SuperKernelOp)}
    for group in shared_entries(result.module).groups:
        texts = {_own_text(result, name) for name in group.member_names}
        assert len(texts) == 1, group.member_names
        shapes = set()
        for name in group.member_names:
            own = descriptor(*by_name[name])
            for item in own["kernelList"]:
                for field in ("stream", "seq", "send_event_list", "recv_event_list"):
                    del item[field]
            shapes.add(json.dumps({k: v for k, v in own.items() if k not in ("name", "origin_op_name", "entry")}))
        assert len(shapes) == 1, group.member_names


def test_one_run_per_shared_entry_unless_a_member_asks_for_more() -> None:
    spec = EmulationSpec(name="sk_0123456789ab", entry="auto_gen_sk_0123456789ab_kernel", source="",
                         kernel_type="mix_aic_1_2", blocks=1, param_slots=2, subtasks=(), edges=((0, 1),))
    other = EmulationSpec(**{**spec.__dict__, "edges": ((0, 1), (1, 2))})
    kept = _once_per_entry([("m_sk0", spec), ("m_sk1", spec), ("m_sk2", other), ("m_sk3", spec)])
    assert [(s.name, s.edges) for s in kept] == [("sk_0123456789ab", ((0, 1),)), ("m_sk2", ((0, 1), (1, 2)))]


@NEEDS_GXX
def test_emulation_runs_each_shared_entry_once(tmp_path: Path) -> None:
    result = skir.compile(generate("decode", decode_tasks(8))).write(tmp_path, emulate=True)
    groups = shared_entries(result.module)
    assert len(_sks(result)) == 10
    assert sorted(e.name for e in result.emulation) == sorted(g.name for g in groups.groups)
    assert all(e.ok for e in result.emulation), [e.problems for e in result.emulation]
    assert sorted(p.name for p in (tmp_path / "emulation").iterdir()) == sorted(
        [g.name for g in groups.groups] + ["include"])


@NEEDS_GXX
def test_layers_with_their_own_demands_emulate_clean(tmp_path: Path) -> None:
    result = skir.compile(LAYERS).write(tmp_path, emulate=True)
    assert [e.verdict.split(":")[0] for e in result.emulation] == ["ok", "ok"]
    assert {e.name for e in result.emulation} == {shared_entries(result.module).groups[0].name,
                                                  "identical_layers_sk3"}


def test_the_products_are_the_same_twice(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "out", tmp_path / "b" / "out"
    skir.compile(LAYERS).write(first)
    skir.compile(LAYERS).write(second)
    for path in sorted(first.rglob("*")):
        if path.is_file():
            assert path.read_bytes() == (second / path.relative_to(first)).read_bytes(), path


def test_progress_words_keep_every_entry_its_own(tmp_path: Path) -> None:
    """With debug-progress=1 each entry stores its SuperKernel's progress id (docs/design.md §6),
    so identical layers no longer share, and sk-hang's SK meta names each entry."""
    result = skir.compile(LAYERS, options="debug-progress=1").write(tmp_path)
    assert _folders(tmp_path) == [f"identical_layers_sk{i}" for i in range(4)]
    meta = json.loads((tmp_path / "sk_meta.json").read_text())
    assert not any("shared_entry" in sk for sk in meta["superkernels"])
    assert len({sk["progress"]["id"] for sk in meta["superkernels"]}) == 4
    assert "entries:" not in (tmp_path / "README.txt").read_text()
    assert len(shared_entries(result.module).groups) == 4


def test_the_summary_names_the_shared_entry(tmp_path: Path) -> None:
    result = skir.compile(LAYERS).write(tmp_path)
    group = shared_entries(result.module).groups[0]
    summary = (tmp_path / "README.txt").read_text()
    assert "entries: 2 for 4 SuperKernels; shared by identical SuperKernels:\n" in summary
    assert f"  {group.name}: identical_layers_sk0, identical_layers_sk1, identical_layers_sk2\n" in summary
