"""`sk-compile`: compile a captured model into SuperKernels in one command.

It is `skir.compile(MODEL, OPTS)` and the result's follow-ups, one flag each: `--check` is
`check()`, `--calibrate` `calibrate(OFF, ON)`, `--report` `simulate()`, `--vendor`
`compare_with_vendor(RESULT)`, and `-o` with `--emulate` / `--build` `write(OUT, ...)`.

```
sk-compile examples/decode_layer.json -o out/ [--options 'key=value:...'] [--check] [--emulate [--no-cache]]
           [--report [--costs FILE]] [--profile FILE]... [--calibrate OFF ON] [--cores AIC:AIV]
           [--vendor RESULT] [--dump-ir DIR] [--verify-each=false] [--timing] [-v | -q] [--version]
```
MODEL `-` reads standard input. Exit codes: 0 ok, 1 bad input (the command line too: one
line, never argparse's usage block), 2 a missing tool, 3 a check failed, 4 internal error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from skir.diagnostics import describe_exception, error_lines, one_line_warnings
from skir.errors import CheckFailedError, ExitCode, SkirError
from skir.tools.cli import (
    ArgumentParser,
    UsageError,
    check_argv,
    exit_now,
    parse_cores,
    quiet_on_closed_pipe,
    version_text,
)


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog="sk-compile",
        description="Fuse the kernel tasks of a captured aclgraph model into SuperKernels and "
        "emit their Ascend C entries.",
    )
    p.add_argument("model", help="the model: .mlir, capture JSON, or the vendor's dumps (a "
                   "sk_meta/<pid>/model_<id>_<n> folder or one of its JSON files); '-' reads standard input "
                   "(the format is told by the content)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", type=_output_folder,
                   help="output folder (created; '-' is refused: the products are files, not a stream)")
    p.add_argument("--options", default="", metavar="OPTS", help="SuperKernel options, 'key=value:key=value'")
    p.add_argument("--check", action="store_true", help="prove the result with sk-check (order, deadlock, credits)")
    p.add_argument("--emulate", action="store_true", help="run every entry in host emulation (needs g++ or $CXX)")
    p.add_argument("--no-cache", action="store_true",
                   help="--emulate: do not reuse or keep compiled shim objects in the cache (SKIR_CACHE_DIR)")
    p.add_argument(
        "--build", nargs="?", const="", default=None, metavar="OBJDIR",
        help="build every SuperKernel with the CANN toolchain (needs ASCEND_HOME_PATH), linking the "
        "sub-kernel objects OBJDIR/<symbol>.o (default: the folder 'kernels' next to MODEL)",
    )
    p.add_argument("--report", action="store_true",
                   help="simulate the model (eager, aclgraph, superkernel): print a table, write "
                   "timeline.json, timeline.png, modes.png and SK meta's profiling estimate")
    p.add_argument("--costs", metavar="FILE",
                   help="simulator cost parameters overriding the defaults (JSON; implies --report)")
    p.add_argument("--profile", action="append", default=[], metavar="FILE",
                   help="measured durations for the simulator (--report, select=gain): skir.profile JSON or "
                   "msprof's op_summary CSV; repeatable")
    p.add_argument("--calibrate", nargs=2, metavar=("OFF", "ON"),
                   help="fit the simulator's dispatch and sync costs to a SuperKernel-off profile (msprof "
                   "op_summary CSV) and a SuperKernel-on one (the vendor's device trace): OUT/costs.calibrated.json")
    p.add_argument("--cores", type=parse_cores, metavar="AIC:AIV",
                   help="the device's core counts for a vendor dump, which carries none (default 24:48)")
    p.add_argument("--vendor", metavar="RESULT",
                   help="compare with the vendor's result (its sk_graph_updated.json or dump folder): a table "
                   "after the summary and OUT/vendor_compare.json")
    p.add_argument("--dump-ir", metavar="DIR", help="write the IR before and after each pass into DIR")
    p.add_argument(
        "--verify-each", default="true", choices=("true", "false"), help="verify the IR after each pass (default true)"
    )
    p.add_argument("--timing", action="store_true",
                   help="print the wall time of each phase (import, each pass, each product) on stderr")
    chatter = p.add_mutually_exclusive_group()
    chatter.add_argument("-v", "--verbose", "--traceback", action="store_true",
                         help="more detail; tracebacks on internal errors (as sk-opt --traceback)")
    chatter.add_argument("-q", "--quiet", action="store_true",
                         help="print nothing on standard output on success (warnings still go to standard error)")
    p.add_argument("--version", action="version", version=version_text("sk-compile"),
                   help="print skir's and xDSL's versions and exit")
    return p


def _output_folder(text: str) -> str:
    """`-o OUT`: a folder name; `-` (standard output for other tools) and an empty name are refused."""
    if text == "-":
        raise argparse.ArgumentTypeError("'-' is not a folder: sk-compile writes a folder of products, not a "
                                         "stream; give a folder name (it is created)")
    if not text:
        raise argparse.ArgumentTypeError("an empty folder name")
    return text


@quiet_on_closed_pipe
def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        check_argv(argv)
        args = _parser().parse_args(argv)
    except UsageError as err:
        print(f"sk-compile: error: {err}", file=sys.stderr)
        return ExitCode.BAD_INPUT
    except SystemExit as done:  # --help, --version
        return int(done.code or 0) if isinstance(done.code, int) else ExitCode.BAD_INPUT
    import skir
    from skir import progress, provenance
    from skir.compile_result import require_cann

    model_dir = Path.cwd() if args.model == "-" else Path(args.model).parent
    if not args.quiet:
        progress.enable("sk-compile")
    if args.timing:
        progress.enable_timing()
    with one_line_warnings("sk-compile"), provenance.invoked_as("sk-compile", argv):
        try:
            if args.build is not None:
                require_cann()  # before the compile: a missing toolchain is said at once
            result = skir.compile(args.model, args.options, cores=args.cores, costs=args.costs,
                                  profiles=args.profile, verify_each=args.verify_each == "true", dump_ir=args.dump_ir)
            if args.check:
                result.check()
            if args.calibrate is not None:
                result.calibrate(*args.calibrate)
            if args.report or args.costs is not None:
                result.simulate()
            if args.vendor is not None:
                result.compare_with_vendor(args.vendor)
            result.write(args.output, emulate=args.emulate, cache=not args.no_cache,
                         build=None if args.build is None else Path(args.build or model_dir / "kernels"))
        except CheckFailedError as err:
            print(f"sk-compile: error: {err}", file=sys.stderr)
            for line in err.details if args.verbose else err.details[:5]:
                print(f"  {line}", file=sys.stderr)
            return ExitCode.CHECK_FAILED
        except SkirError as err:
            for line in error_lines("sk-compile", str(err)):
                print(line, file=sys.stderr)
            return err.code
        except Exception as err:
            if args.verbose:
                raise
            print(f"sk-compile: {describe_exception(err)}", file=sys.stderr)
            return ExitCode.INTERNAL
    if args.timing:
        sys.stderr.write(progress.timing_report())
        progress.disable()
    if not args.quiet:
        from skir.targets.summary import MAX_SUPERKERNELS, render_summary

        sys.stdout.write(render_summary(result, None if args.verbose else MAX_SUPERKERNELS))
        if args.verbose:
            for rel in result.outputs:
                print(f"  wrote {Path(args.output) / rel}")
    return ExitCode.OK


def run() -> NoReturn:
    """The console script: `main`, then `exit_now` with its code."""
    exit_now(main())


if __name__ == "__main__":
    run()
