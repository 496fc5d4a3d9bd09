"""Where `select=gain` may cut a SuperKernel (docs/design.md §3, "Selection").

Formation takes a SuperKernel's members in a topological order of happens-before (lowest seq
first among the ready ones); a cut before member `c` of that order closes the SuperKernel there
and `c` starts the next one, so both parts are convex. Two kinds of cut are tried:

- `batch`: around each batch kernel (before it and after it). A batch kernel makes the
  SuperKernel take every core of its type (`SyncAll`), so the members beside it run on more
  blocks than they asked for, and the batch kernel alone may be better left unfused.
- `width`: where the hb width drops. The width of a member is 1 plus the number of members
  unordered with it (the work it could overlap with); a cut goes between consecutive members
  whose widths differ: where it drops after a wide region (its join) and, read backwards, where
  it drops before one (its fork), so a region of parallel work becomes a part of its own that
  selection judges alone (and may leave unfused, to run side by side as under aclgraph).

```python
points = cut_points(original_module, [(("s0", 3), ("s0", 5), ("s1", 7))])
points[members].batch, points[members].width      # the members to cut before
```
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from skir.analysis.graph.happens_before import HappensBefore
from skir.analysis.graph.task_graph import TaskGraph
from skir.dialects.aclgraph import LaunchOp
from skir.dialects.model_lookup import kernel_table, the_model

Member = tuple[str, int]
"""A kernel task by (stream, seq)."""


@dataclass(frozen=True)
class CutPoints:
    """The members of one SuperKernel before which each kind of cut goes (never its first)."""

    batch: tuple[Member, ...]
    width: tuple[Member, ...]

    def of(self, kind: str) -> tuple[Member, ...]:
        """The cut points of `kind` (`batch` or `width`)."""
        return {"batch": self.batch, "width": self.width}[kind]


def cut_points(original: ModuleOp, groups: Iterable[tuple[Member, ...]]) -> dict[tuple[Member, ...], CutPoints]:
    """The cut points of each group of members of `original` (an input model), one hb build for
    all of them; members not in the model are ignored."""
    model = the_model(original)
    graph = TaskGraph(model)
    hb = HappensBefore(graph)
    kernels = kernel_table(model)
    node_of = {(graph.streams[graph.stream_of[n]].sym_name.data, graph.seq[n]): n for n in range(len(graph))}
    rank = hb.seq_rank
    out: dict[tuple[Member, ...], CutPoints] = {}
    for members in groups:
        order = sorted((node_of[m] for m in members if m in node_of), key=rank.__getitem__)
        batch: list[Member] = []
        for i, n in enumerate(order):
            op = graph.ops[n]
            if isinstance(op, LaunchOp) and kernels[op.kernel.root_reference.data].is_batch:
                for j in (i, i + 1):
                    if 0 < j < len(order) and (not batch or batch[-1] != _member(graph, order[j])):
                        batch.append(_member(graph, order[j]))
        widths = _widths(graph, hb, order)
        width = [_member(graph, n) for i, n in enumerate(order) if i > 0 and widths[i] != widths[i - 1]]
        out[members] = CutPoints(tuple(batch), tuple(width))
    return out


def _widths(graph: TaskGraph, hb: HappensBefore, nodes: list[int]) -> list[int]:
    """For each of `nodes`: 1 + how many of the others are unordered with it by hb, counted per
    stream from its vector clocks (members before it, after it) with a bisection each."""
    on_stream: dict[int, list[int]] = {}
    for n in nodes:
        on_stream.setdefault(graph.stream_of[n], []).append(graph.pos[n])
    for positions in on_stream.values():
        positions.sort()
    out = []
    for n in nodes:
        last_before, first_after = hb.clock(n), hb.first_after(n)
        before = after = 0
        for s, positions in on_stream.items():
            before += bisect.bisect_right(positions, int(last_before[s]))
            after += len(positions) - bisect.bisect_left(positions, int(first_after[s]))
        out.append(len(nodes) - before - after + 2)  # `n` itself is counted both ways
    return out


def _member(graph: TaskGraph, n: int) -> Member:
    return graph.streams[graph.stream_of[n]].sym_name.data, graph.seq[n]
