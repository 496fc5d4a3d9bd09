"""`python -m skir.tools.calibration [--json FILE]`: compile the calibration model
(`skir.sim.calibration.moe6_model`) and print its summed device op time before and after,
beside the published figure; `--json FILE` also writes the model as capture JSON."""

from __future__ import annotations

import argparse
import json
import sys

import skir
from skir.sim.calibration import PUBLISHED_AFTER_US, PUBLISHED_BEFORE_US, PUBLISHED_CHANGE, moe6_model, op_times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skir.tools.calibration", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write the model as capture JSON to FILE")
    args = parser.parse_args(argv)
    model = moe6_model()
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(model, indent=1) + "\n")
    result = skir.compile(model)
    assert result.original is not None  # compile keeps the model it was given
    before, after = op_times(result.original, result.module)
    print(f"moe6 under calibration_moe6.json: summed device op time {before:.2f} us -> {after:.2f} us "
          f"({100 * (after / before - 1):+.2f} %); published {PUBLISHED_BEFORE_US} -> {PUBLISHED_AFTER_US} us "
          f"({100 * PUBLISHED_CHANGE:+.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
