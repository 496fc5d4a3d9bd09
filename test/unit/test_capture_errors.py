"""The capture JSON v1 importer's error reports (skir.frontends.capture, docs/design.md §8): every error
kind is one line naming the JSON path, and bad input never escapes as anything but a SkirError.
Valid input and the exporter are in test_capture_import.py."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from skir.errors import SkirError
from skir.frontends import capture
from skir.testing import random_model

HEAD = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48}}


def model(streams: list[list[dict[str, Any]]], **top: Any) -> dict[str, Any]:
    """A capture dict with streams s0, s1, ... holding `streams`."""
    data: dict[str, Any] = copy.deepcopy(HEAD)
    data.update(copy.deepcopy(top))
    data["streams"] = [{"name": f"s{i}", "tasks": copy.deepcopy(t)} for i, t in enumerate(streams)]
    return data


def err(data: Any = None, text: str | None = None) -> str:
    def run() -> None:
        if text is not None:
            capture.loads(text, "model.json")
        else:
            capture.from_dict(data, "model.json")

    with pytest.raises(SkirError) as info:
        run()
    message = str(info.value)
    assert "\n" not in message
    return message


KERNELS = {
    "rms": {"kernel_type": "aiv_only", "params": ["in", "in", "out"], "code_bytes": 4096},
    "qkv": {"kernel_type": "mix_aic_1_2", "params": ["in", "in", "out"], "sched_mode": "batch",
            "early_start": {"set": True, "wait": False}, "dcci": {"before": True, "after": False,
                                                                   "disable": True},
            "sync_flags": [1, 2]},
    "k3": {"kernel_type": "aic_only", "sk_capable": False, "sk_symbol": "k3_sk", "split_copies": 4},
}


# ---- errors: one line, naming the JSON path ------------------------------------------------

BASE_STREAMS = [
    [{"type": "kernel", "kernel": "rms", "blocks": 4, "args": ["x", "w", "y"]},
     {"type": "event_record", "event": "e0"},
     {"type": "event_wait", "event": "e1"},
     {"type": "event_reset", "event": "e0"},
     {"type": "event_reset", "event": "e1"}],
    [{"type": "event_wait", "event": "e0"},
     {"type": "value_write", "cell": "c0", "value": 1},
     {"type": "event_record", "event": "e1"},
     {"type": "kernel", "kernel": "k3", "blocks": 1, "args": ["x"]}],
]


def base() -> dict[str, Any]:
    return model(BASE_STREAMS, kernels=KERNELS, buffers={"x": 64}, events=["e0", "e1"], cells=["c0"])


def test_base_is_valid() -> None:
    capture.from_dict(base()).verify()


def test_error_malformed_json() -> None:
    assert err(text='{"format": 1,\n  "version" 1}') == (
        "model.json:2:13: invalid JSON: Expecting ':' delimiter"
    )
    assert err(text='{"a": 1 "b": 2}') == "model.json:1:9: invalid JSON: Expecting ',' delimiter"
    assert err(text='{"a": NaN}') == "model.json: invalid JSON: NaN is not valid JSON"


def test_error_unknown_key() -> None:
    d = base()
    d["streams"][1]["tasks"][2]["color"] = "red"
    assert err(d) == ("model.json: streams[1].tasks[2].color: unknown key for an event_record task "
                      "(expected one of: event, external, seq, task_group, type, update)")
    d = base()
    d["extra"] = 1
    assert err(d).startswith("model.json: extra: unknown key (expected one of: format, version, model")
    d = base()
    d["kernels"]["rms"]["colour"] = 1
    assert err(d).startswith("model.json: kernels.rms.colour: unknown key")


def test_error_duplicate_key() -> None:
    text = json.dumps(base()).replace('"event": "e1"}]', '"event": "e1", "event": "e0"}]', 1)
    assert err(text=text) == "model.json: streams[0].tasks[4].event: duplicate key"
    text = json.dumps(base()).replace('"aiv": 48', '"aiv": 48, "aic": 2')
    assert err(text=text) == "model.json: cores.aic: duplicate key"
    text = json.dumps(base()).replace('"x": 64', '"x": 64, "x": 32')
    assert err(text=text) == "model.json: buffers.x: duplicate key"


def test_error_bool_as_int() -> None:
    d = base()
    d["streams"][0]["tasks"][0]["blocks"] = True
    assert err(d) == "model.json: streams[0].tasks[0].blocks: expected an integer, got a boolean"
    d = base()
    d["cores"]["aiv"] = False
    assert err(d) == "model.json: cores.aiv: expected an integer, got a boolean"
    d = base()
    d["streams"][1]["tasks"][1]["value"] = True
    assert err(d) == "model.json: streams[1].tasks[1].value: expected an integer, got a boolean"


def test_error_wrong_types_and_ranges() -> None:
    d = base()
    d["streams"][0]["tasks"][0]["blocks"] = 65536
    assert err(d) == "model.json: streams[0].tasks[0].blocks: 65536 is out of range [1, 65535]"
    d = base()
    d["streams"][0]["tasks"][1]["external"] = 1
    assert err(d) == "model.json: streams[0].tasks[1].external: expected true or false, got an integer"
    d = base()
    d["streams"][1]["tasks"][1]["value"] = 1 << 64
    assert err(d).startswith("model.json: streams[1].tasks[1].value: 18446744073709551616 is out of range")
    d = base()
    d["kernels"]["qkv"]["params"][1] = "input"
    assert err(d).startswith("model.json: kernels.qkv.params[1]: expected a param role (one of in, out")
    d = base()
    d["streams"][0]["tasks"][0]["type"] = "launch"
    assert err(d).startswith("model.json: streams[0].tasks[0].type: unknown task type 'launch'")
    d = base()
    d["streams"][0]["tasks"][0]["duration_us"] = "fast"
    assert err(d) == "model.json: streams[0].tasks[0].duration_us: expected a number, got a string"
    d = base()
    d["kernels"]["k3"]["split_copies"] = 65
    assert err(d) == "model.json: kernels.k3.split_copies: 65 is out of range [1, 64]"
    d = base()
    d["kernels"]["qkv"]["sync_flags"] = [16]
    assert err(d) == "model.json: kernels.qkv.sync_flags[0]: 16 is out of range [0, 15]"
    d = base()
    d["streams"][0]["tasks"][0]["args"] = "x"
    assert err(d) == "model.json: streams[0].tasks[0].args: expected an array, got a string"
    d = base()
    d["streams"] = {}
    assert err(d) == "model.json: streams: expected an array, got an object"
    assert err([1]) == "model.json: expected an object, got an array"


def test_error_missing_required_key() -> None:
    d = base()
    del d["cores"]
    assert err(d) == "model.json: cores: required key is missing"
    d = base()
    del d["streams"][0]["tasks"][0]["blocks"]
    assert err(d) == "model.json: streams[0].tasks[0].blocks: required key is missing"
    d = base()
    del d["kernels"]["rms"]["kernel_type"]
    assert err(d) == "model.json: kernels.rms.kernel_type: required key is missing"


def test_error_unknown_event() -> None:
    d = base()
    d["streams"][1]["tasks"][0]["event"] = "e9"
    assert err(d) == "model.json: streams[1].tasks[0].event: unknown event 'e9'"
    d = base()
    d["streams"][0]["tasks"][0]["kernel"] = "nope"
    assert err(d) == "model.json: streams[0].tasks[0].kernel: unknown kernel 'nope'"
    d = base()
    d["streams"][1]["tasks"][1]["cell"] = "e0"
    assert err(d) == "model.json: streams[1].tasks[1].cell: 'e0' is an event (events[0]), not a cell"


def test_error_cyclic_sync() -> None:
    # seq-consistent event edges always point forward, so close the cycle with value cells
    d = model(
        [[{"seq": 0, "type": "value_wait", "cell": "c0", "value": 1, "rule": "eq"},
          {"seq": 1, "type": "value_write", "cell": "c1", "value": 1}],
         [{"seq": 2, "type": "value_wait", "cell": "c1", "value": 1, "rule": "geq"},
          {"seq": 3, "type": "value_write", "cell": "c0", "value": 1}]],
        cells=["c0", "c1"],
    )
    message = err(d)
    match = re.fullmatch(r"model\.json: streams\[(\d)\]\.tasks\[(\d)\]: happens-before cycle: "
                         r"@m/@s(\d)/seq (\d) -> (.*); an event or value wait depends on a task that "
                         r"comes after it", message)
    assert match, message
    si, ti, stream, seq, rest = match.groups()
    # the JSON path names the task the cycle is reported at (s0: seq 0, 1; s1: seq 2, 3)
    assert (si, int(ti)) == (stream, int(seq) % 2)
    assert len(rest.split(" -> ")) == 4


def test_error_verifier_names_task_path() -> None:
    d = base()
    d["streams"][0]["tasks"][3:5] = []  # reset e1 on s1 instead: not ordered after s0's wait
    d["streams"][1]["tasks"].insert(3, {"type": "event_reset", "event": "e1"})
    assert err(d) == ("model.json: streams[1].tasks[3]: @m/@s1/seq 6: reset of @e1 is not ordered after "
                      "@m/@s0/seq 5 of the epoch it closes; make the reset wait for it")
    d = base()
    for i, t in enumerate(d["streams"][0]["tasks"] + d["streams"][1]["tasks"]):
        t["seq"] = i
    d["streams"][1]["tasks"][2]["seq"] = 2  # same seq as s0's third task
    assert err(d).startswith("model.json: streams[1].tasks[2]: @m/@s1/seq 2: seq 2 is also used by")


def test_error_wrong_version() -> None:
    d = base()
    d["version"] = 2
    assert err(d) == ("model.json: version: capture version 2 is not supported (this skir reads "
                      "version 1)")
    d["version"] = "1"
    assert err(d) == "model.json: version: expected an integer, got a string"
    d = base()
    d["format"] = "aclgraph"
    assert err(d) == "model.json: format: expected 'skir.aclgraph.capture', got 'aclgraph'"


def test_error_soc() -> None:
    d = base()
    d["soc"] = "Ascend310P3"
    assert err(d).startswith("model.json: soc: 'Ascend310P3' is not a dav-c220 (Atlas A2/A3) SoC")
    d["soc"] = "Ascend910B4-1"
    capture.from_dict(d)


def test_error_name_clash() -> None:
    d = base()
    d["cells"] = ["c0", "rms"]
    assert err(d) == ("model.json: cells[1]: name 'rms' is already used by a kernel (kernels.rms); "
                      "kernels, buffers, events, cells and streams share one namespace")
    d = base()
    d["streams"][1]["name"] = "x"
    assert err(d).startswith("model.json: streams[1].name: name 'x' is already used by a buffer (buffers.x)")
    d = base()
    d["events"].append("e0")
    assert err(d).startswith("model.json: events[2]: name 'e0' is declared twice (events[0])")
    d = base()
    d["streams"][0]["tasks"][0]["args"][2] = "c0"
    assert err(d) == "model.json: streams[0].tasks[0].args[2]: 'c0' is a cell (cells[0]), not a buffer"


def test_error_params_args_mismatch() -> None:
    d = base()
    d["streams"][0]["tasks"][0]["args"] = ["x", "y"]
    assert err(d) == "model.json: streams[0].tasks[0].args: 2 args for kernel 'rms', which has 3 params"
    d = base()
    d["streams"][1]["tasks"].append({"type": "kernel", "kernel": "k3", "blocks": 1, "args": ["x", "x"]})
    assert err(d) == ("model.json: streams[1].tasks[4].args: 2 args for kernel 'k3', which takes 1 "
                      "(from streams[1].tasks[3].args)")


def test_error_kernel_without_params_or_args() -> None:
    d = base()
    del d["streams"][1]["tasks"][3]["args"]
    assert err(d) == (
        "model.json: kernels.k3: kernel 'k3' has no 'params' and no launch passes 'args'; give its params"
    )


def test_error_kernel_name_not_c_identifier() -> None:
    d = base()
    d["kernels"]["my-kernel"] = {"kernel_type": "aiv_only", "params": []}
    assert err(d) == ("model.json: kernels.my-kernel: 'my-kernel' is not a C identifier "
                      "([A-Za-z_][A-Za-z0-9_]*)")


def test_error_partial_seq() -> None:
    d = base()
    d["streams"][1]["tasks"][1]["seq"] = 7
    assert err(d) == ("model.json: streams[1].tasks[1].seq: has 'seq' but streams[0].tasks[0] has none; "
                      "give every task a seq or none")


def test_error_unsatisfiable_capture() -> None:
    d = base()
    d["streams"][1]["tasks"].insert(0, {"type": "event_wait", "event": "e1"})
    # s0 waits on e1, which s1 records only after its own wait on e1: both block
    assert err(d) == (
        "model.json: streams[0].tasks[2]: event_wait on 'e1' can never run in the simulated capture: "
        "no event_record of 'e1' comes first in its epoch and every other stream is blocked too; "
        "record the event before the wait, or give every task a seq"
    )


def test_error_notify_on_wrong_kind() -> None:
    d = base()
    d["streams"][0]["tasks"].append({"type": "default", "kind": "memcpy", "notify": "n"})
    assert err(d) == ("model.json: streams[0].tasks[5].notify: only notify_record / notify_wait tasks "
                      "name a notify, not memcpy")


# ---- robustness: bad input never escapes as anything but a one-line SkirError ---------------

_ODD_VALUES = [None, True, False, 0, -1, 1 << 70, 1.5, float("inf"), "", "x", "e0", "k0", "s0", [], {},
               [1], ["x"], {"a": 1}, [None]]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        out.extend(_paths(value, (*prefix, key)))
    return out


def _mutate(rng: random.Random, data: dict[str, Any]) -> None:
    path = rng.choice(_paths(data)[1:])
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    r = rng.random()
    if r < 0.7:
        parent[path[-1]] = copy.deepcopy(rng.choice(_ODD_VALUES))
    elif r < 0.85:
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent["zz"] = 1


def test_mutated_models_fail_cleanly() -> None:
    rng = random.Random(1234)
    messages = []
    for _ in range(400):
        data = random_model(rng, max_tasks=20)
        for _ in range(rng.randint(1, 3)):
            _mutate(rng, data)
        try:
            capture.from_dict(data, "f.json").verify()
        except SkirError as e:
            messages.append(str(e))
    assert len(messages) > 300
    assert all("\n" not in m and m.startswith("f.json") for m in messages)


def test_corrupted_text_fails_cleanly() -> None:
    rng = random.Random(99)
    text = capture.dumps(capture.from_dict(random_model(random.Random(5), max_tasks=30)))
    messages = []
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice('{}[],:"0a \\nt')
        try:
            capture.loads("".join(chars), "t.json")
        except SkirError as e:
            messages.append(str(e))
    assert len(messages) > 200
    assert all("\n" not in m and m.startswith("t.json") for m in messages)
