"""The vendor's dump files as input (docs/design.md §11), against hand-written test data.

`vendor_dumps/<case>/` holds what the vendor writes into `sk_meta/<pid>/model_<id>_<n>/`,
written from the published description of its formats, with two oracles written by hand
beside it: `capture.json` (the same model in skir's own capture JSON) and `expected.json`
(the members of the vendor's SuperKernels in its plausible result).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import skir
from skir.api import load_model, model_options
from skir.errors import SkirError, SkirWarning
from skir.frontends import capture_export, vendor
from skir.frontends.vendor.result import read_result
from skir.frontends.vendor.runtime_trace import parse_trace_text, read_trace
from skir.options import SkOptions, parse_options

DUMPS = Path(__file__).parent / "vendor_dumps"
CASES = sorted(p.name for p in DUMPS.iterdir() if (p / "expected.json").is_file())
BAD = DUMPS / "bad"


def groups(result: skir.api.CompileResult) -> set[frozenset[tuple[str, int]]]:
    return {frozenset((m.stream, m.seq) for m in sk.members) for sk in result.superkernels}


def unfused(result: skir.api.CompileResult) -> set[tuple[str, int, str]]:
    return {(u.stream, u.seq, u.reason) for u in result.fail_reasons}


def expected_vendor(case: str) -> set[frozenset[tuple[str, int]]]:
    data = json.loads((DUMPS / case / "expected.json").read_text())
    return {frozenset((m["stream"], m["seq"]) for m in sk) for sk in data["vendor_superkernels"]}


def test_every_case_is_there() -> None:
    assert {"one_stream", "two_streams_events", "value_tasks", "scope_markers", "task_group", "no_bind_map",
            "legacy_raw", "disagree"} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_a_dump_fuses_as_its_capture_json(case: str) -> None:
    """The dump folder and the hand-written equivalent capture JSON (compiled with the options
    the dump recorded) fuse the same kernel tasks, for the same reasons."""
    folder = DUMPS / case
    from_dump = skir.compile(folder)
    options, _ = model_options(load_model(folder), "", SkOptions())
    from_capture = skir.compile(folder / "capture.json", options=options)
    assert groups(from_dump) == groups(from_capture)
    assert unfused(from_dump) == unfused(from_capture)
    assert from_dump.kernel_tasks == from_capture.kernel_tasks


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("case", CASES)
def test_a_dump_compiles_checks_and_emulates(case: str, tmp_path: Path) -> None:
    result = skir.compile(DUMPS / case).write(tmp_path / "out", emulate=True)
    assert result.superkernels and all(e.ok for e in result.emulation)
    meta = json.loads((tmp_path / "out" / "sk_meta.json").read_text())
    assert meta["vendor_input"]["cores"] == {"aic": 24, "aiv": 48, "given": False}


@pytest.mark.parametrize("case", CASES)
def test_the_vendor_result_is_read_as_written(case: str) -> None:
    """The vendor's SuperKernels read back from its updated dump and logs are the ones the
    test data's author wrote down."""
    folder = DUMPS / case
    found = read_result(folder, load_model(folder))
    assert {frozenset(sk.members) for sk in found.superkernels} == expected_vendor(case)


@pytest.mark.parametrize("case", CASES)
def test_the_comparison_counts(case: str, tmp_path: Path) -> None:
    """same / only_vendor / only_skir, recomputed here from expected.json and skir's result."""
    folder = DUMPS / case
    with warnings.catch_warnings():  # rewriting the vendor's grouping warns of nothing (no pass sees a stray state)
        warnings.simplefilter("error", SkirWarning)
        result = skir.compile(folder).compare_with_vendor(folder).write(tmp_path / "out")
    doc = json.loads((tmp_path / "out" / "vendor_compare.json").read_text())
    assert doc.pop("provenance")["input"]["name"]
    assert doc == result.vendor_compare
    theirs, ours = expected_vendor(case), groups(result)
    assert doc["summary"]["same"] == len(theirs & ours)
    assert doc["summary"]["only_vendor"] == len(theirs - ours)
    assert doc["summary"]["only_skir"] == len(ours - theirs)
    assert doc["makespan_us"]["original"] >= doc["makespan_us"]["skir"] > 0
    assert "vendor comparison" in (tmp_path / "out" / "README.txt").read_text()
    # every kernel task the vendor fused but its host is a disabled or converted slot of its result
    hosts = {(sk["host"]["stream"], sk["host"]["seq"]) for sk in doc["superkernels"]["vendor"]}
    gone = {(m["stream"], m["seq"]) for m in doc["vendor_removed"] + doc["vendor_converted"]}
    fused = {m for sk in theirs for m in sk}
    assert fused - hosts <= gone


def test_the_disagreeing_case_disagrees() -> None:
    result = skir.compile(DUMPS / "disagree").compare_with_vendor(DUMPS / "disagree")
    assert result.vendor_compare is not None
    summary = result.vendor_compare["summary"]
    assert summary["only_vendor"] > 0 and summary["only_skir"] > 0 and summary["tasks_differ"] > 0


def test_mapping_details() -> None:
    no_bind = skir.compile(DUMPS / "no_bind_map")
    assert {(u.reason, u.detail) for u in no_bind.fail_reasons} == {("op_unsupported", "no_bind_map")}
    group = skir.compile(DUMPS / "task_group")
    assert {u.reason for u in group.fail_reasons} == {"dynamic_task"}
    # task-group handles are 64-bit host pointers, identity only: each distinct one is a group of skir's own,
    # numbered in the order the handles first appear (read here straight from the JSON)
    origin = json.loads((DUMPS / "task_group_handles" / "sk_graph_origin.json").read_text())
    handles = [n["taskInfo"][0]["kernelParams"]["taskGrp"] for n in origin["streams"][0]["nodes"]]
    firsts = list(dict.fromkeys(h for h in handles if int(h, 16)))
    assert len(firsts) == 2 and all(int(h, 16) > 0xFFFFFFFF for h in firsts)
    tasks = capture_export.dump(vendor.load(DUMPS / "task_group_handles")[0])["streams"][0]["tasks"]
    assert [t.get("task_group") for t in tasks] == [firsts.index(h) + 1 if int(h, 16) else None for h in handles]
    markers = skir.compile(DUMPS / "scope_markers")
    # a marker named default_sk_scope_name is a do-not-fuse scope, never a scope of that name
    assert "in_unfusible_scope" in {u.reason for u in markers.fail_reasons}
    assert "default_sk_scope_name" not in str(markers.module)
    module, info = vendor.load(DUMPS / "one_stream")
    assert any("--cores" in note for note in info.notes)
    # every distinct funcName of the dump (read here straight from the JSON) names one kernel
    origin = json.loads((DUMPS / "one_stream" / "sk_graph_origin.json").read_text())
    funcs = {n["taskInfo"][0]["kernelParams"]["funcName"] for s in origin["streams"] for n in s["nodes"]}
    assert sorted(info.func_names.values()) == sorted(funcs)
    assert str(module).count("aclgraph.kernel @") == len(funcs)


def test_the_legacy_layouts_agree() -> None:
    folder = DUMPS / "legacy_raw"
    raw = skir.compile(folder / "sk_raw_tasks_before.json")
    before = skir.compile(folder / "sk_graph_before.json")
    assert groups(raw) == groups(before) == groups(skir.compile(folder / "capture.json",
                                                                options=model_options(load_model(folder), "",
                                                                                      SkOptions())[0]))


def test_cores_and_options_from_the_command_side() -> None:
    module, info = vendor.load(DUMPS / "two_streams_events", cores=(20, 40))
    assert "cores(aic = 20, aiv = 40)" in str(module)
    assert not any("--cores" in note for note in info.notes)
    assert "stream-fusion=1" in info.options
    # --options wins over the dump's options, key by key
    text, typed = model_options(module, "stream-fusion=0", parse_options("stream-fusion=0")[0])
    assert text.endswith(":stream-fusion=0") and typed.stream_fusion == 0
    assert set(text.split(":")) == {*info.options.split(":")} - {"stream-fusion=1"} | {"stream-fusion=0"}
    assert parse_options(text)[0] == typed  # the string and the typed options say the same
    with pytest.raises(SkirError, match=r"argument --cores \(cores=\): only for the vendor's dumps"):
        load_model(DUMPS / "one_stream" / "capture.json", cores=(24, 48))


def test_the_runtime_trace_is_read_tolerantly() -> None:
    text = (DUMPS / "two_streams_events" / "sk_mdl_origin.json").read_text().rstrip()
    assert text.endswith("]")
    for variant in (text[:-1] + ",]", text[:-1] + ",\n]\n", text[:-1] + ","):
        trace = read_trace(parse_trace_text(variant, "t.json"), "t.json")
        assert sum(len(t) for t in trace.tasks.values()) == text.count('"ph"')
    # the trace alone is a model (capture order replayed), the weakest one
    result = skir.compile(DUMPS / "two_streams_events" / "sk_mdl_origin.json")
    assert result.kernel_tasks == 5


@pytest.mark.parametrize(("name", "where"), [
    ("wait_without_record.json", "streams[0].nodes[3]"),
    ("seq_out_of_order.json", "streams[0].nodes[3]"),
    ("truncated.json", "truncated.json:392:1: error: invalid JSON"),
])
def test_a_bad_dump_is_one_located_line(name: str, where: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "skir.tools.sk_compile", str(BAD / name), "-o", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1 and where in done.stderr
    assert not (tmp_path / "o").exists()


def test_an_updated_dump_of_another_model_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SkirError, match=r"other_model_updated.json: modelId: '49_1' is not the model's '48_1'"):
        skir.compile(DUMPS / "one_stream").compare_with_vendor(BAD / "other_model_updated.json").write(tmp_path / "o")
    assert not (tmp_path / "o").exists()
