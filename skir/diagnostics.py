"""Turning exceptions and warnings into the one-line diagnostics every tool prints."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

from skir.errors import SkirError, TaskVerifyException
from skir.parsing import SourceMap


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return text.strip()


def describe_exception(err: BaseException, source_map: SourceMap | None = None, line_offset: int = 0) -> str:
    """One line describing `err`, located when its position is known."""
    if isinstance(err, ParseError):
        span = err.span
        if line_offset:
            span = type(span)(span.start, span.end, span.input, span.line_offset + line_offset)
        message = _first_line(err.msg)
        if "{first_char}" in message:  # xDSL 0.74's lexer leaves this placeholder unformatted
            message = message.replace("{first_char}", repr(span.text[:1] or span.input.content[span.start:][:1]))
        return f"{span.get_location()}: error: {message}"
    if isinstance(err, TaskVerifyException):
        where = source_map.location(err.op) if source_map is not None else None
        message = _first_line(str(err))
        return f"{where}: error: {message}" if where else f"error: {message}"
    if isinstance(err, DiagnosticException):
        return f"error: {_first_line(str(err))}"
    if isinstance(err, SkirError):
        return f"error: {err!s}"
    if isinstance(err, ArgSpecParseError):
        return "error: bad pass pipeline: " + " ".join(
            line.strip() for line in str(err).splitlines()[1:] if line.strip()
        )
    if isinstance(err, ValueError):
        match = re.match(r"Unrecognized passes: \[(.*)\]", str(err))
        if match:
            return f"error: unknown pass {match.group(1)}; see --help for the available passes"
        return f"error: {_first_line(str(err))}"
    if isinstance(err, OSError):
        return f"error: {err.strerror or err}: {err.filename}" if err.filename else f"error: {err}"
    return f"internal error: {type(err).__name__}: {_first_line(str(err))} (rerun with --traceback)"


def pipeline_error_lines(tool: str, text: str) -> list[str]:
    """A bad `-p` pipeline (xDSL's `ArgSpecParseError` text: a heading, `pass-pipeline:LINE:COL`,
    the pipeline's line, a caret, the message) as MLIR prints a located error: the message naming
    the column, then that line of the pipeline and a caret under the column, each on its own line
    (the message alone when the line is empty or not printable)."""
    lines = text.splitlines()
    found = re.fullmatch(r"pass-pipeline:(\d+):(\d+)", lines[1].strip()) if len(lines) > 3 else None
    if found is None:
        return [f"{tool}: error: bad pass pipeline: " + " ".join(part.strip() for part in lines[1:] if part.strip())]
    line, col = int(found.group(1)), int(found.group(2))
    message = " ".join(part.strip() for part in lines[4:] if part.strip()) or "cannot parse"
    where = f"column {col}" if line == 1 else f"line {line}, column {col}"
    first = f"{tool}: error: argument -p/--passes: {where}: {message}"
    source = lines[2]
    if not source.strip() or not source.isprintable() or col > len(source) + 1:
        return [first]
    return [first, f"  {source}", "  " + " " * (col - 1) + "^"]


def located_message(err: BaseException, source_map: SourceMap | None = None) -> str:
    """`file:line:col: message` (or just the message) for wrapping `err` in a `SkirError`."""
    text = describe_exception(err, source_map)
    if text.startswith("error: "):
        return text[len("error: ") :]
    return text.replace(": error: ", ": ", 1)


_LOCATION = re.compile(r"(?P<file>[^\s:][^:\n]*):(?P<line>\d+):(?P<col>\d+): (?:error: )?(?P<message>.*)\Z")


def error_lines(tool: str, message: str) -> list[str]:
    """An error as both tools print it. With a position (`FILE:LINE:COL: ...`), MLIR's form:
    `FILE:LINE:COL: error: message`, then, when FILE is a readable text file, that source line
    and a caret under the column; without one, `tool: error: message` on one line."""
    found = _LOCATION.match(message)
    if found is None:
        return [f"{tool}: error: {message.removeprefix('error: ')}"]
    file, line, col = found["file"], int(found["line"]), int(found["col"])
    lines = [f"{file}:{line}:{col}: error: {found['message']}"]
    try:
        with open(file, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, start=1):
                if number == line:
                    source = text.rstrip("\r\n").expandtabs(1)
                    if source.strip() and 1 <= col <= len(source) + 1 and source.isprintable():
                        lines += [source, " " * (col - 1) + "^"]
                    break
    except OSError:  # standard input, a folder, a name that is no file: the first line alone
        pass
    return lines


@contextlib.contextmanager
def one_line_warnings(tool: str) -> Iterator[None]:
    """Print each distinct warning once, as `tool: warning: message` on stderr."""
    seen: set[str] = set()
    previous = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
        text = str(message)
        if text not in seen:
            seen.add(text)
            print(f"{tool}: warning: {text}", file=sys.stderr)

    warnings.showwarning = show
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = show
            yield
    finally:
        warnings.showwarning = previous


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file, so a failure leaves no partial file. A
    path that cannot be written (a missing folder, a folder, no permission, a full disk) is a
    `SkirError` naming `path`, never the temporary file."""
    path = Path(path)
    if path.is_dir():
        raise SkirError(f"{path}: is a folder; give a file to write")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    except OSError as err:
        raise SkirError(f"{path}: cannot write here: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise SkirError(f"{path}: cannot write: {err.strerror or err}") from None
        raise
