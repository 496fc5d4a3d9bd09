#!/usr/bin/env python3
"""Soak the pipeline: many more random models than the property test, each compiled with random
options and proved (`skir.testing.rewrite_oracle`'s rewrite check and sk-check), failures printed one a line.

Usage: `python tools/soak.py [--models 20000] [--seed 1] [--stop-after 5]`

Each model is `skir.testing.random_model` of up to 4 streams and 40 tasks (scopes on even
seeds, spare slots half the time) and each option string a random subset of the options the
property test samples. A failing line gives the model seed, the options and the spare flag:
`test/unit/test_pipeline_property.py` takes them as an `@example` to keep the case. It ends
with a table: models, failures, seconds. Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

OPTIONS = {"split-mode": ["1", "2", "4", "7"], "stream-fusion": ["0", "1"], "strict-scope-check": ["bypass"],
           "func-align": ["0", "256", "512"], "early-start": ["0", "1", "2"], "sync-mode": ["conservative", "data"],
           "preload-code": ["per-func", "max", "none"], "debug-sync-all": ["0", "1"], "debug-dcci-all": ["0", "1"],
           "feed-sync-all": ["0", "1"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop-after", type=int, default=5, help="stop after this many failures")
    args = parser.parse_args()
    from skir.analysis.sk_check import check_module
    from skir.testing import random_model
    from skir.testing.rewrite_oracle import check_rewrite, compile_checked

    rng = random.Random(args.seed)
    failures = done = 0
    start = time.perf_counter()
    for done in range(1, args.models + 1):
        seed = rng.randrange(2**32)
        options = ":".join(f"{k}={rng.choice(v)}" for k, v in OPTIONS.items() if rng.random() < 0.3)
        spare = rng.random() < 0.5
        try:
            data = random_model(random.Random(seed), max_streams=4, max_tasks=40, with_scopes=seed % 2 == 0,
                                spare_slots=spare)
            original, module = compile_checked(data, options)
            check_rewrite(original, module)
            report = check_module(module)
            if not report.ok:
                raise AssertionError("; ".join(report.violations))
        except Exception as err:  # every failure is a finding to print
            failures += 1
            line = str(err).splitlines()[0] if str(err) else type(err).__name__
            print(f"FAIL seed={seed} options={options!r} spare={spare}: {line[:300]}", flush=True)
            if failures >= args.stop_after:
                break
    print(f"{'models':>8} {'failures':>9} {'seconds':>8}")
    print(f"{done:>8} {failures:>9} {time.perf_counter() - start:>8.1f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
