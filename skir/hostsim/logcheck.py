"""Parse the shim's log and decide: core counts, happens-before edges, deadlock, leftovers.

The log format is documented at the top of `include/kernel_operator.h`.  Edges are decided by
vector clocks, so the verdict does not depend on thread timing: an edge a -> b holds iff for every
END record of a and every BEGIN record of b, `vc(END) <= vc(BEGIN)` componentwise, i.e. iff the
componentwise maximum of a's END clocks is <= the componentwise minimum of b's BEGIN clocks.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from skir.hostsim.spec import EmulationSpec, SubTaskInstance

# Problem categories, most important first; the verdict names the first one present.
CATEGORIES = ("compile", "crash", "timeout", "deadlock", "abort", "overflow", "race", "cores", "leftover", "lock",
              "shim", "after the update", "update")

OVERFLOW = "credit overflow: "
"""How the shim's error for a set on a full cross-core counter (15 credits) begins."""


@dataclass(frozen=True)
class CoreInfo:
    """One simulated sub-core, from a CORE line."""

    tid: int
    kind: str  # "aic" | "aiv"
    block: int
    sub: int
    sub_dim: int

    @property
    def logical(self) -> int:
        """`AscendC::GetBlockIdx()` on this core."""
        return self.block * self.sub_dim + self.sub if self.kind == "aiv" else self.block

    @property
    def name(self) -> str:
        if self.kind == "aic":
            return f"aic {self.block}"
        return f"aiv {self.logical} (block {self.block}.{self.sub})"


@dataclass(frozen=True)
class Record:
    """A BEGIN or END line."""

    kind: str
    tid: int
    symbol: str
    offset: int
    copy: int
    vc: tuple[int, ...]


@dataclass
class EmuLog:
    """Everything a log says."""

    kernel_type: str = ""
    blocks: int = 0
    cores: list[CoreInfo] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    leftovers: list[tuple[int, int, int]] = field(default_factory=list)
    deadlocks: list[tuple[int, str]] = field(default_factory=list)
    aborts: list[tuple[int, str]] = field(default_factory=list)
    locks: dict[int, int] = field(default_factory=dict)
    args: list[tuple[int, str, int, tuple[int, ...]]] = field(default_factory=list)
    """ARGS lines: (tid, symbol, args offset, the argument-table words the sub-kernel saw)."""
    forwarded: dict[tuple[int, int], int] = field(default_factory=dict)
    """UPDATE lines the driver appends after an update run: (sub-task key, argument) -> the word
    it forwarded for that argument."""
    verdict: str | None = None


def parse_log(text: str) -> EmuLog:
    """Parse a shim log (unknown or malformed lines are ignored)."""
    log = EmuLog()
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        parts = rest.split()
        try:
            if tag == "LAUNCH":
                log.kernel_type, log.blocks = parts[0], int(parts[1])
            elif tag == "CORE":
                log.cores.append(CoreInfo(int(parts[0]), parts[1], int(parts[2]), int(parts[3]), int(parts[4])))
            elif tag in ("BEGIN", "END"):
                vc = tuple(int(x) for x in parts[4].split(","))
                log.records.append(Record(tag, int(parts[0]), parts[1], int(parts[2]), int(parts[3]), vc))
            elif tag == "ERROR":
                tid, _, msg = rest.partition(" ")
                log.errors.append((int(tid), msg))
            elif tag == "LEFTOVER":
                log.leftovers.append((int(parts[0]), int(parts[1]), int(parts[2])))
            elif tag in ("DEADLOCK", "ABORT"):
                tid, _, desc = rest.partition(" ")
                (log.deadlocks if tag == "DEADLOCK" else log.aborts).append((int(tid), desc))
            elif tag == "LOCK":
                log.locks[int(parts[0])] = int(parts[1])
            elif tag == "ARGS":
                words = tuple(int(x, 16) for x in parts[4].split(",")) if len(parts) > 4 and parts[4] != "-" else ()
                log.args.append((int(parts[0]), parts[1], int(parts[2]), words))
            elif tag == "UPDATE":
                log.forwarded[(int(parts[0]), int(parts[1]))] = int(parts[2], 16)
            elif tag == "VERDICT":
                log.verdict = parts[0]
        except (IndexError, ValueError):
            continue
    return log


def expected_cores(st: SubTaskInstance, cores: list[CoreInfo]) -> set[int]:
    """The tids a sub-task instance must run on (block guards of the emitted call blocks)."""
    out: set[int] = set()
    lo, hi = st.first, st.first + st.blocks
    for c in cores:
        if c.kind == "aic" and st.core_class in ("aic", "mix"):
            if lo <= c.block < hi:
                out.add(c.tid)
        elif c.kind == "aiv":
            if (st.core_class == "aiv" and lo <= c.logical < hi) or (st.core_class == "mix" and lo <= c.block < hi):
                out.add(c.tid)
    return out


def _names(tids: list[int], by_tid: dict[int, CoreInfo], limit: int = 4) -> str:
    shown = ", ".join(by_tid[t].name if t in by_tid else f"core {t}" for t in tids[:limit])
    return shown + (f" and {len(tids) - limit} more" if len(tids) > limit else "")


@dataclass
class _Instance:
    ran: set[int] = field(default_factory=set)
    begins: list[Record] = field(default_factory=list)
    ends: list[Record] = field(default_factory=list)


def _attribute(spec: EmulationSpec, log: EmuLog, expect: list[set[int]], problems: list[str]) -> list[_Instance]:
    """Assign each BEGIN/END to a sub-task instance (k-th call on a core = k-th expected instance)."""
    by_tid = {c.tid: c for c in log.cores}
    same: dict[tuple[str, int], list[int]] = defaultdict(list)
    for i, st in enumerate(spec.subtasks):
        same[(st.symbol, st.offset)].append(i)
    insts = [_Instance() for _ in spec.subtasks]
    calls: dict[tuple[int, str, int], int] = defaultdict(int)
    open_: dict[int, tuple[Record, int | None]] = {}
    unexpected: set[tuple[str, int, int]] = set()
    for rec in log.records:
        if rec.kind == "BEGIN":
            key = (rec.tid, rec.symbol, rec.offset)
            cands = [i for i in same.get((rec.symbol, rec.offset), []) if rec.tid in expect[i]]
            k = calls[key]
            calls[key] += 1
            idx = cands[k] if k < len(cands) else None
            if idx is None and (rec.symbol, rec.offset, rec.tid) not in unexpected:
                unexpected.add((rec.symbol, rec.offset, rec.tid))
                what = "a call" if not cands else f"call #{k + 1}"
                core = by_tid[rec.tid].name if rec.tid in by_tid else f"core {rec.tid}"
                problems.append(f"cores: unexpected {what} of {rec.symbol}@{rec.offset} on {core}")
            if idx is not None:
                insts[idx].ran.add(rec.tid)
                insts[idx].begins.append(rec)
            open_[rec.tid] = (rec, idx)
        else:
            begun = open_.pop(rec.tid, None)
            if begun is not None and begun[1] is not None:
                insts[begun[1]].ends.append(rec)
    return insts


def _check_cores(
    spec: EmulationSpec,
    log: EmuLog,
    expect: list[set[int]],
    insts: list[_Instance],
    deadlocked: bool,
    problems: list[str],
) -> None:
    by_tid = {c.tid: c for c in log.cores}
    for st, exp, inst in zip(spec.subtasks, expect, insts):
        missing = sorted(exp - inst.ran)
        if missing and not deadlocked:
            problems.append(
                f"cores: {st.label} (key {st.key}, {st.core_class}, {st.blocks} blocks) ran on "
                f"{len(inst.ran & exp)} of {len(exp)} expected cores; missing {_names(missing, by_tid)}"
            )
        if not deadlocked and len(inst.ends) < len(inst.begins):
            problems.append(f"cores: {st.label} began {len(inst.begins)} times but ended {len(inst.ends)} times")


def _check_edges(spec: EmulationSpec, log: EmuLog, insts: list[_Instance], problems: list[str]) -> int:
    by_tid = {c.tid: c for c in log.cores}
    index = {st.key: i for i, st in enumerate(spec.subtasks)}
    proven = 0
    for ka, kb in spec.edges:
        a, b = index[ka], index[kb]
        ends, begins = insts[a].ends, insts[b].begins
        if not ends or not begins:
            continue
        e = np.array([r.vc for r in ends], dtype=np.int64)
        s = np.array([r.vc for r in begins], dtype=np.int64)
        emax, smin = e.max(axis=0), s.min(axis=0)
        bad = np.nonzero(emax > smin)[0]
        if bad.size == 0:
            proven += 1
            continue
        k = int(bad[0])
        end_rec, begin_rec = ends[int(e[:, k].argmax())], begins[int(s[:, k].argmin())]
        sa, sb = spec.subtasks[a], spec.subtasks[b]
        problems.append(
            f"race: {sa.label} -> {sb.label}: END on {by_tid[end_rec.tid].name} is not ordered before "
            f"BEGIN on {by_tid[begin_rec.tid].name}"
        )
    return proven


def _positions(log: EmuLog) -> dict[int, str]:
    """Where each core stands in the sub-tasks it ran: `in <symbol@offset>` (its last record is
    a BEGIN) or `after <symbol@offset>` (an END); a core with no record is absent."""
    last: dict[int, Record] = {}
    for r in log.records:
        last[r.tid] = r
    return {tid: f"{'in' if r.kind == 'BEGIN' else 'after'} {r.symbol}@{r.offset}" for tid, r in last.items()}


def check_log(spec: EmulationSpec, log: EmuLog) -> tuple[list[str], int]:
    """Problems found in `log` for `spec`, and the number of edges proven.

    A deadlocked core's line says where it stands (`in` or `after` a sub-task instance), so a
    hang in the entry's own sync after a sub-task (a cross-core self-test, a barrier) names it.
    """
    problems: list[str] = []
    by_tid = {c.tid: c for c in log.cores}
    where = _positions(log) if log.deadlocks else {}
    for tid, desc in log.deadlocks:
        problems.append(f"deadlock: {desc} ({where[tid]})" if tid in where else f"deadlock: {desc}")
    for _, desc in log.aborts:
        problems.append(f"abort: {desc}")
    expect = [expected_cores(st, log.cores) for st in spec.subtasks]
    insts = _attribute(spec, log, expect, problems)
    _check_cores(spec, log, expect, insts, bool(log.deadlocks or log.aborts), problems)
    proven = _check_edges(spec, log, insts, problems)
    for tid, flag, n in log.leftovers:
        core = by_tid[tid].name if tid in by_tid else f"core {tid}"
        problems.append(f"leftover: {core} holds {n} unconsumed credit(s) on flag {flag} at the end")
    if not log.deadlocks and not log.aborts:
        for slot, want in spec.final_locks:
            got = log.locks.get(slot)
            if got is not None and want >= 0 and got != want:
                problems.append(f"lock: slot {slot} holds {got} at the end, expected {want} "
                                f"({'a reset missing' if want == 0 else 'a notify missing'})")
    for _, msg in log.errors:  # shim messages name their core themselves
        # a set on a full cross-core counter: the shim names the counter, the setter and where it stands
        overflow = msg.removeprefix(OVERFLOW)
        problems.append(f"overflow: {overflow}" if overflow != msg else f"shim: {msg}")
    if log.verdict is None and not log.deadlocks and not log.aborts:
        problems.append("crash: the emulation log ends without a verdict")
    return problems, proven


def verdict_line(spec: EmulationSpec, problems: list[str], n_cores: int, proven: int) -> str:
    """One line: `ok: ...` or `<category>: <first problem of the most important category>`."""
    if not problems:
        def count(n: int, noun: str) -> str:
            return f"{n} {noun}" if n == 1 else f"{n} {noun}s"

        forwarded = f", run again after forwarding {count(len(spec.updates), 'update')}" if spec.updates else ""
        return (
            f"ok: {count(len(spec.subtasks), 'sub-task')} on {count(n_cores, 'core')}, "
            f"{count(proven, 'edge')} proven{forwarded}"
        )
    order = {c: i for i, c in enumerate(CATEGORIES)}
    first = min(problems, key=lambda p: order.get(p.partition(":")[0], len(order)))
    more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
    return first + more
