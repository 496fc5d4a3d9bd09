"""Pausing Python's cyclic garbage collector around bulk IR construction.

Building or rewriting 100k ops triggers full collections that scan the whole (growing)
heap, which makes large runs superlinear; reference counting still frees acyclic garbage,
and the collector runs again when the block ends.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic GC inside the block (re-entrant; restores the previous state)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
