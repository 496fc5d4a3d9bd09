"""JSON text of skir's products, the same bytes as `json.dumps(value, indent=1)`, faster.

With an `indent`, the standard library encodes through its pure-Python generator (about
1 us a token; SK meta and the descriptor of a 10k-sub-task SuperKernel are a million
tokens). `dumps_indented` walks the containers itself and hands only the scalars to the C
encoder, so the layout is exactly `indent=1`'s (each element on its own line, `": "` and `","`
separators, `[]` / `{}` for empty containers, ASCII escapes, keys as `json` coerces them).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring_ascii as _string
from typing import IO, Any

_FLOATS = {float("inf"): "Infinity", float("-inf"): "-Infinity"}


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return _string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        return _FLOATS.get(value) or float.__repr__(value)
    return json.dumps(value)  # raises json's TypeError for anything else


def _key(key: Any) -> str:
    if isinstance(key, str):
        return _scalar(key)
    # json.dumps turns True / False / None / numbers into their JSON spelling, as a string
    return _scalar(_scalar(key))


_CHUNK = 4096
"""Pieces joined into one string at a time: a large document (SK meta of 100k tasks is tens of
millions of pieces) never holds all its small strings at once, and `dump_indented` writes
each chunk as it is joined."""


def dumps_indented(value: Any) -> str:
    """`json.dumps(value, indent=1)` for dicts, lists, tuples, str, int, float, bool and None."""
    chunks: list[str] = []
    _emit(value, chunks.append)
    return "".join(chunks)


def dump_indented(value: Any, output: IO[str]) -> None:
    """Write `dumps_indented(value)` to `output` as it is made: the whole text (SK meta of 100k
    tasks is 364 MB) is never in memory."""
    _emit(value, output.write)


def _emit(value: Any, emit: Callable[[str], object]) -> None:
    parts: list[str] = []
    _write(value, parts, "\n", emit)
    emit("".join(parts))


def _write(value: Any, parts: list[str], newline: str, emit: Callable[[str], object]) -> None:
    if isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = newline + " "
        first = True
        for key, item in value.items():
            parts.append(("{" if first else ",") + inner + _key(key) + ": ")
            first = False
            _write(item, parts, inner, emit)
            if len(parts) >= _CHUNK:
                emit("".join(parts))
                parts.clear()
        parts.append(newline + "}")
    elif isinstance(value, list | tuple):
        if not value:
            parts.append("[]")
            return
        inner = newline + " "
        first = True
        for item in value:
            parts.append(("[" if first else ",") + inner)
            first = False
            _write(item, parts, inner, emit)
            if len(parts) >= _CHUNK:
                emit("".join(parts))
                parts.clear()
        parts.append(newline + "]")
    else:
        parts.append(_scalar(value))
