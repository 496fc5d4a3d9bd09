"""The `sk-meta` target: SK meta (docs/design.md §5) as JSON, and the fail-reason log for people.

`sk-opt model.mlir -p superkernel-pipeline -t sk-meta` prints the JSON; `sk-compile` writes it
to `OUT/sk_meta.json` and `render_fail_reasons` to `OUT/sk_fusion_fail_reasons.log`. It reads
only attributes and ops, so it works at any point of the pipeline: after `sk-form-scopes`
alone there are no SuperKernels but every unfused kernel is listed; on an unprocessed model
no kernel is listed as fused or unfused, and `note` says so.

```json
{"format": "skir.sk_meta", "version": 1, "model": "m", "note": null,
 "superkernels": [{"name": "m_sk0", "origin_op_name": "sk_m_sk0_start_a_end_b", "entry": "auto_gen_m_sk0_kernel",
   "kernel_type": "mix_aic_1_2",
   "blocks": 24, "form": "chain", "label": [], "options": "", "host": {"stream": "s0", "seq": 0},
   "members": [{"subtask": 0, "stream": "s0", "seq": 0, "kernel": "a", "blocks": 48, "first_block": 0,
                "system_args": false,
                "arg_offset": 1, "depends_on": []}, ...],
   "locks": [{"id": 2, "op": "notify", "cell": "e_cell", "slot": 3, "core": "aiv"}, ...],
   "args": [{"slot": 0, "source": "ffts_base"},
            {"slot": 1, "source": "task", "stream": "s0", "seq": 0, "arg": 0}, ...,
            {"slot": 3, "source": "cell", "cell": "e_cell", "use": "notify"},
            {"slot": 7, "source": "cell", "cell": "g_cell", "use": "wait", "uses": ["wait", "reset"]},
            {"slot": 8, "source": "workspace"}, {"slot": 9, "source": "profiling"},
            {"slot": 10, "source": "profiling_task_id"}],
   "warnings": [{"warning": "unreset_event", "event": "e", "cell": "e_cell"}],
   "workspaces": [{"slot": 8, "use": "workspace", "bytes": 2048, "align": 64}, ...]}],
 "cells": [{"cell": "e_cell", "bytes": 64, "align": 64,
            "uses": [{"sk": "m_sk0", "op": "notify", "slot": 3, "core": "aiv"},
                     {"stream": "s1", "seq": 12, "op": "value_wait", "rule": "eq", "value": 1}]}],
 "unfused": [{"stream": "s0", "seq": 6, "kernel": "ns", "reason": "op_unsupported",
              "vendor_reason": "OP_UNSUPPORT", "detail": "not_sk_capable", "label": []}],
 "cuts": [{"reason": "default_node", "seq": 9, "stream": "s0", "detail": null}],
 "updates": [],
 "summary": {"kernel_tasks": 5, "fused": 2, "unfused": 3, "pending": 0, "superkernels": 1,
             "launches_saved": 1, "updated": 0, "by_reason": {"default_node": 2, "op_unsupported": 1}}}
```

Every slot of an argument table is explained exactly once (a lock slot shared by several lock
ops of one cell, e.g. a wait and the reset at exit, is one entry whose `use` is the first in
program order and whose `uses` lists them all); a slot that cannot be explained is an
internal error, never a guess. `pending` counts kernel tasks that are neither fused nor
unfused (an unprocessed model, or formed but not yet outlined). Warnings: `mix11_under_mix12`
(a 1:1 member runs its aiv half on both AIVs of its blocks), `unreset_event` (an event
epoch with no closing reset crosses the SuperKernel's boundary: its cell ends at 1, as the
event stays recorded in the original model, which could not be replayed either) and, with
`debug-cross-core-sync-check=1`, `self_test_unfilled` (the flag ids of one core type whose
counter the self-test after a mixed sub-task does not fill to 15 credits, so a set the
sub-kernel leaked there shows only at the end, and why; docs/design.md §3). `updates` is
the update map of `skir.targets.update_map`: where the runtime writes the re-issued parameters
of each fused member of a task group (`fuse-updated=1`). A SuperKernel with lanes
(`placement=auto`, docs/design.md §3 "Lanes") also has `lanes` (`skir.targets.lanes_meta`): per
lane its core type, flag id, first core, cores, rounds and member sub-tasks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import IO, Any

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.utils.target import Target

from skir.analysis.formation.fail_reasons import FailReason
from skir.analysis.proof.original import unreset_by_superkernel
from skir.analysis.sync.progress_points import LINE_BYTES, lines, points, progress_ids, wants_progress
from skir.analysis.sync.self_test_fill import plan_fills
from skir.dialects.aclgraph import LaunchOp, LaunchSkOp, ModelOp, StreamOp, TaskOp, ValueWaitOp, ValueWriteOp
from skir.dialects.aclgraph_decls import CellOp, KernelOp
from skir.dialects.aclgraph_enums import CoreClass, core_class
from skir.dialects.formation_attrs import CUT_ATTR, CUT_DETAIL_ATTR, FAIL_ATTR, FAIL_DETAIL_ATTR, GROUP_ATTR, LABEL_ATTR
from skir.dialects.hardware import GM_LINE_BYTES, widened_under
from skir.dialects.model_lookup import all_submodels, qualified_name, submodels
from skir.dialects.superkernel import LockOp, NotifyOp, ResetLockOp, SubtaskOp, SuperKernelOp, WaitLockOp
from skir.dialects.vendor_provenance import NAME_ATTR, vendor_info
from skir.errors import ExitCode, SkirError, task_path
from skir.names import entry_symbol
from skir.options import SkOptions
from skir.provenance import stamp
from skir.targets.fail_reasons_log import render_fail_reasons
from skir.targets.json_text import dump_indented, dumps_indented
from skir.targets.lanes_meta import lanes
from skir.targets.origin_name import origin_op_name
from skir.targets.runtime_identity import stream_table
from skir.targets.shared_entries import SharedEntries, annotate_meta, shared_entries
from skir.targets.update_map import update_map
from skir.targets.workspaces import workspaces

FORMAT = "skir.sk_meta"
VERSION = 1

_LOCK_USE: dict[type[LockOp], str] = {NotifyOp: "notify", WaitLockOp: "wait", ResetLockOp: "reset"}

Json = dict[str, Any]

__all__ = ["FORMAT", "VERSION", "SkMetaTarget", "dump_meta", "render_fail_reasons", "sk_meta", "write_meta"]


def _sym(ref: SymbolRefAttr) -> str:
    return ref.root_reference.data


def _model(module: ModuleOp, what: str) -> ModelOp:
    found = [op for op in module.ops if isinstance(op, ModelOp)]
    if len(found) != 1:
        raise SkirError(f"sk-meta: expected exactly one aclgraph.model in the {what}, found {len(found)}")
    return found[0]


def _tasks(model: ModelOp) -> list[tuple[str, TaskOp]]:
    """(stream name, task) for every task slot, streams in order, slots in order."""
    return [
        (stream.sym_name.data, task)
        for stream in model.body.block.ops
        if isinstance(stream, StreamOp)
        for task in stream.body.block.ops
        if isinstance(task, TaskOp)
    ]


def _string(op: Operation, name: str) -> str | None:
    attr = op.attributes.get(name)
    if attr is None:
        return None
    if not isinstance(attr, StringAttr):
        raise SkirError(f"{task_path(op)}: {name} must be a string attribute")
    return attr.data


def _label(op: Operation) -> list[str]:
    attr = op.attributes.get(LABEL_ATTR)
    if attr is None:
        return []
    if not isinstance(attr, ArrayAttr) or not all(isinstance(a, StringAttr) for a in attr):
        raise SkirError(f"{task_path(op)}: {LABEL_ATTR} must be an array of strings")
    return [a.data for a in attr]


def _bug(sk: SuperKernelOp, message: str) -> SkirError:
    return SkirError(
        f"sk-meta: {task_path(sk)}: inconsistent argument table: {message} (a bug in the pass that "
        "built it, or hand-edited IR)",
        ExitCode.INTERNAL,
    )


def _sk_options(sk: SuperKernelOp) -> SkOptions:
    return sk.sk_options()


def _arg_table(sk: SuperKernelOp, kernels: dict[str, KernelOp], locks: list[LockOp]) -> list[Json]:
    """One entry per slot 0..arg_slots-1, each explained exactly once."""
    size = sk.arg_slots.data
    table: dict[int, Json] = {}
    owner: dict[int, str] = {}

    def put(slot: int, entry: Json, what: str) -> None:
        if not 0 <= slot < size:
            raise _bug(sk, f"{what} uses slot {slot}, outside the table of {size} slots")
        if slot in table:
            raise _bug(sk, f"slot {slot} is claimed by both {owner[slot]} and {what}")
        table[slot], owner[slot] = {"slot": slot, **entry}, what

    put(0, {"source": "ffts_base"}, "the FFTS base")
    place = sk.positions()
    for sub in sk.subtasks():
        kernel = kernels.get(_sym(sub.kernel))
        if kernel is None:
            raise SkirError(f"sk-meta: {task_path(sk)}: sub-task {place[sub]} names unknown kernel @{_sym(sub.kernel)}")
        stream, seq = _sym(sub.stream), sub.seq.data
        for j in range(kernel.num_params):
            put(sub.offset.data + j, {"source": "task", "stream": stream, "seq": seq, "arg": j},
                f"arg {j} of sub-task {place[sub]} (@{stream} seq {seq})")
    uses: dict[int, list[str]] = {}
    for lock in locks:
        slot, cell, use = lock.slot.data, _sym(lock.cell), _LOCK_USE[type(lock)]
        entry = table.get(slot)
        if entry is not None and entry["source"] == "cell" and entry["cell"] == cell:
            if use not in uses[slot]:
                uses[slot].append(use)
            continue
        put(slot, {"source": "cell", "cell": cell, "use": use}, f"the {use} lock of @{cell} (op {place[lock]})")
        uses[slot] = [use]
    for slot, found in uses.items():
        if len(found) > 1:
            table[slot]["uses"] = found
    options = _sk_options(sk)
    tail = (["progress"] * wants_progress(options) + ["workspace"] * options.feed_sync_all
            + ["profiling", "profiling_task_id"] * options.profiling)
    for i, source in enumerate(tail):
        put(size - len(tail) + i, {"source": source}, f"the {source} slot")
    missing = [s for s in range(size) if s not in table]
    if missing:
        raise _bug(sk, f"slot {missing[0]} of {size} is not explained by any sub-task param, lock, workspace "
                       "or profiling slot")
    return [table[s] for s in range(size)]


def _superkernel(sk: SuperKernelOp, kernels: dict[str, KernelOp], hosts: dict[str, list[Json]],
                 unreset: list[tuple[str, str]]) -> Json:
    name = sk.sym_name.data
    program = sk.program()
    place = {op: i for i, op in enumerate(program)}
    locks = [op for op in program if isinstance(op, LockOp)]
    host = hosts.get(name, [])
    if len(host) > 1:
        raise SkirError(f"sk-meta: {task_path(sk)}: launched from {len(host)} slots; expected one launch_sk")
    members, warnings = [], []
    for sub in sk.subtasks():
        kernel_of = kernels.get(_sym(sub.kernel))
        members.append({
            "subtask": place[sub], "stream": _sym(sub.stream), "seq": sub.seq.data, "kernel": _sym(sub.kernel),
            "blocks": sub.blocks.data, "first_block": sub.first_block, "system_args": bool(
                kernel_of is not None and kernel_of.takes_system_args),
            "arg_offset": sub.offset.data, "depends_on": [place[d] for d in sub.dep_subtasks()],
        })
        kernel = kernels.get(_sym(sub.kernel))
        if kernel is not None and widened_under(kernel.type, sk.type):
            warnings.append({"warning": "mix11_under_mix12", "subtask": place[sub]})
    for cell, event in unreset:  # docs/design.md §3 (e): the original was not safe to replay either
        warnings.append({"warning": "unreset_event", "event": event, "cell": cell})
    if _sk_options(sk).debug_cross_core_sync_check:
        warnings += _unfilled(sk, kernels)
    meta: Json = {
        "name": name,
        "origin_op_name": origin_op_name(sk),
        "entry": entry_symbol(name),
        "kernel_type": sk.type.value,
        "blocks": sk.blocks.data,
        "form": sk.form.data.value,
        "label": _label(sk),
        "options": "" if sk.options is None else sk.options.text(),
        "host": host[0] if host else None,
        "members": members,
        "locks": [
            {"id": place[op], "op": _LOCK_USE[type(op)], "cell": _sym(op.cell), "slot": op.slot.data,
             "core": op.core.data.value}
            for op in locks
        ],
        "args": _arg_table(sk, kernels, locks),
        "warnings": warnings,
    }
    found = lanes(sk)
    if found:  # placement=auto formed lanes (docs/design.md §3 "Lanes")
        meta["lanes"] = found
    return meta


def _unfilled(sk: SuperKernelOp, kernels: dict[str, KernelOp]) -> list[Json]:
    """`self_test_unfilled`: the counters the cross-core self-test after a mixed sub-task does
    not fill (docs/design.md §3), grouped by sub-task, core type and reason. The pending counts
    at a sub-task are the same before and after `sk-insert-debug`: its self-tests are balanced."""
    def mixed(sub: SubtaskOp) -> bool:
        kernel = kernels.get(_sym(sub.kernel))
        return kernel is not None and core_class(kernel.type) is CoreClass.MIX

    out: list[Json] = []
    for plan in plan_fills(sk.program(), mixed):
        groups: dict[tuple[str, str], list[int]] = {}
        for miss in plan.unfilled:
            groups.setdefault((miss.core.value, miss.reason), []).append(miss.flag)
        out += [{"warning": "self_test_unfilled", "subtask": plan.subtask, "core": core, "flags": flags,
                 "reason": reason} for (core, reason), flags in groups.items()]
    return out


def _add_progress(model: ModelOp, sks: list[SuperKernelOp], entries: list[Json], ids: dict[str, int]) -> None:
    """SK meta's `progress` of each SuperKernel that keeps progress words (docs/design.md §6):
    its id, the area's slot and lines, and its points, what `sk-hang` decodes a dump with."""
    keeping = [sk for sk in sks if wants_progress(_sk_options(sk))]
    if not keeping:
        return
    table = points(model)
    by_name = {entry["name"]: entry for entry in entries}
    for sk in keeping:
        name = sk.sym_name.data
        options = _sk_options(sk)
        aiv, total = lines(sk)
        slot = sk.arg_slots.data - 1 - options.feed_sync_all - 2 * options.profiling
        by_name[name]["progress"] = {"id": ids[name], "slot": slot, "line_bytes": LINE_BYTES, "lines": total,
                                     "aiv_lines": aiv, "points": table[name]}


def _workspaces(model: ModelOp) -> dict[str, list[Json]]:
    """Per SuperKernel, its workspaces as the plan lays them out (slot, use, bytes, align)."""
    module = model.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    found: dict[str, list[Json]] = {}
    if module is not None:
        for ws in workspaces(module, model):
            found.setdefault(ws["superkernel"], []).append({k: v for k, v in ws.items() if k != "superkernel"})
    return found


def _value_use(stream: str, task: ValueWriteOp | ValueWaitOp) -> Json:
    if isinstance(task, ValueWriteOp):
        return {"stream": stream, "seq": task.seq.data, "op": "value_write", "value": task.value.data}
    return {"stream": stream, "seq": task.seq.data, "op": "value_wait", "rule": task.rule.data.value,
            "value": task.value.data}


def _cells(model: ModelOp, sks: list[SuperKernelOp], tasks: list[tuple[str, TaskOp]],
           original: ModelOp | None) -> list[Json]:
    """The cells a rewrite added (all cells used by value tasks and locks without `original`)."""
    uses: dict[str, list[Json]] = {}
    for sk in sks:
        for op in sk.program():
            if isinstance(op, LockOp):
                uses.setdefault(_sym(op.cell), []).append({
                    "sk": sk.sym_name.data, "op": _LOCK_USE[type(op)], "slot": op.slot.data,
                    "core": op.core.data.value})
    added = set(uses)
    before = None if original is None else {t.seq.data: t for _, t in _tasks(original)}
    values = sorted(((s, t) for s, t in tasks if isinstance(t, ValueWriteOp | ValueWaitOp)),
                    key=lambda st: st[1].seq.data)
    for stream, task in values:
        old = None if before is None else before.get(task.seq.data)
        if before is None or type(old) is not type(task) or old.properties != task.properties:
            added.add(_sym(task.cell))
    for stream, task in values:
        cell = _sym(task.cell)
        if cell in added:
            uses.setdefault(cell, []).append(_value_use(stream, task))
    declared = [op.sym_name.data for op in model.body.block.ops if isinstance(op, CellOp)]
    order = [c for c in declared if c in added] + sorted(added - set(declared))
    return [{"cell": cell, "bytes": GM_LINE_BYTES, "align": GM_LINE_BYTES, "uses": uses.get(cell, [])}
            for cell in order]


def _unfused(stream: str, task: LaunchOp, reason: str) -> Json:
    try:
        fail = FailReason(reason)
    except ValueError:
        names = ", ".join(r.value for r in FailReason)
        raise SkirError(f"sk-meta: {task_path(task)}: unknown fail reason '{reason}' (one of {names})") from None
    detail = _string(task, FAIL_DETAIL_ATTR)
    return {
        "stream": stream, "seq": task.seq.data, "kernel": _sym(task.kernel), "reason": fail.value,
        "vendor_reason": fail.vendor_reason, "detail": detail if detail is not None else fail.vendor_detail,
        "label": _label(task),
    }


def sk_meta(module: ModuleOp, original: ModuleOp | None = None,
            unreset: dict[str, list[tuple[str, str]]] | None = None,
            shared: SharedEntries | None = None) -> dict[str, Any]:
    """SK meta of `module` (any point of the pipeline); `original` is the input before rewriting;
    `unreset` the `unreset_by_superkernel` pairs when the caller has them already. A model with
    condition tasks gets `submodels`: one entry per sub-model, in the same form (its own
    SuperKernels, cells, unfused kernels, cuts, updates and summary; docs/design.md §3
    "Conditional sub-models"). `shared`: the entry groups, when the caller has them already; each
    SuperKernel that shares its entry gets `shared_entry` (`skir.targets.shared_entries`)."""
    model = _model(module, "module")
    before = None if original is None else _model(original, "original module")
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    originals = {} if before is None else {qualified_name(m): m for m in (before, *all_submodels(before))}
    part = _model_meta(model, before, unreset, originals, progress_ids(module))
    meta: dict[str, Any] = {"format": FORMAT, "version": VERSION, "model": model.sym_name.data, **part}
    annotate_meta(meta, shared_entries(module) if shared is None else shared)
    imported = _vendor_input(model, kernels)
    if imported is not None:
        meta["vendor_input"] = imported
    return meta


def _model_meta(model: ModelOp, before: ModelOp | None, unreset: dict[str, list[tuple[str, str]]] | None,
                originals: dict[str, ModelOp], ids: dict[str, int]) -> dict[str, Any]:
    """The SK meta of one model (its own tasks; its sub-models under `submodels`)."""
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    sks = [op for op in model.body.block.ops if isinstance(op, SuperKernelOp)]
    tasks = _tasks(model)
    hosts: dict[str, list[Json]] = {}
    for stream, task in tasks:
        if isinstance(task, LaunchSkOp):
            hosts.setdefault(_sym(task.sk), []).append({"stream": stream, "seq": task.seq.data})
    if unreset is None:
        unreset = unreset_by_superkernel(model, before)
    superkernels = [_superkernel(sk, kernels, hosts, unreset.get(sk.sym_name.data, [])) for sk in sks]
    _add_progress(model, sks, superkernels, ids)
    layout = _workspaces(model)
    for entry in superkernels:
        entry["workspaces"] = layout.get(entry["name"], [])
    launches = [(s, t) for s, t in tasks if isinstance(t, LaunchOp)]
    unfused, pending, grouped = [], 0, 0
    for stream, task in sorted(launches, key=lambda st: st[1].seq.data):
        reason = _string(task, FAIL_ATTR)
        if reason is not None:
            unfused.append(_unfused(stream, task, reason))
        else:
            pending += 1
            grouped += GROUP_ATTR in task.attributes
    cut_tasks = sorted(((s, t) for s, t in tasks if CUT_ATTR in t.attributes), key=lambda st: st[1].seq.data)
    cuts = [{"reason": _string(t, CUT_ATTR), "seq": t.seq.data, "stream": s, "detail": _string(t, CUT_DETAIL_ATTR)}
            for s, t in cut_tasks]
    fused = sum(len(sk["members"]) for sk in superkernels)
    kernel_tasks = fused + len(launches)
    if before is not None:
        expected = sum(isinstance(t, LaunchOp) for _, t in _tasks(before))
        if expected != kernel_tasks:
            raise SkirError(
                f"sk-meta: @{model.sym_name.data}: the original has {expected} kernel tasks but the module "
                f"accounts for {kernel_tasks} ({fused} fused, {len(launches)} left as launches)",
                ExitCode.INTERNAL,
            )
    cells = _cells(model, sks, tasks, before)
    notes = []
    if pending and grouped == pending and not sks:
        notes.append(f"formed but not outlined: {pending} kernel task(s) carry {GROUP_ATTR} and are listed "
                     "neither as fused nor as unfused (run sk-outline).")
    elif pending and not unfused and not sks:
        notes.append("not processed by sk-form-scopes: no kernel task is listed as fused or unfused.")
    elif pending:
        notes.append(f"{pending} kernel task(s) are neither fused nor unfused.")
    if before is None and any(all("sk" not in u for u in c["uses"]) for c in cells):
        notes.append("no original model given: cells lists every cell used by value tasks and locks, "
                     "including cells the input already had.")
    by_reason = Counter(u["reason"] for u in unfused)
    updates = update_map(model, superkernels)
    meta: dict[str, Any] = {
        "note": " ".join(notes) or None,
        "streams": stream_table(model, with_seq_ids=True),
        "superkernels": superkernels,
        "cells": cells,
        "unfused": unfused,
        "cuts": cuts,
        "updates": updates,
        "summary": {
            "kernel_tasks": kernel_tasks,
            "fused": fused,
            "unfused": len(unfused),
            "pending": pending,
            "superkernels": len(superkernels),
            "launches_saved": sum(max(len(sk["members"]) - 1, 0) for sk in superkernels),
            "updated": len(updates),
            "by_reason": dict(sorted(by_reason.items())),
        },
    }
    subs = submodels(model)
    if subs:
        meta["submodels"] = [
            {"name": sub.sym_name.data, "cond": {"stream": _sym_of_stream(cond), "seq": cond.seq.data},
             "kind": cond.kind.data, "branch": branch,
             **_model_meta(sub, originals.get(qualified_name(sub)), None, originals, ids)}
            for cond, branch, sub in subs]
    return meta


def _sym_of_stream(task: Operation) -> str:
    stream = task.parent_op()
    assert isinstance(stream, StreamOp)
    return stream.sym_name.data


def _vendor_input(model: ModelOp, kernels: dict[str, KernelOp]) -> Json | None:
    """Where a model read from the vendor's dumps came from: layout, model id, the cores used,
    what the dumps did not say, and each kernel's original `funcName` (docs/design.md §11)."""
    info = vendor_info(model)
    if info is None:
        return None
    names = {}
    for name, kernel in kernels.items():
        original = kernel.attributes.get(NAME_ATTR)
        if isinstance(original, StringAttr):
            names[name] = original.data
    options = info.get("options")
    return {"layout": info["layout"], "model_id": info.get("model_id"),
            "cores": {"aic": model.aic_cores.data, "aiv": model.aiv_cores.data, "given": info["cores_given"]},
            "options": options.to_string() if isinstance(options, SkOptions) else "",
            "unknown": info.get("notes", []), "func_names": names}


def dump_meta(meta: dict[str, Any]) -> str:
    """The JSON text of SK meta: fixed key order, `indent=1`, ASCII, a final newline."""
    return dumps_indented(meta) + "\n"


def write_meta(meta: dict[str, Any], output: IO[str]) -> None:
    """Write `dump_meta(meta)` to `output` without holding the text."""
    dump_indented(meta, output)
    output.write("\n")


@dataclass(frozen=True)
class SkMetaTarget(Target):
    """Print SK meta as JSON (`sk-opt model.mlir -p superkernel-pipeline -t sk-meta`)."""

    name = "sk-meta"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        write_meta(stamp(sk_meta(module)), output)
