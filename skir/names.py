"""Names that come from a model, and text echoed back to the user (docs/design.md §1 "Names").

Model, kernel, stream, event, cell and buffer names become file names, C symbols and shell
words, so each must be a C identifier of at most 128 bytes; every importer and verifier checks
them with `name_problem`, and that rule alone keeps every product inside OUT and every
generated script free of injected text. Any text from the input that a message repeats goes
through `shown`, which escapes what would break the one-line diagnostic.

```python
name_problem("decode_layer")   # None
name_problem("../evil")        # "'../evil' is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)"
shown("a\\nb")                  # "'a\\\\nb'"
```
"""

from __future__ import annotations

import re

NAME_MAX_BYTES = 128
"""The longest name, in UTF-8 bytes."""

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SHOWN_MAX = 80


def shown(text: str) -> str:
    """`text` quoted for a one-line message: control, non-printable and surrogate characters
    escaped, and long text cut (with its length said)."""
    out = []
    for ch in text[:_SHOWN_MAX]:
        if ch == "'" or ch == "\\":
            out.append("\\" + ch)
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
    more = f"... ({len(text)} characters)" if len(text) > _SHOWN_MAX else ""
    return "'" + "".join(out) + "'" + more


def one_line(message: str) -> str:
    """`message` with every line break and other control character escaped (a diagnostic is
    one line whatever the input held)."""
    if message.isprintable():
        return message
    return "".join(ch if ch.isprintable() else (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
                   for ch in message)


SYMBOL_MAX_BYTES = 200
"""The longest symbol skir derives from names (`auto_gen_<model>_sk<N>_kernel_aic`,
`<kernel>_middle_split<i>`): generated symbols are held to this, not to `NAME_MAX_BYTES`."""


def name_problem(name: str, max_bytes: int = NAME_MAX_BYTES) -> str | None:
    """Why `name` cannot name a model, kernel, stream, event, cell or buffer (None: it can);
    `max_bytes=SYMBOL_MAX_BYTES` for a symbol skir derives from names."""
    if not name:
        return "a name must not be empty"
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        return f"name {shown(name)} is {size} bytes long; names are at most {max_bytes} bytes"
    if not _IDENT.match(name):
        return f"{shown(name)} is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)"
    return None


def identifier(text: str) -> str:
    """A C identifier for a foreign name, deterministically: each run of characters an identifier
    cannot hold becomes `_`, a leading digit gets a `_` before it, and a name over 128 bytes is
    cut and ends in 8 hex digits of its hash (`param.fc.weight` -> `param_fc_weight`).
    Importers of foreign formats use it; a collision is theirs to resolve."""
    import hashlib

    out = re.sub(r"[^A-Za-z0-9_]+", "_", text)
    if not out or out[0].isdigit():
        out = "_" + out
    if len(out) > NAME_MAX_BYTES:
        digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        out = f"{out[: NAME_MAX_BYTES - 9]}_{digest}"
    return out


def entry_symbol(sk_name: str) -> str:
    """The C symbol of SuperKernel `sk_name`'s entry (the vendor's naming)."""
    return f"auto_gen_{sk_name}_kernel"
