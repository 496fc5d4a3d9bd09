"""`sk-hang`: say where every core of a hung SuperKernel is, from a dump of its progress area.

```
sk-hang OUT DUMP        # OUT: sk-compile's output folder (its sk_meta.json); DUMP: the area's bytes
```
The SuperKernel must have been compiled with `--options debug-progress=1` (docs/design.md §6).
DUMP is the raw bytes of the area or the hex a runtime's exception log prints (`skir.hang`).
Prints one line per core and a verdict: the sub-task and the wait that never completed, and the
set or record it waited for, by stream and seq of the original model. Exit codes: 0 decoded,
1 a dump or folder it cannot read.
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
    parser = ArgumentParser(prog="sk-hang", description="Locate a hang from a dump of a SuperKernel's progress "
                            "area (debug-progress=1).")
    parser.add_argument("out", metavar="OUT", help="the sk-compile output folder of the model (its sk_meta.json)")
    parser.add_argument("dump", metavar="DUMP", help="the progress area: raw bytes, or hex bytes / 64-bit words "
                        "as an exception log prints them")
    parser.add_argument("--version", action="version", version=version_text("sk-hang"))
    args = parse_command(parser, argv)
    if isinstance(args, int):
        return args
    from skir.hang import locate

    try:
        report = locate(args.out, args.dump)
    except SkirError as err:
        for line in error_lines("sk-hang", str(err)):
            print(line, file=sys.stderr)
        return ExitCode.BAD_INPUT
    except Exception as err:  # a bug: one line, exit 4
        print(f"sk-hang: internal error: {describe_exception(err)}", file=sys.stderr)
        return ExitCode.INTERNAL
    sys.stdout.write(report.text())
    return ExitCode.OK


def run() -> NoReturn:
    exit_now(main())


if __name__ == "__main__":
    run()
