"""What skir's console scripts share on the command line (docs/design.md §1).

- `ArgumentParser`: argparse that reports an unknown flag or a bad flag value as one line
  and exit 1 (`UsageError`), not a usage block and exit 2 (2 means a missing tool);
- `parse_command(parser, argv)`: the parsed arguments, or the exit code of `--help`,
  `--version` or a bad command line;
- `version_text(tool)`: what `--version` prints: skir's version and xDSL's;
- `exit_now(code)`: the console scripts' exit.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import metadata
from typing import NoReturn

from skir.errors import SkirError
from skir.names import shown


class UsageError(SkirError):
    """A bad command line (exit 1)."""


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one-line `UsageError`s naming `--help`."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def check_argv(argv: list[str]) -> None:
    """An argument must be text: one that held bytes that are not UTF-8 (Python keeps them as
    lone surrogates) is a `UsageError` naming it."""
    for i, arg in enumerate(argv, start=1):
        if any("\ud800" <= ch <= "\udfff" for ch in arg):
            raise UsageError(f"argument {i} ({shown(arg)}) is not UTF-8 text")


def parse_command(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The parsed command line, or the exit code to return at once: 0 after `--help` or
    `--version`, 1 for a bad command line (its one line printed, `<prog>: error: ...`)."""
    try:
        check_argv(argv)
        return parser.parse_args(argv)
    except UsageError as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 1
    except SystemExit as done:  # --help, --version
        return int(done.code or 0) if isinstance(done.code, int) else 1


def parse_cores(text: str) -> tuple[int, int]:
    """`--cores AIC:AIV` (e.g. `24:48`): the device's cube and vector core counts."""
    from skir.dialects.aclgraph import MAX_BLOCKS

    aic, sep, aiv = text.partition(":")
    if not sep or not aic.strip().isdigit() or not aiv.strip().isdigit() or \
            not (1 <= int(aic) <= MAX_BLOCKS and 1 <= int(aiv) <= MAX_BLOCKS):
        raise argparse.ArgumentTypeError(f"expected AIC:AIV, two core counts in 1..{MAX_BLOCKS} (e.g. 24:48), "
                                         f"got {shown(text)}")
    return int(aic), int(aiv)


def version_text(tool: str) -> str:
    """`<tool> (skir <version>) built on xdsl <version>`."""

    def of(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "unknown"

    return f"{tool} (skir {of('skir')}) built on xdsl {of('xdsl')}"


def exit_now(code: int) -> NoReturn:
    """Flush standard output and error, then end the process with `code` at once, without
    freeing the heap object by object (half a second for the IR of a 30k-task model); every
    product is written and closed before `main` returns. Only the console scripts call it:
    `main` itself returns, for callers that go on."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # a reader that went away (`sk-opt m.mlir | head`): nothing left to say
            pass
    os._exit(code)
