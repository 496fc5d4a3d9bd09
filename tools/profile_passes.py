#!/usr/bin/env python3
"""Where the pipeline's time goes: a cProfile table per pass and by code area.

Usage: `python tools/profile_passes.py [--tasks 10000] [--kind decode] [--top 8]`

Generates a model (`tools/gen_model.py`), parses its `.mlir`, then runs every pass under
cProfile (the collector paused and collected between passes, as `sk-compile` runs them). It
prints, for each pass, its profiled seconds and the functions with the most own time; then one
table of own time by code area over all passes:

- `xdsl ir`: xDSL's IR objects (`xdsl/ir`: blocks, op lists, ancestry checks, uses);
- `xdsl rewriting`: its rewriter, builder and pattern machinery;
- `xdsl irdl`: IRDL property and attribute access, op definitions;
- `xdsl other`: the rest of xDSL (builtin attributes, traits);
- `skir analysis` / `skir patterns` / `skir passes` / `skir dialects` / `skir other`;
- `python`: builtins and the standard library (`isinstance`, dicts, sorting, abc checks);
- `numpy`.

Profiled times run about three times the plain ones; the shares are what the table is for.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent

AREAS = (
    ("xdsl/ir/", "xdsl ir"),
    ("xdsl/pattern_rewriter", "xdsl rewriting"),
    ("xdsl/rewriter", "xdsl rewriting"),
    ("xdsl/builder", "xdsl rewriting"),
    ("xdsl/irdl/", "xdsl irdl"),
    ("xdsl/", "xdsl other"),
    ("skir/analysis/", "skir analysis"),
    ("skir/patterns/", "skir patterns"),
    ("skir/passes/", "skir passes"),
    ("skir/dialects/", "skir dialects"),
    ("skir/", "skir other"),
    ("numpy/", "numpy"),
)


def area(filename: str) -> str:
    """The code area of a profiled function's file (`python` for builtins and the stdlib)."""
    path = filename.replace("\\", "/")
    for marker, name in AREAS:
        if marker in path:
            return name
    return "python"


def _short(func: tuple[str, int, str]) -> str:
    filename, line, name = func
    path = filename.replace("\\", "/")
    for root in ("site-packages/", "/skir/"):
        if root in path:
            path = ("skir/" if root == "/skir/" else "") + path.split(root, 1)[1]
            break
    return f"{name} ({path}:{line})" if line else name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=10000)
    parser.add_argument("--kind", default="decode")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=8, help="functions shown per pass")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from gen_model import generate  # type: ignore[import-not-found]

    from skir.api import make_context
    from skir.frontends.capture import from_dict
    from skir.gc_pause import collect_young, paused_gc
    from skir.parsing import LocatingParser, SourceMap
    from skir.passes.pipeline import pipeline_passes

    text = str(from_dict(generate(args.kind, args.tasks, seed=args.seed)))
    ctx = make_context()
    by_area: dict[str, float] = defaultdict(float)
    total = 0.0
    print(f"cProfile of every pass, {args.kind} model of {args.tasks} tasks (own time, profiled seconds)")
    with paused_gc():
        module = LocatingParser(ctx, text, "profile.mlir", SourceMap()).parse_module()
        for p in pipeline_passes(""):
            profile = cProfile.Profile()
            profile.enable()
            p.apply(ctx, module)
            profile.disable()
            collect_young()
            stats = pstats.Stats(profile)
            rows = stats.stats  # type: ignore[attr-defined]
            own = sum(row[2] for row in rows.values())
            total += own
            print(f"\n{p.name}: {own:.2f} s")
            print(f"{'own s':>7} {'share':>6} {'calls':>9}  function")
            for func, row in sorted(rows.items(), key=lambda item: -item[1][2])[:args.top]:
                print(f"{row[2]:>7.3f} {row[2] / own:>6.1%} {row[1]:>9}  {_short(func)}")
            for func, row in rows.items():
                by_area[area(func[0])] += row[2]
    print(f"\nown time by code area, all passes ({total:.2f} s profiled)")
    print(f"{'area':<16} {'own s':>7} {'share':>6}")
    for name, seconds in sorted(by_area.items(), key=lambda item: -item[1]):
        print(f"{name:<16} {seconds:>7.2f} {seconds / total:>6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
