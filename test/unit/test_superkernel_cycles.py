"""Two SuperKernels ordered both ways are a cycle once each is contracted to one node."""

from __future__ import annotations

import skir
from skir.analysis.superkernel_cycles import superkernel_on_cycle
from skir.analysis.task_graph import TaskGraph


def _graph() -> TaskGraph:
    kernel = {"type": "kernel", "kernel": "v", "blocks": 4, "args": ["a", "b"]}
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}},
            "streams": [{"name": "s0", "tasks": [{**kernel, "seq": 0}, {**kernel, "seq": 1}]},
                        {"name": "s1", "tasks": [{**kernel, "seq": 2}, {**kernel, "seq": 3}]}]}
    return TaskGraph(skir.load_model(data))


def test_ordered_both_ways_is_a_cycle() -> None:
    graph = _graph()  # nodes: s0 = 0, 1; s1 = 2, 3; only stream order
    first = {0: (0, 0), 1: (3, 3)}  # before the other on s0, after it on s1
    second = {0: (1, 1), 1: (2, 2)}
    assert superkernel_on_cycle(graph, [first, second], [0, 1]) == 1  # the one formed last
    assert superkernel_on_cycle(graph, [first, second], [5, 1]) == 0


def test_ordered_one_way_is_not() -> None:
    graph = _graph()
    assert superkernel_on_cycle(graph, [{0: (0, 0), 1: (2, 2)}, {0: (1, 1), 1: (3, 3)}], [0, 1]) is None
    assert superkernel_on_cycle(graph, [{0: (0, 1)}, {1: (2, 3)}], [0, 1]) is None
    assert superkernel_on_cycle(graph, [], []) is None
