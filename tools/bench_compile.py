#!/usr/bin/env python3
"""Compile-time benchmark: a table of import, parse, verify, print and per-pass times.

Usage: `python tools/bench_compile.py [--sizes 1000,10000,100000] [--kind decode] [--seed 0] [--repeat 2]
[--end-to-end 1000,10000] [--emulate-max 1000] [--report-max N] [--product 10000]`

For each size N it generates a model of N tasks (`tools/gen_model.py`), then, in `--repeat`
fresh processes (default 2; each time shown is the least of them), measures (one core):

- import: capture JSON (in memory) -> verified module;
- parse / print: the module's `.mlir` text in custom syntax;
- verify: `module.verify()` of the parsed module;
- each pass from an in-memory module, verification between passes off;
- T_passes: the whole pipeline; T_floor: parse + print; their ratio (docs/design.md §7 goal <= 1.5);
- peak RSS above the post-import baseline while parsing the `.mlir` and running every
  pass, per task, in a process of its own (goal <= 2 KB); *held*: what a copy of the result
  module takes on the Python heap per task (tracemalloc; attributes shared with the original),
  a lower bound on holding the result as xDSL IR at all.

The last line reports T(100k) / T(10k) for parse and for the passes (goal <= 11).

A second table times what a user waits for: the `sk-compile` command (process start included,
capture JSON -> every output) for each `--end-to-end` size, its peak RSS per task (the process's
own, everything included), with `--report` up to `--report-max` tasks (docs/design.md §7:
at most 1.5x the compile without it) and, up to `--emulate-max` tasks, with `--emulate` on a warm
shim cache (a first run fills a private cache).

A third table, for each `--product` size, sets the passes against xDSL's own cost of their
product: the ops (every op, nested ones included) of the model and of the result module, and
parse + print of each one's `.mlir` text (*floor in* is the T_floor above; *floor out* the same
for the result, which is what the pipeline builds).
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_model import generate  # type: ignore[import-not-found]  # noqa: E402

from skir.api import make_context  # noqa: E402
from skir.frontends.capture import from_dict  # noqa: E402
from skir.gc_pause import collect_young, paused_gc  # noqa: E402
from skir.parsing import LocatingParser, SourceMap  # noqa: E402
from skir.passes.pipeline import pipeline_passes  # noqa: E402


def _rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _timed(fn, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def measure_memory(path: str, n: int) -> tuple[float, float]:
    """Peak RSS above the post-import baseline, in KB per task, for parse + passes of `path`;
    and the KB per task a copy of the result takes on the Python heap (`_held_kb`)."""
    ctx = make_context()
    text = Path(path).read_text()
    gc.collect()
    base = _rss_kb()
    with paused_gc():
        module = LocatingParser(ctx, text, path, SourceMap()).parse_module()
        _run_passes(ctx, module)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return max(0, peak - base) / n, _held_kb(module) / n


def _held_kb(module: object) -> float:
    """KB the Python heap needs to hold a copy of the result module: its ops, regions and
    property dictionaries, the attributes shared with the original (a lower bound on what
    holding the result as xDSL IR takes)."""
    import tracemalloc

    from skir.xdsl_fast.clone import clone_tree

    gc.collect()
    tracemalloc.start()
    copy = clone_tree(module)  # type: ignore[type-var]
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del copy
    return held / 1024


def _run_passes(ctx: object, module: object) -> dict[str, float]:
    """Every pass of the pipeline on `module`, the young generation collected after each (as
    sk-opt and sk-compile run; the caller pauses the collector): seconds per pass."""
    seconds: dict[str, float] = {}
    for p in pipeline_passes(""):
        _, seconds[p.name] = _timed(lambda p=p: (p.apply(ctx, module), collect_young()))  # type: ignore[arg-type]
    return seconds


def measure(n: int, kind: str, seed: int, text_path: str) -> dict[str, float]:
    """Run every step once for a model of `n` tasks; seconds per step, plus memory."""
    data = generate(kind, n, seed=seed)
    row: dict[str, float] = {"n": n}
    module, row["import"] = _timed(lambda: from_dict(data))
    text, row["print"] = _timed(str, module)
    Path(text_path).write_text(text)
    del module
    ctx = make_context()
    with paused_gc():  # as sk-opt and sk-compile run
        parsed, row["parse"] = _timed(lambda: LocatingParser(ctx, text, "bench.mlir", SourceMap()).parse_module())
        _, row["verify"] = _timed(parsed.verify)
        seconds = _run_passes(ctx, parsed)
    row.update(seconds)
    total = sum(seconds.values())
    row["T_passes"] = total
    row["T_floor"] = row["parse"] + row["print"]
    row["ratio"] = total / row["T_floor"]
    return row


def measure_product(n: int, kind: str, seed: int) -> dict[str, float]:
    """Ops and parse + print of the model and of the pipeline's result, and the passes between."""
    text = str(from_dict(generate(kind, n, seed=seed)))
    ctx = make_context()
    row: dict[str, float] = {"n": n}
    with paused_gc():
        module, parse_in = _timed(lambda: LocatingParser(ctx, text, "in.mlir", SourceMap()).parse_module())
        _, print_in = _timed(str, module)
        row["ops_in"] = sum(1 for _ in module.walk())
        passes = sum(_run_passes(ctx, module).values())
        row["ops_out"] = sum(1 for _ in module.walk())
        out, print_out = _timed(str, module)
        del module
        collect_young()
        _, parse_out = _timed(lambda: LocatingParser(ctx, out, "out.mlir", SourceMap()).parse_module())
    row.update(floor_in=parse_in + print_in, floor_out=parse_out + print_out, passes=passes)
    return row


def _product(args: argparse.Namespace) -> None:
    sizes = [int(s) for s in args.product.split(",") if s]
    if not sizes:
        return
    print(f"the passes against xDSL's parse + print of their product ({args.kind} models, seconds)")
    print(f"{'tasks':>8} {'ops in':>8} {'ops out':>8} {'growth':>7} {'floor in':>9} {'floor out':>10} "
          f"{'passes':>7} {'/in':>6} {'/out':>6}")
    for n in sizes:
        r = _run_json([sys.executable, __file__, "--product-one", str(n), "--kind", args.kind,
                       "--seed", str(args.seed)])
        print(f"{n:>8} {r['ops_in']:>8.0f} {r['ops_out']:>8.0f} {r['ops_out'] / r['ops_in']:>7.2f} "
              f"{r['floor_in']:>9.2f} {r['floor_out']:>10.2f} {r['passes']:>7.2f} "
              f"{r['passes'] / r['floor_in']:>6.2f} {r['passes'] / r['floor_out']:>6.2f}", flush=True)


COLUMNS = [
    ("n", "tasks", "{:>8.0f}"),
    ("import", "import", "{:>7.2f}"),
    ("parse", "parse", "{:>7.2f}"),
    ("verify", "verify", "{:>7.2f}"),
    ("print", "print", "{:>7.2f}"),
    ("sk-form-scopes", "form", "{:>7.2f}"),
    ("sk-outline", "outline", "{:>7.2f}"),
    ("sk-place-sync", "place", "{:>7.2f}"),
    ("sk-lower-sync", "lower", "{:>7.2f}"),
    ("sk-prune-sync", "prune", "{:>7.2f}"),
    ("sk-insert-preload", "preload", "{:>7.2f}"),
    ("sk-insert-debug", "debug", "{:>7.2f}"),
    ("sk-to-ascendc", "emit", "{:>7.2f}"),
    ("T_passes", "passes", "{:>7.2f}"),
    ("T_floor", "floor", "{:>7.2f}"),
    ("ratio", "ratio", "{:>6.2f}"),
    ("peak_kb_per_task", "KB/task", "{:>8.2f}"),
    ("held_kb_per_task", "held", "{:>6.2f}"),
]


def _least(rows: list[dict[str, float]]) -> dict[str, float]:
    """Each time the least over `rows` (runs of one size); the ratio of the least totals."""
    row = {key: min(r[key] for r in rows) for key in rows[0]}
    row["ratio"] = row["T_passes"] / row["T_floor"]
    return row


def _run_json(cmd: list[str]):  # type: ignore[no-untyped-def]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _wall(cmd: list[str], env: dict[str, str]) -> float:
    return _wall_rss(cmd, env)[0]


def _wall_rss(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall seconds of `cmd` and its peak RSS in KB (its own, from `wait4`)."""
    import os

    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read() if child.stderr is not None else b""
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, cmd, stderr=err)
    return seconds, usage.ru_maxrss


def _end_to_end(args: argparse.Namespace) -> None:
    """The `sk-compile` command on generated capture JSON: plain, --report, --emulate (warm)."""
    import os
    import shutil

    sizes = [int(s) for s in args.end_to_end.split(",") if s]
    tool = shutil.which("sk-compile", path=str(Path(sys.executable).parent)) or "sk-compile"
    if not sizes:
        return
    print(f"sk-compile end to end ({args.kind} models, seconds, process start included)")
    print(f"{'tasks':>8} {'compile':>8} {'KB/task':>8} {'--report':>9} {'ratio':>6} {'--emulate':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SKIR_CACHE_DIR": str(Path(tmp) / "cache")}
        for n in sizes:
            model = Path(tmp) / f"m{n}.json"
            subprocess.run([sys.executable, str(HERE / "gen_model.py"), args.kind, "-n", str(n), "--seed",
                            str(args.seed), "-o", str(model)], check=True, capture_output=True)
            out = str(Path(tmp) / f"out{n}")
            plain, rss = _wall_rss([tool, str(model), "-o", out, "-q"], env)
            report = _wall([tool, str(model), "-o", out, "-q", "--report"], env) if n <= args.report_max else None
            emulated = "n/a"
            if n <= args.emulate_max and shutil.which(os.environ.get("CXX", "g++")):
                _wall([tool, str(model), "-o", out, "-q", "--emulate"], env)  # fills the cache
                emulated = f"{_wall([tool, str(model), '-o', out, '-q', '--emulate'], env):.2f}"
            shown = (f"{report:>9.2f} {report / plain:>6.2f}" if report is not None else f"{'n/a':>9} {'n/a':>6}")
            print(f"{n:>8} {plain:>8.2f} {rss / n:>8.2f} {shown} {emulated:>10}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="model sizes for the compile table ('' for none)")
    parser.add_argument("--kind", default="decode")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=2,
                        help="processes per size; each time is the least of them (the machine's speed drifts)")
    parser.add_argument("--end-to-end", default="1000,10000", help="sizes for the sk-compile table ('' for none)")
    parser.add_argument("--emulate-max", type=int, default=1000, help="largest size emulated end to end")
    parser.add_argument("--report-max", type=int, default=sys.maxsize,
                        help="largest size run with --report end to end (default: every size)")
    parser.add_argument("--product", default="",
                        help="sizes for the table of the passes against parse + print of their product")
    parser.add_argument("--product-one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--text", help=argparse.SUPPRESS)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--memory", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.product_one is not None:
        print(json.dumps(measure_product(args.product_one, args.kind, args.seed)))
        return
    if args.one is not None and args.memory is None:
        print(json.dumps(measure(args.one, args.kind, args.seed, args.text)))
        return
    if args.memory is not None:
        print(json.dumps(measure_memory(args.memory, args.one)))
        return
    rows = []
    print(f"skir compile benchmark: {args.kind} models, seconds (least of {args.repeat} processes per size, one core)")
    print(" ".join(f"{title:>{len(fmt.format(0))}}" for _, title, fmt in COLUMNS))
    for n in (int(s) for s in args.sizes.split(",") if s):
        with tempfile.TemporaryDirectory() as tmp:
            text_path = str(Path(tmp) / "model.mlir")
            base = [sys.executable, __file__, "--one", str(n), "--kind", args.kind, "--seed", str(args.seed)]
            row = _least([_run_json([*base, "--text", text_path]) for _ in range(args.repeat)])
            row["peak_kb_per_task"], row["held_kb_per_task"] = _run_json([*base, "--memory", text_path])
        rows.append(row)
        print(" ".join(fmt.format(row[key]) for key, _, fmt in COLUMNS), flush=True)
    _end_to_end(args)
    _product(args)
    by_n = {int(r["n"]): r for r in rows}
    if 10000 in by_n and 100000 in by_n:
        small, big = by_n[10000], by_n[100000]
        print(
            f"scaling 10k -> 100k: parse x{big['parse'] / small['parse']:.1f}, "
            f"passes x{big['T_passes'] / small['T_passes']:.1f}, import x{big['import'] / small['import']:.1f}"
        )


if __name__ == "__main__":
    main()
