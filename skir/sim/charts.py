"""The PNG charts of `--report`: a Gantt of every mode (`timeline.png`) and a bar chart of
the modes' makespans split along the critical path into compute, dispatch, sync and idle, with
each mode's summed device op time (`modes.png`).

Each kernel shown in the Gantt has a colour of its own: the `LEGEND_KERNELS` kernels with the
most simulated time, in `_KERNEL_COLORS` (distinct from each other and from the colours of
SuperKernel launches, syncs and events); any others are drawn in one grey, listed in the legend
as "+N more kernels". Host enqueue (eager) is hatched, so no kernel's colour can be taken for it,
and a stream gets a row only where a task of it lasts (a stream all of whose slots the rewrite
disabled has none in the SuperKernel panel).

matplotlib (the `report` extra: `pip install 'skir[report]'`) is imported lazily and only
through its object API with the Agg canvas, so no global backend is touched; PNGs carry no
software or time metadata, so identical input gives identical bytes. `have_matplotlib()`
says whether the charts can be drawn.
"""

from __future__ import annotations

import io
from typing import Any

from skir.dialects.hardware import CoreType
from skir.sim.modes import Comparison
from skir.sim.report import COLUMN
from skir.sim.stamp import CATEGORIES, breakdown

INSTALL_HINT = "pip install 'skir[report]'"
_CATEGORY_COLORS = {"compute": "#4C72B0", "dispatch": "#DD8452", "sync": "#C44E52", "idle": "#BBBBBB"}
_KIND_COLORS = {"event": "#999999", "value": "#8172B3", "opaque": "#555555", "marker": "#DDDDDD"}
_MAX_LANES = 3
_SK_COLOR = "#D9D9D9"
_HOST_FACE, _HOST_EDGE, _HOST_HATCH = "white", "#333333", "////"
"""Host enqueue (eager): hatched, unlike every filled colour of a kernel, a sync or a task."""
_OTHER_KERNELS = "#A8A8A8"
_KERNEL_COLORS = (
    "#1F77B4", "#FF7F0E", "#2CA02C", "#9467BD", "#8C564B", "#E377C2", "#BCBD22", "#17BECF",
    "#AEC7E8", "#FFBB78", "#98DF8A", "#FF9896", "#C5B0D5", "#C49C94", "#F7B6D2", "#DBDB8D",
    "#9EDAE5", "#393B79", "#637939", "#8C6D31", "#843C39", "#7B4173", "#5254A3", "#E7BA52",
)
"""Kernel colours, all different (tab10 and tab20 without their greys and the red of syncs,
then tab20b's darks)."""
LEGEND_KERNELS = len(_KERNEL_COLORS)


def _times_bound(ratio: float | None) -> str:
    return "" if ratio is None else f" ({ratio:.2f} x lower bound)"


def have_matplotlib() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def kernel_colors(cmp: Comparison) -> tuple[dict[str, str], list[str]]:
    """(kernel -> its own colour, the kernels drawn in the shared grey): the `LEGEND_KERNELS`
    kernels with the most simulated time over every mode keep a colour, in first-seen order."""
    time: dict[str, float] = {}
    for run in cmp.runs.values():
        for task in run.tasks:
            if task.kind == "kernel":
                time[task.name] = time.get(task.name, 0.0) + task.end - task.start
            for p in task.program:
                if p.kind == "subtask":
                    time[p.label] = time.get(p.label, 0.0) + p.end - p.start
    top = set(sorted(time, key=lambda k: -time[k])[:LEGEND_KERNELS])
    shown = [k for k in time if k in top]
    return dict(zip(shown, _KERNEL_COLORS, strict=False)), [k for k in time if k not in top]


def gantt_png(cmp: Comparison, model: str) -> bytes:
    """One panel per mode: a row per stream (and per core type for superkernel), time in µs."""
    return _png(gantt_figure(cmp, model))


def gantt_figure(cmp: Comparison, model: str) -> Any:
    """The figure of `gantt_png`."""
    from matplotlib.patches import Patch

    own, others = kernel_colors(cmp)
    colors = {**dict.fromkeys(others, _OTHER_KERNELS), **own}
    rows_per_mode = []
    for mode, run in cmp.runs.items():
        streams = list(dict.fromkeys(t.stream for t in run.tasks if t.end > t.start))  # a row only if drawn
        rows = (["host"] if run.host else []) + [f"stream {s}" for s in streams]
        if mode == "superkernel":
            rows += [c.value.upper() for c in CoreType]
        rows_per_mode.append(rows)
    heights = [max(len(r), 1) + 1 for r in rows_per_mode]
    fig = _figure(12, 1.2 + 0.42 * sum(heights))
    axes = fig.subplots(len(cmp.runs), 1, sharex=True, gridspec_kw={"height_ratios": heights}, squeeze=False)
    end = max(run.makespan for run in cmp.runs.values())
    for ax, (mode, run), rows in zip(axes[:, 0], cmp.runs.items(), rows_per_mode):
        index = {row: i for i, row in enumerate(rows)}
        bars: dict[tuple[int, Any], list[tuple[float, float]]] = {}
        lane_bars: dict[tuple[float, float, Any], list[tuple[float, float]]] = {}
        if run.host:
            ax.broken_barh([(a, b - a) for _, _, a, b in run.host], (index["host"] - 0.35, 0.7), linewidth=0.5,
                           facecolors=_HOST_FACE, edgecolors=_HOST_EDGE, hatch=_HOST_HATCH)
        for task in run.tasks:
            if task.end <= task.start:
                continue
            y = index[f"stream {task.stream}"]
            if task.kind == "kernel":
                color = colors[task.name]
            elif task.kind == "superkernel":
                color = _SK_COLOR
            else:
                color = _KIND_COLORS.get(task.kind, "#DDDDDD")
            bars.setdefault((y, color), []).append((task.start, task.end - task.start))
            if task.kind == "superkernel" and task.end - task.start > 0.08 * end:
                ax.text(task.start, y, f" {task.name}", va="center", ha="left", fontsize=7, color="black",
                        clip_on=True)
            lanes: dict[CoreType, list[float]] = {c: [] for c in CoreType}
            for p in sorted(task.program, key=lambda p: (p.start, p.end)):
                if p.end <= p.start:
                    continue
                ends = lanes[p.core]
                lane = next((i for i, e in enumerate(ends) if e <= p.start + 1e-9), None)
                if lane is None:
                    lane = min(len(ends), _MAX_LANES - 1)
                    if lane == len(ends):
                        ends.append(p.end)
                ends[lane] = max(ends[lane], p.end)
                base = index[p.core.value.upper()]
                width = 0.8 / _MAX_LANES
                y0 = base - 0.4 + lane * width
                color = colors.get(p.label, _SK_COLOR) if p.kind == "subtask" else _CATEGORY_COLORS["sync"]
                lane_bars.setdefault((y0, width * 0.9, color), []).append((p.start, p.end - p.start))
        # one artist per lane and color, not per span: a 10k-sub-task SuperKernel draws in seconds
        for (y0, height, color), spans in lane_bars.items():
            ax.broken_barh(spans, (y0, height), facecolors=color, edgecolors="none")
        for (y, color), spans in bars.items():
            edge = "#333333" if color == _SK_COLOR else "white"
            ax.broken_barh(spans, (y - 0.35, 0.7), facecolors=color, edgecolors=edge, linewidth=0.5)
        ax.axvline(cmp.bound.value, color="black", linestyle="--", linewidth=0.8)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(rows, fontsize=8)
        ax.set_ylim(len(rows) - 0.4, -0.6)
        ax.set_title(f"{mode}: makespan {run.makespan:.2f} us{_times_bound(cmp.ratio(mode))}", fontsize=9,
                     loc="left")
        ax.grid(axis="x", linewidth=0.3, alpha=0.6)
        ax.set_xlim(0, end * 1.02)
    axes[-1, 0].set_xlabel("simulated time (us); dashed line: lower bound", fontsize=8)
    handles = [Patch(color=color, label=k) for k, color in own.items()]
    if others:
        handles.append(Patch(color=_OTHER_KERNELS, label=f"+{len(others)} more kernels"))
    handles += [Patch(facecolor=_SK_COLOR, edgecolor="#333333", label="SuperKernel launch"),
                Patch(color=_CATEGORY_COLORS["sync"], label="barrier / flag / lock"),
                Patch(color=_KIND_COLORS["event"], label="event task"),
                Patch(color=_KIND_COLORS["opaque"], label="opaque task"),
                Patch(facecolor=_HOST_FACE, edgecolor=_HOST_EDGE, hatch=_HOST_HATCH, label="host enqueue (eager)")]
    height = fig.get_figheight()
    legend_rows = (len(handles) + 5) // 6
    fig.suptitle(f"@{model}: simulated timeline (estimate; costs are assumptions)", fontsize=10,
                 y=1 - 0.08 / height, va="top")
    fig.legend(handles=handles, loc="upper center", ncol=6, fontsize=7, frameon=False,
               bbox_to_anchor=(0.5, 1 - 0.35 / height))
    fig.subplots_adjust(left=0.1, right=0.98, top=1 - (0.55 + 0.2 * legend_rows) / height,
                        bottom=0.55 / height, hspace=0.5)
    return fig


def modes_png(cmp: Comparison, model: str) -> bytes:
    """Stacked bars per mode (critical-path compute / dispatch / sync / idle), each mode's summed
    device op time and the lower bound."""
    return _png(modes_figure(cmp, model))


def modes_figure(cmp: Comparison, model: str) -> Any:
    """The figure of `modes_png`."""
    fig = _figure(8.5, 4.4)
    ax = fig.add_subplot(1, 1, 1)
    modes = list(cmp.runs)
    bottoms = [0.0] * len(modes)
    for category in CATEGORIES:
        values = [max(breakdown(cmp.runs[m].last)[category], 0.0) for m in modes]
        ax.bar(modes, values, bottom=bottoms, color=_CATEGORY_COLORS[category], label=COLUMN[category], width=0.55)
        bottoms = [b + v for b, v in zip(bottoms, values)]
    for i, mode in enumerate(modes):
        run = cmp.runs[mode]
        ratio = cmp.ratio(mode)
        label = (f"{run.makespan:.1f} us" + ("" if ratio is None else f"\n{ratio:.2f} x bound")
                 + f"\ndevice op time {run.device_op_time():.1f} us")
        ax.text(i, run.makespan, label, ha="center", va="bottom", fontsize=8)
    ax.axhline(cmp.bound.value, color="black", linestyle="--", linewidth=0.9,
               label=f"lower bound {cmp.bound.value:.1f} us")
    ax.set_ylabel("simulated makespan (us), split along the critical path")
    ax.set_ylim(0, max(max(r.makespan for r in cmp.runs.values()), 1e-3) * 1.3)
    ax.set_title(f"@{model}: makespan by mode (estimate; costs are assumptions)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="y", linewidth=0.3, alpha=0.6)
    fig.tight_layout()
    return fig
