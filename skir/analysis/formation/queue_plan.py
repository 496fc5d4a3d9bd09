"""The naive synchronisation of a stream-fused (queue) SuperKernel, with cross-core flag ids.

One queue per core type holds, in program order, the nodes (sub-tasks, GM-lock ops) that
run on that type; a mix sub-task is in both. For every dependency u -> v (docs/design.md §3
"Synchronisation inside a SuperKernel", **Queue**):

- an all-core barrier of each of u's types right after u (shared by all of u's consumers);
- for each type X of u and each type Y != X of v: after X's barrier, a mode-2 set X -> Y
  (PIPE_FIX from the AIC, PIPE_MTE3 from the AIVs), and on Y a wait right before v. (A mix
  producer of an aiv consumer thus gives a barrier on the AIVs and an AIC -> AIV pair.)

Flag ids come from 15 downwards, skipping 11-14 and the ids members use themselves. Pairs of
one direction may share an id only when their sets and their waits come in the same order
(the k-th set of a block is matched with its k-th wait). Ids are recycled: a pair joins an
id's chain when at most 14 earlier pairs of the chain may still be pending at its set, a
pair no longer being pending once its consumer happens before the new pair's producer (by
the dependencies, which the synchronisation enforces). So no core ever holds more than 15
credits on one id. `sk-prune-sync` later drops what is implied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from skir.dialects.hardware import CoreType
from skir.dialects.superkernel_flags import MAX_CREDITS

FLAG_ORDER = (15, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
"""Edge flag ids in allocation order (11-14 belong to SyncAll, barriers and early-start)."""
MAX_PENDING = MAX_CREDITS
"""Credits one (core, flag id) may hold."""


@dataclass
class Node:
    """A node of the program: a sub-task or a lock op, the core types it runs on, its dependencies."""

    key: int
    types: tuple[CoreType, ...]
    deps: list[int] = field(default_factory=list)
    stream: Hashable = None
    """The stream of a sub-task (None for a lock access): nodes of one stream are ordered."""


@dataclass(frozen=True)
class QueueItem:
    """One entry of a core type's queue: a node, a barrier of the type, or half of a flag pair."""

    kind: str
    """`node`, `barrier`, `set` or `wait`."""
    key: int | None = None
    pair: int = -1


@dataclass
class Pair:
    """A mode-2 flag pair: the set on `source` after `producer`, the wait on `target` before `consumer`."""

    source: CoreType
    target: CoreType
    producer: int
    consumer: int
    flag: int = -1


@dataclass
class QueuePlan:
    queues: dict[CoreType, list[QueueItem]]
    pairs: list[Pair]


class FlagsExhausted(Exception):
    """No free cross-core flag id is left for a direction."""


def may_exhaust_flags(nodes: list[Node], reserved: Iterable[int] = ()) -> bool:
    """Whether `plan_queues` can raise `FlagsExhausted` on `nodes`: only when more flag pairs
    leave one core type than there are free ids (each pair opens at most one id)."""
    taken = set(reserved)
    free = sum(1 for f in FLAG_ORDER if f not in taken)
    types = {n.key: n.types for n in nodes}
    leaving: dict[CoreType, int] = defaultdict(int)
    for v in nodes:
        for d in v.deps:
            for x in types.get(d, ()):
                for y in v.types:
                    if x is not y:
                        leaving[x] += 1
    return any(count > free for count in leaving.values())


def plan_queues(nodes: list[Node], reserved: Iterable[int] = ()) -> QueuePlan:
    """The naive queue program of `nodes` (in program order); raises `FlagsExhausted`."""
    consumers: dict[int, list[Node]] = defaultdict(list)
    for n in nodes:
        for d in n.deps:
            consumers[d].append(n)
    pairs: list[Pair] = []
    waits_before: dict[int, list[int]] = defaultdict(list)
    sets_after: dict[tuple[int, CoreType], list[int]] = defaultdict(list)
    for u in nodes:
        for v in consumers[u.key]:
            for y in v.types:
                for x in u.types:
                    if x is y:
                        continue
                    index = len(pairs)
                    pairs.append(Pair(x, y, u.key, v.key))
                    sets_after[(u.key, x)].append(index)
                    waits_before[v.key].append(index)
    queues: dict[CoreType, list[QueueItem]] = {core: [] for core in CoreType}
    for n in nodes:
        for core in n.types:
            q = queues[core]
            q.extend(QueueItem("wait", pair=i) for i in waits_before[n.key] if pairs[i].target is core)
            q.append(QueueItem("node", n.key))
            if consumers[n.key]:
                q.append(QueueItem("barrier"))
                q.extend(QueueItem("set", pair=i) for i in sets_after[(n.key, core)])
    _allocate(queues, pairs, set(reserved), _Reach(nodes))
    return QueuePlan(queues, pairs)


class _Reach:
    """`before(a, b)`: whether node `a` happens before (or is) node `b` by the dependencies.

    A vector clock per node over the sub-tasks' streams (nodes of one stream are ordered, each
    depending on the one before); a lock access is never taken as happening before anything.
    """

    def __init__(self, nodes: list[Node]):
        index: dict[Hashable, int] = {}
        self.pos: dict[int, tuple[int, int]] = {}
        count: dict[int, int] = defaultdict(int)
        for n in nodes:
            if n.stream is not None:
                s = index.setdefault(n.stream, len(index))
                self.pos[n.key] = (s, count[s])
                count[s] += 1
        self.clock: dict[int, dict[int, int]] = {}
        for n in nodes:
            clock: dict[int, int] = {}
            for d in n.deps:
                for s, p in self.clock.get(d, {}).items():
                    if clock.get(s, -1) < p:
                        clock[s] = p
            if n.key in self.pos:
                s, p = self.pos[n.key]
                clock[s] = p
            self.clock[n.key] = clock

    def before(self, a: int, b: int) -> bool:
        if a not in self.pos:
            return False
        s, p = self.pos[a]
        return self.clock.get(b, {}).get(s, -1) >= p


def _allocate(queues: dict[CoreType, list[QueueItem]], pairs: list[Pair], reserved: set[int],
              reach: _Reach) -> None:
    free = [f for f in FLAG_ORDER if f not in reserved]
    wait_pos: dict[int, int] = {}
    for q in queues.values():
        for i, item in enumerate(q):
            if item.kind == "wait":
                wait_pos[item.pair] = i
    for source in CoreType:
        chains: dict[int, list[int]] = {}  # flag -> its pairs, in set order
        for item in queues[source]:
            if item.kind != "set":
                continue
            pair = pairs[item.pair]
            w = wait_pos[item.pair]
            best: int | None = None
            for flag, chain in chains.items():
                if wait_pos[chain[-1]] < w and _pending(chain, pairs, pair, reach) < MAX_PENDING:
                    if best is None or wait_pos[chain[-1]] > wait_pos[chains[best][-1]]:
                        best = flag
            if best is None:
                spare = [f for f in free if f not in chains]
                if not spare:
                    raise FlagsExhausted(f"no free cross-core flag id for {source.value} -> {pair.target.value}")
                best = spare[0]
                chains[best] = []
            chains[best].append(item.pair)
            pair.flag = best


def _pending(chain: list[int], pairs: list[Pair], new: Pair, reach: _Reach) -> int:
    """Pairs of `chain` whose waits may not have run when `new`'s set runs (at most 15 looked at)."""
    for back, index in enumerate(reversed(chain[-MAX_PENDING:])):
        if reach.before(pairs[index].consumer, new.producer):
            return back
    return min(len(chain), MAX_PENDING)
