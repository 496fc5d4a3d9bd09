"""Measured profiles in: task durations from a device run replace the simulator's estimates.

`sk-compile --profile FILE` (repeatable; `profiles=` in `skir.compile`) reads, told apart by
content:

- skir's own `skir.profile` JSON: duration samples in us per task (stream, seq) and / or per
  kernel (every launch of it without a sample of its own):

  ```json
  {"format": "skir.profile", "version": 1, "model": "decode_layer",
   "tasks": [{"stream": "s0", "seq": 3, "us": [12.1, 12.4, 11.9]}],
   "kernels": {"matmul": [30.2, 30.5]}}
  ```
- the vendor's SuperKernel device trace (`sk_prof_device_<dev>.json`, written with
  `ASCEND_PROF_SK_ON`): a Chrome-trace array of per-core spans, `"[blockIdx/blockNum]<child>"`
  for a sub-task and `"[blockIdx/blockNum] <SuperKernel>"` for the whole SuperKernel, `args`
  `skId` and (a child's) `nodeId`, `ts` / `dur` in us. A SuperKernel's run starts at each of
  its block-0 spans; a child's duration in a run is its spans' extent (latest end minus
  earliest start over its blocks and cores) within the run, a sample of the task whose seq is
  its `nodeId` (the vendor's node id, which the vendor-dump import keeps as the seq);
- msprof's per-task summary CSV (`op_summary_*.csv`): one row per task run, with the columns
  `Op Name`, `OP Type`, `Task Type`, `Stream ID`, `Task ID`, `Task Start Time(us)` (or `Task
  Start Time`) and `Task Duration(us)`. Its stream and task ids are the runtime's, not the
  model's, so rows are matched by name and order: the rows whose `Op Name` (else `OP Type`) is
  a kernel of the model, in start order, go to that kernel's launches in seq order, round after
  round (one round per captured replay).

A task's duration is the median (P50) of its samples, else of its kernel's. The simulator
(`--report`, `select=gain`) uses them in place of the model's own durations and the default;
the summary says how many kernel tasks were measured and names the samples that matched nothing.
A file of another model is bad input: a `skir.profile` whose optional `model` is not the
model's name, or a file with samples none of which names a task or kernel of the model.
"""

from __future__ import annotations

import bisect
import csv
import io
import math
import os
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp
from skir.errors import SkirError
from skir.json_reader import JsonReader, describe_value, parse_json
from skir.names import shown

FORMAT = "skir.profile"
VERSION = 1
MSPROF_COLUMNS = ("Op Name", "OP Type", "Task Duration(us)")
_MAX_SAMPLE_US = 1e9
_NAMED = 5
"""How many unmatched names a summary line shows."""


@dataclass
class Profile:
    """Duration samples (us) by task and by kernel name, from one or more files."""

    tasks: dict[tuple[str, int], list[float]] = field(default_factory=lambda: defaultdict(list))
    kernels: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    ordered: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    """Kernel name -> samples in run order, to be matched to its launches in seq order (msprof)."""
    sk_runs: dict[frozenset[int], list[float]] = field(default_factory=lambda: defaultdict(list))
    """SuperKernel-on evidence (device trace): its children's node ids -> its duration per run."""
    sk_starts: dict[frozenset[int], list[float]] = field(default_factory=lambda: defaultdict(list))
    """The same SuperKernels' start per run (trace time)."""
    off_runs: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    """SuperKernel-off evidence (msprof): joined op name / type -> (start, end) per run, in order."""
    by_seq: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    """Seq (unique in a model) -> samples (the vendor's device trace names tasks by node id)."""
    timeline: list[tuple[str, str, str, float, float]] = field(default_factory=list)
    """(file, runtime stream id, op name, start us, duration us) of every timed msprof row."""
    sources: list[str] = field(default_factory=list)
    model: str | None = None
    """The model a `skir.profile` says it measured."""
    files: list[tuple[str, Profile]] = field(default_factory=list)
    """Each file's own samples (the merged profile's parts), to tell a file of another model."""


@dataclass(frozen=True)
class Measured:
    """What a profile gave one model: (stream, seq) -> P50 duration, and the counts."""

    durations: dict[tuple[str, int], float]
    measured: int
    estimated: int
    unmatched: int
    """Samples that named no task or kernel of the model."""
    sources: tuple[str, ...]
    timeline: tuple[tuple[str, str, str, float, float], ...] = ()
    """The profile's timed rows, for the trace's `measured` process (`skir.sim.trace`)."""
    task_runs: dict[tuple[str, int], tuple[tuple[float, float], ...]] = field(default_factory=dict)
    """SuperKernel-off evidence: each kernel task's (start, end) per run (msprof)."""
    sk_runs: dict[frozenset[int], tuple[float, ...]] = field(default_factory=dict)
    """SuperKernel-on evidence: the seqs of a measured SuperKernel's children -> its durations."""
    sk_starts: dict[frozenset[int], tuple[float, ...]] = field(default_factory=dict)
    """... and its start per run (trace time)."""
    unmatched_names: tuple[tuple[str, int], ...] = ()
    """What those samples named (an op, a kernel, a task or a node id) and how many, most first."""
    files: tuple[str, ...] = ()
    """The files as they were given (`sources` holds their names)."""

    def summary(self) -> str:
        unmatched = ""
        if self.unmatched:
            names = ", ".join(f"{name} {count}" for name, count in self.unmatched_names[:_NAMED])
            more = f", {len(self.unmatched_names) - _NAMED} more" if len(self.unmatched_names) > _NAMED else ""
            unmatched = f"; {self.unmatched} samples matched no task of the model ({names}{more})"
        return (f"profile ({', '.join(self.sources)}): {self.measured} kernel tasks measured, "
                f"{self.estimated} estimated{unmatched}")


def load_profiles(paths: list[str | os.PathLike[str]]) -> Profile:
    """Every file's samples in one profile; a bad file is a one-line `SkirError` naming it."""
    profile = Profile()
    for path in paths:
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except OSError as err:
            raise SkirError(f"{name}: cannot read: {err.strerror or err}") from None
        except UnicodeDecodeError as err:
            raise SkirError(f"{name}: byte {err.start}: not UTF-8 text") from None
        one = Profile()
        if text.lstrip().startswith(("{", "[")):
            _read_json(parse_json(text, name), name, one)
        else:
            _read_msprof(text, name, one)
        _merge(profile, one)
        profile.sources.append(Path(path).name)
        profile.files.append((name, one))
    return profile


def _merge(into: Profile, one: Profile) -> None:
    pairs: list[tuple[dict[Any, list[Any]], dict[Any, list[Any]]]] = [
        (into.tasks, one.tasks), (into.kernels, one.kernels), (into.ordered, one.ordered),
        (into.sk_runs, one.sk_runs), (into.sk_starts, one.sk_starts), (into.off_runs, one.off_runs),
        (into.by_seq, one.by_seq)]
    for mine, theirs in pairs:
        for key, values in theirs.items():
            mine[key] += values
    into.timeline += one.timeline


def _sample(reader: JsonReader, value: Any, path: str) -> float:
    if type(value) not in (int, float) or not 0 <= value <= _MAX_SAMPLE_US or math.isnan(value):
        reader.fail(path, f"expected a duration in us (a number in 0..1e9), got {shown(str(value))}")
    return float(value)


def _read_json(data: Any, source: str, profile: Profile) -> None:
    r = JsonReader(source)
    if isinstance(data, list) or (isinstance(data, dict) and "traceEvents" in data):
        _read_device_trace(r, data if isinstance(data, list) else data["traceEvents"], profile)
        return
    d = r.obj(data, "", ("format", "version"), ("format", "version", "model", "tasks", "kernels"))
    if d["format"] != FORMAT:
        r.fail("format", f"expected '{FORMAT}', got {shown(str(d['format']))}")
    version = d["version"]
    if type(version) is not int or version != VERSION:
        shown_version = str(version) if type(version) is int else describe_value(version)
        r.fail("version", f"profile version {shown_version} is not supported (this skir reads {VERSION})")
    if "model" in d:
        profile.model = r.name(d["model"], "model")
    for i, task in enumerate(r.list_(d.get("tasks", []), "tasks")):
        path = f"tasks[{i}]"
        t = r.obj(task, path, ("stream", "seq", "us"), ("stream", "seq", "us"))
        stream = r.name(t["stream"], path + ".stream")
        seq = r.int_(t["seq"], path + ".seq", 0, (1 << 63) - 1)
        samples = r.list_(t["us"], path + ".us")
        profile.tasks[(stream, seq)] += [_sample(r, v, f"{path}.us[{j}]") for j, v in enumerate(samples)]
    for name, samples in r.mapping(d.get("kernels", {}), "kernels").items():
        path = f"kernels.{name}"
        r.name(name, path)
        values = r.list_(samples, path)
        profile.kernels[name] += [_sample(r, v, f"{path}[{j}]") for j, v in enumerate(values)]


_SPAN_NAME = re.compile(r"\[(\d+)/(\d+)\]( ?)(.*)\Z", re.S)


def _fields(r: JsonReader, value: Any, path: str, required: tuple[str, ...]) -> dict[str, Any]:
    """An object with (at least) the `required` keys; a trace event may carry any others."""
    if not isinstance(value, dict):
        r.fail(path, f"expected an object, got {describe_value(value)}")
    for key in required:
        if key not in value:
            r.fail(f"{path}.{key}", "required key is missing")
    return value


def _read_device_trace(r: JsonReader, events: Any, profile: Profile) -> None:
    """`sk_prof_device_<dev>.json` (see the module docstring)."""
    path = "" if isinstance(events, list) else "traceEvents"
    runs: dict[Any, list[float]] = defaultdict(list)  # skId -> start of each run (its block-0 spans)
    children: list[tuple[Any, int, float, float]] = []  # (skId, nodeId, start, end)
    whole: list[tuple[Any, float, float]] = []  # (skId, start, end) of the SuperKernel's own spans
    for i, event in enumerate(r.list_(events, path)):
        where = f"{path}[{i}]"
        if not isinstance(event, dict) or event.get("ph") != "X":
            continue  # metadata and anything but complete spans
        e = _fields(r, event, where, ("name", "ts", "dur", "args"))
        name = r.str_(e["name"], where + ".name")
        match = _SPAN_NAME.match(name)
        if match is None:
            r.fail(where + ".name", f"expected '[blockIdx/blockNum]<child>' or '[blockIdx/blockNum] <SuperKernel>', "
                   f"got {shown(name)}")
        start = _sample(r, e["ts"], where + ".ts")
        end = start + _sample(r, e["dur"], where + ".dur")
        args = _fields(r, e["args"], where + ".args", ("skId",))
        sk = args["skId"]
        if match.group(3) == " " or "nodeId" not in args:  # the whole SuperKernel on one block
            if int(match.group(1)) == 0:
                runs[sk].append(start)
            whole.append((sk, start, end))
            continue
        children.append((sk, r.int_(args["nodeId"], where + ".args.nodeId", 0, (1 << 63) - 1), start, end))
    extent: dict[tuple[Any, int, int], list[float]] = {}
    for sk, node, start, end in children:
        starts = sorted(runs.get(sk, [])) or [0.0]
        run = max(0, bisect.bisect_right(starts, start) - 1)
        span = extent.setdefault((sk, node, run), [start, end])
        span[0], span[1] = min(span[0], start), max(span[1], end)
    for (_, node, _), (start, end) in sorted(extent.items(), key=lambda kv: (kv[0][1], kv[0][2])):
        profile.by_seq[node].append(end - start)
    nodes: dict[Any, set[int]] = defaultdict(set)
    for sk, node, _, _ in children:
        nodes[sk].add(node)
    sk_extent: dict[tuple[Any, int], list[float]] = {}
    for sk, start, end in whole:
        starts = sorted(runs.get(sk, [])) or [0.0]
        span = sk_extent.setdefault((sk, max(0, bisect.bisect_right(starts, start) - 1)), [start, end])
        span[0], span[1] = min(span[0], start), max(span[1], end)
    for (sk, _), (start, end) in sorted(sk_extent.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])):
        if nodes[sk]:
            profile.sk_runs[frozenset(nodes[sk])].append(end - start)
            profile.sk_starts[frozenset(nodes[sk])].append(start)


def _read_msprof(text: str, source: str, profile: Profile) -> None:
    rows = csv.reader(io.StringIO(text))
    header = next(rows, None)
    if header is None:
        raise SkirError(f"{source}: empty file; expected a '{FORMAT}' JSON or msprof's op_summary CSV")
    header = [h.strip() for h in header]
    missing = [c for c in MSPROF_COLUMNS if c not in header]
    if missing:
        raise SkirError(f"{source}:1: not msprof's op_summary CSV (no column {', '.join(repr(c) for c in missing)})")
    col = {name: header.index(name) for name in header}
    start = col.get("Task Start Time(us)", col.get("Task Start Time"))
    runs: list[tuple[float, int, str, str, float]] = []
    for line, row in enumerate(rows, start=2):
        if not row or not any(cell.strip() for cell in row):
            continue
        if len(row) < len(header):
            raise SkirError(f"{source}:{line}: {len(row)} fields, the header has {len(header)}")
        value = row[col["Task Duration(us)"]].strip()
        try:
            duration = float(value)
        except ValueError:
            raise SkirError(f"{source}:{line}: Task Duration(us) {shown(value)} is not a number") from None
        if not 0 <= duration <= _MAX_SAMPLE_US:
            raise SkirError(f"{source}:{line}: Task Duration(us) {shown(value)} is not a duration in us")
        when = float("nan")
        if start is not None:
            try:
                when = float(row[start].strip())
            except ValueError:
                raise SkirError(f"{source}:{line}: {header[start]} {shown(row[start].strip())} "
                                "is not a number") from None
        runs.append((when, line, row[col["Op Name"]].strip(), row[col["OP Type"]].strip(), duration))
        if start is not None:
            stream = row[col["Stream ID"]].strip() if "Stream ID" in col else "?"
            profile.timeline.append((Path(source).name, stream, row[col["Op Name"]].strip(), when, duration))
    if start is not None:
        runs.sort(key=lambda r: (r[0], r[1]))  # start order (rows are written per stream), else file order
    for when, _, op_name, op_type, duration in runs:
        profile.ordered[f"{op_name}\0{op_type}"].append(duration)
        if start is not None:
            profile.off_runs[f"{op_name}\0{op_type}"].append((when, when + duration))


def measure(profile: Profile, module: ModuleOp | ModelOp) -> Measured:
    """The profile's durations for the kernel tasks of `module` (an input model). A file of
    another model (see the module docstring) is a one-line `SkirError` naming it."""
    model = module if isinstance(module, ModelOp) else next(op for op in module.ops if isinstance(op, ModelOp))
    launches: dict[str, list[tuple[str, int]]] = defaultdict(list)
    tasks: list[tuple[str, int, str]] = []
    for stream in model.body.block.ops:
        if isinstance(stream, StreamOp):
            for task in stream.body.block.ops:
                if isinstance(task, LaunchOp):
                    key = (stream.sym_name.data, task.seq.data)
                    tasks.append((*key, task.kernel.root_reference.data))
    for stream, seq, kernel in sorted(tasks, key=lambda t: t[1]):
        launches[kernel].append((stream, seq))
    known = {(s, q) for s, q, _ in tasks}
    stream_of_seq = {q: s for s, q, _ in tasks}
    for name, one in profile.files:
        _same_model(name, one, model.sym_name.data, known, stream_of_seq, launches)
    samples: dict[tuple[str, int], list[float]] = defaultdict(list)
    missed: dict[str, int] = defaultdict(int)
    for key, values in profile.tasks.items():
        if key in known:
            samples[key] += values
        else:
            missed[f"task {key[0]}:{key[1]}"] += len(values)
    for seq, values in profile.by_seq.items():
        if seq in stream_of_seq:
            samples[(stream_of_seq[seq], seq)] += values
        else:
            missed[f"node {seq}"] += len(values)
    task_runs: dict[tuple[str, int], list[tuple[float, float]]] = defaultdict(list)
    for joined, values in profile.ordered.items():
        op_name, op_type = joined.split("\0")
        launched = _kernel_of(joined, launches)
        if launched is None:
            missed[op_name or op_type] += len(values)
            continue
        targets = launches[launched]
        for i, value in enumerate(values):
            samples[targets[i % len(targets)]].append(value)
        for i, span in enumerate(profile.off_runs.get(joined, ())):
            task_runs[targets[i % len(targets)]].append(span)
    per_kernel = {k: statistics.median(v) for k, v in profile.kernels.items() if k in launches and v}
    for k, v in profile.kernels.items():
        if k not in launches and v:
            missed[f"kernel {k}"] += len(v)
    durations: dict[tuple[str, int], float] = {}
    for stream, seq, kernel in tasks:
        own = samples.get((stream, seq))
        if own:
            durations[(stream, seq)] = statistics.median(own)
        elif kernel in per_kernel:
            durations[(stream, seq)] = per_kernel[kernel]
    names = tuple(sorted(missed.items(), key=lambda kv: (-kv[1], kv[0])))
    return Measured(durations, len(durations), len(tasks) - len(durations), sum(missed.values()),
                    tuple(profile.sources), tuple(profile.timeline), {k: tuple(v) for k, v in task_runs.items()},
                    {k: tuple(v) for k, v in profile.sk_runs.items()},
                    {k: tuple(v) for k, v in profile.sk_starts.items()}, names,
                    tuple(name for name, _ in profile.files))


def _kernel_of(joined: str, launches: dict[str, list[tuple[str, int]]]) -> str | None:
    """The model's kernel an msprof row names: its op name, else its op type."""
    op_name, op_type = joined.split("\0")
    return op_name if op_name in launches else op_type if op_type in launches else None


def _same_model(name: str, one: Profile, model: str, known: set[tuple[str, int]], stream_of_seq: dict[int, str],
                launches: dict[str, list[tuple[str, int]]]) -> None:
    """Refuse a file that says it is of another model, or none of whose samples names a task."""
    if one.model is not None and one.model != model:
        raise SkirError(f"{name}: model: a profile of @{one.model}, not of @{model}")
    named = ([f"task {s}:{q}" for s, q in one.tasks if one.tasks[(s, q)]]
             + [f"node {q}" for q, v in one.by_seq.items() if v]
             + [j.split("\0")[0] or j.split("\0")[1] for j, v in one.ordered.items() if v]
             + [f"kernel {k}" for k, v in one.kernels.items() if v])
    if not named:
        return
    if (any(k in known for k in one.tasks) or any(q in stream_of_seq for q in one.by_seq)
            or any(_kernel_of(j, launches) for j in one.ordered) or any(k in launches for k in one.kernels)):
        return
    listed = ", ".join(sorted(set(named))[:_NAMED]) + (", ..." if len(set(named)) > _NAMED else "")
    raise SkirError(f"{name}: not a profile of @{model}: none of its samples names a task or kernel of it "
                    f"(it names {listed})")


MIN_RUNS = 3
"""The vendor's protocol needs at least this many occurrences on each side."""


def protocol_class(measured: Measured, members: tuple[tuple[str, int], ...]) -> tuple[str, float | None]:
    """The vendor's benefit protocol (docs/design.md §11) for a SuperKernel of `members`:
    (class, measured gain in us): improvement = P50(off interval) - P50(SuperKernel duration),
    the off interval of a run being its members' latest end minus earliest start; at least
    `MIN_RUNS` runs on each side, else `insufficient_evidence`; outside a noise band of
    max(MAD, 3 % of the off P50, 1 us) `beneficial` or `regressed`, inside it `neutral`."""
    on = measured.sk_runs.get(frozenset(seq for _, seq in members), ())
    spans = [measured.task_runs.get(m, ()) for m in members]
    rounds = min((len(s) for s in spans), default=0)
    off = [max(s[r][1] for s in spans) - min(s[r][0] for s in spans) for r in range(rounds)]
    if len(on) < MIN_RUNS or len(off) < MIN_RUNS:
        return "insufficient_evidence", None
    off_p50, on_p50 = statistics.median(off), statistics.median(on)
    gain = off_p50 - on_p50
    mad = max(_mad(off), _mad(list(on)))
    band = max(mad, 0.03 * off_p50, 1.0)
    return ("beneficial" if gain > band else "regressed" if gain < -band else "neutral"), gain


def _mad(values: list[float]) -> float:
    center = statistics.median(values)
    return statistics.median(abs(v - center) for v in values)
