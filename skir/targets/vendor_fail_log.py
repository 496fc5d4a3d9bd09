"""`OUT/sk_fusion_fail_reasons.log` in the vendor's format (docs/design.md §5).

The vendor's AOT SuperKernel writes this file with three sections, one message per line; skir
writes the same sections for its own result, so tools that read the vendor's log read skir's:

```
unfusible kernel:
Node [nodeId:7, streamId:0, streamIdxInGraph:0, nodeIdxInStream:5] - KernelInfos{funcName:x, ...}: reason: ...
original scopes before fusion:
  scopeId=0, scopeFlags=1, scopeNames=[layer0], totalNodes=9
    nodeIds: [0, 1, 2, 3, 4, 5, 6, 7, 8]
scopes after fusion:
  scopeId=0, scopeBitFlag=1
    fusedNodeIds=[0, 1, 2, 3, 4];
    scopeStatus=SUCCESS
    breakReason=[breakReason=UNFUSIBLE_NODE, triggerNode=7, triggerStream=0], breakReasonDetail=..., scopeName=[layer0]
```

- node ids are seqs (the vendor-dump import keeps the vendor's node id as the seq); `streamId`
  is the stream's index, as skir keeps no runtime stream id; `KernelInfos` gives only what the
  model knows (name, the vendor's kernel type, blocks);
- a reason is the vendor's `FusionFailReason` name, with the scope status in brackets where the
  vendor records one (`SCOPE_FUSE_PART [RESOURCE_INSUFFICIENT]`); `reasonDetail` is skir's
  reason and detail; skir's own `no_gain` is `SKIR_NO_GAIN`;
- a scope's flags are one character per scope name in the order the markers name them, `1`
  where the scope lies inside that name (`0` alone without names); its names are joined by `_`
  (`none`); original scopes group every task but the begin and end markers by their names,
  after fusion a scope lists the tasks in its SuperKernel's range on every stream but the
  markers and placeholders;
- the `breakReason` line appears where a SuperKernel's kernel tasks are not its original
  scope's: the cut that closed it (else the one that opened it), as the vendor's
  `ScopeBreakReason` (`UNFUSIBLE_NODE`, `SYNCALL_OP_DROP`, `DEADLOCK_DETECTED`).

Node-id lists are wrapped at 4096 characters into `    continued: ` lines, as the vendor does.
`skir.frontends.vendor.fail_log` reads this format (and the vendor's, with its log prefixes).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.analysis.formation.fail_reasons import FailReason
from skir.analysis.formation.scopes import scope_labels
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp, ScopeBeginOp, ScopeEndOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import vendor_kernel_type
from skir.dialects.aclgraph_slots import PlaceholderOp
from skir.dialects.model_lookup import the_model

"""skir's kernel types as the vendor's log prints them."""
SCOPE_STATUS = ("RESOURCE_INSUFFICIENT", "NO_TARGET_NODE", "UNRECOVERABLE_FAIL")
"""Sub-details the vendor prints in brackets after `SCOPE_FUSE_PART`."""
BREAK_REASONS = ("UNFUSIBLE_NODE", "DEADLOCK_DETECTED", "SYNCALL_OP_DROP", "DEBUG_PER_OP_MAX_CORE")
MAX_LINE = 4096


def render_vendor_fail_log(meta: dict[str, Any], original: ModuleOp, graph: TaskGraph | None = None) -> str:
    """The vendor-format log of SK meta `meta`, whose input model is `original` (`graph`: its
    model's task graph, when the caller has it)."""
    model = the_model(original)
    graph = graph if graph is not None and graph.model is model else TaskGraph(model)
    labels = scope_labels(graph).label
    kernels = {k.sym_name.data: k for k in graph.model.body.block.ops if isinstance(k, KernelOp)}
    markers = {n for n, op in enumerate(graph.ops) if isinstance(op, ScopeBeginOp | ScopeEndOp)}
    placeholders = {n for n, op in enumerate(graph.ops) if isinstance(op, PlaceholderOp)}
    names: list[str] = []
    for n in graph.by_seq:
        for name in labels[n] or ():
            if name not in names:
                names.append(name)
    node = {(graph.streams[graph.stream_of[n]].sym_name.data, graph.seq[n]): n for n in range(len(graph))}

    def flags(label: Iterable[str]) -> str:
        inside = set(label)
        return "".join("1" if name in inside else "0" for name in names) or "0"

    def scope_names(label: Iterable[str]) -> str:
        inside = set(label)
        return "_".join(name for name in names if name in inside) or "none"

    lines = ["unfusible kernel:"]
    for u in sorted(meta["unfused"], key=lambda u: u["seq"]):
        n = node[(u["stream"], u["seq"])]
        launch = graph.ops[n]
        assert isinstance(launch, LaunchOp)
        kernel = kernels.get(u["kernel"])
        kind = vendor_kernel_type(kernel.type) if kernel is not None else "DEFAULT"
        fail = FailReason(u["reason"])
        reason = "SKIR_NO_GAIN" if fail is FailReason.NO_GAIN else fail.vendor_reason
        if fail.vendor_detail in SCOPE_STATUS:
            reason += f" [{fail.vendor_detail}]"
        detail = f"skir: {u['reason']}" + (f", {u['detail']}" if u["detail"] else "")
        lines.append(f"Node {_ident(graph, n)} - KernelInfos{{funcName:{u['kernel']}, kernelType:{kind}, "
                     f"numBlocks:{launch.blocks.data}}}: reason: {reason}, reasonDetail: {detail}")
    original_scopes: dict[tuple[str, ...], list[int]] = {}
    for n in graph.by_seq:
        if n not in markers:
            original_scopes.setdefault(tuple(labels[n] or ()), []).append(n)
    lines.append("original scopes before fusion:")
    for scope_id, (label, nodes) in enumerate(original_scopes.items()):
        lines.append(f"  scopeId={scope_id}, scopeFlags={flags(label)}, scopeNames=[{scope_names(label)}], "
                     f"totalNodes={len(nodes)}")
        lines += _wrapped("    nodeIds: [", [graph.seq[n] for n in nodes], "]")
    kernel_sets = {label: {graph.seq[n] for n in nodes if isinstance(graph.ops[n], LaunchOp)}
                   for label, nodes in original_scopes.items()}
    cuts = sorted(meta["cuts"], key=lambda c: c["seq"])
    cut_seqs = [c["seq"] for c in cuts]
    lines.append("scopes after fusion:")
    for scope_id, sk in enumerate(meta["superkernels"]):
        label = tuple(sk["label"])
        members = [node[(m["stream"], m["seq"])] for m in sk["members"]]
        span: dict[int, tuple[int, int]] = {}
        for n in members:
            lo, hi = span.get(graph.stream_of[n], (n, n))
            span[graph.stream_of[n]] = (min(lo, n), max(hi, n))
        fused = sorted(graph.seq[n] for lo, hi in span.values() for n in range(lo, hi + 1)
                       if n not in markers and n not in placeholders)
        lines.append(f"  scopeId={scope_id}, scopeBitFlag={flags(label)}")
        lines += _wrapped("    fusedNodeIds=[", fused, "];")
        lines.append("    scopeStatus=SUCCESS")
        seqs = {m["seq"] for m in sk["members"]}
        if seqs != kernel_sets.get(label, set()):
            cut = _closing_cut(cuts, cut_seqs, min(seqs), max(seqs))
            if cut is not None:
                trigger = node[(cut["stream"], cut["seq"])]
                why = cut["reason"] if cut["reason"] == "breaker" else FailReason(cut["reason"]).vendor_detail
                kind = why if why in BREAK_REASONS else "UNFUSIBLE_NODE"
                lines.append(f"    breakReason=[breakReason={kind}, triggerNode={cut['seq']}, "
                             f"triggerStream={graph.stream_of[trigger]}], breakReasonDetail=skir: cut before "
                             f"@{cut['stream']} seq {cut['seq']}: {cut['reason']}"
                             + (f" ({cut['detail']})" if cut.get("detail") else "")
                             + f", scopeName=[{scope_names(label)}]")
    return "\n".join(lines) + "\n"


def _ident(graph: TaskGraph, n: int) -> str:
    s = graph.stream_of[n]
    return f"[nodeId:{graph.seq[n]}, streamId:{s}, streamIdxInGraph:{s}, nodeIdxInStream:{graph.pos[n]}]"


def _closing_cut(cuts: list[dict[str, Any]], seqs: list[int], first: int, last: int) -> dict[str, Any] | None:
    """The cut that closed a SuperKernel of seqs `first..last` (the first after it), else the
    one that opened it (the last at or before its first member); `cuts` in seq order, `seqs`
    theirs."""
    after = bisect.bisect_right(seqs, last)
    if after < len(cuts):
        return cuts[after]
    before = bisect.bisect_right(seqs, first)
    return cuts[before - 1] if before else None


def _wrapped(prefix: str, ids: list[int], suffix: str) -> list[str]:
    """`prefix` + the ids joined by `, ` + `suffix`, wrapped into `    continued: ` lines at
    `MAX_LINE` characters."""
    out: list[str] = []
    head, line = prefix, ""
    for i in ids:
        piece = f"{', ' if line else ''}{i}"
        if line and len(head) + len(line) + len(piece) + len(suffix) > MAX_LINE:
            out.append(head + line + suffix)
            head, line = "    continued: ", ""
            piece = str(i)
        line += piece
    if line:
        out.append(head + line + suffix)
    return out
