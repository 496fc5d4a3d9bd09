"""The boundary of each SuperKernel and the slot-preserving rewrite (docs/design.md §3
"The boundary of a SuperKernel", "Slots").

Given the SuperKernels (members and per-stream ranges), plan:

- which event epochs are *inner* (record and waits inside one SuperKernel: they become
  dependencies) and which are *converted* (an end inside, an end outside: the whole epoch
  moves to a new cell — outside records `value_write 1`, outside waits `value_wait eq 1`,
  the closing reset `value_write 0`; inside records an in-kernel notify, inside waits an
  in-kernel lock wait). An epoch without a closing reset is converted all the same: the
  SuperKernel resets the lock when every wait of the epoch is inside it, else the cell ends
  at 1, as the event stays recorded in the original model (`unreset`, SK meta warns).
- front waits (another member stream's prefix must finish before the launch) and back
  blocks (its suffix must wait for the SuperKernel), each on a new cell;
- one action per slot of every range: the launch, `value_write`/`value_wait`, or disable.
  Front waits go in spare slots (placeholders, markers) right before the host range or in
  host range slots before the launch; back blocks in range slots after the front write or
  in spare slots right after the range.
- the group prefix of an updated member (`skir.analysis.formation.updated`) keeps its slots: on the host
  stream the launch takes a member slot after it; on another stream a front wait orders it
  before the launch, its write in a slot after the prefix.

A SuperKernel whose needs cannot be met is reported in `failures` (the caller drops it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skir.analysis.formation.member_order import MemberIndex
from skir.analysis.formation.updated import kept_prefixes
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import EventEpoch, TaskGraph
from skir.dialects.aclgraph import LaunchOp, PlaceholderOp, ScopeBeginOp, ScopeEndOp, StreamActiveOp


@dataclass(frozen=True)
class LockOp:
    """An in-kernel access to a cell: `notify` (store 1), `wait` (poll for 1) or `reset` (store 0).

    A notify follows member `after` (None: at the start); a wait precedes member `before`
    (None: at the end); a reset runs at exit, on the class of member `owner` (whose lock
    slot holds the cell for a reset-only cell).
    """

    kind: str
    cell: str
    after: int | None = None
    before: int | None = None
    owner: int | None = None
    """The member whose arg-table lock slot holds the cell's address."""
    deps: tuple[int, ...] = ()
    """For a notify that follows members of several streams of which none follows all the
    others (a queue SuperKernel only): every one of them (`after` is the latest); for a wait
    that precedes such members: every one of them (`before` is the earliest)."""


@dataclass
class SkPlan:
    """The rewrite of one SuperKernel."""

    index: int
    members: list[int]
    ranges: dict[int, tuple[int, int]]
    host: int = -1
    launch: int = -1
    slots: dict[int, tuple[str, str | None, int]] = field(default_factory=dict)
    """Range or spare slot -> (action, cell, value): launch, disable, value_write, value_wait."""
    locks: list[LockOp] = field(default_factory=list)
    _by_stream: dict[int, tuple[list[int], list[int]]] | None = None

    def by_stream(self) -> dict[int, tuple[list[int], list[int]]]:
        """Stream -> (member positions, members) in stream order (set by the planner)."""
        assert self._by_stream is not None
        return self._by_stream


@dataclass
class RewritePlan:
    superkernels: list[SkPlan]
    outside: dict[int, tuple[str, str, int]]
    """Converted task outside every SuperKernel -> (value_write | value_wait, cell, value)."""
    cells: list[str]
    failures: dict[int, str]
    """SuperKernel index -> why it cannot be rewritten (resource_insufficient)."""
    unreset: list[tuple[str, str]] = field(default_factory=list)
    """(cell, event) of converted epochs without a closing reset whose cell ends at 1."""


def _is_spare(op: object) -> bool:
    return isinstance(op, PlaceholderOp | ScopeBeginOp | ScopeEndOp)


class _Planner:
    def __init__(self, graph: TaskGraph, hb: HappensBefore, names: set[str], sk_names: list[str]):
        self.graph, self.hb = graph, hb
        self.names = set(names)
        self.sk_names = sk_names
        self.cells: list[str] = []
        self.failures: dict[int, str] = {}
        self.outside: dict[int, tuple[str, str, int]] = {}
        self.used: set[int] = set()
        self.resets: set[tuple[int, str]] = set()
        self.member_index: dict[int, MemberIndex] = {}
        self.unreset: list[tuple[str, str]] = []
        self.kept: dict[int, int] = {}

    def new_cell(self, base: str) -> str:
        name, i = base, 1
        while name in self.names:
            i += 1
            name = f"{base}_{i}"
        self.names.add(name)
        self.cells.append(name)
        return name

    def plan(self, plans: list[SkPlan]) -> RewritePlan:
        g = self.graph
        inside: dict[int, SkPlan] = {}
        self.kept = kept_prefixes(g, (m for p in plans for m in p.members))
        for p in plans:
            for lo, hi in p.ranges.values():
                for n in range(lo, hi + 1):
                    if n not in self.kept:
                        inside[n] = p
        for p in plans:
            p.host = g.stream_of[p.members[0]]
            groups: dict[int, list[int]] = {}
            for m in sorted(p.members):
                groups.setdefault(g.stream_of[m], []).append(m)
            p._by_stream = {t: ([g.pos[m] for m in ms], ms) for t, ms in groups.items()}
        self.used = set(inside)
        for epoch in g.epochs:
            self._event(epoch, inside)
        for p in plans:
            if p.index not in self.failures:
                self._slots(p)
        return RewritePlan(plans, self.outside, self.cells, self.failures, self.unreset)

    # ---- events ----------------------------------------------------------------------

    def _event(self, epoch: EventEpoch, inside: dict[int, SkPlan]) -> None:
        ends = [*epoch.records, *epoch.waits]
        touched = {inside[n].index: inside[n] for n in ends if n in inside}
        if not touched:
            return
        if len(touched) == 1 and all(n in inside for n in ends):
            return  # inner: record and waits inside one SuperKernel
        if not epoch.single_record:  # a breaker: never inside a range
            for index in touched:
                self.failures.setdefault(index, f"event @{epoch.event} has several records in one epoch")
            return
        record = epoch.records[0]
        if record not in inside and all(self._before_launch(inside[n], record, inside) for n in ends if n in inside):
            # every end inside a SuperKernel is a wait its launch already follows: those waits
            # are void and the epoch stays an event (a cell would only end the model at 1)
            return
        cell = self.new_cell(f"{epoch.event}_cell")
        for n in ends:
            p = inside.get(n)
            if p is None:
                self.outside[n] = ("value_write", cell, 1) if n == record else ("value_wait", cell, 1)
                continue
            if n == record:
                after, deps = self._members_before(p, n)
                p.locks.append(LockOp("notify", cell, after=after, deps=deps))
            elif inside.get(record) is not p:
                member, deps = self._members_after(p, n)
                if not self._before_launch(p, record, inside):
                    p.locks.append(LockOp("wait", cell, before=member, deps=deps))
                if (p.index, cell) not in self.resets and all(inside.get(w) is p for w in epoch.waits):
                    self.resets.add((p.index, cell))
                    p.locks.append(LockOp("reset", cell, owner=member))
        if epoch.reset is not None:
            self.outside[epoch.reset] = ("value_write", cell, 0)
        elif not any((index, cell) in self.resets for index in touched):  # (a fresh cell: its resets are these)
            # (e): no visible closing reset, and a waiter outside the SuperKernel still needs the
            # cell: it ends at 1, as the event stays recorded in the original model.
            self.unreset.append((cell, epoch.event))

    def _before_launch(self, p: SkPlan, record: int, inside: dict[int, SkPlan]) -> bool:
        """Whether an outside `record` happens before the host stream's first member (so before
        the launch, which takes that slot or a later one): an in-kernel wait for it is void."""
        if record in inside:
            return False
        first = p.by_stream()[p.host][1][0]
        return self.hb.before(record, first)

    def _index(self, p: SkPlan) -> MemberIndex:
        if p.index not in self.member_index:
            self.member_index[p.index] = MemberIndex(self.graph, p.members)
        return self.member_index[p.index]

    def _members_before(self, p: SkPlan, n: int) -> tuple[int | None, tuple[int, ...]]:
        """The latest member (in the members' order, a topological order of hb) that happens
        before task `n`, if any, and, when it does not follow every other member stream's last
        member before `n`, all of those (the notify then depends on each). Not the highest seq:
        in a crossed capture a member of higher seq on another stream can happen before one of
        lower seq that `n` follows."""
        found = self._index(p).last_before(self.hb.clock(n), self.graph.stream_of[n])
        last = max(found, key=self.hb.seq_rank.__getitem__, default=None)
        if last is None or all(m == last or self.hb.before(m, last) for m in found):
            return last, ()
        return last, tuple(sorted(found, key=self.hb.seq_rank.__getitem__))

    def _members_after(self, p: SkPlan, n: int) -> tuple[int | None, tuple[int, ...]]:
        """The earliest member (in the members' order) that happens after task `n`, if any,
        and, when not every other member stream's first member after `n` follows it, all of
        those (each then depends on the wait)."""
        found = self._index(p).first_after(self.hb.first_after(n), self.graph.stream_of[n])
        first = min(found, key=self.hb.seq_rank.__getitem__, default=None)
        if first is None or all(m == first or self.hb.before(first, m) for m in found):
            return first, ()
        return first, tuple(sorted(found, key=self.hb.seq_rank.__getitem__))

    # ---- slots -----------------------------------------------------------------------

    def _slots(self, p: SkPlan) -> None:
        g, hb = self.graph, self.hb
        name = self.sk_names[p.index]
        host = p.host
        # What the launch waits for: the host stream's task before the range (every slot of the
        # range is rewritten, so a wait inside it, such as one on an event recorded inside the
        # SuperKernel, no longer orders another stream's prefix before the launch).
        before_host = g.prev_on_stream(p.ranges[host][0])
        known = hb.clock(before_host) if before_host is not None else None
        fronts: list[str] = []
        for s, (lo, hi) in sorted(p.ranges.items()):
            kept = [n for n in range(lo, hi + 1) if n in self.kept]
            # a kept group prefix, and a cascade's stream_active ending a range, keep their slots
            # (docs/design.md §3 "Slots")
            rewritten = [n for n in range(lo, hi + 1) if n not in self.kept and type(g.ops[n]) is not StreamActiveOp]
            for n in rewritten:
                p.slots[n] = ("disable", None, 0)
            if s == host:
                continue
            members = p.by_stream()[s][1]
            # a kept group prefix must end before the launch: the front write goes after it
            order = [n for n in rewritten if not kept or n > kept[-1]] + self._spares_after(hi)
            k = 0
            if kept or self._needs_front(p, s, lo, known):
                cell = self.new_cell(f"{name}_front_{g.streams[s].sym_name.data}")
                fronts.append(cell)
                p.slots[order[0]] = ("value_write", cell, 1)
                p.locks.append(LockOp("reset", cell, owner=members[0]))
                k = 1
            if self._needs_back(p, s, hi):
                if len(order) < k + 2:
                    self.failures[p.index] = f"no slot for the back block on @{g.streams[s].sym_name.data}"
                    return
                cell = self.new_cell(f"{name}_back_{g.streams[s].sym_name.data}")
                p.slots[order[k]] = ("value_wait", cell, 1)
                p.slots[order[k + 1]] = ("value_write", cell, 0)
                p.locks.append(LockOp("notify", cell, after=members[-1]))
            self.used.update(n for n in order if n in p.slots)
        self._host(p, fronts)

    def _host(self, p: SkPlan, fronts: list[str]) -> None:
        g = self.graph
        lo, hi = p.ranges[p.host]
        spares = self._spares_before(lo)
        wait_slots = spares[len(spares) - min(len(spares), len(fronts)):]
        rest = len(fronts) - len(wait_slots)
        free = [n for n in range(lo, hi + 1) if n not in self.kept and type(g.ops[n]) is not StreamActiveOp]
        wait_slots += free[:rest]
        # the launch follows the front waits and every kept group prefix of the host range
        after = max([*free[:rest], *(n for n in range(lo, hi + 1) if n in self.kept)], default=lo - 1)
        # never a task group's slot: the framework re-issues a group's tasks every step, which would
        # put the member back in place of the launch (docs/design.md §3 "Slots")
        launch = next((n for n in range(after + 1, hi + 1) if n in p.members and isinstance(g.ops[n], LaunchOp)
                       and g.ops[n].task_group is None), None)
        if launch is None:
            self.failures[p.index] = (f"no slot for {len(fronts)} front wait(s) before the launch on @"
                                      f"{g.streams[p.host].sym_name.data}" if fronts else "no member kernel slot "
                                      f"outside a task group for the launch on @{g.streams[p.host].sym_name.data}")
            return
        for slot, cell in zip(wait_slots, fronts):
            p.slots[slot] = ("value_wait", cell, 1)
        p.slots[launch] = ("launch", None, 0)
        p.launch = launch
        self.used.update(wait_slots)

    def _needs_front(self, p: SkPlan, s: int, lo: int, known: object) -> bool:
        """Whether the launch must wait for member stream `s`'s prefix: its tasks before `lo`, or,
        when `lo` begins a stream that a `stream_active` task outside this SuperKernel activates,
        that task (docs/design.md §3 (b)), where the launch does not already follow them."""
        g = self.graph
        if g.pos[lo] > 0:
            return known is None or known[s] < g.pos[lo] - 1  # type: ignore[index]
        active = g.activator.get(s)
        if active is None or any(a <= active <= b for a, b in p.ranges.values()):
            return False  # runs from the start, or activated by a cascade's join this SuperKernel holds
        return known is None or known[g.stream_of[active]] < g.pos[active]  # type: ignore[index]

    def _needs_back(self, p: SkPlan, s: int, hi: int) -> bool:
        g = self.graph
        nxt = g.next_on_stream(hi)
        if nxt is None:
            return False
        host_next = g.next_on_stream(p.ranges[p.host][1])
        return host_next is None or self.hb.first_after(host_next)[s] > g.pos[nxt]

    def _spares_after(self, hi: int) -> list[int]:
        g, out = self.graph, []
        n = g.next_on_stream(hi)
        while n is not None and _is_spare(g.ops[n]) and n not in self.used:
            out.append(n)
            n = g.next_on_stream(n)
        return out

    def _spares_before(self, lo: int) -> list[int]:
        g, out = self.graph, []
        n = g.prev_on_stream(lo)
        while n is not None and _is_spare(g.ops[n]) and n not in self.used:
            out.append(n)
            n = g.prev_on_stream(n)
        return out[::-1]


def plan_rewrite(
    graph: TaskGraph,
    hb: HappensBefore,
    superkernels: list[tuple[list[int], dict[int, tuple[int, int]]]],
    names: set[str],
    sk_names: list[str],
) -> RewritePlan:
    """Plan the rewrite of `superkernels` ((members in seq order, ranges) each).

    `names` are the model's symbol names (new cells avoid them); `sk_names` name the
    SuperKernels (for cell names).
    """
    plans = [SkPlan(i, members, ranges) for i, (members, ranges) in enumerate(superkernels)]
    return _Planner(graph, hb, names, sk_names).plan(plans)

