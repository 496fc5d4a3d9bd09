#!/usr/bin/env python3
"""Schedule benchmark: simulated makespan per mode against the lower bound (docs/design.md §7).

Usage: `python tools/bench_schedule.py [--sizes 100,1000] [--seeds 3] [--costs FILE] [--options OPTS]`

For each shape and size N it compiles the model with skir (no sk-check) and simulates it
with `skir.sim` in the four modes: eager, aclgraph and aclgraph_es (the original model; the
last with every kernel compiled with early-start, the fair baseline) and superkernel (the
rewritten one). Shapes:

- `chain`, `diamond`, `multistream` (fork-join over 4 streams), `branches` (fork-join over 4
  streams, each branch a chain of small vector kernels taking `SkSystemArgs`), `decode`
  (decoder layers, one scope each): `tools/gen_model.py` models of exactly N tasks;
- `decode_layer`: `examples/decode_layer.json` (its own size);
- `layered`: seeded random layered DAGs of about N kernels: each layer puts 1-4 kernels of
  random type, blocks and duration on streams s0..s3, joined back into s0 by events (no
  scopes: the whole model is one candidate group); the row is the mean over `--seeds`.

Columns: tasks and SuperKernels, makespan per mode (µs), each over the lower bound
max(critical path, work per core type / cores), the SuperKernel makespan over the bound again
with `placement=auto` added (`pl/LB`; the decode models' rope kernels take `SkSystemArgs`), and
the syncs per sub-task left in the SuperKernels' programs (barriers, flag sets and waits,
handshakes, locks). Every cost is
the simulator's default (assumptions; see `skir/sim/default_costs.json`) unless `--costs`.
This is a model, not a measurement.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODES = ("eager", "aclgraph", "aclgraph_es", "superkernel")
_TYPES = (("aiv_only", 48, 2.0), ("aiv_only", 8, 1.0), ("aic_only", 24, 6.0), ("mix_aic_1_2", 24, 9.0),
          ("mix_aic_1_1", 16, 5.0))


def layered(n: int, seed: int) -> dict[str, Any]:
    """A seeded random layered DAG of about `n` kernels over 4 streams (capture dict)."""
    rng = random.Random(seed)
    streams: list[list[dict[str, Any]]] = [[] for _ in range(4)]
    kernels: dict[str, Any] = {}
    events: list[str] = []
    seq = 0

    def add(s: int, task: dict[str, Any]) -> None:
        nonlocal seq
        streams[s].append({"seq": seq, **task})
        seq += 1

    made = 0
    while made < n:
        width = min(rng.randint(1, 4), n - made)
        if width > 1:
            fork = f"f{len(events)}"
            events.append(fork)
            add(0, {"type": "event_record", "event": fork})
            for s in range(1, width):
                add(s, {"type": "event_wait", "event": fork})
        for s in range(width):
            kernel_type, blocks, base = rng.choice(_TYPES)
            name = f"k_{kernel_type}_{blocks}"
            kernels.setdefault(name, {"kernel_type": kernel_type, "params": ["in", "out"], "sk_system_args": True,
                                      "code_bytes": rng.choice((2048, 4096, 8192, 16384))})
            add(s, {"type": "kernel", "kernel": name, "blocks": rng.randint(max(1, blocks // 2), blocks),
                    "args": [f"b{s}", f"b{s}"], "duration_us": round(base * rng.uniform(0.5, 1.5), 2)})
            made += 1
        for s in range(1, width):
            join = f"j{len(events)}"
            events.append(join)
            add(s, {"type": "event_record", "event": join})
            add(0, {"type": "event_wait", "event": join})
    for event in events:
        add(0, {"type": "event_reset", "event": event})
    return {"format": "skir.aclgraph.capture", "version": 1, "model": f"layered_{n}_{seed}",
            "cores": {"aic": 24, "aiv": 48}, "kernels": kernels, "events": events,
            "streams": [{"name": f"s{i}", "tasks": t} for i, t in enumerate(streams) if t or i == 0]}


def measure(model: Any, options: str, costs: Any) -> dict[str, float]:
    """Compile and simulate one model: a row of numbers (`placed`: the SuperKernel makespan with
    `placement=auto` added to the options)."""
    row = _measure(model, options, costs)
    placed = _measure(model, ":".join(o for o in (options, "placement=auto") if o), costs)
    row["placed"], row["placed_x"] = placed["superkernel"], placed["superkernel_x"]
    row["sim_s"] += placed["sim_s"]
    return row


def _measure(model: Any, options: str, costs: Any) -> dict[str, float]:
    import skir
    from skir.api import the_model
    from skir.sim import compare

    result = skir.compile(model, options=options, verify_each=False)
    start = time.perf_counter()
    cmp = compare(result.original, result.module, costs)
    row: dict[str, float] = {"sim_s": time.perf_counter() - start}
    model_op = the_model(result.original)
    row["tasks"] = sum(len(list(s.body.block.ops)) for s in model_op.body.block.ops if hasattr(s, "body"))
    row["sks"] = len(result.superkernels)
    row["bound"] = cmp.bound.value
    for mode in MODES:
        row[mode] = cmp.runs[mode].makespan
        row[f"{mode}_x"] = cmp.ratio(mode) or float("nan")
    row["syncs"] = cmp.syncs_per_subtask()
    return row


HEADER = (f"{'shape':<13} {'N':>6} {'tasks':>6} {'SKs':>5} {'eager us':>10} {'aclgraph us':>11} {'acl+es us':>10} "
          f"{'sk us':>10} {'bound us':>10} {'eager/LB':>8} {'acl/LB':>7} {'es/LB':>6} {'sk/LB':>6} {'pl/LB':>6} "
          f"{'syncs/st':>8} {'sim s':>6}")


def render(shape: str, n: int | str, row: dict[str, float]) -> str:
    return (f"{shape:<13} {n!s:>6} {row['tasks']:>6.0f} {row['sks']:>5.0f} {row['eager']:>10.1f} "
            f"{row['aclgraph']:>11.1f} {row['aclgraph_es']:>10.1f} {row['superkernel']:>10.1f} {row['bound']:>10.1f} "
            f"{row['eager_x']:>8.2f} {row['aclgraph_x']:>7.2f} {row['aclgraph_es_x']:>6.2f} "
            f"{row['superkernel_x']:>6.2f} {row['placed_x']:>6.2f} {row['syncs']:>8.2f} {row['sim_s']:>6.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000", help="comma-separated task counts (default 100,1000)")
    parser.add_argument("--seeds", type=int, default=3, help="random layered models per size (default 3)")
    parser.add_argument("--costs", help="a costs file overriding the simulator's defaults")
    parser.add_argument("--options", default="", help="SuperKernel options for every model")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from gen_model import generate  # type: ignore[import-not-found]

    from skir.sim.costs import load_costs

    costs = load_costs(args.costs)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    print(HEADER)
    for shape, kind in (("chain", "chain"), ("diamond", "diamond"), ("multistream", "fork-join"),
                        ("branches", "branches"), ("decode", "decode")):
        for n in sizes:
            streams = 4 if kind in ("fork-join", "branches") else 2
            print(render(shape, n, measure(generate(kind, n, seed=0, streams=streams), args.options, costs)),
                  flush=True)
    print(render("decode_layer", "-", measure(str(ROOT / "examples" / "decode_layer.json"), args.options, costs)),
          flush=True)
    for n in sizes:
        rows = [measure(layered(n, seed), args.options, costs) for seed in range(args.seeds)]
        mean = {key: sum(r[key] for r in rows) / len(rows) for key in rows[0]}
        mean["sim_s"] = sum(r["sim_s"] for r in rows)
        print(render(f"layered x{args.seeds}", n, mean), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
