"""SuperKernel formation (docs/design.md §3): which kernel tasks fuse together, and why the rest
do not.

Per label group, candidates are visited in a topological order of happens-before, the lowest
seq first among the ready ones (`HappensBefore.seq_order`): seq is capture order and may
disagree with hb, a wait captured before the record it waits for. A SuperKernel starts at the
first unassigned candidate and takes candidates in that order; a candidate that would break a
rule closes it and starts the next. A SuperKernel's members on a stream lie in one run; its
*range* on a stream is every task from its first to its last member there (inner event tasks
included). Rules, in order, judged on the set with the candidate added:

- a run boundary, or a fence between the lowest and highest member seq (`default_node` when
  an opaque task is the breaker);
- `non_convex`: a happens-before path leaves the range set and re-enters it (`isolated_event`
  when the path runs through a stream that has only event tasks in the scope), or the set
  would follow a wait of an event recorded more than once and precede every record of it
  (`skir.analysis.formation.or_wait_rule`);
- `stream_fusion_off`: stream-fusion=0 and the candidate is unordered with a member, or a
  member or the candidate runs the early-start handshake itself (early-start=1) and the
  SuperKernel would be stream-fused (a queue SuperKernel has no handshake);
- `syncall_block_mismatch`: no valid launch shape is left (`skir.analysis.formation.superkernel_shape`;
  the cut's detail names the mismatch);
- `deadlock`: an in-kernel wait on outside work whose demand, beside the SuperKernel's,
  exceeds the device (`skir.analysis.formation.deadlock_rule`).

Afterwards a SuperKernel of one kernel is dropped (its kernel gets the reason of the cut
beside it, else `single_task`), the boundary events of each non-host member stream join the
range (docs/design.md §3 (e'), `skir.analysis.formation.range_join`), the final deadlock check and
`resource_insufficient` drop whole SuperKernels, and `strict-scope-check` handles broken
scopes.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise

from xdsl.dialects.builtin import StringAttr

from skir.analysis.comm.comm_rule import CommRule
from skir.analysis.formation.boundary import SkPlan, plan_rewrite
from skir.analysis.formation.deadlock_rule import BoundaryNeeds, Starvation
from skir.analysis.formation.fail_reasons import SELECT_CUT_ATTR, FailReason
from skir.analysis.formation.or_wait_rule import OrWaitRule
from skir.analysis.formation.queue_plan import FlagsExhausted, may_exhaust_flags, plan_queues
from skir.analysis.formation.range_hull import HullBuilder, RangeHull
from skir.analysis.formation.range_join import joined_range
from skir.analysis.formation.scopes import (
    Label,
    ScopeInfo,
    compute_runs,
    has_early_start,
    kernel_fail_reason,
    scope_labels,
    task_options,
)
from skir.analysis.formation.sk_program import program_steps, queue_nodes
from skir.analysis.formation.superkernel_cycles import cycle_victims, superkernel_on_cycle
from skir.analysis.formation.superkernel_shape import Demand, ShapeMismatch, SkShape, launch_shape
from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.range_max import RangeMax
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, ModelOp, PlaceholderOp, RecordOp, WaitOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import class_types, core_class, core_demand
from skir.errors import SkirError
from skir.options import SkOptions


@dataclass
class FormedSk:
    """A SuperKernel chosen by formation: members (node ids, seq order) and ranges per stream."""

    label: Label
    options: SkOptions
    members: list[int]
    """In the order formation took them (a topological order of hb); seq order once formed."""
    ranges: dict[int, tuple[int, int]]
    """Stream -> (first, last) task of its range: the members there, the event tasks and spare
    slots between them, and the boundary events that joined (docs/design.md §3 (e'))."""
    shape: SkShape
    demand_of_members: Demand = field(default_factory=Demand)
    seqs: tuple[int, int] = (0, 0)
    """The lowest and highest member seq (fences between them close the SuperKernel)."""
    start: int = -1
    """The candidate that started it (the trigger of the cut before it, if any)."""
    closed_by: Cut | None = None
    """The cut that closed it (None: the end of its label group)."""
    waits: list[int] = field(default_factory=list)
    """Event waits inside the ranges."""
    needs: BoundaryNeeds | None = None
    """While it takes members: the waits of `waits` whose record lies outside the ranges
    (in-kernel waits on outside work), with what each needs beside the launch."""
    hull: RangeHull | None = None
    """While it takes members: the ranges with their aggregated hb vectors."""
    queue: bool = False
    """Some members are unordered by happens-before (stream fusion)."""
    early: bool = False
    """Some member runs the early-start handshake itself."""
    comm: bool = False
    """Some member is a communication kernel (`comm_rule`)."""

    @property
    def first(self) -> int:
        """The member with the lowest seq (its stream is the host)."""
        return self.members[0]

    def demand(self) -> tuple[int, int]:
        return self.shape.demand()


@dataclass(frozen=True)
class Cut:
    """Where formation closed a SuperKernel: the reason (None: a plain breaker), the trigger
    task and, for some reasons, a detail (`syncall_block_mismatch`: the mismatch)."""

    reason: FailReason | None
    trigger: int
    detail: str | None = None


@dataclass
class Formation:
    superkernels: list[FormedSk]
    """In order of their first member's seq (the `sk<N>` numbering)."""
    fail: dict[int, tuple[FailReason, str | None]]
    """Kernel task -> (reason, detail) for every kernel task left unfused."""
    cuts: list[Cut]
    scopes: ScopeInfo


class Former:
    """Runs formation over one model (see the module docstring)."""

    def __init__(self, model: ModelOp, graph: TaskGraph, hb: HappensBefore, options: SkOptions,
                 kernels: dict[str, KernelOp]):
        self.model, self.graph, self.hb, self.base, self.kernels = model, graph, hb, options, kernels
        self.cores = (model.aic_cores.data, model.aiv_cores.data)
        self.scopes = scope_labels(graph)
        self.fail: dict[int, tuple[FailReason, str | None]] = {}
        self.cuts: list[Cut] = []
        self.kernel_of: dict[int, KernelOp] = {}
        candidate = [False] * len(graph)
        for n, op in enumerate(graph.ops):
            if isinstance(op, LaunchOp):
                kernel = kernels[op.kernel.root_reference.data]
                self.kernel_of[n] = kernel
                opts = task_options(graph, self.scopes, options, n)
                reason = kernel_fail_reason(graph, self.scopes, kernel, n, model, opts.early_start, opts.fuse_comm,
                                            opts.fuse_updated)
                if reason is None:
                    candidate[n] = True
                else:
                    self.fail[n] = reason
        self.candidate = candidate
        self.or_waits = OrWaitRule(graph)
        self.runs = compute_runs(graph, self.scopes, candidate)
        self.hulls = HullBuilder(graph, hb, self._absorbable, self._isolated)
        demand = RangeMax.per_stream(graph, self._own_demand)
        self.starvation = Starvation(graph, hb, demand, self.cores)
        self.comm = CommRule(graph, hb, demand, self.cores, self._own_demand)
        self.streams_with_label: dict[Label, set[int]] = defaultdict(set)
        self.streams_with_candidates: dict[Label, set[int]] = defaultdict(set)
        for n in range(len(graph)):
            label = self.scopes.label[n]
            if label is not None:
                self.streams_with_label[label].add(graph.stream_of[n])
                if candidate[n]:
                    self.streams_with_candidates[label].add(graph.stream_of[n])

    def _own_demand(self, n: int) -> tuple[int, int]:
        op = self.graph.ops[n]
        if isinstance(op, LaunchOp):
            return core_demand(self.kernel_of[n].type, op.blocks.data)
        return 0, 0

    # ---- the greedy pass -------------------------------------------------------------

    def run(self) -> Formation:
        groups: dict[Label, list[int]] = defaultdict(list)
        for n in self.hb.seq_order:
            if self.candidate[n]:
                groups[self.scopes.label[n]].append(n)  # type: ignore[index]
        formed: list[FormedSk] = []
        for label, nodes in sorted(groups.items(), key=lambda item: self.graph.seq[item[1][0]]):
            formed.extend(self._form_group(label, nodes))
        for sk in formed:
            sk.members.sort(key=self.graph.seq.__getitem__)
        kept = self._drop_singles(formed)
        kept = self._join_boundaries(kept)
        kept = self._drop_cycles(kept)
        kept = self._final_deadlock_check(kept)
        kept = self._comm_check(kept)
        kept = self._resource_check(kept)
        kept = self._strict_scope_check(kept)
        kept.sort(key=lambda sk: self.graph.seq[sk.first])
        return Formation(kept, self.fail, self.cuts, self.scopes)

    def _form_group(self, label: Label, nodes: list[int]) -> list[FormedSk]:
        """Greedy formation over one label group, `nodes` in a topological order of hb."""
        options = task_options(self.graph, self.scopes, self.base, nodes[0])
        fences = self.runs.fences.get(label, [])
        out: list[FormedSk] = []
        current: FormedSk | None = None
        for c in nodes:
            if current is not None:
                reason, detail, closes = self._check(current, c, options, fences)
                if not closes:
                    continue
                current.closed_by = Cut(reason, c, detail)
                current.hull = current.needs = None
                self.cuts.append(current.closed_by)
                out.append(current)
            current = self._start(label, options, c)
        if current is not None:
            current.hull = current.needs = None
            out.append(current)
        return out

    def _start(self, label: Label, options: SkOptions, c: int) -> FormedSk | None:
        demand = self._add_demand(Demand(), c)
        shape = launch_shape(demand, options, self.cores)
        if isinstance(shape, ShapeMismatch):  # only under debug-aic-num / debug-aiv-num
            self.fail[c] = (FailReason.SYNCALL_BLOCK_MISMATCH, shape.detail)
            return None
        seq = self.graph.seq[c]
        hull = RangeHull.of(self.graph, self.hb, c)
        return FormedSk(label, options, [c], hull.ranges, shape, demand, (seq, seq), c,
                        early=has_early_start(self.kernel_of[c]), hull=hull, needs=BoundaryNeeds(self.starvation),
                        comm=c in self.comm.group)

    def _add_demand(self, demand: Demand, n: int) -> Demand:
        kernel = self.kernel_of[n]
        return demand.add(kernel.type, self.graph.ops[n].blocks.data,  # type: ignore[attr-defined]
                          exact=kernel.needs_exact_blocks)

    def _check(self, sk: FormedSk, c: int, options: SkOptions,
               fences: list[int]) -> tuple[FailReason | None, str | None, bool]:
        """(reason, detail, closes): add `c` to `sk` when it breaks no rule, else say why `sk` closes."""
        g = self.graph
        cut = g.ops[c].attributes.get(SELECT_CUT_ATTR)
        if isinstance(cut, StringAttr):
            return FailReason.NO_GAIN, cut.data, True
        s = g.stream_of[c]
        if s in sk.ranges:
            last = sk.ranges[s][1]
            if self.runs.run_of[last] != self.runs.run_of[c]:
                return self._breaker_reason(last, c), None, True
        lo, hi = min(sk.seqs[0], g.seq[c]), max(sk.seqs[1], g.seq[c])
        if fences:
            i = bisect.bisect_right(fences, lo)
            if i < len(fences) and fences[i] < hi:
                return FailReason.DEFAULT_NODE, None, True
        assert sk.hull is not None
        witness, hull, changed = self.hulls.extend(sk.hull, c, sk.label)
        if witness is None and self.or_waits.violated(hull.lo_pos, hull.hi_pos, hull.anc, hull.desc):
            witness = FailReason.NON_CONVEX
        if witness is not None:
            return witness, None, True
        ranges = hull.ranges
        after_all = sk.hull.after_all(self.hb.clock(c))
        if options.stream_fusion == 0 and not after_all:
            return FailReason.STREAM_FUSION_OFF, None, True
        early = has_early_start(self.kernel_of[c])
        if (early or sk.early) and (sk.queue or not after_all):
            # A queue SuperKernel has no early-start handshake to consume the kernel's own set.
            return FailReason.STREAM_FUSION_OFF, None, True
        demand = self._add_demand(sk.demand_of_members, c)
        shape = launch_shape(demand, options, self.cores)
        if isinstance(shape, ShapeMismatch):
            return FailReason.SYNCALL_BLOCK_MISMATCH, shape.detail, True
        new_waits = self._new_waits(sk.ranges, ranges, changed)
        assert sk.needs is not None
        sk.needs.update(ranges, new_waits, changed)  # a rejected candidate closes `sk`: no undo
        if sk.needs.starves(shape.demand()):
            return FailReason.DEADLOCK, None, True
        comm = c in self.comm.group
        if comm or sk.comm:
            partner = self.comm.unordered_partner(sk.members, c)
            if partner is not None:
                where = f"@{g.streams[g.stream_of[partner]].sym_name.data} seq {g.seq[partner]}"
                return FailReason.COMM_ORDER, f"group {self.comm.group[c]}: unordered with {where}", True
            if not self.comm.coresident(ranges, shape.demand()):
                return FailReason.COMM_CORESIDENCY, None, True
        sk.members.append(c)
        sk.ranges, sk.hull = ranges, hull
        sk.shape = shape
        sk.demand_of_members = demand
        sk.seqs = (lo, hi)
        sk.waits += new_waits
        sk.queue = sk.queue or not after_all
        sk.early = sk.early or early
        sk.comm = sk.comm or comm
        return None, None, False

    def _breaker_reason(self, last: int, c: int) -> FailReason | None:
        for n in range(last + 1, c):
            if n in self.runs.cut_reason:
                return self.runs.cut_reason[n]
        return None

    # ---- rules ------------------------------------------------------------------------

    def _isolated(self, first: int, last: int, label: Label) -> bool:
        """Whether nodes first..last of one stream are only event tasks and spare slots of `label`."""
        g = self.graph
        return all(isinstance(g.ops[n], RecordOp | WaitOp | PlaceholderOp) and self.scopes.label[n] == label
                   for n in range(first, last + 1))

    def _absorbable(self, first: int, stop: int, anchor: int) -> bool:
        """Whether tasks first..stop-1 (one stream) can join a range: same run, no kernels."""
        run = self.runs.run_of[anchor]
        return all(
            self.runs.run_of[n] == run and not isinstance(self.graph.ops[n], LaunchOp) for n in range(first, stop)
        )

    def _new_waits(self, old: dict[int, tuple[int, int]], new: dict[int, tuple[int, int]],
                   changed: Iterable[int] | None = None) -> list[int]:
        """Event waits that the extension from `old` to `new` ranges (on the `changed` streams,
        every stream when not given) brings inside."""
        found: list[int] = []
        for t in (new if changed is None else changed):
            lo, hi = new[t]
            spans = [(lo, hi + 1)] if t not in old else [(lo, old[t][0]), (old[t][1] + 1, hi + 1)]
            for first, stop in spans:
                found.extend(n for n in range(first, stop)
                             if isinstance(self.graph.ops[n], WaitOp) and n not in self.runs.kept)
        return found

    def _deadlock(self, ranges: dict[int, tuple[int, int]], waits: list[int], shape: SkShape,
                  others: list[tuple[dict[int, tuple[int, int]], tuple[int, int]]] | None) -> bool:
        """Whether an in-kernel wait on outside work could starve for cores (docs/design.md §3
        `deadlock`); `others`: (ranges, demand) of every SuperKernel formed, this one's skipped."""
        return self.starvation.starves(ranges, waits, shape.demand(), others or [])

    # ---- after the greedy pass --------------------------------------------------------

    def _drop_singles(self, formed: list[FormedSk]) -> list[FormedSk]:
        """A SuperKernel of one kernel is dropped: the reason of the cut beside it, else single_task."""
        cut_at = {cut.trigger: cut for cut in self.cuts}
        kept = []
        for sk in formed:
            if len(sk.members) > 1:
                kept.append(sk)
                continue
            (n,) = sk.members
            after = sk.closed_by
            cut = after if after is not None and after.reason is not None else cut_at.get(n)
            if cut is not None and cut.reason is not None:
                self.fail[n] = (cut.reason, cut.detail)
            else:
                self.fail[n] = (FailReason.SINGLE_TASK, None)
        return kept

    def _join_boundaries(self, formed: list[FormedSk]) -> list[FormedSk]:
        """Let the boundary events of each non-host member stream join the range (docs/design.md
        §3 (e'), `skir.analysis.formation.range_join`); joined waits that would make an in-kernel wait
        starve for cores stay outside (they get a front wait)."""
        g = self.graph
        used: set[int] = set()
        for sk in formed:
            for lo, hi in sk.ranges.values():
                used.update(range(lo, hi + 1))
        for sk in formed:
            host = g.stream_of[sk.first]

            def grown(with_waits: bool, sk: FormedSk = sk, host: int = host) -> dict[int, tuple[int, int]]:
                return {s: r if s == host else joined_range(g, self.runs, r[0], r[1], used, with_waits)
                        for s, r in sk.ranges.items()}

            ranges = grown(True)
            waits = [*sk.waits, *self._new_waits(sk.ranges, ranges)]
            if len(waits) > len(sk.waits) and self._deadlock(ranges, waits, sk.shape, None):
                ranges, waits = grown(False), sk.waits
            for s, (lo, hi) in ranges.items():
                used.update(range(lo, hi + 1))
            sk.ranges, sk.waits = ranges, waits
        return formed

    def drop(self, sk: FormedSk, reason: FailReason, detail: str | None = None) -> None:
        for n in sk.members:
            self.fail[n] = (reason, detail)

    def _drop_cycles(self, formed: list[FormedSk]) -> list[FormedSk]:
        """Drop SuperKernels that would wait on each other (`deadlock`, detail
        `superkernel_cycle`), the one formed last on a cycle first, until none is left."""
        victims = cycle_victims(self.graph, [sk.ranges for sk in formed], [sk.seqs[0] for sk in formed])
        for victim in victims:
            self.drop(formed[victim], FailReason.DEADLOCK, "superkernel_cycle")
        dropped = set(victims)
        kept = [sk for i, sk in enumerate(formed) if i not in dropped]
        # no cycle is left, and dropping never makes one: what remains is waits of events
        # recorded more than once that would come before every record
        while (on_cycle := superkernel_on_cycle(self.graph, [sk.ranges for sk in kept],
                                                [sk.seqs[0] for sk in kept])) is not None:
            self.drop(kept.pop(on_cycle), FailReason.DEADLOCK, "superkernel_cycle")
        return kept

    def _final_deadlock_check(self, formed: list[FormedSk]) -> list[FormedSk]:
        kept = []
        everyone = [(o.ranges, o.demand()) for o in formed]  # once: per SuperKernel it was quadratic
        for sk in formed:
            if self._deadlock(sk.ranges, sk.waits, sk.shape, everyone):
                self.drop(sk, FailReason.DEADLOCK, "outside_superkernel")
            else:
                kept.append(sk)
        return kept

    def _comm_check(self, formed: list[FormedSk]) -> list[FormedSk]:
        """Co-residency again with every SuperKernel formed beside (and grown boundaries)."""
        if not self.comm.group:
            return formed
        everyone = [(o.ranges, o.demand()) for o in formed]
        kept = []
        for sk in formed:
            if any(m in self.comm.group for m in sk.members) and not self.comm.coresident(sk.ranges, sk.demand(),
                                                                                        everyone):
                self.drop(sk, FailReason.COMM_CORESIDENCY, "outside_superkernel")
            else:
                kept.append(sk)
        return kept

    def _resource_check(self, formed: list[FormedSk]) -> list[FormedSk]:
        """Drop every SuperKernel whose rewrite needs a slot or an event epoch it cannot have."""
        kept = sorted(formed, key=lambda sk: self.graph.seq[sk.first])
        names = {op.properties["sym_name"].data for op in self.model.body.block.ops
                 if "sym_name" in op.properties}
        while kept:
            plan = plan_rewrite(
                self.graph, self.hb, [(sk.members, sk.ranges) for sk in kept], names,
                [f"{self.model.sym_name.data}_sk{i}" for i in range(len(kept))],
            )
            failures = dict(plan.failures) or self._flag_failures(plan.superkernels)
            if not failures:
                break
            for index, why in failures.items():
                self.drop(kept[index], FailReason.RESOURCE_INSUFFICIENT, why)
            kept = [sk for i, sk in enumerate(kept) if i not in failures]
        return kept

    def _flag_failures(self, plans: list[SkPlan]) -> dict[int, str]:
        """SuperKernels whose stream fusion needs more cross-core flag ids than are free."""
        failures = {}
        for p in plans:
            if all(self.hb.before(a, b) for a, b in pairwise(sorted(p.members, key=self.graph.seq.__getitem__))):
                continue
            _, steps = program_steps(self.graph, self.hb, self.kernel_of.__getitem__, p)
            nodes = queue_nodes(list(enumerate(steps)), lambda m: class_types(core_class(self.kernel_of[m].type)),
                                self.graph.stream_of.__getitem__)
            reserved = {f.data for m in p.members for f in (self.kernel_of[m].sync_flags or ())}
            if not may_exhaust_flags(nodes, reserved):
                continue
            try:
                plan_queues(nodes, reserved)
            except FlagsExhausted as err:
                failures[p.index] = f"cross-core flags: {err}"
        return failures

    def _strict_scope_check(self, formed: list[FormedSk]) -> list[FormedSk]:
        by_label: dict[Label, list[FormedSk]] = defaultdict(list)
        for sk in formed:
            by_label[sk.label].append(sk)
        broken: dict[Label, tuple[int, FailReason | None]] = {}
        for n, label in enumerate(self.scopes.label):
            if label and n in self.fail and self.fail[n][0] is not FailReason.NO_GAIN \
                    and isinstance(self.graph.ops[n], LaunchOp):
                broken.setdefault(label, (n, self.fail[n][0]))
        for cut in self.cuts:
            label = self.scopes.label[cut.trigger]
            if cut.reason is FailReason.NO_GAIN:  # select=gain's own choice breaks no scope
                continue
            if label and (label not in broken or self.graph.seq[cut.trigger] < self.graph.seq[broken[label][0]]):
                broken[label] = (cut.trigger, cut.reason)
        kept = list(formed)
        for label, (trigger, why) in sorted(broken.items(), key=lambda item: self.graph.seq[item[1][0]]):
            mode = task_options(self.graph, self.scopes, self.base, trigger).strict_scope_check
            if mode == "abort":
                names = ", ".join(f'"{name}"' for name in label)
                raise SkirError(
                    f"scope {names} is broken at {self.graph.name(trigger)}"
                    f"{f' ({why.value})' if why else ''}; strict-scope-check=abort"
                )
            if mode == "bypass":
                for sk in by_label.get(label, ()):
                    kept.remove(sk)
                for n, other in enumerate(self.scopes.label):
                    if other == label and isinstance(self.graph.ops[n], LaunchOp):
                        self.fail[n] = (FailReason.IN_UNFUSIBLE_SCOPE, "bypass")
        return kept


def form_superkernels(model: ModelOp, graph: TaskGraph, hb: HappensBefore, options: SkOptions,
                      kernels: dict[str, KernelOp]) -> Formation:
    """Run formation on `model` (see the module docstring)."""
    return Former(model, graph, hb, options, kernels).run()
