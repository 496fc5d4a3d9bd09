"""Strict reading of JSON documents, with every error naming the JSON path.

`JsonReader` checks values one at a time (`obj`, `int_`, `enum`, ...) and raises a one-line
`SkirError` `<source>: <path>: <message>`. `parse_json` rejects duplicate object keys and the
non-standard constants (NaN, Infinity) that `json.loads` accepts by default.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from skir.errors import SkirError
from skir.names import name_problem, shown

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*\Z")
_UNWRITABLE = re.compile("[\0\ud800-\udfff]")
"""What a JSON string may escape but no product can hold: NUL and lone surrogates."""


class DupDict(dict):  # type: ignore[type-arg]
    """An object that had a key twice in the JSON text (`dup` is the first such key)."""

    dup: str


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        dd = DupDict(d)
        dd.dup = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        return dd
    return d


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def parse_json(text: str, source: str) -> Any:
    """`json.loads`, with duplicate keys recorded and errors as one-line `SkirError`s."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise SkirError(f"{source}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
    except ValueError as e:
        raise SkirError(f"{source}: invalid JSON: {e}") from None
    except RecursionError:
        raise SkirError(f"{source}: invalid JSON: nested too deeply") from None


def key_path(path: str, key: str) -> str:
    """`path.key`, or `path["key"]` when the key is not a plain name."""
    if not isinstance(key, str):
        key = json.dumps(key) if key is None or isinstance(key, (int, float)) else repr(key)
    if _PLAIN_KEY.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key)}]"


def article(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


_JSON_TYPES = {type(None): "null", bool: "a boolean", int: "an integer", float: "a number",
               str: "a string", list: "an array", dict: "an object", DupDict: "an object"}


def describe_value(value: Any) -> str:
    """What a JSON value is, for messages."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


class JsonReader:
    """Typed access to a JSON document; every failure is `<source>: <path>: <message>`."""

    def __init__(self, source: str):
        self.source = source

    # ---- diagnostics ----

    def fail(self, path: str, message: str) -> NoReturn:
        raise SkirError(f"{self.source}: {path}: {message}" if path else f"{self.source}: {message}")

    def obj(self, value: Any, path: str, required: tuple[str, ...], allowed: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, got {describe_value(value)}")
        if type(value) is DupDict:
            self.fail(key_path(path, value.dup), "duplicate key")
        for key in value:
            if key not in allowed:
                self.fail(key_path(path, key), f"unknown key (expected one of: {', '.join(allowed)})")
        for key in required:
            if key not in value:
                self.fail(key_path(path, key), "required key is missing")
        return value

    def mapping(self, value: Any, path: str) -> dict[str, Any]:
        """An object whose keys are names (any key allowed)."""
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, got {describe_value(value)}")
        if type(value) is DupDict:
            self.fail(key_path(path, value.dup), "duplicate key")
        return value

    def int_(self, value: Any, path: str, lo: int, hi: int) -> int:
        if type(value) is not int:
            self.fail(path, f"expected an integer, got {describe_value(value)}")
        if not lo <= value <= hi:
            self.fail(path, f"{value} is out of range [{lo}, {hi}]")
        return value

    def bool_(self, value: Any, path: str) -> bool:
        if type(value) is not bool:
            self.fail(path, f"expected true or false, got {describe_value(value)}")
        return value

    def str_(self, value: Any, path: str, what: str = "a string") -> str:
        if type(value) is not str:
            self.fail(path, f"expected {what}, got {describe_value(value)}")
        bad = _UNWRITABLE.search(value)
        if bad is not None:
            what = "a NUL character" if bad.group() == "\0" else f"a lone surrogate (\\u{ord(bad.group()):04x})"
            self.fail(path, f"{what} at character {bad.start()} of the string")
        return value

    def name(self, value: Any, path: str) -> str:
        """A model, kernel, stream, event, cell or buffer name: a C identifier of at most 128
        bytes (docs/design.md §1 "Names")."""
        name = self.str_(value, path, "a name (string)")
        problem = name_problem(name)
        if problem is not None:
            self.fail(path, problem)
        return name

    def enum(self, value: Any, path: str, table: dict[str, Any], what: str) -> Any:
        if type(value) is not str or value not in table:
            got = shown(value) if type(value) is str else describe_value(value)
            self.fail(path, f"expected {what} (one of {', '.join(table)}), got {got}")
        return table[value]

    def list_(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, f"expected an array, got {describe_value(value)}")
        return value
