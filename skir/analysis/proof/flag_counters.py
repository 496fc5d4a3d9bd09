"""The cross-core flag counters of the sync machine (`skir.analysis.proof.sync_machine`).

One counter per (SuperKernel, core type, core range, flag id): the credits it holds, each the
knowledge its setters had. A set takes part in a **pairing**: a mode-0 round pairs a set of
every range of the type, a mode-2 set from the AIVs pairs the AIV ranges of one AIC range (a
block's AIC is credited once all its AIVs have set); a pairing every member has set completes
and gives each receiver range one credit with what all the setters knew:

```
pair(k, aiv, flag 10, -1, part 0, msg, members [0, 1], aiv, receivers [0, 1])   # range 0 sets
pair(k, aiv, flag 10, -1, part 1, msg, members [0, 1], aiv, receivers [0, 1])   # round complete:
                                                                                # one credit each
```
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence

import numpy as np

from skir.dialects.hardware import CoreType

Counter = tuple[int, CoreType, int, int]
"""(SuperKernel, core type, range index, flag id)."""


class FlagCounters:
    """Every flag counter of the running SuperKernels (see the module docstring)."""

    def __init__(self) -> None:
        self.credits: dict[Counter, deque[np.ndarray]] = defaultdict(deque)
        """The credits each counter holds, first in first out."""
        self.sets: dict[Counter, int] = defaultdict(int)
        """Credits given to each counter."""
        self.waits: dict[Counter, int] = defaultdict(int)
        """Credits taken from each counter."""
        self.max_pending: dict[Counter, int] = defaultdict(int)
        self.rounds: dict[tuple[int, CoreType, int, int], dict[int, list[np.ndarray]]] = \
            defaultdict(lambda: defaultdict(list))
        """(SuperKernel, setter type, flag, receiving AIC range or -1 for mode 0) -> per setter
        range its sets."""
        self.rounds_done: dict[tuple[int, CoreType, int, int], int] = defaultdict(int)

    def pair(self, k: int, core: CoreType, flag: int, target: int, part: int, message: np.ndarray,
             members: Sequence[int], credited: CoreType, receivers: Sequence[int]) -> None:
        """Record a set of range `part` in a pairing of `members` (ranges of `core`); each pairing
        all members have set completes, giving each receiver (a range of `credited`) a credit
        with what every setter knew."""
        sets = self.rounds[(k, core, flag, target)]
        sets[part].append(message)
        key = (k, core, target, flag)
        while all(len(sets[m]) > self.rounds_done[key] for m in members):
            done = self.rounds_done[key]
            joined = sets[members[0]][done].copy()
            for m in members[1:]:
                np.maximum(joined, sets[m][done], out=joined)
            for receiver in receivers:
                self.deliver(k, credited, receiver, flag, joined)
            self.rounds_done[key] = done + 1

    def incomplete(self) -> list[tuple[int, CoreType, int]]:
        """(SuperKernel, setter type, flag) of each pairing some ranges have set more often than
        it completed: a round or a block's pairing some cores never joined."""
        out = []
        for (k, core, flag, target), sets in self.rounds.items():
            done = self.rounds_done[(k, core, target, flag)]
            if any(len(messages) > done for messages in sets.values()):
                out.append((k, core, flag))
        return out

    def deliver(self, k: int, core: CoreType, part: int, flag: int, message: np.ndarray) -> None:
        """One credit to the counter of range `part` of `core`."""
        key = (k, core, part, flag)
        self.credits[key].append(message)
        self.sets[key] += 1
        self.max_pending[key] = max(self.max_pending[key], self.sets[key] - self.waits[key])
