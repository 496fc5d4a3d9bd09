#!/usr/bin/env python3
"""Scale benchmark: time in the number of streams and events, capture JSON -> every output.

Usage: `python tools/bench_scale.py [--streams 100,300,1000] [--events 1000,3000,10000]
[--or-waits 1000,3000,10000] [--lock-waits 1000,3000,10000] [--cycles 30,100,300] [--vendor 10000,100000]`

Two shapes (docs/design.md §7 "Other dimensions"), each size in a fresh process
on one core:

- `streams S`: stream s0 forks to S streams (one event), each runs 10 vector kernels and
  records its join event, s0 waits for every join: one stream-fused SuperKernel of 10·S
  sub-tasks over S+1 streams, S+1 events;
- `events E`: two streams hand over E times (kernel, record, wait on the other stream), E
  events: one chain SuperKernel of E sub-tasks with E inner events;
- `or-waits E`: E events each recorded on two streams (after s1's E kernels, and on s2), and
  s0 waiting for each before a kernel of its own: every candidate SuperKernel is judged against
  E waits of an event recorded twice (formation's or-wait rule, docs/design.md §3);
- `lock-waits E`: s0 waits for each of E events that s1 records after a host copy, before a
  kernel of its own: one chain SuperKernel of E sub-tasks with E in-kernel (GM lock) waits on
  outside work, each judged by formation's deadlock rule as the SuperKernel grows;
- `cycles K`: K copies, one after another, of a 70-task model with SuperKernels ordered both
  ways: 4·K SuperKernels dropped as `superkernel_cycle`.

Each size runs `sk-compile MODEL -o OUT -q --timing` `--repeat` times in a fresh process (the
fastest run is shown: the machine's noise only ever adds). Columns, from its timing report:
import (reading the capture JSON into a verified module, and the copy of the input), passes
(the pipeline), verify (the verification between passes `sk-compile` does by default),
outputs (the summary and every product written), total = the command's wall time, process
start and exit included. The goal is total under 10 s at 1,000 streams and at 10k events, and
time linear in each (the last lines give the ratio per 10x and per 3.3x step). A last table times the import of a
vendor SK graph dump (docs/design.md §10) of 10k and 100k nodes.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

KERNEL = {"type": "kernel", "kernel": "v", "blocks": 8, "args": ["a", "b"]}


class _Capture:
    """Tasks of a capture being written, numbered by `seq` in the order they are added."""

    def __init__(self, streams: int):
        self.tasks: list[list[dict[str, Any]]] = [[] for _ in range(streams)]
        self.seq = 0

    def add(self, s: int, task: dict[str, Any]) -> None:
        self.tasks[s].append({"seq": self.seq, **task})
        self.seq += 1

    def model(self, name: str, events: list[str]) -> dict[str, Any]:
        return {"format": "skir.aclgraph.capture", "version": 1, "model": name, "cores": {"aic": 24, "aiv": 48},
                "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}}, "events": events,
                "streams": [{"name": f"s{i}", "tasks": t} for i, t in enumerate(self.tasks)]}


def streams_model(n: int, kernels: int = 10) -> dict[str, Any]:
    c = _Capture(n + 1)
    events = ["fork"] + [f"join{s}" for s in range(1, n + 1)]
    c.add(0, KERNEL)
    c.add(0, {"type": "event_record", "event": "fork"})
    for s in range(1, n + 1):
        c.add(s, {"type": "event_wait", "event": "fork"})
        for _ in range(kernels):
            c.add(s, {**KERNEL, "args": ["a", f"b{s}"]})
        c.add(s, {"type": "event_record", "event": f"join{s}"})
    for e in events[1:]:
        c.add(0, {"type": "event_wait", "event": e})
    for e in events:
        c.add(0, {"type": "event_reset", "event": e})
    return c.model(f"streams_{n}", events)


def events_model(n: int) -> dict[str, Any]:
    c = _Capture(2)
    events = [f"e{i}" for i in range(n)]
    for i, e in enumerate(events):
        c.add(i % 2, KERNEL)
        c.add(i % 2, {"type": "event_record", "event": e})
        c.add(1 - i % 2, {"type": "event_wait", "event": e})
    c.add(n % 2, KERNEL)
    return c.model(f"events_{n}", events)


def or_waits_model(n: int) -> dict[str, Any]:
    c = _Capture(3)
    events = [f"e{i}" for i in range(n)]
    for _ in events:
        c.add(1, KERNEL)
    for e in events:
        c.add(1, {"type": "event_record", "event": e})
        c.add(2, {"type": "event_record", "event": e})
    for e in events:
        c.add(0, {"type": "event_wait", "event": e})
        c.add(0, {**KERNEL, "args": ["a", "c"]})
    return c.model(f"or_waits_{n}", events)


def lock_waits_model(n: int) -> dict[str, Any]:
    c = _Capture(2)
    events = [f"e{i}" for i in range(n)]
    for e in events:
        c.add(1, {"type": "default", "kind": "memcpy"})
        c.add(1, {"type": "event_record", "event": e})
        c.add(0, {"type": "event_wait", "event": e})
        c.add(0, KERNEL)
    return c.model(f"lock_waits_{n}", events)


def cycles_model(n: int) -> dict[str, Any]:
    """`n` copies, one after another on each stream, of a random model whose label groups form
    SuperKernels ordered both ways (`skir.testing.random_model`, seed 53937970: four of its
    SuperKernels are dropped as `superkernel_cycle`). Events, cells and scopes are renamed per copy."""
    from skir.testing import random_model

    base = random_model(random.Random(53937970), max_streams=4, max_tasks=40, with_scopes=True, spare_slots=True)
    out = {**base, "model": f"cycles_{n}", "events": [], "cells": [],
           "streams": [{"name": st["name"], "tasks": []} for st in base["streams"]]}
    for i in range(n):
        for mine, theirs in zip(out["streams"], base["streams"], strict=True):
            mine["tasks"] += [{**t, **{k: f"{t[k]}_{i}" for k in ("event", "cell", "scope") if k in t}}
                              for t in theirs["tasks"]]
        out["events"] += [f"{e}_{i}" for e in base.get("events", [])]
        out["cells"] += [f"{c}_{i}" for c in base.get("cells", [])]
    return out


def vendor_dump(n: int) -> dict[str, Any]:
    """An `sk_graph_origin.json`-shaped dump of about `n` nodes: two streams handing over
    (kernel, record, wait on the other stream), kernels of four function names."""
    streams: list[list[dict[str, Any]]] = [[], []]
    seq = 0

    def node(s: int, task: dict[str, Any], node_type: str) -> None:
        nonlocal seq
        streams[s].append({"nodeId": seq, "streamIdxInGraph": s, "nodeIdxInStream": len(streams[s]),
                           "nodeType": node_type, "scopeName": None, "isScopeNode": False,
                           "taskInfo": [{"taskId": seq, "streamId": 10 + s, **task}]})
        seq += 1

    for i in range(n // 3):
        s = i % 2
        node(s, {"taskType": "KERNEL", "taskTypeInt": 1, "kernelParams": {
            "funcName": f"static_kernel_Op{i % 4}", "numBlocks": 8, "kernelType": "AIV_ONLY", "taskRatio": [0, 1],
            "cap": "0x0", "resolvedNum": 4, "taskGrp": "0x0"}}, "KERNEL")
        event = {"eventId": hex(0x1000 + i), "eventFlag": 0, "eventTaskFlag": 0}
        node(s, {"taskType": "NOTIFY", "taskTypeInt": 2, "eventParams": event}, "NOTIFY")
        node(1 - s, {"taskType": "WAIT", "taskTypeInt": 3, "eventParams": event}, "WAIT")
    return {"version": "1.0", "description": "SuperKernel Raw Task Information from modelRI", "modelId": "1_1",
            "deviceId": 0, "options": {}, "inner_options": {}, "totalStreams": 2, "totalNodes": seq,
            "streams": [{"streamIdxInGraph": i, "nodeCount": len(t), "nodes": t} for i, t in enumerate(streams)]}


def measure_vendor(n: int) -> dict[str, float]:
    from skir.frontends.vendor import from_data

    data = vendor_dump(n)
    start = time.perf_counter()
    from_data(data, "sk_graph_origin.json")
    elapsed = time.perf_counter() - start
    return {"n": sum(len(s["nodes"]) for s in data["streams"]), "import": elapsed,
            "us_per_node": elapsed / max(1, sum(len(s["nodes"]) for s in data["streams"])) * 1e6}


def measure(shape: str, n: int, repeat: int, env: dict[str, str]) -> dict[str, float]:
    """The fastest of `repeat` runs of `sk-compile MODEL -o OUT -q --timing` (a fresh process each,
    the user's command): its wall time and the phases of its timing report."""
    data = MODELS[shape](n)
    best: dict[str, float] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / f"{shape}_{n}.json"
        model.write_text(json.dumps(data))
        for _ in range(repeat):
            out = Path(tmp) / "out"
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "skir.tools.sk_compile", str(model), "-o", str(out), "-q",
                                   "--timing"], check=True, capture_output=True, text=True, env=env)
            wall = time.perf_counter() - start
            row = _phases(done.stderr)
            row["total"] = wall
            if best is None or wall < best["total"]:
                best = row
            subprocess.run(["rm", "-rf", str(out)], check=True)
    assert best is not None
    best["n"], best["tasks"] = n, sum(len(s["tasks"]) for s in data["streams"])
    return best


def _phases(report: str) -> dict[str, float]:
    """import / passes / verify / outputs seconds from a `--timing` report (`skir.progress`)."""
    row = {"import": 0.0, "passes": 0.0, "verify": 0.0, "outputs": 0.0}
    for line in report.splitlines()[1:-1]:
        label, value, _share = line.rsplit(None, 2)
        name, seconds = label.strip(), float(value)
        if line.startswith("  "):
            if name == "verify":
                row["verify"] += seconds
        elif name.startswith("sk-"):
            row["passes"] += seconds
        elif name in ("import", "copy of the input"):
            row["import"] += seconds
        else:
            row["outputs"] += seconds
    row["passes"] -= row["verify"]
    return row


MODELS = {"streams": streams_model, "events": events_model, "or-waits": or_waits_model,
          "lock-waits": lock_waits_model, "cycles": cycles_model}

COLUMNS = (("n", "{:>7.0f}"), ("tasks", "{:>7.0f}"), ("import", "{:>7.2f}"),
           ("passes", "{:>7.2f}"), ("verify", "{:>7.2f}"), ("outputs", "{:>8.2f}"), ("total", "{:>7.2f}"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", default="100,300,1000")
    parser.add_argument("--events", default="1000,3000,10000")
    parser.add_argument("--or-waits", default="1000,3000,10000", help="events recorded twice and waited")
    parser.add_argument("--lock-waits", default="1000,3000,10000", help="in-kernel waits on outside work")
    parser.add_argument("--cycles", default="30,100,300", help="copies of a model with crossing SuperKernels")
    parser.add_argument("--vendor", default="10000,100000", help="vendor dump nodes to import")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the fastest is shown")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_vendor(int(args.one[1]))))
        return 0
    print(f"skir scale benchmark: sk-compile MODEL -o OUT -q, capture JSON -> every output, seconds "
          f"(fastest of {args.repeat} runs, a process each, one core)")
    env = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"}
    for shape, sizes in (("streams", args.streams), ("events", args.events), ("or-waits", args.or_waits),
                          ("lock-waits", args.lock_waits), ("cycles", args.cycles)):
        rows = []
        if not sizes:
            continue
        for n in (int(x) for x in sizes.split(",") if x):
            rows.append(measure(shape, n, args.repeat, env))
        width = max(8, len(shape))
        print(f"  {shape:<{width}}" + "".join(f"{name:>{len(fmt.format(0)) + 1}}" for name, fmt in COLUMNS))
        for row in rows:
            print("  " + " " * width + "".join(" " + fmt.format(row[name]) for name, fmt in COLUMNS))
        for a, b in itertools.pairwise(rows):
            print(f"  {shape} {a['n']} -> {b['n']}: x{b['n'] / a['n']:.1f} size, x{b['total'] / a['total']:.2f} time")
    rows = []
    for n in (int(x) for x in args.vendor.split(",") if x):
        out = subprocess.run([sys.executable, __file__, "--one", "vendor", str(n)], check=True, capture_output=True,
                             text=True, env=env).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    if rows:
        print("  vendor dump import (sk_graph_origin.json dict -> verified module)")
        print(f"  {'nodes':>9} {'import':>8} {'us/node':>8}")
        for row in rows:
            print(f"  {row['n']:>9.0f} {row['import']:>8.2f} {row['us_per_node']:>8.1f}")
        for a, b in itertools.pairwise(rows):
            print(f"  vendor {a['n']} -> {b['n']}: x{b['n'] / a['n']:.1f} size, x{b['import'] / a['import']:.2f} time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
