"""`sk-check-ranks`: prove that every rank runs each group's collectives in one order.

```
sk-check-ranks out/rank0 out/rank1 [...]      # sk-compile's output folders (or rewritten .mlir files)
```
Each argument is an output folder of `sk-compile` (its `model.rewritten.mlir` is read) or a
rewritten model. For every communicator group, the sequence of collectives each rank runs after
the rewrite — inside SuperKernels and outside (`skir.analysis.comm.rank_order`) — must be the same;
else the first rank, group and position that differ are named, exit 3. Exit codes: 0 the ranks
agree, 1 bad input (a folder without a rewritten model, a model that does not parse), 3 they differ.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

from skir.diagnostics import describe_exception, error_lines
from skir.errors import ExitCode, SkirError
from skir.tools.cli import ArgumentParser, exit_now, parse_command, quiet_on_closed_pipe, version_text


@quiet_on_closed_pipe
def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = ArgumentParser(prog="sk-check-ranks", description="Prove that the ranks of one job run each "
                            "communicator group's collectives in the same order after the rewrite.")
    parser.add_argument("ranks", nargs="+", metavar="OUT", help="sk-compile output folders (or rewritten .mlir "
                        "models), one per rank, rank 0 first")
    parser.add_argument("--version", action="version", version=version_text("sk-check-ranks"))
    args = parse_command(parser, argv)
    if isinstance(args, int):
        return args
    import skir

    try:
        report = skir.check_ranks(args.ranks)
    except SkirError as err:
        for line in error_lines("sk-check-ranks", str(err)):
            print(line, file=sys.stderr)
        return int(err.code)
    except Exception as err:  # a bug: one line, exit 4
        print(f"sk-check-ranks: internal error: {describe_exception(err)}", file=sys.stderr)
        return ExitCode.INTERNAL
    if not report.ok:
        print(f"sk-check-ranks: error: the ranks differ: {report.difference}", file=sys.stderr)
        return ExitCode.CHECK_FAILED
    groups = ", ".join(f"{g} {n}" for g, n in report.groups.items()) or "no collectives"
    print(f"sk-check-ranks: {report.ranks} ranks run the same collectives in the same order ({groups})")
    return ExitCode.OK


def run() -> NoReturn:
    exit_now(main())


if __name__ == "__main__":
    run()
