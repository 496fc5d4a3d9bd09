"""The vendor's SuperKernels beside skir's (docs/design.md §11 "The vendor's result"): the
comparison document `sk-compile --vendor` writes as `OUT/vendor_compare.json` and prints as a
table (`skir.targets.vendor_compare`).

Two SuperKernels are the *same* when they fuse the same kernel tasks (stream, seq). The
simulated makespans use one set of costs for all three: the original model in aclgraph
mode, skir's rewrite, and the vendor's grouping rewritten by skir's own passes from
`sk-outline` on (so the difference is the grouping, not the code generator); when skir cannot
prove its rewrite of the vendor's grouping, that makespan is null with the reason.
`vendor_warnings` lists the located warnings of reading the vendor's logs
(`sk_fused_nodes.log:12: warning: ...`).

```json
{"format": "skir.vendor_compare", "version": 1, "model": "model_48_1",
 "summary": {"same": 1, "only_vendor": 1, "only_skir": 0, "tasks_agree": 6, "tasks_differ": 2}, ...}
```
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.dialects.model_lookup import the_model
from skir.frontends.vendor.result import VendorResult
from skir.options import SkOptions
from skir.result_records import ResultData
from skir.xdsl_fast.clone import clone_tree

FORMAT = "skir.vendor_compare"
VERSION = 1


def compare_with_vendor(result: ResultData, vendor: VendorResult, options: SkOptions | None = None,
                        costs: Any = None) -> dict[str, Any]:
    """The comparison document of a compiled model and the vendor's result for it."""
    from skir.sim import compare, load_costs

    assert result.original is not None
    costs_label = "default" if costs is None else "given"
    costs = load_costs(costs)
    model = the_model(result.original)
    kernel_of = {(s.sym_name.data, op.seq.data): op.kernel.root_reference.data for s in model.body.block.ops
                 if isinstance(s, StreamOp) for op in s.body.block.ops if isinstance(op, LaunchOp)}
    vendor_of = {m: sk.name for sk in vendor.superkernels for m in sk.members}
    skir_of = {(m.stream, m.seq): sk.name for sk in result.superkernels for m in sk.members}
    reasons = {(u.stream, u.seq): u.reason for u in result.fail_reasons}
    tasks, agree = [], 0
    vendor_sets = {frozenset(sk.members) for sk in vendor.superkernels}
    skir_sets = {frozenset((m.stream, m.seq) for m in sk.members) for sk in result.superkernels}
    same_group = {m for group in vendor_sets & skir_sets for m in group}
    for key in sorted(kernel_of, key=lambda k: k[1]):
        v, s = vendor_of.get(key), skir_of.get(key)
        ok = key in same_group or (v is None and s is None)
        agree += ok
        tasks.append({"stream": key[0], "seq": key[1], "kernel": kernel_of[key], "vendor": v, "skir": s,
                      "agree": ok, "skir_reason": reasons.get(key), "vendor_reason": vendor.reasons.get(key)})
    runs = compare(result.original, result.module, costs, modes=("aclgraph", "superkernel")).runs
    vendor_span, vendor_note = _vendor_makespan(result.original, vendor, options or SkOptions(), costs)
    return {
        "format": FORMAT, "version": VERSION, "model": model.sym_name.data,
        "vendor_result": Path(vendor.source).name, "membership": vendor.membership,
        "cores": {"aic": model.aic_cores.data, "aiv": model.aiv_cores.data},
        "superkernels": {
            "vendor": [{"name": sk.name, "host": _member(sk.host), "members": [_member(m) for m in sk.members]}
                       for sk in vendor.superkernels],
            "skir": [{"name": sk.name, "members": [{"stream": m.stream, "seq": m.seq} for m in sk.members]}
                     for sk in result.superkernels],
        },
        "tasks": tasks,
        "vendor_warnings": list(vendor.warnings),
        "vendor_removed": [_member(m) for m in vendor.removed],
        "vendor_converted": [_member(m) for m in vendor.converted],
        "launches_saved": {"vendor": sum(max(len(sk.members) - 1, 0) for sk in vendor.superkernels),
                           "skir": result.launches_saved},
        "makespan_us": {"original": round(runs["aclgraph"].makespan, 3),
                        "vendor": None if vendor_span is None else round(vendor_span, 3),
                        "skir": round(runs["superkernel"].makespan, 3), "vendor_note": vendor_note,
                        "costs": costs_label},
        "summary": {"same": len(vendor_sets & skir_sets), "only_vendor": len(vendor_sets - skir_sets),
                    "only_skir": len(skir_sets - vendor_sets), "tasks_agree": agree,
                    "tasks_differ": len(tasks) - agree},
    }


def _member(key: tuple[str, int]) -> dict[str, Any]:
    return {"stream": key[0], "seq": key[1]}


def _vendor_makespan(original: ModuleOp, vendor: VendorResult, options: SkOptions,
                     costs: Any) -> tuple[float | None, str | None]:
    """The superkernel-mode makespan of the vendor's grouping, rewritten by skir's passes."""
    from xdsl.utils.exceptions import DiagnosticException

    from skir.analysis.proof.sk_check import check_module
    from skir.errors import SkirError
    from skir.passes.pipeline import pipeline_passes
    from skir.registry import make_context
    from skir.sim import compare

    if not vendor.superkernels:
        return None, "the vendor formed no SuperKernel"
    module = clone_tree(original)
    singles = _tag_vendor_groups(the_model(module), vendor)
    ctx = make_context()
    try:
        for p in pipeline_passes(options)[1:]:
            if p.name != "sk-to-ascendc":
                p.apply(ctx, module)
        report = check_module(module)
    except (SkirError, DiagnosticException, ValueError, AssertionError) as err:
        return None, f"skir cannot rewrite the vendor's grouping: {str(err).splitlines()[0][:200]}"
    if not report.ok:
        return None, f"skir's rewrite of the vendor's grouping does not check: {report.violations[0][:200]}"
    note = (f"{singles} vendor SuperKernel(s) of one kernel simulated as plain launches (skir fuses two or more)"
            if singles else None)
    return compare(original, module, costs, modes=("superkernel",)).runs["superkernel"].makespan, note


def _tag_vendor_groups(model: ModelOp, vendor: VendorResult) -> int:
    """Mark each vendor SuperKernel's range as one `sk.group`, as sk-form-scopes marks skir's:
    per member stream from its first to its last member, a non-host stream grown by its
    boundary events (`joined_range`). Returns how many vendor SuperKernels of one kernel were
    left as launches."""
    from skir.analysis.formation.range_join import joined_range
    from skir.analysis.formation.scopes import Runs
    from skir.analysis.graph.task_graph import TaskGraph
    from skir.dialects.formation_attrs import GROUP_ATTR
    from skir.passes.common import i64

    graph = TaskGraph(model)
    node_of = {(graph.streams[graph.stream_of[n]].sym_name.data, graph.seq[n]): n for n in range(len(graph))}
    runs = Runs([0] * len(graph))  # every event may join; sk-check judges the result
    used: set[int] = set()
    singles = index = 0
    for sk in vendor.superkernels:
        nodes = [node_of[m] for m in sk.members if m in node_of]
        if len(nodes) < 2:
            singles += 1
            continue
        host = graph.stream_of[node_of[sk.host]] if sk.host in node_of else graph.stream_of[nodes[0]]
        by_stream: dict[int, list[int]] = {}
        for n in nodes:
            by_stream.setdefault(graph.stream_of[n], []).append(n)
        for s, members in by_stream.items():
            lo, hi = min(members), max(members)
            if s != host:
                lo, hi = joined_range(graph, runs, lo, hi, used)
            for n in range(lo, hi + 1):
                graph.ops[n].attributes[GROUP_ATTR] = i64(index)
                used.add(n)
        index += 1
    return singles
