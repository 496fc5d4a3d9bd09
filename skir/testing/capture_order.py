"""An order over a capture JSON computed apart from skir's analysis, for tests of front ends.

A front end turns a program's tensor uses into tasks and the events between streams; these
helpers read only the JSON (kernel args and their params' roles, streams, event records and
waits) and check that a buffer written on one stream is used on another only after the write:

```python
assert check_writes_ordered(capture_json) >= 1     # the number of cross-stream pairs it checked
```

Happens-before is computed by brute force (each task after its stream predecessor, each wait
after the latest record of its event before it in seq order), so it is for small graphs.
"""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def tasks(model: Json) -> list[tuple[str, Json]]:
    """(stream, task) of every task, in seq order."""
    return sorted(((s["name"], t) for s in model["streams"] for t in s["tasks"]), key=lambda st: st[1]["seq"])


def uses(model: Json, task: Json) -> tuple[set[str], set[str]]:
    """(buffers read, buffers written) of a kernel task, from its args and its kernel's roles."""
    if task["type"] != "kernel":
        return set(), set()
    roles = model["kernels"][task["kernel"]]["params"]
    pairs = list(zip(task["args"], roles, strict=True))
    return {a for a, r in pairs if r in ("in", "inout")}, {a for a, r in pairs if r in ("out", "inout")}


def ordered_after(model: Json) -> set[tuple[int, int]]:
    """Happens-before over seqs: stream order, and each record before the later waits of its event."""
    before: dict[int, set[int]] = {}
    last_on: dict[str, int] = {}
    last_record: dict[str, int] = {}
    for stream, task in tasks(model):
        seq = task["seq"]
        preds: set[int] = set()
        if stream in last_on:
            preds |= {last_on[stream]} | before[last_on[stream]]
        if task["type"] == "event_wait" and task["event"] in last_record:
            record = last_record[task["event"]]
            preds |= {record} | before[record]
        if task["type"] == "event_record":
            last_record[task["event"]] = seq
        before[seq] = preds
        last_on[stream] = seq
    return {(a, b) for b, preds in before.items() for a in preds}


def check_writes_ordered(model: Json) -> int:
    """Assert that every use on another stream of a buffer after a kernel wrote it is ordered
    after the write; returns how many such pairs there were."""
    hb = ordered_after(model)
    order = tasks(model)
    pairs = 0
    for i, (stream, writer) in enumerate(order):
        _, written = uses(model, writer)
        for other, later in order[i + 1:]:
            reads, writes = uses(model, later)
            for buffer in sorted(written & (reads | writes)):
                if other != stream:
                    pairs += 1
                    assert (writer["seq"], later["seq"]) in hb, (
                        f"@{other} seq {later['seq']} uses {buffer}, which @{stream} seq {writer['seq']} wrote, "
                        "without waiting for it")
    return pairs
