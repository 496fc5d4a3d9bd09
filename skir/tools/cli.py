"""What skir's console scripts share on the command line (docs/design.md §1).

- `ArgumentParser`: argparse that reports an unknown flag or a bad flag value as one line
  and exit 1 (`UsageError`), not a usage block and exit 2 (2 means a missing tool);
- `parse_command(parser, argv)`: the parsed arguments, or the exit code of `--help`,
  `--version` or a bad command line;
- `version_text(tool)`: what `--version` prints: skir's version and xDSL's;
- `exit_now(code)`: the console scripts' exit;
- `quiet_on_closed_pipe(main)`: a reader that closes standard output (`sk-opt m.mlir | head`)
  ends the tool quietly with 141, as SIGPIPE ends other Unix tools.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import textwrap
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn, Protocol

from skir.errors import SkirError
from skir.names import shown


class UsageError(SkirError):
    """A bad command line (exit 1)."""


class HelpFormatter(argparse.HelpFormatter):
    """Each flag's help wrapped at spaces only, so that a pass or flag name (`sk-form-scopes`)
    is never split at its hyphen."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class RawHelpFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """`HelpFormatter` that prints the description and epilog as written (`sk-opt`'s pass list)."""


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one-line `UsageError`s naming `--help`, and whose help
    never splits a name at a hyphen (`HelpFormatter`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

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


CLOSED_PIPE = 141
"""The exit code after the reader of standard output went away: 128 + SIGPIPE, what the shell
reports for a Unix tool that SIGPIPE ended."""


class ToolMain(Protocol):
    """A console script's `main(argv=None) -> exit code`."""

    def __call__(self, argv: Sequence[str] | None = None) -> int: ...


def quiet_on_closed_pipe(main: ToolMain) -> ToolMain:
    """`main`, ending quietly with `CLOSED_PIPE` when its standard output is a pipe the reader
    closed: no message, and standard output pointed at the null device so that the flush at
    exit does not fail again."""

    @functools.wraps(main)
    def wrapped(argv: Sequence[str] | None = None) -> int:
        try:
            return main(argv)
        except BrokenPipeError:
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):  # standard output without a descriptor (a test's capture)
                pass
            return CLOSED_PIPE

    return wrapped
