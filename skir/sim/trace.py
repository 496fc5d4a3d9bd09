"""The timeline as Chrome trace-event JSON (`OUT/timeline.json`), for ui.perfetto.dev.

```json
{"traceEvents": [
   {"name": "process_name", "ph": "M", "pid": 2, "tid": 0, "args": {"name": "aclgraph"}},
   {"name": "thread_name", "ph": "M", "pid": 2, "tid": 1, "args": {"name": "stream s0"}},
   {"name": "rms_norm", "cat": "kernel", "ph": "X", "ts": 6.0, "dur": 3.74, "pid": 2, "tid": 1,
    "args": {"seq": 3, "stream": "s0", "ready_us": 5.0}}, ...],
 "displayTimeUnit": "ms",
 "otherData": {"format": "skir.timeline", "version": 1, "model": "decode_layer", ...}}
```

One process per mode (1 eager, 2 aclgraph, 3 superkernel, 5 aclgraph_es: aclgraph with every
kernel compiled with early-start), and with a profile that has task
start times (msprof's op_summary) a fourth, `measured`: a track per runtime stream holding its
rows, shifted so that the first starts at 0. Eager and aclgraph have a
track per stream (eager also a `host` track: the host enqueueing each task); superkernel
has a track per stream (SuperKernel launches, the tasks left unfused) and tracks per core
type, `AIC` and `AIV`, holding each SuperKernel's sub-tasks and syncs (spans over the
cores that ran them; overlapping spans go to extra lanes `AIV 2`, ... so that every track
nests). Arrows (flow events `s` / `f`, `cat` `sync`) join the tasks an edge between two
streams orders (a record and its wait, a value write and its wait) and, inside a SuperKernel,
a flag set and the wait that took its credit, a notify and the wait on its cell. Times are µs
(`ts`, `dur`, as the trace-event format requires), rounded to 1 ns; `displayTimeUnit` is `ms`,
how a viewer shows them. `check_trace` validates a document against the trace-event format.
"""

from __future__ import annotations

import json
from typing import Any

from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import ModelOp
from skir.dialects.hardware import CoreType
from skir.sim.modes import Comparison
from skir.sim.report import NOTE

FORMAT = "skir.timeline"
VERSION = 1
PIDS = {"eager": 1, "aclgraph": 2, "superkernel": 3, "aclgraph_es": 5}
MEASURED_PID = 4
_CORE_TID = {CoreType.AIC: 1000, CoreType.AIV: 2000}


def _us(x: float) -> float:
    return round(x, 3)


def _slice(name: str, cat: str, start: float, end: float, pid: int, tid: int, args: dict[str, Any]) -> dict[str, Any]:
    ts = _us(start)
    return {"name": name, "cat": cat, "ph": "X", "ts": ts, "dur": max(_us(_us(end) - ts), 0.0),
            "pid": pid, "tid": tid, "args": args}


def _meta(kind: str, pid: int, tid: int, **args: Any) -> dict[str, Any]:
    return {"name": kind, "ph": "M", "pid": pid, "tid": tid, "args": args}


def _lanes(spans: list[tuple[float, float, int]]) -> dict[int, int]:
    """Index -> lane such that spans in one lane do not overlap (greedy by start)."""
    ends: list[float] = []
    lane_of: dict[int, int] = {}
    for start, end, index in sorted(spans):
        for lane, last in enumerate(ends):
            if _us(last) <= _us(start):
                ends[lane] = end
                lane_of[index] = lane
                break
        else:
            lane_of[index] = len(ends)
            ends.append(end)
    return lane_of


def stream_edges(model: ModelOp, graph: TaskGraph | None = None) -> list[tuple[tuple[str, int], tuple[str, int]]]:
    """((stream, seq) -> (stream, seq)) of each edge between tasks of two streams: a record and
    the wait it releases, a value write and its wait, a notify and its waiter (`graph`: the
    model's task graph, when the caller has it)."""
    graph = graph if graph is not None and graph.model is model else TaskGraph(model)
    name = [s.sym_name.data for s in graph.streams]

    def key(n: int) -> tuple[str, int]:
        return name[graph.stream_of[n]], graph.seq[n]

    return [(key(a), key(b)) for b, preds in sorted(graph.cross_pred.items()) for a in preds
            if graph.stream_of[a] != graph.stream_of[b]]


def _flow(n: int, pid: int, start: dict[str, Any], end: dict[str, Any]) -> list[dict[str, Any]]:
    """An arrow from the end of slice `start` to the start of slice `end` (flow events `s` and
    `f`, the `f` bound to the slice it enters)."""
    out_ts = _us(max(start["ts"], start["ts"] + start["dur"] - 0.001))
    return [{"name": "sync", "cat": "sync", "ph": "s", "id": n, "ts": out_ts, "pid": pid, "tid": start["tid"]},
            {"name": "sync", "cat": "sync", "ph": "f", "bp": "e", "id": n, "ts": end["ts"], "pid": pid,
             "tid": end["tid"]}]


def trace_events(cmp: Comparison, model: str, costs_source: str = "default",
                 measured: tuple[tuple[str, str, str, float, float], ...] = (),
                 edges: dict[str, list[tuple[tuple[str, int], tuple[str, int]]]] | None = None) -> dict[str, Any]:
    """The trace document of every simulated mode, and of the `measured` rows (file, runtime
    stream, op name, start, duration) when there are any; `edges` (mode -> `stream_edges` of the
    model it ran) become arrows between the tasks, as a SuperKernel's in-kernel syncs do."""
    events: list[dict[str, Any]] = []
    arrows = 0
    for mode, run in cmp.runs.items():
        pid = PIDS[mode]
        events.append(_meta("process_name", pid, 0, name=mode))
        events.append(_meta("process_sort_index", pid, 0, sort_index=pid))
        if run.host:
            events.append(_meta("thread_name", pid, 0, name="host"))
            events.append(_meta("thread_sort_index", pid, 0, sort_index=0))
            for stream, seq, start, end in run.host:
                events.append(_slice(f"enqueue @{stream} seq {seq}", "host", start, end, pid, 0,
                                     {"seq": seq, "stream": stream}))
        streams: dict[str, int] = {}
        for task in run.tasks:
            streams.setdefault(task.stream, len(streams) + 1)
        for stream, tid in streams.items():
            events.append(_meta("thread_name", pid, tid, name=f"stream {stream}"))
            events.append(_meta("thread_sort_index", pid, tid, sort_index=tid))
        core_spans: dict[CoreType, list[tuple[float, float, dict[str, Any]]]] = {c: [] for c in CoreType}
        slices: dict[tuple[str, int], dict[str, Any]] = {}
        inner: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for task in run.tasks:
            if task.end <= task.start and task.kind in ("marker", "disabled"):
                continue
            args: dict[str, Any] = {"seq": task.seq, "stream": task.stream, "ready_us": _us(task.ready)}
            slices[(task.stream, task.seq)] = _slice(task.name, task.kind, task.start, task.end, pid,
                                                     streams[task.stream], args)
            events.append(slices[(task.stream, task.seq)])
            program: list[dict[str, Any]] = []
            for p in task.program:
                label = p.label if p.kind != "subtask" else f"{p.label} (seq {p.seq})"
                program.append(_slice(label, p.kind, p.start, p.end, pid, 0, {"superkernel": task.name, **(
                    {"seq": p.seq, "stream": p.stream} if p.seq is not None else {})}))
                core_spans[p.core].append((p.start, p.end, program[-1]))
            inner += [(program[a], program[b]) for a, b in task.program_flows]
        for core, spans in core_spans.items():
            if not spans:
                continue
            lanes = _lanes([(a, b, i) for i, (a, b, _) in enumerate(spans)])
            for lane in sorted(set(lanes.values())):
                tid = _CORE_TID[core] + lane
                name = core.value.upper() + ("" if lane == 0 else f" {lane + 1}")
                events.append(_meta("thread_name", pid, tid, name=name))
                events.append(_meta("thread_sort_index", pid, tid, sort_index=tid))
            for i, (_, _, event) in enumerate(spans):
                event["tid"] = _CORE_TID[core] + lanes[i]
                events.append(event)
        pairs = [(slices.get(a), slices.get(b)) for a, b in (edges or {}).get(mode, [])]
        for src, dst in [*((a, b) for a, b in pairs if a is not None and b is not None), *inner]:
            arrows += 1
            events += _flow(arrows, pid, src, dst)
    if measured:
        events += _measured_events(measured)
    other = {"format": FORMAT, "version": VERSION, "model": model, "costs": costs_source, "note": NOTE,
             "time_unit": "us"}
    return {"traceEvents": events, "displayTimeUnit": "ms", "otherData": other}


def _measured_events(rows: tuple[tuple[str, str, str, float, float], ...]) -> list[dict[str, Any]]:
    pid = MEASURED_PID
    events = [_meta("process_name", pid, 0, name="measured"), _meta("process_sort_index", pid, 0, sort_index=pid)]
    origin = min(start for _, _, _, start, _ in rows)
    tracks: dict[tuple[str, str], int] = {}
    for source, stream, _, _, _ in rows:
        if (source, stream) not in tracks:
            tid = tracks[(source, stream)] = len(tracks) + 1
            events.append(_meta("thread_name", pid, tid, name=f"{source} stream {stream}"))
            events.append(_meta("thread_sort_index", pid, tid, sort_index=tid))
    for source, stream, name, start, duration in rows:
        events.append(_slice(name or "?", "measured", start - origin, start - origin + duration, pid,
                             tracks[(source, stream)], {"stream_id": stream, "source": source}))
    return events


def dump_trace(doc: dict[str, Any]) -> str:
    """Compact JSON, one event a line, final newline."""
    lines = [json.dumps(e, separators=(",", ":")) for e in doc["traceEvents"]]
    head = '{"traceEvents":[\n' + ",\n".join(lines) + "\n],\n"
    tail = (f'"displayTimeUnit":{json.dumps(doc["displayTimeUnit"])},\n'
            f'"otherData":{json.dumps(doc["otherData"], separators=(",", ":"))}}}\n')
    return head + tail


_PHASES = {"B", "E", "X", "i", "I", "C", "b", "n", "e", "s", "t", "f", "P", "O", "N", "D", "M", "R", "c"}
_META = {"process_name": "name", "process_labels": "labels", "process_sort_index": "sort_index",
         "thread_name": "name", "thread_sort_index": "sort_index"}


def _is_num(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def check_trace(doc: Any) -> list[str]:
    """Problems of a trace-event document (JSON object format); empty when it is valid.

    Checks the keys and types each phase needs (`X`: name, ts >= 0, dur >= 0, pid, tid;
    `B`/`E`/`i`: ts; `M`: a known metadata name with its argument; `s` / `f`: id, pid, tid, one
    start and one end per id, the end not before the start), `displayTimeUnit`,
    and that the complete events of one (pid, tid) nest (no partial overlap), as trace
    viewers require.
    """
    problems: list[str] = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["the document must be an object with a traceEvents array"]
    unit = doc.get("displayTimeUnit")
    if unit is not None and unit not in ("ms", "ns"):
        problems.append(f"displayTimeUnit must be 'ms' or 'ns', not {unit!r}")
    if "otherData" in doc and not isinstance(doc["otherData"], dict):
        problems.append("otherData must be an object")
    tracks: dict[tuple[Any, Any], list[tuple[float, float, int]]] = {}
    flows: dict[Any, list[tuple[str, float]]] = {}
    for i, e in enumerate(doc["traceEvents"]):
        where = f"traceEvents[{i}]"
        if not isinstance(e, dict):
            problems.append(f"{where}: not an object")
            continue
        ph = e.get("ph")
        if ph not in _PHASES:
            problems.append(f"{where}: unknown phase {ph!r}")
            continue
        if not isinstance(e.get("name"), str) and ph != "E":
            problems.append(f"{where}: name must be a string")
        for key in ("pid", "tid"):
            if key in e and not isinstance(e[key], int | str):
                problems.append(f"{where}: {key} must be an integer or a string")
        if "args" in e and not isinstance(e["args"], dict):
            problems.append(f"{where}: args must be an object")
        if "cat" in e and not isinstance(e["cat"], str):
            problems.append(f"{where}: cat must be a string")
        if ph == "M":
            arg = _META.get(e.get("name"))  # type: ignore[arg-type]
            if arg is None:
                problems.append(f"{where}: unknown metadata event {e.get('name')!r}")
            elif not isinstance(e.get("args"), dict) or arg not in e["args"]:
                problems.append(f"{where}: {e['name']} needs args.{arg}")
            if "pid" not in e:
                problems.append(f"{where}: metadata needs pid")
            continue
        if not _is_num(e.get("ts")) or e["ts"] < 0:
            problems.append(f"{where}: ts must be a number >= 0")
            continue
        if ph in ("s", "f") and ("id" not in e or "pid" not in e or "tid" not in e):
            problems.append(f"{where}: a flow event needs id, pid and tid")
            continue
        if ph in ("s", "f"):
            flows.setdefault(e["id"], []).append((ph, e["ts"]))
        if ph == "X":
            if not _is_num(e.get("dur")) or e["dur"] < 0:
                problems.append(f"{where}: a complete event needs dur >= 0")
                continue
            if "pid" not in e or "tid" not in e:
                problems.append(f"{where}: a complete event needs pid and tid")
                continue
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], i))
    for (pid, tid), spans in tracks.items():
        stack: list[tuple[float, float, int]] = []
        for start, end, i in sorted(spans, key=lambda s: (s[0], -s[1])):
            while stack and stack[-1][1] <= start + 1e-9:
                stack.pop()
            if stack and end > stack[-1][1] + 1e-9:
                problems.append(f"traceEvents[{i}]: overlaps traceEvents[{stack[-1][2]}] on pid {pid} tid {tid} "
                                "without nesting")
            stack.append((start, end, i))
    for ident, ends in flows.items():
        phases = sorted(ph for ph, _ in ends)
        if phases != ["f", "s"]:
            problems.append(f"flow {ident!r}: needs one start (s) and one end (f), has {''.join(phases)}")
        elif dict(ends)["f"] < dict(ends)["s"]:
            problems.append(f"flow {ident!r}: ends before it starts")
    return problems
