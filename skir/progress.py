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


def enable(prefix: str) -> None:
    """Show progress, lines starting `<prefix>: `, if standard error is a terminal."""
    global _enabled, _prefix
    _enabled = sys.stderr.isatty()
    _prefix = prefix


def disable() -> None:
    global _enabled
    _enabled = False


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Run the body as phase `name`: after 2 s, an updating line says how long it has run."""
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
