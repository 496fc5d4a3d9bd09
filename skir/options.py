"""The SuperKernel option string, parsed the same way by every entry point.

Syntax (the vendor's): `key=value` segments separated by `:`; whitespace around keys and
values is trimmed; empty segments are ignored; a segment without `=` is a warning and is
skipped; `_` in keys reads as `-`; one level of surrounding quotes is stripped from the
whole string and from each value. An unknown key, a duplicate key, an empty value and a
bad value are errors naming the key.

```python
opts, warnings = parse_options("stream-fusion=0:split_mode=2")
opts.split_mode            # 2
opts.override(scope).early_start   # a scope's options (typed too) override
```

Each entry point parses the string once, where it enters, and hands on the typed `SkOptions`:
the IR's literals (`skir.dialects.options_attr`), the API's and the CLI's `options`
(`skir.api_arguments.typed_options`), a pass option at `sk-opt` (`skir.passes.common`), and a
model input's own strings (`options_at`: a scope's JSON options, a mark's, a vendor dump's).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from skir.errors import SkirError, did_you_mean
from skir.names import shown


def _binary(value: str) -> int:
    if value not in ("0", "1"):
        raise ValueError("expected 0 or 1")
    return int(value)


def _early_start(value: str) -> int:
    if value not in ("0", "1", "2"):
        raise ValueError("expected 0 (off), 1 or 2 (on)")
    return int(value)


def _choice(*choices: str) -> Callable[[str], str]:
    def parse(value: str) -> str:
        if value not in choices:
            raise ValueError("expected one of " + ", ".join(choices))
        return value

    return parse


def _int_range(lo: int, hi: int | None) -> Callable[[str], int]:
    def parse(value: str) -> int:
        try:
            number = int(value, 10)
        except ValueError:
            number = None
        if number is None or number < lo or (hi is not None and number > hi):
            raise ValueError(f"expected an integer in {lo}..{hi}" if hi else f"expected an integer >= {lo}")
        return number

    return parse


def _func_align(value: str) -> int:
    number = _int_range(0, None)(value)
    if number != 0 and (number < 2 or number & (number - 1)):
        raise ValueError("expected 0 or a power of two >= 2")
    return number


def _gain_us(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not 0 <= number < float("inf"):
        raise ValueError("expected a number of microseconds >= 0")
    return number


def _name_list(value: str) -> tuple[str, ...]:
    names = tuple(v.strip() for v in value.split(",") if v.strip())
    if not names:
        raise ValueError("expected a comma-separated list of kernel names")
    return names


_FLAG = re.compile(r"--?[A-Za-z0-9_][A-Za-z0-9_+=./@%^-]*\Z")
"""A compiler flag as `compile-options` may give it: one or two dashes (`-O2`, `-DX=1`,
`--cce-auto-sync=off`), then no whitespace and none of the characters a shell or a quoting
mistake would act on (`;&|$`\\'"<>()*?![]{}~#` ...). The vendor's option is a comma-separated
list of flags, each passed to bisheng as one argument; so is skir's."""


def _flags(value: str) -> tuple[str, ...]:
    flags = tuple(v.strip() for v in value.split(",") if v.strip())
    for flag in flags:
        if not _FLAG.match(flag):
            which = f"; {shown(flag)} is not one" if len(flags) > 1 else ""
            raise ValueError("expected comma-separated compiler flags, each '-' or '--' then letters, digits "
                             f"and _+=./@%^- only (no spaces or shell characters){which}")
    if not flags:
        raise ValueError("expected comma-separated compiler flags")
    return flags


@dataclass(frozen=True)
class SkOptions:
    """Typed SuperKernel options; defaults follow the vendor's AOT layer (docs/design.md §1)."""

    early_start: int = 0
    stream_fusion: int = 1
    preload_code: str = "per-func"
    split_mode: int = 4
    func_align: int = 512
    debug_sync_all: int = 0
    debug_dcci_all: int = 0
    debug_cross_core_sync_check: int = 0
    dcci_before_kernel_start: tuple[str, ...] = ()
    dcci_after_kernel_end: tuple[str, ...] = ()
    dcci_disable_on_kernel: tuple[str, ...] = ()
    feed_sync_all: int = 0
    debug_aic_num: int = 0
    debug_aiv_num: int = 0
    strict_scope_check: str | None = None
    profiling: int = 0
    compile_options: tuple[str, ...] = ()
    sync_mode: str = "conservative"
    select: str = "all"
    select_min_gain_us: float = 1.0
    fuse_comm: int = 1
    fuse_updated: int = 0
    debug_progress: int = 0
    debug_wait_timeout_cycles: int = 0
    placement: str = "off"
    given: frozenset[str] = field(default=frozenset(), compare=False)
    """The keys that were set explicitly (for printing and scope merging)."""

    def override(self, other: SkOptions) -> SkOptions:
        """These options with the keys given in `other` overriding them."""
        if not other.given:
            return self
        changes = {f: getattr(other, f) for f in (_FIELD_OF[k] for k in other.given)}
        return dataclasses.replace(self, given=self.given | other.given, **changes)

    def to_string(self) -> str:
        """The explicitly given options in canonical `key=value:...` form."""
        parts = []
        for key in sorted(self.given):
            value: Any = getattr(self, _FIELD_OF[key])
            if isinstance(value, tuple):
                value = ",".join(value)
            parts.append(f"{key}={value}")
        return ":".join(parts)


# key -> value parser. `sync-mode`, `select`, `select-min-gain-us`, `fuse-comm`, `fuse-updated`,
# `debug-progress`, `debug-wait-timeout-cycles` and `placement` are skir's own keys, not vendor ones.
_PARSERS: dict[str, Callable[[str], Any]] = {
    "early-start": _early_start,
    "stream-fusion": _binary,
    "preload-code": _choice("per-func", "max", "none"),
    "split-mode": _int_range(1, 64),
    "func-align": _func_align,
    "debug-sync-all": _binary,
    "debug-cross-core-sync-check": _binary,
    "debug-dcci-all": _binary,
    "dcci-before-kernel-start": _name_list,
    "dcci-after-kernel-end": _name_list,
    "dcci-disable-on-kernel": _name_list,
    "feed-sync-all": _binary,
    "debug-aic-num": _int_range(0, None),
    "debug-aiv-num": _int_range(0, None),
    "strict-scope-check": _choice("bypass", "abort"),
    "profiling": _binary,
    "compile-options": _flags,
    "sync-mode": _choice("conservative", "data"),
    "select": _choice("all", "gain"),
    "select-min-gain-us": _gain_us,
    "fuse-comm": _binary,
    "fuse-updated": _binary,
    "debug-progress": _binary,
    "debug-wait-timeout-cycles": _int_range(0, 2**62),
    "placement": _choice("off", "auto"),
}
_FIELD_OF = {key: key.replace("-", "_") for key in _PARSERS}
OPTION_KEYS = tuple(_PARSERS)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text


def parse_options(text: str, where: str = "") -> tuple[SkOptions, list[str]]:
    """Parse an option string; returns the options and the warnings (one line each). `where`
    says where the string came from (`argument --options (options=)`, a pass option, a scope's
    JSON path): every error and warning then begins with it."""
    if not where:
        return _parse_options(text)
    try:
        options, warnings = _parse_options(text)
    except SkirError as err:
        raise SkirError(f"{where}: {err}") from None
    return options, [f"{where}: {w}" for w in warnings]


def options_at(text: str, where: str) -> SkOptions:
    """The options of a string a model input carries (a scope's JSON options, a scope mark's, the
    options a vendor dump recorded), parsed where it enters: errors begin with `where`; the
    warnings about its spelling are the input's own, not the caller's, and are not said."""
    return parse_options(text, where)[0]


def _parse_options(text: str) -> tuple[SkOptions, list[str]]:
    values: dict[str, Any] = {}
    warnings: list[str] = []
    bad = None if text.isprintable() else next((ch for ch in text if not ch.isprintable() and ch not in " \t"), None)
    if bad is not None:
        raise SkirError(f"options {shown(text)}: a character that is not printable text ({shown(bad)})")
    for segment in _unquote(text).split(":"):
        segment = segment.strip()
        if not segment:
            continue
        if "=" not in segment:
            warnings.append(f"option segment {shown(segment)} has no '=' and is ignored")
            continue
        raw_key, raw_value = segment.split("=", 1)
        key = raw_key.strip().replace("_", "-")
        value = _unquote(raw_value)
        if not key:
            raise SkirError(f"option {shown(segment)}: empty key")
        if key not in _PARSERS:
            raise SkirError(f"unknown option {shown(key)}{did_you_mean(key, _PARSERS)} (known: {', '.join(_PARSERS)})")
        if key in values:
            raise SkirError(f"option '{key}' is given twice")
        if not value:
            raise SkirError(f"option '{key}' has an empty value")
        try:
            values[key] = _PARSERS[key](value)
        except ValueError as err:
            raise SkirError(f"option '{key}': {err}, got {shown(value)}") from None
    options = SkOptions(given=frozenset(values), **{_FIELD_OF[k]: v for k, v in values.items()})
    return options, warnings
