"""`sk_fusion_fail_reasons.log` in the vendor's format: skir writes it under the vendor's name
(skir's own log is `skir_fail_reasons.log`), and the vendor-log reader reads it back. The reader
is checked first on a log written by hand from the vendor's description (logger prefixes, the
multi-line scope form, `continued:` lines), then on skir's logs of the examples against SK meta
and against expectations derived by hand."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import skir
from skir.frontends.vendor.fail_log import read_fail_log
from skir.testing import random_model
from skir.tools import sk_compile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# written by hand from the vendor's description: every message behind the logger's prefix
BY_HAND = """\
2026-11-30 10:01:02.345 [4711:139] [INFO] [sk_graph.cpp:1317] [DumpFusionFailReasons] unfusible kernel:
2026-11-30 10:01:02.345 [4711:139] [INFO] [sk_graph.cpp:1319] [DumpFusionFailReasons] Node [nodeId:5, streamId:8, \
streamIdxInGraph:0, nodeIdxInStream:5] - KernelInfos{funcName:NonZero, kernelType:AIV_ONLY, taskRatio:[0,1], cap:0, \
numBlocks:8, cubeNum:0, vecNum:8, isScheModeOn:0, needMixKernelSplit:0, resolvedNum:0}: reason: OP_UNSUPPORT \
[BINDMAP_INIT_EMPTY], reasonDetail: Failed to resolve the bind map, bind map empty
2026-11-30 10:01:02.345 [4711:139] [INFO] [sk_graph.cpp:1319] [DumpFusionFailReasons] Node [nodeId:9, streamId:9, \
streamIdxInGraph:1, nodeIdxInStream:2] - KernelInfos{funcName:Gelu, kernelType:MIX_1_2}: reason: SCOPE_FUSE_PART \
[RESOURCE_INSUFFICIENT], reasonDetail: scope fuse failed, slots
2026-11-30 10:01:02.346 [4711:139] [INFO] [sk_dump_json.cpp:683] [PrintOriginalScopes] original scopes before fusion:
2026-11-30 10:01:02.346 [4711:139] [INFO] [sk_dump_json.cpp:686] [PrintOriginalScopes]   scopeId=0, scopeFlags=10, \
scopeNames=[attn], totalNodes=6
2026-11-30 10:01:02.346 [4711:139] [INFO] [sk_dump_json.cpp:415] [PrintNodeIdsInBatches]     nodeIds: [1, 2, 3]
2026-11-30 10:01:02.346 [4711:139] [INFO] [sk_dump_json.cpp:423] [PrintNodeIdsInBatches]     continued: 4, 5, 6]
2026-11-30 10:01:02.346 [4711:139] [INFO] [sk_dump_json.cpp:686] [PrintOriginalScopes]   scopeId=1, scopeFlags=01, \
scopeNames=[mlp], totalNodes=4
2026-11-30 10:01:02.346 [4711:139] [INFO] [sk_dump_json.cpp:423] [PrintNodeIdsInBatches]     nodeIds: [7, 8, 9, 10]
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:645] [PrintFusedScopes] scopes after fusion:
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:658] [PrintFusedScopes]   scopeId=0, scopeBitFlag=10
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:506] [PrintFusedNodeIds]     fusedNodeIds=[1, 2];
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:514] [PrintFusedNodeIds]     continued: 3, 4];
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:666] [PrintFusedScopes]     scopeStatus=SUCCESS
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:675] [PrintFusedScopes]     breakReason=[breakReason=\
UNFUSIBLE_NODE, triggerNode=5, triggerStream=0, parentScope=0], breakReasonDetail=There exists an unfusible node, \
scopeName=[attn]
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:658] [PrintFusedScopes]   scopeId=3, scopeBitFlag=01
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:514] [PrintFusedNodeIds]     fusedNodeIds=[7, 8, 10];
2026-11-30 10:01:02.347 [4711:139] [INFO] [sk_dump_json.cpp:668] [PrintFusedScopes]     scopeStatus=NO_TARGET_NODE, \
scopeStatusDetail=nothing left
"""


def test_the_reader_reads_a_log_written_by_hand() -> None:
    log = read_fail_log(BY_HAND, "sk_fusion_fail_reasons.log")
    assert log.warnings == []
    assert [(e.node_id, e.stream_index, e.index_in_stream, e.reason, e.sub) for e in log.unfusible] == [
        (5, 0, 5, "OP_UNSUPPORT", "BINDMAP_INIT_EMPTY"), (9, 1, 2, "SCOPE_FUSE_PART", "RESOURCE_INSUFFICIENT")]
    assert [(s.scope_id, s.flags, s.names, s.node_ids) for s in log.original] == [
        (0, "10", "attn", [1, 2, 3, 4, 5, 6]), (1, "01", "mlp", [7, 8, 9, 10])]
    assert [(s.scope_id, s.flags, s.node_ids, s.status, s.break_reason, s.trigger, s.names) for s in log.fused] == [
        (0, "10", [1, 2, 3, 4], "SUCCESS", "UNFUSIBLE_NODE", 5, "attn"),
        (3, "01", [7, 8, 10], "NO_TARGET_NODE", None, None, "")]


def test_a_line_of_no_known_form_is_a_located_warning() -> None:
    text = "stray\nunfusible kernel:\nNode nodeId 3 reason\noriginal scopes before fusion:\n    nodeIds: [1]\n"
    log = read_fail_log(text, "f.log")
    assert log.warnings == ["f.log:1: warning: before any section header: left out",
                            "f.log:3: warning: not a 'Node [...]: reason: ...' line: left out",
                            "f.log:5: warning: not within a scope: left out"]


def _round_trip(out: Path) -> tuple[dict, object]:  # type: ignore[type-arg]
    meta = json.loads((out / "sk_meta.json").read_text())
    log = read_fail_log((out / "sk_fusion_fail_reasons.log").read_text(), "sk_fusion_fail_reasons.log")
    assert log.warnings == []
    # every unfused kernel, by node id, with the vendor's reason (skir's no_gain its own)
    assert [(e.node_id, e.reason) for e in log.unfusible] == [
        (u["seq"], "SKIR_NO_GAIN" if u["reason"] == "no_gain" else u["vendor_reason"])
        for u in sorted(meta["unfused"], key=lambda u: u["seq"])]
    # every SuperKernel a scope after fusion holding its members
    assert len(log.fused) == len(meta["superkernels"])
    for scope, sk in zip(log.fused, meta["superkernels"], strict=True):
        assert {m["seq"] for m in sk["members"]} <= set(scope.node_ids) and scope.status == "SUCCESS"
    # the original scopes partition the tasks
    ids = [i for s in log.original for i in s.node_ids]
    assert len(ids) == len(set(ids))
    return meta, log


def test_decode_layer_round_trip_and_by_hand(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert sk_compile.main([str(EXAMPLES / "decode_layer.json"), "-o", str(out), "-q"]) == 0
    _, log = _round_trip(out)
    # by hand from examples/decode_layer.json: seqs 0 and 21 are the scope's markers, 22..26 follow it
    assert [(s.scope_id, s.flags, s.names, s.node_ids) for s in log.original] == [  # type: ignore[attr-defined]
        (0, "1", "layer0", list(range(1, 21))), (1, "0", "none", [22, 23, 24, 25, 26])]
    assert [(e.node_id, e.reason) for e in log.unfusible] == [(22, "NOT_IN_SCOPE"), (24, "NOT_IN_SCOPE")]  # type: ignore
    (fused,) = log.fused  # type: ignore[attr-defined]
    assert fused.flags == "1" and fused.break_reason is None  # the SuperKernel is its whole scope's kernels
    assert "skir_fail_reasons.log" in json.loads((out / "skir_manifest.json").read_text())["files"]


def test_a_cut_scope_gives_its_break_reason(tmp_path: Path) -> None:
    out = tmp_path / "out"
    model = ROOT / "test" / "unit" / "models" / "fork_in_chain.json"
    assert sk_compile.main([str(model), "-o", str(out), "-q", "--options", "select=gain"]) == 0
    meta, log = _round_trip(out)
    cut_seqs = {c["seq"] for c in meta["cuts"]}
    broken = [s for s in log.fused if s.break_reason is not None]  # type: ignore[attr-defined]
    assert broken and all(s.break_reason == "UNFUSIBLE_NODE" and s.trigger in cut_seqs for s in broken)


@pytest.mark.parametrize("seed", [3, 11, 29, 41, 57])
def test_random_models_round_trip(tmp_path: Path, seed: int) -> None:
    data = random_model(random.Random(seed), max_streams=3, max_tasks=40, with_scopes=True)
    skir.compile(data).write(tmp_path / "out")
    _round_trip(tmp_path / "out")


def test_long_lists_go_on_in_continued_lines(tmp_path: Path) -> None:
    kernels = {"v": {"kernel_type": "aiv_only", "params": ["inout"]}}
    tasks = [{"type": "kernel", "kernel": "v", "blocks": 8, "args": ["x"]} for _ in range(1500)]
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "long", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels, "streams": [{"name": "s0", "tasks": tasks}]}
    skir.compile(data).write(tmp_path / "out")
    text = (tmp_path / "out" / "sk_fusion_fail_reasons.log").read_text()
    assert "    continued: " in text and max(len(line) for line in text.splitlines()) <= 4096
    _, log = _round_trip(tmp_path / "out")
    assert log.original[0].node_ids == list(range(1500))  # type: ignore[attr-defined]
