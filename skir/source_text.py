"""Reading a model's bytes into text, the same way for every entry point (docs/design.md §1).

`sk-compile`, `sk-opt` and `skir.compile` all read a model through `decode_model`: UTF-8
only (a byte that is not is bad input naming its offset), a leading UTF-8 BOM accepted and
dropped, a NUL character refused with its line and column. `model_format` tells capture JSON
from `.mlir` by the content when the name does not (standard input, `-`). `guard_mlir` finds
an unterminated string literal in linear time before xDSL's lexer sees it (see there).

```python
text = decode_model(raw_bytes, "model.json")
model_format(text)    # "json" or "mlir"
```
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from skir.errors import SkirError
from skir.provenance import note_read

BOM = "\ufeff"


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def decode_model(raw: bytes, source: str) -> str:
    """The text of a model file: strict UTF-8, a leading BOM dropped, no NUL characters."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SkirError(f"{source}: byte {err.start}: not UTF-8 (0x{raw[err.start]:02x}); models are "
                        "UTF-8 text") from None
    if text.startswith(BOM):
        text = text[1:]
    nul = text.find("\0")
    if nul >= 0:
        line, col = _line_col(text, nul)
        raise SkirError(f"{source}:{line}:{col}: a NUL character; models are text")
    return text


def read_model(path: str | os.PathLike[str], what: str = "") -> tuple[str, str]:
    """(source name, text) of the model (or the `what` file) at `path`; `-` reads standard input."""
    if os.fspath(path) == "-":
        raw = sys.stdin.buffer.read()
        note_read("<stdin>", raw)
        return "<stdin>", decode_model(raw, "<stdin>")
    source = os.fspath(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise SkirError(f"{source}: cannot read{' the ' + what if what else ''}: {err.strerror or err}") from None
    note_read(source, raw)
    return source, decode_model(raw, source)


def model_format(text: str, source: str = "") -> str:
    """`json` for capture JSON (by the `.json` name, else by content: it starts with `{`),
    `mlir` otherwise."""
    if source.endswith(".json"):
        return "json"
    if source.endswith(".mlir"):
        return "mlir"
    return "json" if text.lstrip()[:1] == "{" else "mlir"


_TOKEN = re.compile(r'//[^\n]*|"')
_BODY = re.compile(r'(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*')
"""The body of xDSL's string literal without the nested quantifier: one character or escape
per repetition; a greedy match that never needs to backtrack."""


def guard_mlir(text: str, source: str) -> None:
    """Refuse a string literal xDSL's lexer cannot end, with its location, in one linear scan.

    xDSL 0.74's lexer (`MLIRLexer._unescaped_characters_regex` in `xdsl/utils/mlir_lexer.py`,
    `"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"`) nests `+` inside `*`, so a
    literal it cannot match backtracks exponentially: an unterminated `"aaaa...` of 40
    characters never finishes, each character doubling the time; a `\v`, `\f` or a bad escape
    before the closing quote does the same. Upstream-ready report: "catastrophic backtracking
    in the string-literal regex of MLIRLexer; reproducer:
    `Parser(Context(), '"' + 'a' * 30).parse_optional_str_literal()` takes about a minute
    (doubling per character) instead of raising 'End of file reached before closing string
    literal'; fix: make the `+` possessive or drop it (`(?:[^"\\\n\v\f]|\\...)*`)". This scan
    accepts exactly the literals that regex matches (a literal ends on its line), skipping
    `//` comments.
    """
    pos = 0
    while (m := _TOKEN.search(text, pos)) is not None:
        if m.group() != '"':
            pos = m.end()  # a // comment
            continue
        end = _BODY.match(text, m.end()).end()  # type: ignore[union-attr]
        if text[end: end + 1] != '"':
            _unterminated(text, source, m.start(), end)
        pos = end + 1


def _unterminated(text: str, source: str, start: int, end: int) -> None:
    """Say why the literal at `start`, whose body ends at `end`, does not match."""
    ch = text[end: end + 1]
    if ch in ("\v", "\f"):
        _bad(text, source, end, "a vertical tab or form feed inside a string literal")
    if ch == "\\":
        _bad(text, source, end, "invalid escape in a string literal (use \\n, \\t, \\\\, \\\" or two hex digits)")
    _bad(text, source, start, "string literal is not terminated on its line")


def _bad(text: str, source: str, index: int, message: str) -> None:
    line, col = _line_col(text, index)
    raise SkirError(f"{source}:{line}:{col}: {message}")
