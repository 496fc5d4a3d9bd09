"""Time stamps that carry their own critical-path breakdown.

A `Stamp` is `(t, compute, dispatch, sync, idle)`: a point in simulated time (µs) and how
the chain of waits that produced it splits into the four categories, so that
`compute + dispatch + sync + idle == t` always holds. Joining several stamps keeps the
latest one whole (the critical path goes through it); waiting for a later time adds the
wait to one category; a cost adds to its category.

- compute: kernel work (and opaque device tasks such as memcpy);
- dispatch: host launch, graph launch, the device dispatch gap, a SuperKernel's entry and
  instruction-cache misses at a cold start;
- sync: event, value and lock tasks, barriers, cross-core flags, early-start handshakes;
- idle: waiting for cores that other tasks hold.
"""

from __future__ import annotations

from collections.abc import Iterable

Stamp = tuple[float, float, float, float, float]

COMPUTE, DISPATCH, SYNC, IDLE = 1, 2, 3, 4
CATEGORIES = ("compute", "dispatch", "sync", "idle")
ZERO: Stamp = (0.0, 0.0, 0.0, 0.0, 0.0)


def add(stamp: Stamp, category: int, amount: float) -> Stamp:
    """`stamp` moved on by `amount`, counted as `category`."""
    if amount == 0:
        return stamp
    parts = list(stamp)
    parts[0] += amount
    parts[category] += amount
    return tuple(parts)  # type: ignore[return-value]


def wait_until(stamp: Stamp, time: float, category: int) -> Stamp:
    """`stamp` moved on to `time` (if later), the wait counted as `category`."""
    return add(stamp, category, time - stamp[0]) if time > stamp[0] else stamp


def latest(stamps: Iterable[Stamp], default: Stamp = ZERO) -> Stamp:
    """The latest stamp (the first of equal ones), or `default` when there is none."""
    best = default
    first = True
    for stamp in stamps:
        if first or stamp[0] > best[0]:
            best = stamp
            first = False
    return best


def later(a: Stamp, b: Stamp) -> Stamp:
    """The later of two stamps (`a` on a tie)."""
    return b if b[0] > a[0] else a


def breakdown(stamp: Stamp, origin: Stamp = ZERO) -> dict[str, float]:
    """The categories of `stamp` since `origin`, as a dict."""
    return {name: stamp[i + 1] - origin[i + 1] for i, name in enumerate(CATEGORIES)}
