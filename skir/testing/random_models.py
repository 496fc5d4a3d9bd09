"""Random valid capture-JSON models (docs/design.md §8) for property tests.

`random_model(rng)` returns a capture dict that imports and verifies; `models()` is the
hypothesis strategy over it (hypothesis is imported only when `models` is called).

A model is built in capture order, one or more *phases* long:

- each phase appends random tasks to random streams: kernels of every type (blocks mostly
  within the model's cores, sometimes above; batch (some with `block_dim_scale_up`),
  early-start, not-sk-capable, dcci and split kernels; param roles, or none), event records
  and waits (a wait only after a record
  of its event in the phase; sometimes two records in one epoch; external waits and records
  on their own events), value write / wait pairs on fresh cells (the satisfying write first,
  sometimes a `value_write 0` on stream 0 after the phase's join), opaque tasks (named notify
  pairs too), task groups, placeholders (spare slots) on the other streams, and scope
  markers on stream 0 (nested, reused and unnamed names, two placeholders after a begin
  and before an end; all closed at the end);
- a phase ends by joining every stream into stream 0 (each records a `fin` event that
  stream 0 waits for) and resetting every event the phase used on stream 0, so each reset
  is ordered after its epoch; the next phase starts with stream 0 recording a fresh `go<p>` event
  that every other stream waits for, and reuses the other event names (new epochs).

With `with_active`, a stream or two is split into a cascade (docs/design.md §3): its head ends
with a `stream_active` task naming a new stream that holds its tail (sometimes followed by a
spare slot, so that it is an ordinary breaker rather than a cascade's join).

Every synchronisation edge points forward in capture order, so the model is acyclic and
can also be written without `seq` (then the importer's simulated capture gives the same
epochs); about one model in four is. About one in five is renumbered as a *crossed* capture:
within a phase the streams' seqs interleave at random, so seq may disagree with
happens-before (a wait captured before the record it waits for).
"""

from __future__ import annotations

import random
import zlib
from typing import Any

KERNEL_TYPES = ("aiv_only", "aic_only", "mix_aiv_1_0", "mix_aic_1_0", "mix_aic_1_1", "mix_aic_1_2")
ROLES = ("in", "out", "inout", "workspace", "tiling")
OPAQUE_KINDS = ("memcpy", "memset", "aicpu", "hccl", "cmo", "host_func", "other")
SOCS = ("Ascend910B1", "Ascend910B3", "Ascend910B4-1", "Ascend910_9391", "Ascend910_9382")
SCOPE_OPTIONS = ("early-start=1", "stream-fusion=0", "split-mode=2:func-align=256", "")
MAX_U64 = (1 << 64) - 1


def _kernel(rng: random.Random, name: str) -> dict[str, Any]:
    k: dict[str, Any] = {"kernel_type": rng.choice(KERNEL_TYPES)}
    if rng.random() < 0.85:
        k["params"] = [rng.choice(ROLES) for _ in range(rng.randint(0, 5))]
    if rng.random() < 0.2:
        k["sched_mode"] = rng.choice(("batch", "normal"))
        if rng.random() < 0.3:
            k["block_dim_scale_up"] = rng.random() < 0.8
    if rng.random() < 0.1:
        k["sk_capable"] = rng.random() < 0.3
    if rng.random() < 0.3:
        k["code_bytes"] = rng.randint(0, 1 << 16)
    if rng.random() < 0.1:
        k["early_start"] = {"set": rng.random() < 0.5, "wait": rng.random() < 0.5}
    if rng.random() < 0.1:
        k["sk_symbol"] = f"{name}_sk"
    if rng.random() < 0.1:
        k["split_copies"] = rng.randint(1, 64)
    if rng.random() < 0.1:
        k["sync_flags"] = sorted(rng.sample(range(16), rng.randint(0, 3)))
    if rng.random() < 0.1:
        k["dcci"] = {"before": rng.random() < 0.5, "after": rng.random() < 0.5,
                     "disable": rng.random() < 0.3}
    if zlib.crc32(name.encode()) % 3 == 0:  # from the name, not the generator: the seeds keep their models
        k["sk_system_args"] = True
    return k


def _blocks(rng: random.Random, kernel_type: str, aic: int, aiv: int) -> int:
    cores = aiv if kernel_type in ("aiv_only", "mix_aiv_1_0") else aic
    r = rng.random()
    if r < 0.85:
        return rng.randint(1, cores)
    if r < 0.97:
        return rng.randint(cores + 1, 2 * cores + 1)
    return rng.randint(1, 65535)


COMM_OPS = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "dispatch", "combine", "other")


class _Gen:
    def __init__(self, rng: random.Random, n_streams: int, aic: int, aiv: int, opts: dict[str, bool]):
        self.rng = rng
        self.aic, self.aiv = aic, aiv
        self.opts = opts
        self.comm_rng: random.Random | None = None
        self.update_rng: random.Random | None = None
        self.streams: list[list[dict[str, Any]]] = [[] for _ in range(n_streams)]
        self.seq = 0
        self.kernels: dict[str, dict[str, Any]] = {}
        self.n_args: dict[str, int] = {}  # kernel without params -> its args length
        self.events: list[str] = []
        self.cells: list[str] = []
        self.scopes: list[str | None] = []  # open scopes on stream 0
        self.notify_id = 0
        self.phase_index = 0
        self.phase_of: dict[int, int] = {}  # id(task) -> its phase

    def add(self, s: int, task: dict[str, Any]) -> None:
        if self.rng.random() < 0.05 and "task_group" not in task:
            task["task_group"] = True
        self.streams[s].append({"seq": self.seq, **task})
        self.phase_of[id(self.streams[s][-1])] = self.phase_index
        self.seq += 1 if self.rng.random() < 0.8 else self.rng.randint(2, 5)

    def event(self, name: str) -> str:
        if name not in self.events:
            self.events.append(name)
        return name

    # ---- random tasks ----

    def kernel_task(self, s: int) -> None:
        rng = self.rng
        name = rng.choice(list(self.kernels))
        spec = self.kernels[name]
        task: dict[str, Any] = {"type": "kernel", "kernel": name,
                                "blocks": _blocks(rng, spec["kernel_type"], self.aic, self.aiv)}
        n = len(spec["params"]) if "params" in spec else self.n_args.setdefault(name, rng.randint(0, 4))
        if "params" not in spec or rng.random() < 0.7:
            task["args"] = [f"b{rng.randrange(8)}" for _ in range(n)]
        if rng.random() < 0.5:
            task["duration_us"] = round(rng.uniform(0.5, 50.0), 3)
        if self.comm_rng is not None and spec["kernel_type"] in ("aiv_only", "mix_aiv_1_0") \
                and self.comm_rng.random() < 0.6:
            task["comm"] = {"group": self.comm_rng.choice(("tp0", "ep")), "op": self.comm_rng.choice(COMM_OPS)}
        if self.update_rng is not None and self.update_rng.random() < 0.3:
            self.updated_prefix(s, task)
        self.add(s, task)
        if s != 0 and (self.opts["spare_slots"] or (self.opts["scopes"] and rng.random() < 0.25)):
            for _ in range(2 if self.opts["spare_slots"] else 1):
                self.add(s, {"type": "placeholder"})  # room for a back block after a fused range

    def updated_prefix(self, s: int, task: dict[str, Any]) -> None:
        """Make `task` a kernel of a task group, behind the external wait (and, mostly, the
        reset of that event) the capture puts before it (docs/design.md §3 "Updated kernels")."""
        u = self.update_rng
        assert u is not None
        event = self.event(f"u{len(self.events)}")
        self.add(s, {"type": "event_wait", "event": event, "external": True})
        if u.random() < 0.7:
            self.add(s, {"type": "event_reset", "event": event})
        task["task_group"] = u.choice((1, 2, 3, True))
        if u.random() < 0.85:
            task["update"] = "args" if u.random() < 0.85 else "launch"

    def phase(self, budget: int, phase: int, last: bool) -> None:
        rng = self.rng
        ns = len(self.streams)
        if phase > 0 and ns > 1:
            go = self.event(f"go{phase}")
            self.add(0, {"type": "event_record", "event": go})
            for s in range(1, ns):
                self.add(s, {"type": "event_wait", "event": go})
        recorded: list[str] = []  # events recorded in this phase (current epoch)
        used = {f"go{phase}"} if phase > 0 and ns > 1 else set()
        pending_cells: list[tuple[str, str, int, int]] = []  # (cell, rule, value, writer stream)
        notifies: list[str] = []
        pool = [f"e{i}" for i in range(rng.randint(1, 4))]
        for _ in range(budget):
            s = rng.randrange(ns)
            r = rng.random()
            if r < 0.45:
                if self.kernels:
                    self.kernel_task(s)
            elif r < 0.55:
                fresh = [e for e in pool if e not in used]
                if fresh or (recorded and rng.random() < 0.1):
                    e = fresh[0] if fresh else rng.choice(recorded)  # sometimes two records
                    used.add(e)
                    recorded.append(self.event(e))
                    self.add(s, {"type": "event_record", "event": e})
            elif r < 0.68:
                if recorded:
                    self.add(s, {"type": "event_wait", "event": rng.choice(recorded)})
            elif r < 0.71:
                e = self.event(f"x{len(self.events)}")
                used.add(e)
                kind = "event_wait" if rng.random() < 0.7 else "event_record"
                self.add(s, {"type": kind, "event": e, "external": True})
            elif r < 0.79 and self.opts["values"]:
                self.value_task(s, pending_cells)
            elif r < 0.87 and self.opts["opaque"]:
                self.opaque_task(s, notifies)
            elif s != 0 and (self.opts["scopes"] or self.opts["spare_slots"]) and rng.random() < 0.5:
                self.add(s, {"type": "placeholder"})  # a spare slot for boundary syncs
            elif self.opts["scopes"]:
                self.marker()
        # join every stream into stream 0, then reset this phase's events there
        for s in range(1, ns):
            fin = self.event(f"fin{s}")
            used.add(fin)
            self.add(s, {"type": "event_record", "event": fin})
            self.add(0, {"type": "event_wait", "event": fin})
        for cell, _, _, _ in pending_cells:  # after the join: ordered after every wait on it
            if rng.random() < 0.5:
                self.add(0, {"type": "value_write", "cell": cell, "value": 0})
        for e in self.events:  # all reset before the next phase: its `go` must order it
            if e in used and (not last or rng.random() < 0.9):
                self.add(0, {"type": "event_reset", "event": e})

    def value_task(self, s: int, pending: list[tuple[str, str, int, int]]) -> None:
        rng = self.rng
        if pending and rng.random() < 0.7:
            cell, rule, value, _ = rng.choice(pending)
            self.add(s, {"type": "value_wait", "cell": cell, "value": value, "rule": rule})
            return
        cell = f"c{len(self.cells)}"
        self.cells.append(cell)
        rule = rng.choice(("geq", "eq", "and", "nor"))
        if rule == "geq":
            value = rng.randint(1, 8)
            write = value + rng.randint(0, 3)
        elif rule == "eq":
            value = write = rng.choice((1, 2, 7, MAX_U64))
        elif rule == "and":
            value = rng.choice((1, 6, 0xF0))
            write = value
        else:  # nor: a cell of 0 or 3 satisfies it (an all-ones value never would: a deadlock)
            value = rng.choice((0, 5))
            write = rng.choice((0, 3))
        self.add(s, {"type": "value_write", "cell": cell, "value": write})
        pending.append((cell, rule, value, s))

    def opaque_task(self, s: int, notifies: list[str]) -> None:
        rng = self.rng
        r = rng.random()
        if notifies and r < 0.35:
            self.add(s, {"type": "default", "kind": "notify_wait", "notify": notifies.pop(0)})
        elif r < 0.55:
            name = f"n{self.notify_id}"
            self.notify_id += 1
            notifies.append(name)
            self.add(s, {"type": "default", "kind": "notify_record", "notify": name})
        elif r < 0.6:
            self.add(s, {"type": "default", "kind": rng.choice(("notify_record", "notify_wait"))})
        else:
            self.add(s, {"type": "default", "kind": rng.choice(OPAQUE_KINDS)})

    def marker(self) -> None:
        rng = self.rng
        if self.scopes and rng.random() < 0.45:
            self.close_scope()
            return
        name = None if rng.random() < 0.2 else rng.choice(("a", "b", "layer"))
        task: dict[str, Any] = {"type": "scope_begin", "scope": name}
        if name is not None and rng.random() < 0.3:
            task["options"] = rng.choice(SCOPE_OPTIONS)
        self.scopes.append(name)
        self.add(0, task)
        for _ in range(2):
            self.add(0, {"type": "placeholder"})

    def close_scope(self) -> None:
        name = self.scopes.pop()
        for _ in range(2):
            self.add(0, {"type": "placeholder"})
        self.add(0, {"type": "scope_end", "scope": name})


def random_model(
    rng: random.Random,
    max_streams: int = 4,
    max_tasks: int = 40,
    with_scopes: bool = True,
    with_opaque: bool = True,
    with_values: bool = True,
    spare_slots: bool = False,
    with_comm: bool = False,
    with_updates: bool = False,
    with_conds: bool = False,
    with_seqs: bool = False,
    with_active: bool = False,
) -> dict[str, Any]:
    """A random valid capture dict. `max_tasks` bounds the random tasks; the join, reset and
    marker structure around them adds a few more. `spare_slots` puts two placeholders after
    every kernel task off stream 0, so that most stream-fused SuperKernels find their slots.
    `with_comm` makes about three vector kernel tasks in five communication kernels of group
    `tp0` or `ep` (drawn from a generator of its own: the other draws stay as they were).
    `with_updates` makes about three kernel tasks in ten members of a task group, most of them
    updating `args` only, each behind an external wait (and mostly its reset), as a capture of
    per-step updated attention puts them (a generator of its own too). `with_conds` adds one or two
    condition tasks, each running one to three random sub-models (a generator of its own; the
    model then has seqs on every task, as `with_seqs` asks without conditions).
    `with_active` splits one or two streams into cascades (a generator of its own too)."""
    n_streams = rng.randint(1, max(1, max_streams))
    aic, aiv = rng.choice(((24, 48), (20, 40), (24, 48), (rng.randint(1, 32), rng.randint(1, 64))))
    g = _Gen(rng, n_streams, aic, aiv,
             {"scopes": with_scopes, "opaque": with_opaque, "values": with_values, "spare_slots": spare_slots})
    if with_comm:
        g.comm_rng = random.Random(repr(rng.getstate()[1][:8]))
    if with_updates:
        g.update_rng = random.Random(repr(rng.getstate()[1][8:16]))
    for i in range(rng.randint(0, 6)):
        g.kernels[f"k{i}"] = _kernel(rng, f"k{i}")
    total = rng.randint(0, max(0, max_tasks))
    phases = rng.choice((1, 1, 2, 3))
    for p in range(phases):
        g.phase_index = p
        g.phase(total // phases, p, p == phases - 1)
    while g.scopes:
        g.close_scope()
    # kernels without params need args on some launch: give every such kernel one launch
    for name, spec in g.kernels.items():
        if "params" not in spec and not any(
            t.get("kernel") == name and "args" in t for st in g.streams for t in st
        ):
            n = g.n_args.setdefault(name, rng.randint(0, 3))
            g.add(0, {"type": "kernel", "kernel": name, "blocks": 1,
                      "args": [f"b{rng.randrange(8)}" for _ in range(n)]})
    sized = {f"b{i}": rng.choice((64, 4096, 1 << 20)) for i in range(8) if rng.random() < 0.6}
    data: dict[str, Any] = {"format": "skir.aclgraph.capture", "version": 1,
                            "model": rng.choice(("m", "model", "decode_step", "g"))}
    if rng.random() < 0.5:
        data["soc"] = rng.choice(SOCS)
    data["cores"] = {"aic": aic, "aiv": aiv}
    data["kernels"] = g.kernels
    if sized or rng.random() < 0.5:
        data["buffers"] = sized
    if g.events or rng.random() < 0.5:
        data["events"] = g.events
    if g.cells or rng.random() < 0.5:
        data["cells"] = g.cells
    r = rng.random()
    if with_active:  # not stream 0 in a crossed capture, whose renumbering keeps stream 0's join last
        _cascades(random.Random(repr(rng.getstate()[1][8:16])), g.streams, g.phase_of, 0.25 <= r < 0.45)
    data["streams"] = [{"name": f"s{i}", "tasks": tasks} for i, tasks in enumerate(g.streams)]
    cond_rng = random.Random(repr(rng.getstate()[1][16:24])) if with_conds else None
    if r < 0.25:
        if not (with_conds or with_seqs):  # a capture without seqs (a model with sub-models has them)
            for tasks in g.streams:
                for t in tasks:
                    del t["seq"]
    elif r < 0.45:
        _cross_seqs(rng, g.streams, g.phase_of)
    if cond_rng is not None:
        _add_conditions(cond_rng, data)
    return data


def _add_conditions(rng: random.Random, data: dict[str, Any]) -> None:
    """One or two condition tasks on random streams of `data`, each running one to three random
    sub-models of their own names, events and cells (docs/design.md §3 "Conditional sub-models").
    Seqs are doubled to make room; a sub-model's seqs follow all of the model's."""
    for stream in data["streams"]:
        for t in stream["tasks"]:
            t["seq"] *= 2
    top = max((t["seq"] for s in data["streams"] for t in s["tasks"]), default=0) + 2  # above every condition
    used = {t["seq"] for s in data["streams"] for t in s["tasks"]}
    data.setdefault("cells", [])
    data.setdefault("events", [])
    data.setdefault("kernels", {})
    data.setdefault("buffers", {})
    subs: list[dict[str, Any]] = []
    for c in range(rng.randint(1, 2)):
        kind = rng.choice(("if", "if", "while", "switch"))
        count = {"if": rng.randint(1, 2), "while": 1, "switch": rng.randint(2, 3)}[kind]
        names = []
        for b in range(count):
            name = f"c{c}b{b}"
            sub = random_model(rng, max_streams=2, max_tasks=14, with_scopes=False, with_seqs=True)
            rename = {s["name"]: f"{name}_{s['name']}" for s in sub["streams"]}
            rename.update({k: f"{name}_{k}" for k in (*sub.get("kernels", {}), *sub.get("buffers", {}),
                                                      *sub.get("events", []), *sub.get("cells", []))})
            offset = top  # one offset for the whole sub-model keeps its epochs
            for s in sub["streams"]:
                for t in s["tasks"]:
                    for key in ("kernel", "event", "cell"):
                        if key in t:
                            t[key] = rename[t[key]]
                    if "args" in t:
                        t["args"] = [rename.get(a, f"{name}_{a}") for a in t["args"]]
                    t["seq"] += offset
                    top = max(top, t["seq"] + 1)
                s["name"] = rename[s["name"]]
            subs.append({"name": name, "streams": sub["streams"], "decls": (
                {rename[k]: v for k, v in sub.get("kernels", {}).items()},
                {rename[k]: v for k, v in sub.get("buffers", {}).items()},
                [rename[e] for e in sub.get("events", [])], [rename[e] for e in sub.get("cells", [])])})
            names.append(name)
        cell = f"cond{c}"
        stream = rng.choice(data["streams"])["tasks"]
        at = rng.randint(1, len(stream)) if stream else 0
        seq = stream[at - 1]["seq"] + 1 if at > 0 else (1 << 40) + c  # an empty stream: above everything
        if seq in used or (seq % 2 == 0 and at > 0) or (at < len(stream) and stream[at]["seq"] <= seq):
            continue  # no free seq there: skip this condition (its sub-models would run nowhere)
        used.add(seq)
        data["cells"].append(cell)
        stream.insert(at, {"seq": seq, "type": "cond", "kind": kind, "cell": cell, "submodels": names})
        for x in subs:
            if x["name"] in names:
                kernels, buffers, events, cells = x.pop("decls")
                data["kernels"].update(kernels)
                data["buffers"].update(buffers)
                data["events"] += events
                data["cells"] += cells
                data["submodels"] = [*data.get("submodels", []), x]
def _cascades(rng: random.Random, streams: list[list[dict[str, Any]]], phase_of: dict[int, int],
              crossed: bool) -> None:
    """Split one or two streams as the runtime splits a capture stream whose queue ran out: the
    head keeps the stream and ends with `stream_active` naming a new stream, which gets the tail.
    Seqs are multiplied by 4 first, so the new tasks take the free seqs right after the head's last."""
    for _ in range(rng.randint(1, 2)):
        splittable = [s for s, tasks in enumerate(streams) if len(tasks) >= 2 and (s > 0 or not crossed)]
        if not splittable:
            return
        for tasks in streams:
            for t in tasks:
                t["seq"] *= 4
        s = rng.choice(splittable)
        cut = rng.randint(1, len(streams[s]) - 1)
        head, tail = streams[s][:cut], streams[s][cut:]
        last = head[-1]
        added = [{"seq": last["seq"] + 1, "type": "stream_active", "stream": f"s{len(streams)}"}]
        if rng.random() < 0.25:  # not at the end of its stream: an ordinary breaker
            added.append({"seq": last["seq"] + 2, "type": "placeholder"})
        for t in added:
            phase_of[id(t)] = phase_of[id(last)]
        streams[s] = head + added
        streams.append(tail)


def _cross_seqs(rng: random.Random, streams: list[list[dict[str, Any]]], phase_of: dict[int, int]) -> None:
    """Renumber seqs as another capture order would: within each phase the streams' tasks
    interleave at random (stream order kept), so a wait may be captured before the record it
    waits for (the vendor's "crossed" scenarios). Epochs do not change: a phase's tail on
    stream 0 (from its join on, where the resets are) keeps the phase's last seqs, and phases
    keep their order."""
    phases = sorted({phase_of[id(t)] for tasks in streams for t in tasks})
    seq = 0
    for p in phases:
        queues = [[t for t in tasks if phase_of[id(t)] == p] for tasks in streams]
        head = queues[0]
        joins = [i for i, t in enumerate(head) if str(t.get("event", "")).startswith("fin")]
        cut = joins[0] if joins else len(head)
        queues[0], tail = head[:cut], head[cut:]
        heads = [0] * len(queues)
        while True:
            ready = [i for i, q in enumerate(queues) if heads[i] < len(q)]
            if not ready:
                break
            s = rng.choice(ready)
            queues[s][heads[s]]["seq"] = seq
            heads[s] += 1
            seq += 1
        for t in tail:
            t["seq"] = seq
            seq += 1


def models(
    max_streams: int = 4,
    max_tasks: int = 40,
    with_scopes: bool = True,
    with_opaque: bool = True,
    with_values: bool = True,
    spare_slots: bool = False,
    with_comm: bool = False,
    with_updates: bool = False,
    with_conds: bool = False,
    with_active: bool = False,
) -> Any:
    """Hypothesis strategy of random valid capture dicts (see `random_model`)."""
    from hypothesis import strategies as st

    return st.randoms(use_true_random=False).map(
        lambda rng: random_model(rng, max_streams, max_tasks, with_scopes, with_opaque, with_values, spare_slots,
                                 with_comm, with_updates, with_conds, with_active=with_active)
    )
