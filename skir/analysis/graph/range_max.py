"""Range-maximum queries over per-stream task values (a sparse table per stream).

Built once in O(V log V), each query is O(1): `max(values[lo..hi])` on one stream.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from skir.analysis.graph.task_graph import TaskGraph


class RangeMax:
    """Per stream, per column, the maximum of task values over a position range."""

    def __init__(self, tables: list[list[np.ndarray]]):
        self.tables = tables

    @classmethod
    def per_stream(cls, graph: TaskGraph, value: Callable[[int], tuple[int, ...]]) -> RangeMax:
        """Tables of `value(node)` (a tuple of ints) for every stream of `graph`."""
        tables: list[list[np.ndarray]] = []
        for s in range(len(graph.streams)):
            nodes = graph.stream_nodes(s)
            if not nodes:
                tables.append([])
                continue
            base = np.array([value(n) for n in nodes], dtype=np.int64)
            levels = [base]
            width = 1
            while 2 * width <= len(nodes):
                prev = levels[-1]
                levels.append(np.maximum(prev[:-width], prev[width:]))
                width *= 2
            tables.append(levels)
        return cls(tables)

    def query(self, stream: int, lo: int, hi: int) -> tuple[int, ...]:
        """The column maxima over positions lo..hi (inclusive) of `stream`; zeros when empty."""
        levels = self.tables[stream]
        if hi < lo or not levels:
            return (0, 0)
        k = (hi - lo + 1).bit_length() - 1
        row = np.maximum(levels[k][lo], levels[k][hi - (1 << k) + 1])
        return tuple(int(v) for v in row)
