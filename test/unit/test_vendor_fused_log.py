"""`sk_fused_nodes.log` members are matched to the original graph by node identity (nodeId,
stream index, index in stream), never by names (docs/design.md §11 "The vendor's result").

`vendor_dumps/renamed_hosts` is written from the published description: the updated dump's
SuperKernel slots launch the vendor's entry kernels (names unlike the log's `SK Function`
lines) and its surviving nodes are renumbered in their streams."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import skir
from skir.api import load_model
from skir.frontends.vendor.fused_log import VendorLogWarning
from skir.frontends.vendor.result import read_result

DUMPS = Path(__file__).parent / "vendor_dumps"
CASE = DUMPS / "renamed_hosts"
# by hand from expected.json: the fork/join SuperKernel and the one of s0 seqs 13, 14
VENDOR = {frozenset({("s0", 1), ("s1", 4), ("s0", 5), ("s1", 6), ("s0", 9)}), frozenset({("s0", 13), ("s0", 14)})}


def test_the_test_data_has_names_that_differ() -> None:
    """The case is one the old name match got wrong: no slot of the updated dump is named like a
    log block, and a host's index in its stream differs between the origin and the updated dump."""
    updated = json.loads((CASE / "sk_graph_updated.json").read_text())
    hosts = {n["taskInfo"][0]["kernelParams"]["funcName"]: (n["nodeId"], n["nodeIdxInStream"])
             for s in updated["streams"] for n in s["nodes"] if "skinfos" in n}
    heads = re.findall(r"SK Function: ([^,]+),", (CASE / "sk_fused_nodes.log").read_text())
    assert len(hosts) == len(heads) == 2 and not set(hosts) & set(heads)
    assert hosts["sk_entry_aiv_only"] == (13, 5)
    assert "[nodeId:13, streamId:5, streamIdxInGraph:0, nodeIdxInStream:9]" in (CASE / "sk_fused_nodes.log").read_text()


def test_identical_groupings_are_the_same() -> None:
    found = read_result(CASE, load_model(CASE))
    assert found.membership == "log" and not found.warnings
    assert {frozenset(sk.members) for sk in found.superkernels} == VENDOR
    result = skir.compile(CASE).compare_with_vendor(CASE)
    assert result.vendor_compare is not None
    assert result.vendor_compare["summary"] == {"same": 2, "only_vendor": 0, "only_skir": 0, "tasks_agree": 7,
                                                "tasks_differ": 0}
    names = {sk["name"] for sk in result.vendor_compare["superkernels"]["vendor"]}
    assert names == {"sk_0__start_static_kernel_RmsNorm_1a2b_end_MatMulV2_8f3c_mix_aic",
                     "sk_1__start_static_kernel_Add_5e7d_end_static_kernel_SwiGlu_2b7c"}


def test_members_take_the_models_stream_names(tmp_path: Path) -> None:
    """The original model is the same graph written as capture JSON with its own stream names:
    the log's stream index names the model's stream, whatever its name."""
    text = (CASE / "capture.json").read_text().replace('"name": "s0"', '"name": "main"')
    model = tmp_path / "model.json"
    model.write_text(text.replace('"name": "s1"', '"name": "side"'))
    found = read_result(CASE, load_model(model))
    rename = {"s0": "main", "s1": "side"}
    assert {frozenset(sk.members) for sk in found.superkernels} == {
        frozenset((rename[s], q) for s, q in group) for group in VENDOR}


def test_a_member_that_matches_nothing_is_a_located_warning(tmp_path: Path) -> None:
    folder = tmp_path / "dump"
    shutil.copytree(CASE, folder)
    lines = (folder / "sk_fused_nodes.log").read_text().splitlines()
    bad = [  # a seq no task has; a kernel on another stream; a task that is not a kernel; a shifted index
        "[5] [nodeId:40, streamId:5, streamIdxInGraph:0, nodeIdxInStream:12] - KernelInfos{funcName:X}",
        "[6] [nodeId:13, streamId:7, streamIdxInGraph:1, nodeIdxInStream:9] - KernelInfos{funcName:X}",
        "[7] [nodeId:2, streamId:5, streamIdxInGraph:0, nodeIdxInStream:2] - KernelInfos{funcName:X}",
        "[8] [nodeId:14, streamId:5, streamIdxInGraph:0, nodeIdxInStream:6] - KernelInfos{funcName:X}",
    ]
    lines[6:6] = bad  # after the five members of the first block: lines 7 to 10
    (folder / "sk_fused_nodes.log").write_text("\n".join(lines) + "\n")
    with pytest.warns(VendorLogWarning) as caught:
        found = read_result(folder, load_model(folder))
    # the same warnings on stderr, `file:line: message` after the tool's `warning:`
    assert [str(w.message) for w in caught] == [w.replace(": warning: ", ": ") for w in found.warnings]
    assert [w.split(" member ")[0] for w in found.warnings] == [
        f"sk_fused_nodes.log:{n}: warning:" for n in (7, 8, 9, 10)]
    assert "no task has seq 40" in found.warnings[0]
    assert "seq 13 is on stream index 0 (@s0), the log says 1" in found.warnings[1]
    assert "seq 2 on @s0 is not a kernel launch" in found.warnings[2]
    assert "seq 14 is task 10 of @s0, the log says nodeIdxInStream 6" in found.warnings[3]
    assert {frozenset(sk.members) for sk in found.superkernels} == VENDOR  # left out, not guessed
    done = subprocess.run([sys.executable, "-m", "skir.tools.sk_compile", str(folder), "-o", str(tmp_path / "o"),
                           "--vendor", str(folder)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "sk-compile: warning: sk_fused_nodes.log:7: member nodeId 40 matches no kernel task" in done.stderr
    assert "  sk_fused_nodes.log:10: warning: member nodeId 14" in done.stdout
    doc = json.loads((tmp_path / "o" / "vendor_compare.json").read_text())
    assert doc["vendor_warnings"] == found.warnings and doc["summary"]["same"] == 2


def test_a_block_that_names_no_superkernel_is_a_located_warning(tmp_path: Path) -> None:
    folder = tmp_path / "dump"
    shutil.copytree(CASE, folder)
    log = (folder / "sk_fused_nodes.log").read_text()
    (folder / "sk_fused_nodes.log").write_text(
        log + "SK Function: sk_7__start_A_end_B, scope id: 7, Node Count: 1\n"
        "[0] [nodeId:0, streamId:5, streamIdxInGraph:0, nodeIdxInStream:0] - KernelInfos{funcName:A}\n")
    with pytest.warns(VendorLogWarning) as caught:
        found = read_result(folder, load_model(folder))
    assert len(caught) == len(found.warnings) == 2
    assert found.warnings[0].startswith("sk_fused_nodes.log:11: warning: member nodeId 0 matches no kernel task")
    assert found.warnings[1].startswith("sk_fused_nodes.log:10: warning: SK Function 'sk_7__start_A_end_B' "
                                        "(scope id 7) matches no SuperKernel slot of sk_graph_updated.json")
    assert {frozenset(sk.members) for sk in found.superkernels} == VENDOR
