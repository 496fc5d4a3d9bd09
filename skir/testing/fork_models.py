"""Random fork/join models whose event epochs spread their waits over several SuperKernels, and
over SuperKernels and streams (docs/design.md §3 (e), (h)).

`fork_model(rng)` returns a capture dict. Stream `s0` records `fork`; each worker stream may run
a kernel before it (outside the epoch), waits on `fork`, runs a chain of small kernels and records
its own `join<i>`; `s0` then waits on every join and (mostly) resets `fork` after them, as the
runtime's capture appends a reset for every event. Some models have a spare slot (a placeholder)
after each kernel, which the front waits and back blocks of SuperKernels across streams take.

What cuts the workers' chains into different SuperKernels is drawn: a batch kernel whose exact
block count disagrees with the other workers' (`syncall_block_mismatch`), a kernel that is not
`sk_capable` (so the wait before it stays a stream task), a scope per worker (half the models:
one SuperKernel each), or nothing (the chains fuse into one queue SuperKernel that holds every
wait). The kernels mostly take `sk::SkSystemArgs`, as random fork/join campaigns draw them, so
`placement=auto` has something to place.

```python
data = fork_model(random.Random(7))       # s0: record fork ... wait join1, join2 ... reset fork
```
"""

from __future__ import annotations

import random
from typing import Any

TYPES = ("aic_only", "aiv_only", "mix_aic_1_0", "mix_aiv_1_0", "mix_aic_1_2")


def fork_model(rng: random.Random, max_workers: int = 3, max_chain: int = 2) -> dict[str, Any]:
    """A random fork/join capture dict (see the module docstring)."""
    workers = rng.randint(2, max(2, max_workers))
    kernels: dict[str, Any] = {}
    tasks: list[list[dict[str, Any]]] = [[] for _ in range(workers + 1)]
    # one kernel type and block count per worker, the counts distinct: a batch kernel's exact
    # count then disagrees with the other workers', which cuts the SuperKernel between them
    types = [rng.choice(TYPES) for _ in range(workers)]
    counts = rng.sample((1, 2, 4, 8, 12, 16, 24), workers)
    spare = rng.random() < 0.6  # spare slots after each kernel, which front waits and back blocks take

    def kernel(w: int, cut: str) -> None:
        name = f"k{len(kernels)}"
        spec: dict[str, Any] = {"kernel_type": types[w - 1], "params": ["in", "in", "out"]}
        if rng.random() < 0.7:
            spec["sk_system_args"] = True
        if cut == "batch":
            spec["sched_mode"] = "batch"
        elif cut == "unfusible":
            spec["sk_capable"] = False
        kernels[name] = spec
        tasks[w].append({"type": "kernel", "kernel": name, "blocks": counts[w - 1],
                         "args": [f"r{w}_{len(tasks[w])}", f"h{rng.randrange(3)}", f"o{w}"],
                         "duration_us": rng.choice((0.5, 3.0, 6.0))})
        if spare:
            tasks[w].append({"type": "placeholder"})

    scoped = rng.random() < 0.5  # each worker's chain a scope of its own: one SuperKernel per worker

    def marker(w: int, kind: str) -> None:
        pads = [{"type": "placeholder"}, {"type": "placeholder"}]
        mark = {"type": kind, "scope": f"w{w}"}
        tasks[w].extend([mark, *pads] if kind == "scope_begin" else [*pads, mark])

    tasks[0].append({"type": "event_record", "event": "fork"})
    joined = []
    for w in range(1, workers + 1):
        if scoped:
            marker(w, "scope_begin")
        if rng.random() < 0.6:  # work before the fork: the SuperKernel that takes it holds the wait
            kernel(w, "none")
        if rng.random() < 0.15:  # a worker outside the epoch, as s2 of the reproducer
            kernel(w, rng.choice(("none", "batch")))
        else:
            tasks[w].append({"type": "event_wait", "event": "fork"})
            for i in range(rng.randint(1, max(1, max_chain))):
                kernel(w, rng.choice(("none", "batch", "batch", "unfusible")) if i == 0 else "none")
            tasks[w].append({"type": "event_record", "event": f"join{w}"})
            joined.append(w)
        if scoped:
            marker(w, "scope_end")
    for w in rng.sample(joined, len(joined)):
        tasks[0].append({"type": "event_wait", "event": f"join{w}"})
    if rng.random() < 0.8:  # the capture's closing reset; without it the cell ends the model at 1
        tasks[0].append({"type": "event_reset", "event": "fork"})
    for w in joined:
        if rng.random() < 0.5:
            tasks[0].append({"type": "event_reset", "event": f"join{w}"})
    _capture_order(rng, tasks, one_by_one=scoped)
    return {"format": "skir.aclgraph.capture", "version": 1, "model": "fork", "cores": {"aic": 24, "aiv": 48},
            "kernels": kernels, "events": ["fork", *(f"join{w}" for w in joined)],
            "streams": [{"name": f"s{i}", "tasks": t} for i, t in enumerate(tasks)]}


def _capture_order(rng: random.Random, tasks: list[list[dict[str, Any]]], one_by_one: bool) -> None:
    """Number the tasks in a random capture order that keeps every stream's order and captures
    each record before the waits on its event (so every edge points forward). `one_by_one`
    captures a worker stream whole before the next one starts, so that scopes (which are ranges
    of capture order) stay one worker's each."""
    recorded: set[str] = set()
    nexts = [0] * len(tasks)
    for seq in range(sum(len(t) for t in tasks)):
        ready = [s for s, ts in enumerate(tasks) if nexts[s] < len(ts)
                 and (ts[nexts[s]]["type"] != "event_wait" or ts[nexts[s]]["event"] in recorded)]
        started = [s for s in ready if s and 0 < nexts[s]]
        s = (started[0] if started else min(ready)) if one_by_one else rng.choice(ready)
        task = tasks[s][nexts[s]]
        task["seq"] = seq
        if task["type"] == "event_record":
            recorded.add(task["event"])
        nexts[s] += 1


def fork_waits(module: Any) -> tuple[int, int]:
    """(SuperKernels waiting on `fork`'s cell, stream value waits on it) of a compiled module:
    where the fork epoch's waits went."""
    from skir.dialects.aclgraph import ModelOp, StreamOp, ValueWaitOp
    from skir.dialects.superkernel import SuperKernelOp, WaitLockOp

    sks = streams = 0
    for model in module.ops:
        if not isinstance(model, ModelOp):
            continue
        for op in model.body.block.ops:
            if isinstance(op, SuperKernelOp):
                sks += any(isinstance(p, WaitLockOp) and p.cell.root_reference.data.startswith("fork")
                           for p in op.program())
            elif isinstance(op, StreamOp):
                streams += sum(1 for t in op.body.block.ops
                               if isinstance(t, ValueWaitOp) and t.cell.root_reference.data.startswith("fork"))
    return sks, streams
