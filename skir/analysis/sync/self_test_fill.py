"""How far the cross-core self-test can fill each flag counter after a mixed sub-task.

The self-test of `debug-cross-core-sync-check=1` runs after each mixed sub-task
(docs/design.md §3 "Synchronisation inside a SuperKernel"). Its balanced round catches a
sub-kernel that leaked a wait; to catch one that leaked a *set*, it then fills every counter it
can to exactly 15 credits and drains it, so one surplus credit overflows the 4-bit counter right
there. That is sound only where the credits skir's own sync has pending on the counter at that
point are known exactly. This module decides it, from the lowered program alone, in one pass.

**The pending count.** A counter is a (core type, flag id): the AICs' counter of a block gets a
credit when every AIV of the block has set the id in mode 2 (one credit a round), each AIV's
gets one for each mode-2 set of its AIC, and a mode-0 / mode-1 set credits the setter's own
type (`SetFlagOp.credited`), as the host shim and the sync machine count them. The fill opens
with a handshake (below) after which each side has run everything before the self-test in its
program order and nothing after it, so the credits pending on a counter are exactly the sets
before the point that credit it minus the waits before the point on it (`pending`): one for
every set / wait pair of skir's on that id that straddles the point, in a chain SuperKernel
(whose dependencies are barriers: none) or a queue one alike; the earlier self-tests are
balanced and count nothing. Sub-kernels are taken to be balanced: that is what the self-test
tests. The count is exact except

- for a counter that a mode-0 set before the point credits while credits are pending on it: a
  mode-0 round completes when every core of the type has set, and cores of another block may
  not have (the count is then only a bound);
- outside 0-15 (an unproved program: fewer would hang the handshake, more overflow already).

**The fill.** It needs four *quiet* ids `r, q, s, t` (exactly 0 pending on both counters; the
first four in `SELF_TEST_FLAGS` order). A *signal* from one side is a set of two quiet ids,
which the other side waits for both: one leaked credit on one counter cannot let both waits
pass before the sets, so every signal is a proof, and a leak shows only on its own counter.

0. handshake: the AIVs signal `r, q`, then the AIC signals `r, q`;
1. the AIVs set every id but `r, q` toward the AIC `15 - pending` times, signal `r, q`; only
   then the AIC drains them;
2. the same from the AIC toward the AIVs;
3. the AIVs fill `r, q`, signal `s, t` (drained in step 1), the AIC drains;
4. the same from the AIC; then the AIVs signal `s, t` once more, so that neither side leaves the
   self-test before the other has drained.

Each side fills a counter only once the other has taken every credit it took before (the
previous signal proves it), so a counter holds at most 15 credits in a correct program on any
schedule, and exactly 15 when its drain starts: a leaked surplus set overflows it then and
there. Where fewer than four ids are quiet, nothing is filled at that point (the balanced round
stays), and `unfilled` says so.

Example: a queue SuperKernel whose AIC sets flag 15 toward the AIVs before mixed sub-task 3 and
whose AIVs wait for it after it: at sub-task 3, `pending[(aiv, 15)] == 1`, so the AIC fills
flag 15 of its AIVs with 14 credits, and `r, q, s, t = 0, 1, 2, 3`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from skir.dialects.hardware import CoreType
from skir.dialects.superkernel import SetFlagOp, SkProgramOp, SubtaskOp, WaitFlagOp
from skir.dialects.superkernel_flags import FLAG_IDS, MAX_CREDITS, RESERVED_FLAGS

SELF_TEST_FLAGS = tuple(f for f in FLAG_IDS if f not in RESERVED_FLAGS)
"""The ids the cross-core self-test sets and waits: every id but those of SyncAll, the
all-core barriers and early-start."""

QUIET_IDS = 4
"""The quiet ids the fill signals on: two per signal, two pairs."""
Counter = tuple[CoreType, int]
"""A flag counter: the core type that holds it (each core of that type has its own) and the id."""


@dataclass(frozen=True)
class Unfilled:
    """A counter the self-test at one point does not fill, and why (one line)."""

    core: CoreType
    flag: int
    reason: str


@dataclass(frozen=True)
class FillPlan:
    """The self-test after one mixed sub-task: what skir's own sync has pending there, the fill."""

    subtask: int
    """The sub-task's place in the program."""
    pending: dict[Counter, int]
    """Credits skir's own sync has pending on each counter at the point (0 where absent)."""
    fill: dict[Counter, int]
    """The counters the self-test fills: the number of fill sets, `15 - pending`."""
    handshake: tuple[int, int, int, int] | None
    """The four quiet ids `r, q, s, t` (None: nothing is filled)."""
    unfilled: tuple[Unfilled, ...]
    """The counters it does not fill, with the reason."""


def _counters() -> list[Counter]:
    return [(core, flag) for flag in SELF_TEST_FLAGS for core in (CoreType.AIC, CoreType.AIV)]


def plan_point(subtask: int, pending: dict[Counter, int], inexact: Iterable[Counter]) -> FillPlan:
    """The fill at one point, from the pending counts there and the counters they only bound."""
    loose = set(inexact)
    unfilled: list[Unfilled] = []
    exact: dict[Counter, int] = {}
    for counter in _counters():
        n = pending.get(counter, 0)
        if counter in loose:
            unfilled.append(Unfilled(*counter, "a mode-0 set of another block may still be in flight"))
        elif not 0 <= n <= MAX_CREDITS:
            unfilled.append(Unfilled(*counter, f"{n} credits pending, outside 0-{MAX_CREDITS}"))
        else:
            exact[counter] = n
    quiet = [f for f in SELF_TEST_FLAGS
             if exact.get((CoreType.AIC, f)) == 0 and exact.get((CoreType.AIV, f)) == 0]
    held = {c: n for c, n in pending.items() if n}
    if len(quiet) < QUIET_IDS:
        reason = f"only {len(quiet)} id(s) with no pending credit on either side; the fill needs {QUIET_IDS}"
        return FillPlan(subtask, held, {}, None, tuple(Unfilled(*c, reason) for c in _counters()))
    fill = {counter: MAX_CREDITS - n for counter, n in exact.items()}
    return FillPlan(subtask, held, fill, (quiet[0], quiet[1], quiet[2], quiet[3]), tuple(unfilled))


def plan_fills(program: Iterable[SkProgramOp], mixed: Callable[[SubtaskOp], bool]) -> list[FillPlan]:
    """The fill plan after every sub-task `mixed` selects, in program order: one pass, running
    pending counts per counter (a set adds to the counter it credits, a wait takes from its own)."""
    pending: dict[Counter, int] = {}
    mode0: set[Counter] = set()
    plans: list[FillPlan] = []
    for place, op in enumerate(program):
        if isinstance(op, SetFlagOp):
            counter = (op.credited(), op.flag.data)
            pending[counter] = pending.get(counter, 0) + 1
            if op.mode.data == 0:
                mode0.add(counter)
        elif isinstance(op, WaitFlagOp):
            counter = (op.core.data, op.flag.data)
            pending[counter] = pending.get(counter, 0) - 1
        elif isinstance(op, SubtaskOp) and mixed(op):
            inexact = [c for c in mode0 if pending.get(c, 0) != 0]
            plans.append(plan_point(place, dict(pending), inexact))
    return plans
