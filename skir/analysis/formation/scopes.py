"""Scope labels, candidate kernels, per-task fail reasons and runs (docs/design.md §3).

Walking the tasks in seq order with a stack of open scopes gives each task its *label*:
the sorted names of the named scopes open around it. A task inside any "do not fuse"
scope (`scope_begin none`) is never fused. Which tasks are candidates depends on the
markers present: with none, every kernel; with only unnamed markers, those outside
them; with any named marker, only those inside named scopes. *Breakers* cut each stream
into *runs*; a SuperKernel's members on one stream always lie in one run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import StringAttr

from skir.analysis.formation.fail_reasons import NO_GAIN_ATTR, FailReason
from skir.analysis.formation.updated import group_prefix, kept_prefixes
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import (
    CondOp,
    EventTaskOp,
    LaunchOp,
    ModelOp,
    OpaqueOp,
    PlaceholderOp,
    RecordOp,
    ScopeBeginOp,
    ScopeEndOp,
    StreamActiveOp,
    WaitOp,
)
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import OpaqueKind, core_demand
from skir.dialects.options_attr import SkOptionsAttr
from skir.dialects.vendor_provenance import NO_BIND_MAP_ATTR
from skir.options import SkOptions

Label = tuple[str, ...]

_FENCE_KINDS = (OpaqueKind.HCCL, OpaqueKind.OTHER)


@dataclass
class ScopeInfo:
    """Per task (node id): its label, whether it is in a "do not fuse" scope, its options."""

    label: list[Label | None]
    """Sorted names of the open named scopes; None for the markers themselves."""
    unfusible: list[bool]
    scope_of: list[int | None]
    """The `scope_begin` node of the innermost open named scope."""
    has_markers: bool
    has_named: bool

    def is_candidate_label(self, n: int) -> bool:
        """Whether the label of task `n` makes it eligible (before per-task tests)."""
        label = self.label[n]
        if label is None or self.unfusible[n]:
            return False
        return bool(label) if self.has_named else True


def scope_labels(graph: TaskGraph) -> ScopeInfo:
    """Labels by one walk in seq order; `scope_end` closes the most recent open scope of its name."""
    n_nodes = len(graph)
    label: list[Label | None] = [()] * n_nodes
    unfusible = [False] * n_nodes
    scope_of: list[int | None] = [None] * n_nodes
    stack: list[tuple[str | None, int]] = []
    has_markers = has_named = False
    current: Label = ()
    for n in graph.by_seq:
        op = graph.ops[n]
        if isinstance(op, ScopeBeginOp | ScopeEndOp):
            has_markers = True
            name = op.scope.data if op.scope is not None else None
            has_named = has_named or name is not None
            label[n] = None
            if isinstance(op, ScopeBeginOp):
                stack.append((name, n))
            else:
                for i in range(len(stack) - 1, -1, -1):
                    if stack[i][0] == name:
                        del stack[i]
                        break
            current = tuple(sorted({s for s, _ in stack if s is not None}))
            continue
        label[n] = current
        unfusible[n] = any(s is None for s, _ in stack)
        for name, begin in reversed(stack):
            if name is not None:
                scope_of[n] = begin
                break
    return ScopeInfo(label, unfusible, scope_of, has_markers, has_named)


VARIANT_ATTR = "sk.variant"
"""On a kernel task: the SuperKernel options `select=gain` chose for its SuperKernel (a variant
that the simulator predicts to be faster; typed, `#sk.options<"...">`), merged over every other option."""


def task_options(graph: TaskGraph, scopes: ScopeInfo, base: SkOptions, n: int) -> SkOptions:
    """The options of task `n`: the base options, overridden by its innermost named scope's,
    then by the variant selection chose for it."""
    options = base
    begin = scopes.scope_of[n]
    if begin is not None:
        op = graph.ops[begin]
        assert isinstance(op, ScopeBeginOp)
        if op.options is not None:
            options = base.override(op.options.data)
    variant = graph.ops[n].attributes.get(VARIANT_ATTR)
    return options.override(variant.data) if isinstance(variant, SkOptionsAttr) else options


def has_early_start(kernel: KernelOp) -> bool:
    """Whether the kernel runs (half of) the early-start handshake itself."""
    return kernel.early_start_set is not None or kernel.early_start_wait is not None


def kernel_fail_reason(
    graph: TaskGraph, scopes: ScopeInfo, kernel: KernelOp, n: int, model: ModelOp, early_start: int,
    fuse_comm: int = 1, fuse_updated: int = 0,
) -> tuple[FailReason, str | None] | None:
    """The first per-task reason that keeps kernel task `n` unfused (docs/design.md §3 step 1), with a detail."""
    launch = graph.ops[n]
    assert isinstance(launch, LaunchOp)
    held = launch.attributes.get(NO_GAIN_ATTR)
    if isinstance(held, StringAttr):  # select=gain dropped its SuperKernel
        return FailReason.NO_GAIN, held.data
    if scopes.unfusible[n]:
        return FailReason.IN_UNFUSIBLE_SCOPE, None
    if scopes.has_named and not scopes.label[n]:
        return FailReason.NOT_IN_SCOPE, None
    updated = launch.task_group is not None
    if updated and not (fuse_updated and launch.updates_args_only):
        # docs/design.md §3 "Updated kernels": only an update of the arguments can be forwarded
        return FailReason.DYNAMIC_TASK, "fuse-updated=0" if launch.updates_args_only else "update launch"
    if launch.comm is not None and not fuse_comm:
        group, op = launch.comm
        return FailReason.COMM_KERNEL, f"{op.value} of group {group} (fuse-comm=0)"
    if kernel.not_sk_capable is not None:
        # a kernel imported from a vendor dump with resolvedNum 0 has no SK bind map
        return FailReason.OP_UNSUPPORTED, "no_bind_map" if NO_BIND_MAP_ATTR in kernel.attributes else "not_sk_capable"
    if early_start != 1 and has_early_start(kernel):
        # Without the handshake (early-start=0) the kernel's own set would leave a credit that
        # satisfies the next barrier (docs/design.md §3); early-start=2 disables the sub-kernels' own
        # handshake, which a compiled kernel cannot honour.
        return FailReason.OP_UNSUPPORTED, "early_start_capability"
    aic, aiv = core_demand(kernel.type, launch.blocks.data)
    if aic > model.aic_cores.data or aiv > model.aiv_cores.data:
        return FailReason.EXCEED_CORE_MAX, None
    if _next_to_external_event(graph, n, updated):
        return FailReason.EXTERNAL_DEPEND, None
    return None


def _next_to_external_event(graph: TaskGraph, n: int, updated: bool) -> bool:
    """An external wait right before the kernel on its stream, or an external record right after;
    the group prefix of an updated kernel that may fuse (`skir.analysis.formation.updated`) does not count."""
    prev, nxt = graph.prev_on_stream(n), graph.next_on_stream(n)
    if updated and group_prefix(graph, n):
        prev = None
    for m, kind in ((prev, WaitOp), (nxt, RecordOp)):
        if m is not None:
            op = graph.ops[m]
            epoch = graph.epoch_of.get(m)
            if isinstance(op, kind) and epoch is not None and epoch.external:
                return True
    return False


@dataclass
class Runs:
    """Run id per task (-1 for breakers), why each breaker cuts, and the fences per label."""

    run_of: list[int]
    cut_reason: dict[int, FailReason] = field(default_factory=dict)
    """Breaker node -> the reason a kernel left alone beside it gets (default_node)."""
    fences: dict[Label, list[int]] = field(default_factory=dict)
    """Label -> sorted seqs of opaque tasks that may synchronise streams invisibly."""
    kept: dict[int, int] = field(default_factory=dict)
    """Group-prefix task of a candidate updated kernel -> that kernel: kept in its slot."""


def compute_runs(graph: TaskGraph, scopes: ScopeInfo, candidate: list[bool]) -> Runs:
    """Cut every stream into runs at breakers and label changes (docs/design.md §3 formation step 2).
    The group prefix of a candidate updated kernel is no breaker: it stays in its slots, before
    the launch (`skir.analysis.formation.updated`)."""
    run_of = [-1] * len(graph)
    runs = Runs(run_of, kept=kept_prefixes(graph, (n for n, ok in enumerate(candidate) if ok)))
    has_candidates = [False] * len(graph.streams)
    for n, ok in enumerate(candidate):
        if ok:
            has_candidates[graph.stream_of[n]] = True
    run = 0
    for s in range(len(graph.streams)):
        run += 1
        last_label: Label | None = None
        for n in graph.stream_nodes(s):
            op = graph.ops[n]
            label = scopes.label[n]
            if isinstance(op, OpaqueOp) and _is_fence(op) and label is not None:
                runs.fences.setdefault(label, []).append(op.seq.data)
            if n not in runs.kept and _is_breaker(graph, n, candidate, has_candidates[s]):
                if isinstance(op, OpaqueOp | CondOp | StreamActiveOp):  # a condition runs a sub-model in its place
                    runs.cut_reason[n] = FailReason.DEFAULT_NODE
                run += 1
                last_label = None
                continue
            if last_label is not None and label != last_label:
                run += 1
            last_label = label
            run_of[n] = run
    for seqs in runs.fences.values():
        seqs.sort()
    return runs


def is_cascade_join(graph: TaskGraph, n: int) -> bool:
    """Whether task `n` is a `stream_active` that ends its stream: the capture continues on the
    stream it activates, so the two are one stream for formation (docs/design.md §3 formation)."""
    return type(graph.ops[n]) is StreamActiveOp and graph.next_on_stream(n) is None


def _is_fence(op: OpaqueOp) -> bool:
    kind = op.kind.data
    if kind in (OpaqueKind.NOTIFY_RECORD, OpaqueKind.NOTIFY_WAIT):
        return op.notify is None
    return kind in _FENCE_KINDS


def _is_breaker(graph: TaskGraph, n: int, candidate: list[bool], stream_has_candidates: bool) -> bool:
    op = graph.ops[n]
    if isinstance(op, LaunchOp):
        return not candidate[n]
    if isinstance(op, PlaceholderOp):
        return False
    if isinstance(op, RecordOp | WaitOp):
        epoch = graph.epoch_of[n]
        return epoch.external or not epoch.single_record
    if isinstance(op, OpaqueOp):
        return stream_has_candidates
    if isinstance(op, StreamActiveOp):
        # an opaque task on its own stream, except a cascade's join (docs/design.md §3 formation)
        return stream_has_candidates and not is_cascade_join(graph, n)
    # resets, value tasks, scope markers, already-rewritten slots
    return True


_ = EventTaskOp
