#!/usr/bin/env python3
"""Start-up benchmark: what every `sk-opt` and every lit RUN line pays before its work.

Usage: `python tools/bench_startup.py [--repeat 5]`

Times, each in a fresh process, `import skir.registry` (the dialects, passes and targets an
xDSL tool loads), `import skir`, `sk-opt --version` and `sk-compile --version`; prints the
fastest of `--repeat` runs (noise only ever adds) and the goal: 0.3 s for the import and for
`sk-opt --version`. Nothing here is a test: it measures.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time

GOAL_S = 0.3


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = [("import skir.registry", [sys.executable, "-c", "import skir.registry"], GOAL_S),
            ("import skir", [sys.executable, "-c", "import skir"], None),
            ("python -c pass", [sys.executable, "-c", "pass"], None)]
    for tool in ("sk-opt", "sk-compile"):
        path = shutil.which(tool)
        if path is not None:
            rows.append((f"{tool} --version", [path, "--version"], GOAL_S if tool == "sk-opt" else None))
    print(f"{'what':<24}{'seconds':>9}{'goal':>7}")
    for label, argv, goal in rows:
        best = min(_time(argv) for _ in range(args.repeat))
        print(f"{label:<24}{best:9.3f}{'' if goal is None else f'{goal:7.1f}'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
