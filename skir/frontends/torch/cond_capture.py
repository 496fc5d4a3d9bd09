"""`torch.cond` in a traced model -> a condition task running its branches as sub-models
(docs/design.md §3 "Conditional sub-models").

```
torch.cond(pred, then_fn, else_fn, (h,))      s0: ..., kernel gt (writes pred),
                                                  cond if @cond0 [cond0_then, cond0_else], ...
                                              submodels: cond0_then: its own streams (then_fn's ops)
                                                         cond0_else: its own streams (else_fn's ops)
```

The predicate's kernel writes the condition's value: the cell `cond<N>` (its device word). Each
branch graph is captured like the model (one kernel task per op, sharing the model's kernels
and buffers), its inputs bound to the operands' buffers, and its results written into the
condition's result buffers, which the model's later ops read. A branch's streams and events are
its own (prefixed with the sub-model's name); its seqs follow every seq of the model.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import fx

from skir.errors import SkirError
from skir.frontends.torch.stream_capture import StreamCapture

GraphCapture = Any
"""A `skir.frontends.torch.graph_model.GraphCapture` (not imported: it imports this module)."""


def is_cond(node: fx.Node) -> bool:
    """Whether `node` is a `torch.cond` (the `higher_order.cond` op of an exported graph)."""
    target = getattr(torch.ops.higher_order, "cond", None)
    return node.op == "call_function" and target is not None and node.target is target


def capture_cond(capture: GraphCapture, node: fx.Node, stream: str, where: str) -> None:
    """Capture `node`, a `torch.cond`, into `capture`: a cond task on `stream` and one sub-model
    per branch (module docstring)."""
    pred, then_ref, else_ref, operands = node.args[:4]
    k = len(capture.submodels) // 2
    cell = f"cond{k}"
    while cell in capture.buffers or cell in capture.kernels:
        k += 1
        cell = f"cond{k}"
    capture.cells.append(cell)
    operand_buffers = [capture.buffer_of(o) if isinstance(o, fx.Node) else None for o in operands]  # type: ignore
    results = capture.result_buffers(node)
    names = []
    for branch, ref in (("then", then_ref), ("else", else_ref)):
        if not isinstance(ref, fx.Node) or ref.op != "get_attr":
            raise SkirError(f"{where}: torch.cond's {branch} branch is not a captured graph")
        graph = capture.graph_module.get_submodule(str(ref.target))
        name = f"{cell}_{branch}"
        capture.submodels.append({"name": name, "streams": _branch(capture, graph, name, operand_buffers, results,
                                                                   where)})
        names.append(name)
    reads = [b for b in (capture.buffer_of(pred) if isinstance(pred, fx.Node) else None, *operand_buffers)
             if isinstance(b, str)]
    capture.streams.data_task(stream, {"type": "cond", "kind": "if", "cell": cell, "submodels": names}, reads,
                              [r for r in results if isinstance(r, str)])


def _branch(capture: GraphCapture, graph: fx.GraphModule, name: str, operands: list[Any], results: list[Any],
            where: str) -> list[dict[str, Any]]:
    """The streams of one branch graph, captured into a child of `capture` that shares its
    kernels and buffers."""
    child = type(capture)(graph, name, capture.cores, capture.soc, capture.peaks)
    child.buffers, child.kernels, child._kernel_keys = capture.buffers, capture.kernels, capture._kernel_keys
    child._source_paths = capture._source_paths
    child.streams = StreamCapture(main=f"{name}_s0")
    child.cells, child.submodels = capture.cells, capture.submodels  # a nested torch.cond is the model's too
    child.extra_events = capture.extra_events
    placeholders = [n for n in graph.graph.nodes if n.op == "placeholder"]
    for node, buffer in zip(placeholders, operands, strict=False):
        child.bind(node, buffer)
    returned: list[Any] = []
    for node in graph.graph.nodes:
        if node.op in ("call_function", "call_method", "call_module"):
            child.op(node)
        elif node.op == "output":
            returned = [child.buffer_of(n) if isinstance(n, fx.Node) else None
                        for n in fx.node.map_arg(node.args[0], lambda n: n)]
    streams: list[dict[str, Any]] = child.streams.finish()
    rename = {b: r for b, r in zip(returned, results, strict=False) if isinstance(b, str) and isinstance(r, str)
              and b not in operands}
    for b, r in zip(returned, results, strict=False):
        if isinstance(b, str) and isinstance(r, str) and b in operands:  # a branch that returns its input
            streams[0]["tasks"].append({"seq": child.streams._seq, "type": "default", "kind": "memcpy"})
            child.streams._seq += 1
    events = {e: f"{name}_{e}" for e in child.streams.events}
    capture.extra_events.extend(events.values())
    for stream in streams:
        if not stream["name"].startswith(f"{name}_"):
            stream["name"] = f"{name}_{stream['name']}"
        for task in stream["tasks"]:
            if "args" in task:
                task["args"] = [rename.get(a, a) for a in task["args"]]
            if "event" in task:
                task["event"] = events[task["event"]]
    for old in rename:
        capture.buffers.pop(old, None)
    return streams


def renumber(model: dict[str, Any]) -> None:
    """Give every sub-model's tasks seqs after all of the model's (and of the sub-models before)."""
    top = max((t["seq"] for s in model["streams"] for t in s["tasks"]), default=-1) + 1
    for sub in model.get("submodels", []):
        seqs = [t["seq"] for s in sub["streams"] for t in s["tasks"]]
        base = top - min(seqs, default=0)
        for s in sub["streams"]:
            for t in s["tasks"]:
                t["seq"] += base
        top = max(seqs, default=-1) + base + 1

