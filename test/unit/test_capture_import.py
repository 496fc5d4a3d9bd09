"""The capture JSON v1 importer and exporter on valid input (skir.frontends.capture, docs/design.md §8):
every task type, the capture-order seq simulation, and the exporter round trip.  Error reports are
in test_capture_errors.py."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from skir.errors import SkirError
from skir.frontends import capture
from skir.testing import parse_mlir

HEAD = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48}}


def model(streams: list[list[dict[str, Any]]], **top: Any) -> dict[str, Any]:
    """A capture dict with streams s0, s1, ... holding `streams`."""
    data: dict[str, Any] = copy.deepcopy(HEAD)
    data.update(copy.deepcopy(top))
    data["streams"] = [{"name": f"s{i}", "tasks": copy.deepcopy(t)} for i, t in enumerate(streams)]
    return data


def body(module: Any) -> list[str]:
    """The printed lines of the model, stripped."""
    return [line.strip() for line in str(module).splitlines()[2:-2]]


def seqs(module: Any) -> dict[str, list[tuple[str, int]]]:
    out = {}
    for stream in module.body.block.first_op.body.block.ops:
        if stream.name == "aclgraph.stream":
            out[stream.sym_name.data] = [(op.name.split(".")[1], op.seq.data) for op in stream.body.block.ops]
    return out


KERNELS = {
    "rms": {"kernel_type": "aiv_only", "params": ["in", "in", "out"], "code_bytes": 4096},
    "qkv": {"kernel_type": "mix_aic_1_2", "params": ["in", "in", "out"], "sched_mode": "batch",
            "early_start": {"set": True, "wait": False}, "dcci": {"before": True, "after": False,
                                                                   "disable": True},
            "sync_flags": [1, 2]},
    "k3": {"kernel_type": "aic_only", "sk_capable": False, "sk_symbol": "k3_sk", "split_copies": 4},
}


# ---- valid input -------------------------------------------------------------------------


def test_every_task_type() -> None:
    data = model(
        [
            [
                {"seq": 0, "type": "scope_begin", "scope": "l0", "options": "early-start=1"},
                {"seq": 1, "type": "placeholder"},
                {"seq": 2, "type": "kernel", "kernel": "rms", "blocks": 48, "args": ["x", "w", "y"],
                 "duration_us": 3.5},
                {"seq": 3, "type": "event_record", "event": "e0"},
                {"seq": 6, "type": "value_write", "cell": "c0", "value": 1},
                {"seq": 7, "type": "default", "kind": "notify_record", "notify": "n0"},
                {"seq": 8, "type": "scope_end", "scope": "l0"},
                {"seq": 9, "type": "scope_begin", "scope": None},
                {"seq": 10, "type": "scope_end", "scope": None},
                {"seq": 13, "type": "event_wait", "event": "e1", "external": True},
            ],
            [
                {"seq": 4, "type": "event_wait", "event": "e0"},
                {"seq": 5, "type": "kernel", "kernel": "qkv", "blocks": 24, "task_group": True},
                {"seq": 11, "type": "value_wait", "cell": "c0", "value": 1, "rule": "eq"},
                {"seq": 12, "type": "default", "kind": "memcpy"},
                {"seq": 14, "type": "kernel", "kernel": "k3", "blocks": 2, "args": ["x", "y", "z"]},
                {"seq": 15, "type": "event_reset", "event": "e0"},
            ],
        ],
        soc="Ascend910_9391", kernels=KERNELS, buffers={"x": 65536, "w": 1024},
        events=["e0", "e1"], cells=["c0"],
    )
    module = capture.from_dict(data, "model.json")
    module.verify()  # the full xDSL verification passes too
    assert str(module).splitlines()[1].strip() == (
        'aclgraph.model @m cores(aic = 24, aiv = 48) soc "Ascend910_9391" {'
    )
    assert body(module) == [
        "aclgraph.kernel @rms aiv_only params(in, in, out) code_bytes 4096",
        "aclgraph.kernel @qkv mix_aic_1_2 params(in, in, out) batch early_start(set) "
        "dcci(before, disable) sync_flags [1, 2]",
        'aclgraph.kernel @k3 aic_only params 3 not_sk_capable sk_symbol "k3_sk" split_copies 4',
        "aclgraph.buffer @x bytes 65536",
        "aclgraph.buffer @w bytes 1024",
        "aclgraph.buffer @y",
        "aclgraph.buffer @z",
        "aclgraph.event @e0",
        "aclgraph.event @e1",
        "aclgraph.cell @c0",
        "aclgraph.stream @s0 slots 10 {",
        'aclgraph.scope_begin seq 0 "l0" options "early-start=1"',
        "aclgraph.placeholder seq 1",
        "aclgraph.launch seq 2 @rms blocks 48 args(@x, @w, @y) duration 3.5",
        "aclgraph.record seq 3 @e0",
        "aclgraph.value_write seq 6 @c0 value 1",
        'aclgraph.opaque seq 7 notify_record "n0"',
        'aclgraph.scope_end seq 8 "l0"',
        "aclgraph.scope_begin seq 9 none",
        "aclgraph.scope_end seq 10 none",
        "aclgraph.wait seq 13 @e1 external",
        "}",
        "aclgraph.stream @s1 slots 6 {",
        "aclgraph.wait seq 4 @e0",
        "aclgraph.launch seq 5 @qkv blocks 24 task_group",
        "aclgraph.value_wait seq 11 @c0 eq 1",
        "aclgraph.opaque seq 12 memcpy",
        "aclgraph.launch seq 14 @k3 blocks 2 args(@x, @y, @z)",
        "aclgraph.reset seq 15 @e0",
        "}",
    ]


def test_defaults_and_optional_sections() -> None:
    data = {"format": "skir.aclgraph.capture", "version": 1, "cores": {"aic": 1, "aiv": 2},
            "streams": [{"name": "s", "tasks": []}]}
    assert body(capture.from_dict(data)) == ["aclgraph.stream @s slots 0 {", "}"]
    assert str(capture.from_dict(data)).splitlines()[1].strip().startswith("aclgraph.model @model ")


def test_load_file_and_path_in_messages(tmp_path: Any) -> None:
    path = tmp_path / "model.json"
    data = model([[{"type": "kernel", "kernel": "rms", "blocks": 4}]], kernels={"rms": KERNELS["rms"]})
    path.write_text(json.dumps(data))
    assert "aclgraph.launch seq 0 @rms blocks 4" in str(capture.load(path))
    data["streams"][0]["tasks"][0]["blocks"] = 0
    path.write_text(json.dumps(data))
    with pytest.raises(SkirError, match=r"^.*model\.json: streams\[0\]\.tasks\[0\]\.blocks: 0 is out of range"):
        capture.load(path)
    with pytest.raises(SkirError, match="cannot read"):
        capture.load(tmp_path / "missing.json")


def test_seq_simulation_waits_until_record() -> None:
    data = model(
        [
            [{"type": "event_wait", "event": "e0"}, {"type": "kernel", "kernel": "rms", "blocks": 1}],
            [{"type": "kernel", "kernel": "rms", "blocks": 1}, {"type": "event_record", "event": "e0"},
             {"type": "kernel", "kernel": "rms", "blocks": 1}],
        ],
        kernels={"rms": KERNELS["rms"]}, events=["e0"],
    )
    # s0 is blocked at its wait, s1 runs to its record, then s0 (the lowest index) runs first
    assert seqs(capture.from_dict(data)) == {
        "s0": [("wait", 2), ("launch", 3)],
        "s1": [("launch", 0), ("record", 1), ("launch", 4)],
    }


def test_seq_simulation_external_wait_never_blocks() -> None:
    data = model(
        [[{"type": "event_wait", "event": "e0", "external": True},
          {"type": "kernel", "kernel": "rms", "blocks": 1}],
         [{"type": "event_record", "event": "e0"}]],
        kernels={"rms": KERNELS["rms"]}, events=["e0"],
    )
    assert seqs(capture.from_dict(data)) == {"s0": [("wait", 0), ("launch", 1)], "s1": [("record", 2)]}


def test_seq_simulation_epochs() -> None:
    rec = {"type": "event_record", "event": "e0"}
    wait1 = {"type": "event_wait", "event": "e1"}
    resets = [{"type": "event_reset", "event": "e0"}, {"type": "event_reset", "event": "e1"}]
    side = [{"type": "event_wait", "event": "e0"}, {"type": "kernel", "kernel": "rms", "blocks": 1},
            {"type": "event_record", "event": "e1"}]
    data = model([[rec, wait1, *resets, rec, wait1, *resets], side + side], kernels={"rms": KERNELS["rms"]},
                 events=["e0", "e1"])
    module = capture.from_dict(data)
    # a reset starts a new epoch: s1's second wait blocks until the second record of e0
    assert seqs(module) == {
        "s0": [("record", 0), ("wait", 4), ("reset", 5), ("reset", 6), ("record", 7), ("wait", 11),
               ("reset", 12), ("reset", 13)],
        "s1": [("wait", 1), ("launch", 2), ("record", 3), ("wait", 8), ("launch", 9), ("record", 10)],
    }
    module.verify()


def test_params_inferred_from_args() -> None:
    data = model([[{"seq": 0, "type": "kernel", "kernel": "k", "blocks": 1, "args": ["a", "b"]},
                   {"seq": 1, "type": "kernel", "kernel": "k", "blocks": 1}]],
                 kernels={"k": {"kernel_type": "mix_aic_1_1"}})
    assert body(capture.from_dict(data))[0] == "aclgraph.kernel @k mix_aic_1_1 params 2"


def test_does_not_modify_input() -> None:
    data = model([[{"type": "kernel", "kernel": "rms", "blocks": 1}]], kernels={"rms": KERNELS["rms"]})
    before = copy.deepcopy(data)
    capture.from_dict(data)
    assert data == before


# ---- exporter ----------------------------------------------------------------------------


def test_export_round_trip_and_defaults() -> None:
    data = model(
        [[{"type": "kernel", "kernel": "rms", "blocks": 48, "args": ["x", "w", "y"], "duration_us": 3},
          {"type": "event_record", "event": "e0"},
          {"type": "scope_begin", "scope": None}, {"type": "scope_end", "scope": None}],
         [{"type": "event_wait", "event": "e0", "external": False, "task_group": False},
          {"type": "kernel", "kernel": "k3", "blocks": 1, "args": ["y", "z", "x"]}]],
        kernels={**KERNELS, "rms": {**KERNELS["rms"], "sched_mode": "normal", "sk_capable": True,
                                    "early_start": {"set": False, "wait": False}}},
        buffers={"x": 8}, events=["e0"], cells=[],
    )
    module = capture.from_dict(data)
    out = capture.dump(module)
    assert list(out) == ["format", "version", "model", "cores", "kernels", "buffers", "events", "streams"]
    assert out["kernels"]["rms"] == {"kernel_type": "aiv_only", "params": ["in", "in", "out"],
                                     "code_bytes": 4096}
    assert out["kernels"]["k3"] == {"kernel_type": "aic_only", "sk_capable": False, "sk_symbol": "k3_sk",
                                    "split_copies": 4}  # params inferred again from args
    assert out["buffers"] == {"x": 8}  # y, z stay implicit: the importer declares them the same
    assert out["streams"][0]["tasks"][0] == {"seq": 0, "type": "kernel", "kernel": "rms", "blocks": 48,
                                             "args": ["x", "w", "y"], "duration_us": 3.0}
    assert out["streams"][1]["tasks"][0] == {"seq": 4, "type": "event_wait", "event": "e0"}
    assert out["streams"][0]["tasks"][2] == {"seq": 2, "type": "scope_begin", "scope": None}
    assert str(capture.from_dict(out)) == str(module)
    text = capture.dumps(module)
    assert text == capture.dumps(capture.loads(text))
    assert str(capture.loads(text)) == str(module)
    json.loads(text)


def test_export_keeps_buffer_order_with_null(tmp_path: Any) -> None:
    text = """builtin.module { aclgraph.model @m cores(aic = 2, aiv = 4) {
      aclgraph.kernel @k aiv_only params(in)
      aclgraph.buffer @a
      aclgraph.buffer @b bytes 16
      aclgraph.buffer @c
      aclgraph.stream @s slots 1 { aclgraph.launch seq 0 @k blocks 1 args(@a) }
    } }"""
    module = parse_mlir(text)
    out = capture.dump(module)
    assert out["buffers"] == {"a": None, "b": 16, "c": None}
    capture.save(module, tmp_path / "m.json")
    assert str(capture.load(tmp_path / "m.json")) == str(module)


def test_export_params_count_without_args() -> None:
    module = parse_mlir("""builtin.module { aclgraph.model @m cores(aic = 2, aiv = 4) {
      aclgraph.kernel @k aiv_only params 3
      aclgraph.stream @s slots 1 { aclgraph.launch seq 0 @k blocks 1 }
    } }""")
    assert capture.dump(module)["kernels"]["k"] == {"kernel_type": "aiv_only", "params": 3}
    assert str(capture.from_dict(capture.dump(module))) == str(module)


def test_export_rejects_rewritten_model() -> None:
    module = parse_mlir("""builtin.module { aclgraph.model @m cores(aic = 2, aiv = 4) {
      aclgraph.kernel @k aiv_only params(in)
      aclgraph.stream @s slots 1 { aclgraph.disabled seq 0 was launch @k blocks 1 }
    } }""")
    with pytest.raises(SkirError, match=r"^@m/@s/seq 0: 'aclgraph.disabled': a rewritten model cannot be "
                       r"exported in capture v1$"):
        capture.dump(module)


def test_export_needs_exactly_one_model() -> None:
    text = ("builtin.module { aclgraph.model @a cores(aic = 1, aiv = 1) {} "
            "aclgraph.model @b cores(aic = 1, aiv = 1) {} }")
    with pytest.raises(SkirError, match=r"exactly one aclgraph\.model; this module has 2"):
        capture.dump(parse_mlir(text))
    with pytest.raises(SkirError, match="has 0"):
        capture.dump(parse_mlir("builtin.module {}"))
