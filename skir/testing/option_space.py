"""The SuperKernel options the property tests, the soak and the fuzzing campaign draw.

Every documented option key (`skir.options.OPTION_KEYS`) has sample values here, and the
options that change each other's meaning are drawn together on purpose: a plain random subset
of a dozen keys seldom holds both halves of a pair, which is how `early-start=1` with
`sync-mode=data` once compiled a racy entry that every test passed.

```python
rng = random.Random(1)
draw_options(rng)                  # 'early-start=1:sync-mode=data:split-mode=2', ...
draw_options(rng, gain=False)      # never select=gain (for runs of the passes alone)
option_strings(gain=False)         # the same as a hypothesis strategy
```

`select=gain` is an option of `skir.compile` (it compiles again, round by round): a caller
running the passes alone draws with `gain=False`. `strict-scope-check=abort` makes a cut
scope an error and `debug-aic-num` / `debug-aiv-num` may name a shape a model cannot take:
a caller accepts those errors as answers (`expected_refusal(options, error)`).
"""

from __future__ import annotations

import random
from typing import Any

OPTION_SAMPLES: dict[str, tuple[str, ...]] = {
    "early-start": ("0", "1", "2"),
    "stream-fusion": ("0", "1"),
    "preload-code": ("per-func", "max", "none"),
    "split-mode": ("1", "2", "4", "7"),
    "func-align": ("0", "256", "512"),
    "debug-sync-all": ("0", "1"),
    "debug-dcci-all": ("0", "1"),
    "dcci-before-kernel-start": ("k0", "k1,k2"),
    "dcci-after-kernel-end": ("k3", "k0,k4_middle"),
    "dcci-disable-on-kernel": ("k1", "k2"),
    "feed-sync-all": ("0", "1"),
    "debug-aic-num": ("0", "0", "0", "8", "24"),
    "debug-aiv-num": ("0", "0", "0", "16", "48"),
    "strict-scope-check": ("bypass", "abort"),
    "profiling": ("0", "1"),
    "compile-options": ("-O2", "-DX=1,-g"),
    "sync-mode": ("conservative", "data"),
    "select": ("all", "gain"),
    "select-min-gain-us": ("0", "1", "5"),
    "fuse-comm": ("0", "1"),
    "fuse-updated": ("0", "1"),
    "debug-progress": ("0", "1"),
    "debug-wait-timeout-cycles": ("0", "0", "10000000000"),
    "debug-cross-core-sync-check": ("0", "1"),
    "placement": ("off", "auto"),
}
"""Sample values of every documented option (the random models name kernels k0, k1, ...). A
forced debug shape mostly refuses a random model, so `0` (not forced) is drawn most often;
the shapes themselves come with `INTERACTIONS`."""

INTERACTIONS: tuple[dict[str, tuple[str, ...]], ...] = (
    {"early-start": ("1", "2"), "sync-mode": ("data",)},
    {"feed-sync-all": ("1",), "sync-mode": ("data",)},
    {"stream-fusion": ("0", "1"), "select": ("gain",)},
    {"early-start": ("1",), "feed-sync-all": ("1",)},
    {"early-start": ("1",), "stream-fusion": ("0",), "sync-mode": ("data",)},
    {"debug-sync-all": ("1",), "sync-mode": ("data",), "early-start": ("1",)},
    {"early-start": ("1",), "select": ("gain",)},
    {"sync-mode": ("data",), "select": ("gain",)},
    {"debug-aic-num": ("8", "24"), "debug-aiv-num": ("16", "48"), "early-start": ("1",)},
    {"debug-progress": ("1",), "feed-sync-all": ("1",), "profiling": ("1",)},
    {"placement": ("auto",), "preload-code": ("per-func",), "profiling": ("1",)},
)
"""Options that change each other's meaning: the sync lowering's choices under early-start and
sync-mode, feed-sync-all's workspace barriers, the variants selection tries, and the extra
argument slots (progress area, workspace, profiling) laid out together."""

SUBSET_RATE = 0.25
"""The chance of each key joining a drawn option string besides an interaction."""

INTERACTION_RATE = 0.5
"""The chance that a drawn option string holds one of `INTERACTIONS` whole."""


def _allowed(gain: bool) -> dict[str, tuple[str, ...]]:
    return {k: tuple(v for v in values if gain or (k, v) != ("select", "gain"))
            for k, values in OPTION_SAMPLES.items()}


def _interactions(gain: bool) -> list[dict[str, tuple[str, ...]]]:
    return [pair for pair in INTERACTIONS if gain or pair.get("select") != ("gain",)]


def _join(chosen: dict[str, str]) -> str:
    return ":".join(f"{k}={v}" for k, v in chosen.items())


def draw_options(rng: random.Random, *, gain: bool = True) -> str:
    """A random option string over every documented key, half the time holding one of the
    `INTERACTIONS` whole (`gain=False`: never `select=gain`)."""
    allowed = _allowed(gain)
    chosen: dict[str, str] = {}
    if rng.random() < INTERACTION_RATE:
        pair = rng.choice(_interactions(gain))
        chosen.update({k: rng.choice(v) for k, v in pair.items()})
    for key, values in allowed.items():
        if key not in chosen and rng.random() < SUBSET_RATE:
            chosen[key] = rng.choice(values)
    return _join(chosen)


def option_strings(*, gain: bool = True) -> Any:
    """The hypothesis strategy of `draw_options`'s strings (it shrinks key by key)."""
    from hypothesis import strategies as st

    allowed = _allowed(gain)
    subset = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in allowed.items()})
    pairs = st.sampled_from(_interactions(gain)).flatmap(
        lambda pair: st.fixed_dictionaries({k: st.sampled_from(v) for k, v in pair.items()}))
    both = st.tuples(pairs, subset).map(lambda t: {**t[1], **t[0]})
    return st.one_of(both, subset).map(_join)


def expected_refusal(options: str, error: Exception) -> bool:
    """Whether `error`, raised by a compile under `options`, is a refusal those options may
    cause on a valid model (bad input, exit 1): `strict-scope-check=abort` on a scope
    formation cut, or a `debug-aic-num` / `debug-aiv-num` shape that the device or a member
    does not allow. A failed check (exit 3) or an internal error is never one."""
    from skir.errors import ExitCode, SkirError

    if not isinstance(error, SkirError) or error.code is not ExitCode.BAD_INPUT:
        return False
    message = str(error)
    if "strict-scope-check=abort" in options and "strict-scope-check=abort" in message:
        return True
    forced = any(f"{key}=" in options and f"{key}=0" not in options for key in ("debug-aic-num", "debug-aiv-num"))
    return forced and ("'debug-aic-num'" in message or "'debug-aiv-num'" in message)


def selects_gain(options: str) -> bool:
    """Whether `options` asks for `select=gain`, which only `skir.compile` runs."""
    return "select=gain" in options
