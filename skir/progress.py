"""Progress on a terminal for the phases a user waits on.

`sk-compile` turns it on when standard error is a terminal (not with `-q`); a phase that has
run for 2 s shows one line on standard error, updated twice a second, and erased when the phase
ends, so finished runs look as they did:

```
sk-compile: sk-outline ... 3.5 s
```

```python
from skir import progress
with progress.phase("sk-outline"):
    ...
```
Off (the default, and in every test), `phase` costs one attribute lookup.

`sk-compile --timing` also records each phase's wall time (phases nest: a pass's
verification is inside the pass) and prints the table `timing_report()` gives at the end,
as `mlir-opt --mlir-timing` does.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator

_SHOW_AFTER_S = 2.0
_EVERY_S = 0.5
_enabled = False
_prefix = "skir"
_timing: list[tuple[int, str, float]] | None = None  # (depth, phase, seconds) in start order
_depth = 0


def enable(prefix: str) -> None:
    """Show progress, lines starting `<prefix>: `, if standard error is a terminal."""
    global _enabled, _prefix
    _enabled = sys.stderr.isatty()
    _prefix = prefix


def disable() -> None:
    global _enabled, _timing
    _enabled = False
    _timing = None


def enable_timing() -> None:
    """Record the wall time of every phase from now on (`timing_report` prints them)."""
    global _timing
    _timing = []


def timing_report() -> str:
    """The recorded phases, one line each, indented by nesting, with seconds and the share of
    the run; the last line is the total of the outermost phases."""
    if not _timing:
        return ""
    total = sum(s for depth, _, s in _timing if depth == 0) or 1e-9
    width = max(len(name) + 2 * depth for depth, name, _ in _timing)
    lines = [f"{'phase':<{width}}  {'seconds':>8}  {'share':>6}"]
    for depth, name, seconds in _timing:
        lines.append(f"{'  ' * depth + name:<{width}}  {seconds:>8.3f}  {seconds / total:>6.1%}")
    lines.append(f"{'total':<{width}}  {total:>8.3f}  {1:>6.1%}")
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def _timed(name: str) -> Iterator[None]:
    global _depth
    assert _timing is not None
    index = len(_timing)
    _timing.append((_depth, name, 0.0))
    _depth += 1
    start = time.perf_counter()
    try:
        yield
    finally:
        _depth -= 1
        _timing[index] = (_depth, name, time.perf_counter() - start)


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Run the body as phase `name`: after 2 s, an updating line says how long it has run."""
    if _timing is None and not _enabled:
        yield
        return
    with _timed(name) if _timing is not None else contextlib.nullcontext(), _shown(name):
        yield


@contextlib.contextmanager
def _shown(name: str) -> Iterator[None]:
    if not _enabled:
        yield
        return
    done = threading.Event()
    start = time.monotonic()
    shown = [False]

    def tick() -> None:
        while not done.wait(_EVERY_S):
            elapsed = time.monotonic() - start
            if elapsed >= _SHOW_AFTER_S:
                sys.stderr.write(f"\r{_prefix}: {name} ... {elapsed:.1f} s\x1b[K")
                sys.stderr.flush()
                shown[0] = True

    worker = threading.Thread(target=tick, daemon=True)
    worker.start()
    try:
        yield
    finally:
        done.set()
        worker.join()
        if shown[0]:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
