#!/usr/bin/env python3
"""Seeded synthetic aclgraph models, as capture JSON (docs/design.md §8) or `.mlir`.

    python tools/gen_model.py {chain,diamond,fork-join,branches,decode} -n N [--seed S] [--streams K]
                              [--format json|mlir] [-o FILE] [-v]

Every model has exactly N tasks, numbers its tasks with `seq` in capture order, and
verifies. Kinds:

- `chain`: N kernels on one stream (aiv, aic and mix kernels in turn, buffers ping-pong).
- `diamond`: repeated diamonds: s0 records a fork event, s1 and s2 each wait on it, run
  1-3 kernels and record a join event, s0 waits on both joins and goes on.
- `fork-join`: the same with K streams (s0 forks to s1..s{K-1} and joins them back).
- `branches`: the fork-join of K streams where each branch is a chain of 2-4 small vector
  kernels (8 AIVs, `lane_vec`, taking `sk::SkSystemArgs`), e.g. the per-expert or per-head
  work of a layer: with `placement=auto` the branches run as lanes (docs/design.md §3 "Lanes").
- `decode`: decoder layers (per layer: rms_norm, qkv matmul (mix 1:2, batch), rope_q on s0
  while s1 runs rope_k and, now and then, a KV-cache memcpy; attention, o_proj, add,
  rms_norm, gate/up matmul (mix 1:2, batch), swiglu, down matmul, add), each layer inside a
  `scope_begin "layerL"` / `scope_end` pair planted with two placeholders each side as
  `aclskScopeBegin/End` do, an aicpu task every 8 layers; with K > 2 the side work rotates
  over s1..s{K-1}. The rope kernels take `sk::SkSystemArgs` (`sk_system_args`), so
  `placement=auto` may run them side by side.

Events are never reused: like the aclgraph runtime at capture end, every event is reset
once, at the end of the origin stream s0. Tasks left over when the next unit does not fit
are kernels appended to s0 before the resets.

Also importable: `generate(kind, n, seed=0, streams=2) -> dict` (the capture dict).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

KINDS = ("chain", "diamond", "fork-join", "branches", "decode")

# name -> (kernel_type, params, blocks, duration_us, extra kernel fields)
_KERNELS: dict[str, tuple[str, list[str], int, float, dict[str, Any]]] = {
    "rms_norm": ("aiv_only", ["in", "in", "out"], 48, 3.5, {"code_bytes": 6144}),
    "qkv_matmul": ("mix_aic_1_2", ["in", "in", "out"], 24, 12.0,
                   {"sched_mode": "batch", "code_bytes": 16384}),
    "rope_q": ("aiv_only", ["inout", "in"], 40, 2.5, {"code_bytes": 4096, "sk_system_args": True}),
    "rope_k": ("aiv_only", ["inout", "in", "out"], 8, 1.8, {"code_bytes": 4096, "sk_system_args": True}),
    "attention": ("mix_aic_1_1", ["in", "in", "in", "out", "workspace"], 24, 15.0,
                  {"code_bytes": 24576}),
    "o_proj": ("aic_only", ["in", "in", "out"], 24, 8.0, {"code_bytes": 12288}),
    "add": ("aiv_only", ["inout", "in"], 48, 1.5, {"code_bytes": 2048}),
    "gate_up": ("mix_aic_1_2", ["in", "in", "out"], 24, 20.0,
                {"sched_mode": "batch", "code_bytes": 16384}),
    "swiglu": ("aiv_only", ["in", "out"], 40, 3.0, {"code_bytes": 4096}),
    "down_proj": ("aic_only", ["in", "in", "out"], 20, 10.0, {"code_bytes": 12288}),
    # generic kernels of chain / diamond / fork-join
    "vec_op": ("aiv_only", ["in", "out"], 48, 2.0, {}),
    "cube_op": ("aic_only", ["in", "in", "out"], 24, 6.0, {}),
    "mix_op": ("mix_aic_1_2", ["in", "in", "out"], 24, 9.0, {}),
    "small_vec": ("aiv_only", ["in", "out"], 8, 1.0, {}),
    "lane_vec": ("aiv_only", ["in", "out"], 8, 1.5, {"sk_system_args": True}),
}
_LAYERS = 32  # weights repeat every _LAYERS layers (one decode step after another)
_HIDDEN = 4096 * 2
_BUFFERS: dict[str, int] = {
    "hidden": _HIDDEN, "normed": _HIDDEN, "qkv": 3 * _HIDDEN, "cos_sin": 2 * 128 * 4,
    "attn": _HIDDEN, "attn_ws": 1 << 20, "proj": _HIDDEN, "gu": 2 * 11008 * 2, "act": 11008 * 2,
    "a": 1 << 16, "b": 1 << 16, "c": 1 << 16, "w": 1 << 22,
}


class _Builder:
    """Appends tasks in capture order (seq = order of appending) to a fixed budget."""

    def __init__(self, name: str, n: int, streams: int, seed: int):
        self.rng = random.Random(seed)
        self.n = n
        self.streams: list[list[dict[str, Any]]] = [[] for _ in range(streams)]
        self.seq = 0
        self.kernels: dict[str, dict[str, Any]] = {}
        self.buffers: dict[str, int] = {}
        self.events: list[str] = []
        self.name = name

    @property
    def left(self) -> int:
        """Tasks still to place, keeping room for one reset per event."""
        return self.n - self.seq - len(self.events)

    def add(self, stream: int, task: dict[str, Any]) -> None:
        self.streams[stream].append({"seq": self.seq, **task})
        self.seq += 1

    def kernel(self, stream: int, name: str, args: list[str], blocks: int | None = None) -> None:
        ktype, params, default_blocks, duration, extra = _KERNELS[name]
        if name not in self.kernels:
            self.kernels[name] = {"kernel_type": ktype, "params": params, **extra}
        for a in args:
            if a not in self.buffers:
                base = a if a in _BUFFERS else a.rsplit("_", 1)[0]
                self.buffers[a] = _BUFFERS.get(base, 1 << 20)
        jitter = round(duration * self.rng.uniform(0.9, 1.1), 2)
        self.add(stream, {"type": "kernel", "kernel": name, "blocks": blocks or default_blocks,
                          "args": args, "duration_us": jitter})

    def event(self, prefix: str) -> str:
        name = f"{prefix}{len(self.events)}"
        self.events.append(name)
        return name

    def record(self, stream: int, event: str) -> None:
        self.add(stream, {"type": "event_record", "event": event})

    def wait(self, stream: int, event: str) -> None:
        self.add(stream, {"type": "event_wait", "event": event})

    def filler(self) -> None:
        i = 0
        while self.left > 0:
            self.kernel(0, ("vec_op", "small_vec")[i % 2], ["a", "b"] if i % 2 == 0 else ["b", "a"])
            i += 1

    def finish(self) -> dict[str, Any]:
        self.filler()
        for e in self.events:
            self.add(0, {"type": "event_reset", "event": e})
        assert self.seq == self.n, (self.seq, self.n)
        data: dict[str, Any] = {
            "format": "skir.aclgraph.capture", "version": 1, "model": self.name,
            "soc": "Ascend910_9391", "cores": {"aic": 24, "aiv": 48},
            "kernels": self.kernels, "buffers": self.buffers,
        }
        if self.events:  # laid out as the exporter writes it: no empty sections
            data["events"] = self.events
        data["streams"] = [{"name": f"s{i}", "tasks": tasks} for i, tasks in enumerate(self.streams)
                           if tasks or i == 0]
        return data


def _chain(b: _Builder) -> None:
    kinds = ("vec_op", "cube_op", "mix_op")
    bufs = ("a", "b", "c")
    i = 0
    while b.left > 0:
        name = kinds[b.rng.randrange(3)] if i % 5 == 4 else kinds[i % 3]
        src, dst = bufs[i % 3], bufs[(i + 1) % 3]
        b.kernel(0, name, [src, dst] if name == "vec_op" else [src, "w", dst])
        i += 1


def _fork_join(b: _Builder, branches: int, lanes: bool = False) -> None:
    """Rounds of: s0 kernel, fork to `branches` streams, 1-3 kernels each (`lanes`: 2-4
    `lane_vec` kernels), join on s0."""
    while True:
        lengths = [b.rng.randint(2, 4) if lanes else b.rng.randint(1, 3) for _ in range(branches)]
        # s0 kernel + record + per branch (wait, kernels, record) + s0 waits + 2 resets each
        need = 2 + sum(ln + 2 for ln in lengths) + branches + (1 + branches)
        if b.left < need:
            return
        b.kernel(0, "vec_op", ["a", "b"])
        fork = b.event("fork")
        b.record(0, fork)
        joins = []
        for s, ln in enumerate(lengths, start=1):
            b.wait(s, fork)
            for j in range(ln):
                name = "lane_vec" if lanes else ("cube_op", "small_vec", "mix_op")[(s + j) % 3]
                out = f"c_{s}"
                b.kernel(s, name, ["b", out] if name in ("small_vec", "lane_vec") else ["b", "w", out])
            joins.append(b.event("join"))
            b.record(s, joins[-1])
        for j in joins:
            b.wait(0, j)


def _decode(b: _Builder, streams: int) -> None:
    layer = 0
    while True:
        side = 1 + layer % (streams - 1)
        memcpy = layer % 4 == 3
        aicpu = layer % 8 == 7
        need = 18 + 4 + memcpy + aicpu + 2  # s0 tasks, s1 tasks, extras, two resets
        if b.left < need:
            return
        w = layer % _LAYERS
        scope = f"layer{layer}"
        b.add(0, {"type": "scope_begin", "scope": scope})
        b.add(0, {"type": "placeholder"})
        b.add(0, {"type": "placeholder"})
        b.kernel(0, "rms_norm", ["hidden", f"w_norm1_{w}", "normed"])
        b.kernel(0, "qkv_matmul", ["normed", f"w_qkv_{w}", "qkv"])
        fork, join = b.event("fork"), b.event("join")
        b.record(0, fork)
        b.wait(side, fork)
        b.kernel(side, "rope_k", ["qkv", "cos_sin", f"k_cache_{w}"])
        if memcpy:
            b.add(side, {"type": "default", "kind": "memcpy"})
        b.record(side, join)
        b.kernel(0, "rope_q", ["qkv", "cos_sin"])
        b.wait(0, join)
        b.kernel(0, "attention", ["qkv", f"k_cache_{w}", f"v_cache_{w}", "attn", "attn_ws"])
        b.kernel(0, "o_proj", ["attn", f"w_o_{w}", "proj"])
        b.kernel(0, "add", ["hidden", "proj"])
        b.kernel(0, "rms_norm", ["hidden", f"w_norm2_{w}", "normed"])
        b.kernel(0, "gate_up", ["normed", f"w_gu_{w}", "gu"])
        b.kernel(0, "swiglu", ["gu", "act"])
        b.kernel(0, "down_proj", ["act", f"w_down_{w}", "proj"])
        b.kernel(0, "add", ["hidden", "proj"])
        if aicpu:
            b.add(0, {"type": "default", "kind": "aicpu"})
        b.add(0, {"type": "placeholder"})
        b.add(0, {"type": "placeholder"})
        b.add(0, {"type": "scope_end", "scope": scope})
        layer += 1


def generate(kind: str, n: int, seed: int = 0, streams: int = 2) -> dict[str, Any]:
    """The capture dict of a synthetic model of `kind` with exactly `n` tasks."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind '{kind}' (one of {', '.join(KINDS)})")
    if n < 1:
        raise ValueError("n must be at least 1")
    if streams < 1 or (kind in ("fork-join", "branches", "decode") and streams < 2):
        raise ValueError(f"{kind} needs at least 2 streams")
    width = {"chain": 1, "diamond": 3}.get(kind, streams)
    b = _Builder(f"{kind.replace('-', '_')}_{n}", n, width, seed)
    if kind == "chain":
        _chain(b)
    elif kind == "diamond":
        _fork_join(b, 2)
    elif kind == "fork-join":
        _fork_join(b, streams - 1)
    elif kind == "branches":
        _fork_join(b, streams - 1, lanes=True)
    else:
        _decode(b, streams)
    return b.finish()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("-n", type=int, required=True, help="number of tasks")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--streams", type=int, default=None,
                    help="streams (fork-join, branches: default 4; decode: default 2)")
    ap.add_argument("--format", choices=("json", "mlir"), default="json")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    streams = args.streams if args.streams is not None else (4 if args.kind in ("fork-join", "branches") else 2)
    try:
        data = generate(args.kind, args.n, args.seed, streams)
    except ValueError as e:
        print(f"gen_model: {e}", file=sys.stderr)
        return 1
    from skir.frontends import capture

    if args.format == "json":
        text = capture.format_json(data)
    else:
        text = str(capture.from_dict(data, f"<{args.kind}>")) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    if args.verbose:
        tasks = sum(len(s["tasks"]) for s in data["streams"])
        print(f"gen_model: {args.kind}: {tasks} tasks on {len(data['streams'])} streams, "
              f"{len(data['kernels'])} kernels, {len(data['buffers'])} buffers, "
              f"{len(data.get('events', []))} events -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
