"""The progress words of `debug-progress=1` (docs/design.md §6 "Locating a hang").

Each core of a SuperKernel launch owns one 64-byte line of the progress area (a workspace of the
plan): AIVs at their logical block index, AICs after every AIV. Before each progress point of
its program a core stores one word there and cleans the line, so a dump of the area after a
hang says where every core is:

```
bits 56-63  magic 0x5C (a word the entry wrote; an untouched line is 0)
bits 40-55  the SuperKernel's progress id (its index among the module's SuperKernels by name)
bits 24-39  the point: the place in its program of the `sk` op the core is at (0xFFFF: the entry's end)
bits 16-23  the state: 1 in a sub-task, 2 waiting on a cross-core flag, 3 waiting on a GM lock,
            4 in a barrier, 5 in an early-start wait, 6 done, 7 a bounded lock wait timed out,
            8 entered (the entry's first store, before any point)
bits  0-15  the line's own index (a check that the word sits where its core wrote it)
```

The points of a SuperKernel, and what each wait waits for located by stream and seq of the
original model, are SK meta's `progress` section (`points`); `skir.hang.locate` decodes a
dump with them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import ModelOp, StreamOp, ValueWriteOp
from skir.dialects.hardware import GM_LINE_BYTES, CoreType
from skir.dialects.model_lookup import models
from skir.dialects.superkernel import (
    BarrierKind,
    BarrierOp,
    EarlyStartWaitOp,
    NotifyOp,
    SetFlagOp,
    SkProgramOp,
    SubtaskOp,
    SuperKernelOp,
    WaitFlagOp,
    WaitLockOp,
)
from skir.options import SkOptions

LINE_BYTES = GM_LINE_BYTES
MAGIC = 0x5C
END_POINT = 0xFFFF
STATES = {"subtask": 1, "wait_flag": 2, "wait_lock": 3, "barrier": 4, "early_start": 5, "done": 6, "timeout": 7,
          "entered": 8}
STATE_NAMES = {v: k for k, v in STATES.items()}
MAX_FIELD = 0xFFFF


def wants_progress(options: SkOptions) -> bool:
    """Whether a SuperKernel keeps progress words: `debug-progress=1`, or a bounded lock wait
    (`debug-wait-timeout-cycles`), which writes its word before it traps."""
    return bool(options.debug_progress) or options.debug_wait_timeout_cycles > 0


def encode(sk_id: int, point: int, state: str) -> int:
    """The progress word without its line index (the entry ORs that in)."""
    return MAGIC << 56 | sk_id << 40 | point << 24 | STATES[state] << 16


def decode(word: int) -> tuple[int, int, str, int] | None:
    """(SuperKernel id, point, state, line) of a progress word; None for an untouched line or
    a word that is not one."""
    if word >> 56 != MAGIC:
        return None
    state = STATE_NAMES.get(word >> 16 & 0xFF)
    if state is None:
        return None
    return word >> 40 & 0xFFFF, word >> 24 & 0xFFFF, state, word & 0xFFFF


def progress_ids(module: ModuleOp) -> dict[str, int]:
    """SuperKernel name -> its progress id: its index among every SuperKernel of the module
    (sub-models' too) in name order, so the emitter and SK meta agree without a shared walk."""
    names = sorted(op.sym_name.data for op in superkernel_ops(module))
    return {name: i for i, name in enumerate(names)}


def superkernel_ops(module: ModuleOp) -> Iterator[SuperKernelOp]:
    for model in models(module):  # each top model, then its sub-models
        yield from (op for op in model.body.block.ops if isinstance(op, SuperKernelOp))


def point_state(op: SkProgramOp) -> str | None:
    """The state a core is in at program op `op`, when `op` is a progress point."""
    if isinstance(op, SubtaskOp):
        return "subtask"
    if isinstance(op, WaitFlagOp):
        return "wait_flag"
    if isinstance(op, WaitLockOp):
        return "wait_lock"
    if isinstance(op, BarrierOp) and op.kind.data is not BarrierKind.PIPE_ALL:
        return "barrier"
    if isinstance(op, EarlyStartWaitOp):
        return "early_start"
    return None


def lines(sk: SuperKernelOp) -> tuple[int, int]:
    """(AIV lines, every line) of `sk`'s progress area: one line per core of its launch."""
    cores = sk.cores()
    return cores[CoreType.AIV], cores[CoreType.AIV] + cores[CoreType.AIC]


def _subtask(op: SubtaskOp, place: int) -> dict[str, Any]:
    return {"subtask": place, "kernel": op.kernel.root_reference.data, "stream": op.stream.root_reference.data,
            "seq": op.seq.data}


def _after(program: list[SkProgramOp], index: int, cores: tuple[CoreType, ...]) -> dict[str, Any] | None:
    """The last sub-task before `program[index]` that one of `cores` runs (what a set there signals)."""
    for place in range(index - 1, -1, -1):
        op = program[place]
        if isinstance(op, SubtaskOp) and set(op.core_set()) & set(cores):
            return _subtask(op, place)
    return None


def _notifiers(model: ModelOp, sks: list[SuperKernelOp]) -> dict[str, list[dict[str, Any]]]:
    """Cell -> who sets it to 1: a stream's value write task, or a SuperKernel's notify."""
    found: dict[str, list[dict[str, Any]]] = {}
    for op in model.body.block.ops:
        if isinstance(op, StreamOp):
            for task in op.body.block.ops:
                if isinstance(task, ValueWriteOp) and task.value.data == 1:
                    found.setdefault(task.cell.root_reference.data, []).append(
                        {"by": "value_write", "stream": op.sym_name.data, "seq": task.seq.data})
    for sk in sks:
        program = sk.program()
        for i, op in enumerate(program):
            if isinstance(op, NotifyOp):
                entry: dict[str, Any] = {"by": "notify", "superkernel": sk.sym_name.data, "id": i, "index": i,
                                         "on": sorted(c.value for c in op.core_set())}
                after = _after(program, i, op.core_set())
                if after is not None:
                    entry["after"] = after
                found.setdefault(op.cell.root_reference.data, []).append(entry)
    return found


def points(model: ModelOp) -> dict[str, list[dict[str, Any]]]:
    """SuperKernel name -> its progress points in program order (SK meta's `points`): per point
    its place in the program (`point`, `index`), state, core types and what it is or waits for,
    located in the original model."""
    sks = [op for op in model.body.block.ops if isinstance(op, SuperKernelOp)]
    notifiers = _notifiers(model, sks)
    out: dict[str, list[dict[str, Any]]] = {}
    for sk in sks:
        program = sk.program()
        # (flag, the core type it credits, guard) -> set positions; a guarded wait (a lane's
        # round, its drain) pairs with the sets of its own cores in the same round
        sets: dict[tuple[int, CoreType, range | None], list[int]] = {}
        for i, op in enumerate(program):
            if isinstance(op, SetFlagOp):
                sets.setdefault((op.flag.data, op.credited(), op.guard()), []).append(i)
        taken: dict[tuple[int, CoreType, range | None], int] = {}
        table: list[dict[str, Any]] = []
        for i, op in enumerate(program):
            state = point_state(op)
            if state is None:
                continue
            entry: dict[str, Any] = {"point": i, "index": i, "state": state,
                                     "on": sorted(c.value for c in op.core_set())}
            if isinstance(op, SubtaskOp):
                entry.update(_subtask(op, i))
            elif isinstance(op, WaitFlagOp):
                entry["flag"] = op.flag.data
                guard = op.guard()
                if guard is not None:
                    entry["cores"] = [guard.start, guard.stop]
                key = (op.flag.data, op.core.data, guard)
                n = taken[key] = taken.get(key, 0) + 1  # the n-th wait takes the n-th credit (FIFO)
                found = sets.get(key, [])
                if n <= len(found):
                    k = found[n - 1]
                    set_op = program[k]
                    entry["set"] = {"id": k, "index": k, "on": sorted(c.value for c in set_op.core_set()),
                                    "after": _after(program, k, set_op.core_set())}
            elif isinstance(op, WaitLockOp):
                cell = op.cell.root_reference.data
                entry.update({"cell": cell, "slot": op.slot.data, "set_by": notifiers.get(cell, [])})
            elif isinstance(op, BarrierOp):
                entry["kind"] = op.kind.data.value
            entry["last_subtask"] = _after(program, i, op.core_set())
            table.append(entry)
        out[sk.sym_name.data] = table
    return out
