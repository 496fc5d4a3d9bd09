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


def test_a_wait_before_every_record_of_its_epoch() -> None:
    """An event recorded twice: s0 waits for it, then records it; s1 records it too. Under
    aclgraph s1's record releases the wait. A SuperKernel launched on s0 after the wait that
    holds s1's task before its record puts both records after the wait."""
    kernel = {"type": "kernel", "kernel": "v", "blocks": 4, "args": ["a", "b"]}
    record, wait = {"type": "event_record", "event": "e"}, {"type": "event_wait", "event": "e"}
    s0 = [{**kernel, "seq": 0}, {**wait, "seq": 5}, {**record, "seq": 6}, {**kernel, "seq": 7}]
    s1 = [{**kernel, "seq": 3}, {**record, "seq": 4}]
    data = {"format": "skir.aclgraph.capture", "version": 1, "model": "m", "cores": {"aic": 24, "aiv": 48},
            "kernels": {"v": {"kernel_type": "aiv_only", "params": ["in", "out"]}}, "events": ["e"],
            "streams": [{"name": "s0", "tasks": s0}, {"name": "s1", "tasks": s1}]}
    graph = TaskGraph(skir.load_model(data))  # s0 = 0..3 (1: the wait, 2: a record), s1 = 4, 5 (5: a record)
    assert superkernel_on_cycle(graph, [{0: (3, 3), 1: (4, 4)}], [0]) == 0
    assert superkernel_on_cycle(graph, [{0: (0, 0), 1: (4, 4)}], [0]) is None  # launched before the wait
    assert superkernel_on_cycle(graph, [{0: (3, 3)}], [0]) is None  # s1's record stays free
