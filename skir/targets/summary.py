"""The short summary `sk-compile` prints and writes to `OUT/README.txt`."""

from __future__ import annotations

from collections import Counter

from skir.dialects.aclgraph import StreamOp
from skir.dialects.model_lookup import all_submodels, the_model
from skir.result_records import ResultData

_MAX_LISTED = 8
"""Cuts and warnings listed one per line; the rest are counted (all are in SK meta)."""
MAX_SUPERKERNELS = 30
"""SuperKernels (and emulation verdicts) listed in the printed summary of a big model, which
then stays within about 50 lines; `sk-compile -v` and `OUT/README.txt` list every one."""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _seq_ranges(seqs: list[int]) -> str:
    return f"seq {seqs[0]}" if len(seqs) == 1 else f"seq {seqs[0]}..{seqs[-1]}"


def _vendor_lines(result: ResultData) -> list[str]:
    """For a model read from the vendor's dumps: where from, and what the dumps did not say."""
    from skir.dialects.vendor_provenance import vendor_info

    info = vendor_info(the_model(result.module))
    if info is None:
        return []
    model_id = f", model id {info['model_id']}" if "model_id" in info else ""
    lines = [f"input: the vendor's {info['layout']} dump{model_id}"]
    lines += [f"  unknown: {note}" for note in info.get("notes", [])]
    return lines


def _shared_lines(result: ResultData) -> list[str]:
    """One line per entry that identical SuperKernels share (docs/design.md §5 "Shared entries")."""
    if len(result.superkernels) < 2:
        return []
    from skir.targets.shared_entries import shared_of

    every = shared_of(result).groups
    groups = [g for g in every if g.shared]
    if not groups:
        return []
    entries = len(every)
    lines = [f"entries: {entries} for {_count(len(result.superkernels), 'SuperKernel')}; "
             "shared by identical SuperKernels:"]
    for group in groups[:_MAX_LISTED]:
        names = group.member_names
        shown = ", ".join(names[:3]) + (f", ... ({len(names)})" if len(names) > 3 else "")
        lines.append(f"  {group.name}: {shown}")
    if len(groups) > _MAX_LISTED:
        lines.append(f"  ... {len(groups) - _MAX_LISTED} more shared entries in sk_meta.json")
    return lines


def render_summary(result: ResultData, limit: int | None = None) -> str:
    """A few lines: model size, SuperKernels formed, launches saved, why the rest did not fuse;
    with `limit`, at most that many SuperKernels and emulation verdicts, then how many more."""
    model = the_model(result.module)
    streams = [op for m in (model, *all_submodels(model)) for op in m.body.block.ops if isinstance(op, StreamOp)]
    tasks = sum(len(list(s.body.block.ops)) for s in streams)
    subs = all_submodels(model)
    lines = [
        f"model @{model.sym_name.data}: {_count(len(streams), 'stream')}, {_count(tasks, 'task')}, "
        f"{_count(result.kernel_tasks, 'kernel task')}"
        + (f" ({_count(len(subs), 'sub-model')}: {', '.join(m.sym_name.data for m in subs[:_MAX_LISTED])}"
           + (", ..." if len(subs) > _MAX_LISTED else "") + ")" if subs else ""),
        f"SuperKernels: {len(result.superkernels)}, fusing "
        f"{sum(len(sk.members) for sk in result.superkernels)} kernel tasks; "
        f"launches saved: {result.launches_saved}",
    ]
    lines[1:1] = _vendor_lines(result)
    for sk in result.superkernels[:limit]:
        by_stream: dict[str, list[int]] = {}
        for m in sk.members:
            by_stream.setdefault(m.stream, []).append(m.seq)
        where = ", ".join(f"@{s} {_seq_ranges(sorted(q))}" for s, q in by_stream.items())
        lines.append(f"  {sk.name}  {sk.kernel_type}  {sk.blocks} blocks  {len(sk.members)} sub-tasks  ({where})")
    if limit is not None and len(result.superkernels) > limit:
        lines.append(f"  ... {len(result.superkernels) - limit} more; see sk_meta.json (or -v)")
    lines += _shared_lines(result)
    updates = result.updates
    for group, stream, seq, into in updates[:_MAX_LISTED]:
        lines.append(f"  updated kernel @{stream} seq {seq} (task group {group}) fused into {into}: the runtime "
                     "forwards its update (plan.json updates)")
    if len(updates) > _MAX_LISTED:
        lines.append(f"  ... {len(updates) - _MAX_LISTED} more updated kernels in plan.json")
    if result.measured is not None:
        lines.append(result.measured.summary())
    fit = result.calibration
    if fit is not None:
        measured = ", ".join(f"{k} {v:.3f}" for k, v in fit.fitted.items()) or "none"
        lines.append(f"calibration: rank {fit.rank} of {fit.parameters} ({fit.observations} observations); "
                     f"measured: {measured} (costs.calibrated.json)")
        if fit.not_separable:
            lines.append("  not separable, left assumptions: " + "; ".join(" + ".join(g) for g in fit.not_separable))
        for kind, (count, rms) in fit.residuals.items():
            if count:
                lines.append(f"  {kind}: {count} observations, RMS residual {fit.before[kind][1]:.3f} -> {rms:.3f} us")
    for d in result.selection[:_MAX_LISTED]:
        verdict = "kept" if d.kept else "dropped (no_gain)"
        measured = "" if d.evidence == "predicted" else f"; measured {d.measured_gain_us:+.1f} us: {d.evidence}"
        variant = f"; with {d.variant}" if d.variant else ""
        lines.append(f"  select=gain round {d.round}: {d.superkernel} {verdict}: predicted {d.before_us:.1f} "
                     f"({d.baseline}) -> {d.after_us:.1f} us ({d.gain_us:+.1f}, needs {d.threshold_us:.1f})"
                     f"{measured}{variant}")
    if len(result.selection) > _MAX_LISTED:
        lines.append(f"  ... {len(result.selection) - _MAX_LISTED} more selection decisions in sk_meta.json")
    reasons = Counter(u.reason for u in result.fail_reasons)
    lines.append(f"unfused kernel tasks: {len(result.fail_reasons)}")
    if reasons:
        lines.append("  " + ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items())))
    for cut in result.cuts[:_MAX_LISTED]:
        lines.append(f"  cut before @{cut.stream} seq {cut.seq}: {cut.reason} ({cut.detail})")
    if len(result.cuts) > _MAX_LISTED:
        lines.append(f"  ... {len(result.cuts) - _MAX_LISTED} more cuts in sk_meta.json")
    for mw in result.model_warnings[:_MAX_LISTED]:
        lines.append(mw.text())
    for w in result.warnings[:_MAX_LISTED]:
        lines.append(w.text())
    if len(result.warnings) > _MAX_LISTED:
        lines.append(f"... {len(result.warnings) - _MAX_LISTED} more warnings in sk_meta.json")
    report = result.proof
    if report is not None:
        lines.append(f"sk-check: proved {report.superkernels} SuperKernel(s), {report.subtasks} sub-tasks, "
                     f"{report.syncs} syncs, {report.edges} edges")
    for emu in result.emulation[:limit]:
        lines.append(f"emulation {emu.name}: {emu.verdict}")
    if limit is not None and len(result.emulation) > limit:
        failed = sum(not emu.ok for emu in result.emulation[limit:])
        lines.append(f"... {len(result.emulation) - limit} more emulations, {failed} of them failed (-v lists them)")
    text = "\n".join(lines) + "\n"
    if result.vendor_compare is not None:
        from skir.targets.vendor_compare import render_compare

        text += render_compare(result.vendor_compare)
    estimate = result.report
    if estimate is not None:
        from skir.sim.charts import INSTALL_HINT, have_matplotlib

        text += estimate.table(limit)
        if not have_matplotlib():
            text += (f"report: matplotlib is not installed, so timeline.png and modes.png were not drawn "
                     f"(timeline.json was); to get them: {INSTALL_HINT}\n")
    return text
