#!/usr/bin/env python3
"""Shared-entry benchmark: entries, output bytes and emit time of decode models of identical layers.

Usage: `python tools/bench_share.py [--layers 1,8,32] [--repeat 3]`

For each layer count L it generates a `tools/gen_model.py decode` model of exactly L layers
(no filler kernels), compiles it once with `skir.compile`, then measures the per-SuperKernel
products (entry sources, descriptors, build scripts) two ways
(docs/design.md §5 "Shared entries"):

- *shared*: what `sk-compile` writes: one entry per group of identical SuperKernels, including
  the grouping itself (the canonical keys);
- *own*: one entry per SuperKernel, as if none were shared.

Columns: layers, SuperKernels, entries written (shared / own), the bytes of those products
(shared / own), the bytes of every product `sk-compile` writes (entries, descriptors, build
scripts, plan, SK meta, logs, the rewritten model), and the time to make the per-SuperKernel
products (the least of `--repeat` runs, ms). This is a measurement of one machine; no test
times it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen_model import generate  # type: ignore[import-not-found]  # noqa: E402

import skir  # noqa: E402
from skir.dialects.model_lookup import kernel_table, models  # noqa: E402
from skir.dialects.superkernel import SuperKernelOp  # noqa: E402
from skir.provenance import stamp  # noqa: E402
from skir.targets.ascendc import emit_source, sources  # noqa: E402
from skir.targets.build_script import build_script  # noqa: E402
from skir.targets.descriptor import descriptor, dump_descriptor  # noqa: E402
from skir.targets.shared_entries import entry_text, group_build_script, group_descriptor, shared_entries  # noqa: E402


def decode_tasks(layers: int) -> int:
    """Tasks of a `gen_model.py decode` model of exactly `layers` layers."""
    return sum(24 + (layer % 4 == 3) + (layer % 8 == 7) for layer in range(layers))


def _shared(result: skir.CompileResult) -> list[str]:
    texts = []
    for group in shared_entries(result.module).groups:
        texts += [entry_text(group), dump_descriptor(stamp(group_descriptor(group))), group_build_script(group)]
    return texts


def _own(result: skir.CompileResult) -> list[str]:
    found = {s.sym_name.data: s for s in sources(result.module)}
    texts = []
    for model in models(result.module):
        kernels = kernel_table(model)
        for sk in model.body.block.ops:
            if isinstance(sk, SuperKernelOp) and sk.sym_name.data in found:
                texts += [emit_source(found[sk.sym_name.data]), dump_descriptor(stamp(descriptor(sk, kernels))),
                          build_script(sk, kernels, sk.sk_options())]
    return texts


def _timed(make: Callable[[skir.CompileResult], list[str]], result: skir.CompileResult,
           repeat: int) -> tuple[list[str], float]:
    best = float("inf")
    texts: list[str] = []
    for _ in range(repeat):
        start = time.perf_counter()
        texts = make(result)
        best = min(best, time.perf_counter() - start)
    return texts, best


def row(layers: int, repeat: int) -> str:
    """One line of the table for a model of `layers` layers."""
    result = skir.compile(generate("decode", decode_tasks(layers)))
    sks = len(result.superkernels)
    shared, t_shared = _timed(_shared, result, repeat)
    own, t_own = _timed(_own, result, repeat)
    with tempfile.TemporaryDirectory() as tmp:
        result.write(Path(tmp) / "out")
        total = sum(p.stat().st_size for p in (Path(tmp) / "out").rglob("*") if p.is_file())
    def size(texts: list[str]) -> int:
        return sum(len(t.encode()) for t in texts)

    return (f"{layers:>6} {sks:>4} {len(shared) // 3:>7} {len(own) // 3:>5} {size(shared):>12,} {size(own):>12,} "
            f"{total:>12,} {t_shared * 1e3:>10.1f} {t_own * 1e3:>8.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--layers", default="1,8,32", help="decode layer counts, comma-separated (default 1,8,32)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement, the least time shown (3)")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.layers.split(",") if x.strip()]
    print("skir shared-entry benchmark (decode layers; per-SuperKernel products: entries, descriptors, build.sh)")
    print(f"{'layers':>6} {'SKs':>4} {'entries':>7} {'own':>5} {'bytes':>12} {'own bytes':>12} "
          f"{'all bytes':>12} {'emit ms':>10} {'own ms':>8}")
    for layers in counts:
        print(row(layers, max(args.repeat, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
