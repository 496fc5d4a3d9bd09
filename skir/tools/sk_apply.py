"""`sk-apply`: apply sk-compile's products to a captured model in skir's CPU runtime model.

```
sk-apply MODEL OUT -o APPLIED.mlir [--format mlir|vendor] [--inject-fault CALL[:N]]
```
MODEL (capture JSON, `.mlir` or a vendor dump folder) is built into a model runtime instance of
the CPU model of the ACL runtime (the ACL calls of a capture); OUT's plan is applied through
`skir.runtime.acl`, the same code as on a device; the result is written as the model the runtime
now runs (`mlir`: the form of `OUT/model.rewritten.mlir`; `vendor`: the vendor's
`sk_graph_updated.json`). `--inject-fault CALL[:N]` fails the Nth call (default 1) of one ACL
function. Exit codes: 0 applied; 1 a mismatch, an injected fault or bad input, one line naming the
slot or the call, nothing written; 2 a missing tool (no C++ compiler, no ACL headers:
docs/device.md).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from skir.diagnostics import describe_exception, error_lines, write_atomically
from skir.errors import ExitCode, SkirError
from skir.tools.cli import ArgumentParser, exit_now, parse_command, quiet_on_closed_pipe, version_text


def _fault(text: str) -> tuple[str, int]:
    call, _, nth = text.partition(":")
    if not call.isidentifier() or not (nth == "" or (nth.isdigit() and int(nth) > 0)):
        raise argparse.ArgumentTypeError(f"expected CALL or CALL:N (N a positive number), got '{text}'")
    return call, int(nth or 1)


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="sk-apply", description="Apply sk-compile's products to a captured model in skir's CPU "
                       "runtime model of the ACL runtime, through the same code as on a device.")
    p.add_argument("model", metavar="MODEL", help="the captured model: capture JSON, .mlir or a vendor dump folder")
    p.add_argument("out", metavar="OUT", help="the output folder sk-compile wrote for MODEL")
    p.add_argument("-o", "--output", required=True, metavar="APPLIED", help="the file to write the applied model to")
    p.add_argument("--format", choices=("mlir", "vendor"), default="mlir",
                   help="mlir: the form of OUT/model.rewritten.mlir (default); vendor: sk_graph_updated.json")
    p.add_argument("--inject-fault", type=_fault, metavar="CALL[:N]",
                   help="fail the Nth call (default 1) of the ACL function CALL")
    p.add_argument("--version", action="version", version=version_text("sk-apply"),
                   help="print skir's and xDSL's versions and exit")
    return p


@quiet_on_closed_pipe
def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the exit code."""
    args = parse_command(_parser(), list(sys.argv[1:] if argv is None else argv))
    if isinstance(args, int):
        return args
    import skir
    from skir.runtime.cpu_apply import applied_text, apply_on_cpu, vendor_text

    try:
        module = skir.load_model(args.model)
        with tempfile.TemporaryDirectory(prefix="skir-apply-") as work:
            run = apply_on_cpu(module, args.out, Path(work), args.inject_fault)
            text = applied_text(run) if args.format == "mlir" else vendor_text(run)
        write_atomically(Path(args.output), text)
    except SkirError as err:
        for line in error_lines("sk-apply", str(err)):
            print(line, file=sys.stderr)
        return err.code
    except Exception as err:  # a bug: one line, exit 4
        print(f"sk-apply: internal error: {describe_exception(err)}", file=sys.stderr)
        return ExitCode.INTERNAL
    return ExitCode.OK


def run() -> NoReturn:
    exit_now(main())


if __name__ == "__main__":
    run()
