#!/usr/bin/env python3
"""Synchronisation benchmark: sk-lower-sync, sk-prune-sync and sk-check on one big SuperKernel.

Usage: `python tools/bench_sync.py [--subtasks 1000,10000] [--seed 0]`

For each size N it builds two models whose whole work fuses into one SuperKernel of about N
sub-tasks (`tools/gen_model.py`): `chain`, one stream (a chain SuperKernel: one program
order, barriers between class pairs), and `fork-join`, four streams forking and joining
(a queue SuperKernel: one program per core type, cross-core flag pairs). It times, in one
process on one core, formation and outlining (once, untimed), then `sk-lower-sync`,
`sk-prune-sync` and `sk-check`, and prints seconds, microseconds per sub-task and the syncs
per sub-task before and after pruning. The last lines give T(10N) / T(N) per step (near
10 means near-linear).
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import pairwise
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gen_model import generate  # type: ignore[import-not-found]  # noqa: E402

from skir.analysis.proof.sk_check import check_module  # noqa: E402
from skir.analysis.sync.sync_prune import count_syncs  # noqa: E402
from skir.api import make_context, the_model  # noqa: E402
from skir.dialects.superkernel import SuperKernelOp  # noqa: E402
from skir.frontends.capture import from_dict  # noqa: E402
from skir.gc_pause import paused_gc  # noqa: E402
from skir.passes.form_scopes import FormScopesPass  # noqa: E402
from skir.passes.lower_sync import LowerSyncPass  # noqa: E402
from skir.passes.outline import OutlinePass  # noqa: E402
from skir.passes.place_sync import PlaceSyncPass  # noqa: E402
from skir.passes.prune_sync import PruneSyncPass  # noqa: E402

# tasks per sub-task of the generated kinds (fork-join: forks, joins and resets around kernels)
TASKS_PER_SUBTASK = {"chain": 1.0, "fork-join": 3.0}


def _syncs(module) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    sks = [op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp)]
    counts = [count_syncs(sk) for sk in sks]
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


def measure(kind: str, subtasks: int, seed: int) -> dict[str, float | str]:
    data = generate(kind, int(subtasks * TASKS_PER_SUBTASK[kind]), seed=seed, streams=4)
    module = from_dict(data)
    ctx = make_context()
    row: dict[str, float | str] = {"kind": kind}
    with paused_gc():
        FormScopesPass().apply(ctx, module)
        OutlinePass().apply(ctx, module)
        sks = [op for op in the_model(module).body.block.ops if isinstance(op, SuperKernelOp)]
        row["sks"] = len(sks)
        row["form"] = sks[0].form.data.value if len(sks) == 1 else "mixed"
        for name, steps in (("lower", (PlaceSyncPass(), LowerSyncPass())), ("prune", (PruneSyncPass(),))):
            start = time.perf_counter()
            for step in steps:
                step.apply(ctx, module)
            row[name] = time.perf_counter() - start
            row[f"syncs_{name}"], row["subtasks"] = _syncs(module)
        start = time.perf_counter()
        report = check_module(module)
        row["check"] = time.perf_counter() - start
    if not report.ok:
        raise SystemExit(f"sk-check failed on the {kind} model: {report.violations[0]}")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subtasks", default="1000,10000")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sizes = [int(s) for s in args.subtasks.split(",")]
    print("skir sync benchmark: one SuperKernel per model; seconds, and microseconds per sub-task")
    header = f"{'kind':>10} {'form':>6} {'subtasks':>9} {'lower':>7} {'prune':>7} {'check':>7}" \
             f" {'us/st lower':>12} {'us/st prune':>12} {'us/st check':>12} {'syncs/st':>9} {'pruned':>7}"
    print(header)
    rows: dict[tuple[str, int], dict] = {}  # type: ignore[type-arg]
    for kind in TASKS_PER_SUBTASK:
        for n in sizes:
            row = measure(kind, n, args.seed)
            rows[(kind, n)] = row
            st = int(row["subtasks"])
            us = {k: 1e6 * float(row[k]) / st for k in ("lower", "prune", "check")}
            print(f"{kind:>10} {row['form']:>6} {st:>9} {row['lower']:>7.2f} {row['prune']:>7.2f} {row['check']:>7.2f}"
                  f" {us['lower']:>12.1f} {us['prune']:>12.1f} {us['check']:>12.1f}"
                  f" {int(row['syncs_lower']) / st:>9.2f} {int(row['syncs_prune']) / st:>7.2f}", flush=True)
    for kind in TASKS_PER_SUBTASK:
        for small, big in pairwise(sizes):
            a, b = rows[(kind, small)], rows[(kind, big)]
            factor = int(b["subtasks"]) / int(a["subtasks"])
            ratios = ", ".join(f"{k} x{float(b[k]) / float(a[k]):.1f}" for k in ("lower", "prune", "check"))
            print(f"scaling {kind} {int(a['subtasks'])} -> {int(b['subtasks'])} sub-tasks (x{factor:.1f}): {ratios}")


if __name__ == "__main__":
    main()
