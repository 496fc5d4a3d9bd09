"""Errors and exit codes shared by every entry point.

Every error skir reports is one line. `SkirError` is what the Python API raises;
`TaskVerifyException` is what verifiers raise when they can name the op at fault, so
that drivers can add `file:line:col` from the parse.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from enum import IntEnum

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from skir.names import one_line


class ExitCode(IntEnum):
    """Exit codes of `sk-opt` and `sk-compile` (docs/design.md §1)."""

    OK = 0
    BAD_INPUT = 1
    MISSING_TOOL = 2
    CHECK_FAILED = 3
    INTERNAL = 4


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the closest of `known` (difflib, cutoff 0.75), or nothing."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


class SkirError(Exception):
    """A one-line diagnostic; `str()` is the message, `code` the exit code it maps to."""

    def __init__(self, message: str, code: ExitCode = ExitCode.BAD_INPUT):
        super().__init__(one_line(message))
        self.code = code


class SkirWarning(UserWarning):
    """A one-line warning about the input (option segments without '=', broken scopes, ...)."""


class MissingToolError(SkirError):
    """A required external tool (g++, CANN) is not installed."""

    def __init__(self, message: str):
        super().__init__(message, ExitCode.MISSING_TOOL)


class CheckFailedError(SkirError):
    """A correctness check (sk-check, host emulation) found a violation."""

    def __init__(self, message: str, details: list[str] | None = None):
        super().__init__(message, ExitCode.CHECK_FAILED)
        self.details = details or []


class TaskVerifyException(VerifyException):
    """A verification error attributed to one op (whose parse position may be known)."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(one_line(message))
        self.op = op


def task_path(op: Operation) -> str:
    """`@model/@stream/seq N` for a task, `@model/@name` for a declaration."""
    parts: list[str] = []
    seq = op.properties.get("seq")
    if seq is not None:
        parts.append(f"seq {seq.data}")  # type: ignore[attr-defined]
    node: Operation | None = op
    while node is not None:
        name = node.properties.get("sym_name")
        if name is not None:
            parts.append("@" + name.data)  # type: ignore[attr-defined]
        node = node.parent_op()
    return "/".join(reversed(parts)) if parts else op.name
