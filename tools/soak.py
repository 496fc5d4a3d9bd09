#!/usr/bin/env python3
"""Soak the pipeline: many more random models than the property test, each compiled with random
options and proved (`skir.testing.rewrite_oracle`'s rewrite check and sk-check), failures printed one a line.

Usage: `python tools/soak.py [--models 20000] [--seed 1] [--stop-after 5] [--emulate-every 0]`

Each model is `skir.testing.random_model` of up to 4 streams and 40 tasks (scopes on even
seeds, spare slots half the time) and each option string is drawn as the property test draws
it (`skir.testing.option_space`: every documented option, and half the time a set of options
that change each other's meaning whole, such as `early-start=1:sync-mode=data`). An option
string with `select=gain` goes through `skir.compile` (which runs selection's rounds), the
others through the passes alone. A refusal the options may cause on a valid model
(`strict-scope-check=abort`, a `debug-aic-num` shape) counts as an answer. `--emulate-every K`
also runs every K-th model's entries in host emulation (needs g++); `--with-forks` makes every
other model a fork/join model (`skir.testing.fork_models`). A failing line gives the
model seed, the options and the spare flag: `test/unit/test_pipeline_property.py` takes them
as an `@example` to keep the case. It ends with a table: models, refusals, failures,
seconds. Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop-after", type=int, default=5, help="stop after this many failures")
    parser.add_argument("--emulate-every", type=int, default=0, metavar="K",
                        help="also emulate every K-th model's entries (0: never)")
    parser.add_argument("--with-comm", action="store_true",
                        help="give the random models communication kernels (groups tp0 and ep)")
    parser.add_argument("--with-active", action="store_true",
                        help="split streams into cascade capture streams (stream_active tasks)")
    parser.add_argument("--with-updates", action="store_true",
                        help="give the random models updated task groups behind their external waits")
    parser.add_argument("--with-conds", action="store_true",
                        help="give the random models condition tasks running random sub-models")
    parser.add_argument("--with-forks", action="store_true",
                        help="every other model a fork/join model whose epoch spreads its waits over SuperKernels "
                        "and streams (skir.testing.fork_models)")
    args = parser.parse_args()
    import warnings

    warnings.filterwarnings("ignore", message="option '.*' names no kernel of model")  # sampled kernel names
    import skir
    from skir.analysis.proof.sk_check import check_module
    from skir.errors import SkirError
    from skir.testing import random_model
    from skir.testing.fork_models import fork_model
    from skir.testing.option_space import draw_options, expected_refusal, selects_gain
    from skir.testing.rewrite_oracle import check_rewrite, check_unreset_warnings, compile_checked

    rng = random.Random(args.seed)
    failures = refusals = done = 0
    start = time.perf_counter()
    for done in range(1, args.models + 1):
        seed = rng.randrange(2**32)
        options = draw_options(rng)
        spare = rng.random() < 0.5
        emulate = args.emulate_every > 0 and done % args.emulate_every == 0
        try:
            if args.with_forks and done % 2 == 0:
                data = fork_model(random.Random(seed))
            else:
                data = random_model(random.Random(seed), max_streams=4, max_tasks=40, with_scopes=seed % 2 == 0,
                                    spare_slots=spare, with_comm=args.with_comm,
                                    with_active=args.with_active, with_updates=args.with_updates,
                                    with_conds=args.with_conds)
            try:
                if selects_gain(options) or emulate:
                    result = skir.compile(data, options=options).check().write(emulate=emulate)
                    assert result.original is not None
                    original, module = result.original, result.module
                    bad = [f"{e.name}: {e.verdict}" for e in result.emulation if not e.ok]
                    if bad:
                        raise AssertionError("; ".join(bad))
                else:
                    original, module = compile_checked(data, options)
            except SkirError as err:
                if not expected_refusal(options, err):
                    raise
                refusals += 1
                continue
            check_rewrite(original, module)
            report = check_module(module)
            if not report.ok:
                raise AssertionError("; ".join(report.violations))
            check_unreset_warnings(original, module)
        except Exception as err:  # every failure is a finding to print
            failures += 1
            line = str(err).splitlines()[0] if str(err) else type(err).__name__
            print(f"FAIL seed={seed} options={options!r} spare={spare}: {line[:300]}", flush=True)
            if failures >= args.stop_after:
                break
    print(f"{'models':>8} {'refusals':>9} {'failures':>9} {'seconds':>8}")
    print(f"{done:>8} {refusals:>9} {failures:>9} {time.perf_counter() - start:>8.1f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
