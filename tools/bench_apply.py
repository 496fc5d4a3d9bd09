#!/usr/bin/env python3
"""Time the device applier (skir.runtime.acl.apply) on skir's CPU runtime model.

For each size, a decode-like model (tools/gen_model.py decode) is compiled, written to OUT, built
into the CPU model (the capture, not timed) with its entries compiled for the host (not timed),
then applied: the applier's own time (reading and checking every slot, allocating, loading the
entry objects, writing the argument tables, setting, disabling, committing), the ACL calls it made
and their time per slot. Needs g++ and the ACL headers (SKIR_ACL_INCLUDE, tools/fetch_acl_headers.py).

```sh
python tools/bench_apply.py --sizes 1000,10000
```
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated task counts (default 1000,10000)")
    parser.add_argument("--repeat", type=int, default=3, help="applies per size, the least time kept (default 3)")
    args = parser.parse_args()
    from gen_model import generate  # type: ignore[import-not-found]

    import skir
    from skir.runtime.acl import apply
    from skir.runtime.acl_lib import EXTRA
    from skir.runtime.acl_types import SIGNATURES
    from skir.runtime.cpu_apply import host_objects
    from skir.runtime.cpu_model import cpu_library, load_graph

    cpu = cpu_library()
    print(f"{'kernels':>7} {'slots':>7} {'SKs':>5} {'entries':>7} {'apply s':>8} {'ACL calls':>9} {'us/slot':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        data = generate("decode", size, seed=1)
        with tempfile.TemporaryDirectory(prefix="skir-bench-apply-") as tmp:
            work = Path(tmp)
            result = skir.compile(data).write(work / "out")
            objects = host_objects(work / "out", work / "objects")
            best, calls = float("inf"), 0
            for r in range(args.repeat):
                graph = load_graph(cpu, skir.load_model(data), work / f"capture{r}")
                before = sum(cpu.calls(n) for n in (*SIGNATURES, *EXTRA))
                start = time.perf_counter()
                applied = apply(cpu, graph.model_ri, work / "out", object_dir=objects)
                best = min(best, time.perf_counter() - start)
                calls = sum(cpu.calls(n) for n in (*SIGNATURES, *EXTRA)) - before
            slots = len(applied.plan["slots"])
            entries = len({sk["object"] for sk in applied.plan["superkernels"]})
            print(f"{result.kernel_tasks:>7} {slots:>7} {len(result.superkernels):>5} {entries:>7} {best:>8.3f} "
                  f"{calls:>9} {1e6 * best / slots:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
