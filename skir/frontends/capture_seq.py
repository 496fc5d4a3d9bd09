"""Capture order for a capture JSON model without `seq` (docs/design.md §8).

Repeatedly take the next task of the lowest-index stream whose next task is not an
`event_wait` with no record yet in its epoch (a reset starts a new epoch; external waits
never block), and whose `stream_active` task, if some task activates it, has been taken. A
heap of ready streams, re-checked when popped, and streams parked on the event they wait for
(or until their activation) keep it O(V log S).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any, NoReturn

from xdsl.ir import Attribute

from skir.dialects.aclgraph import RecordOp, ResetOp, StreamActiveOp, TaskOp, WaitOp

_OTHER, _RECORD, _WAIT, _RESET, _ACTIVE = 0, 1, 2, 3, 4

Tasks = list[list[tuple[type[TaskOp], dict[str, Attribute], Any]]]


def simulate_capture(tasks: Tasks, fail: Callable[[str, str], NoReturn],
                     names: list[str] | None = None) -> list[list[int]]:
    """The seq of every task (stream by stream); `fail(path, message)` if capture cannot finish.
    `names`: the streams' names, which `stream_active` tasks refer to."""
    codes = {RecordOp: _RECORD, WaitOp: _WAIT, ResetOp: _RESET, StreamActiveOp: _ACTIVE}
    index = {name: s for s, name in enumerate(names or ())}
    plan: list[list[tuple[int, Any, bool]]] = [
        [(codes.get(cls, _OTHER), props.get("stream") if cls is StreamActiveOp else props.get("event"),
          "external" in props) for cls, props, _ in stream] for stream in tasks]
    """Per stream: (kind code, the event or stream referred to (a SymbolRefAttr), external)."""
    seqs: list[list[int]] = [[0] * len(stream) for stream in plan]
    pos = [0] * len(plan)
    activated = {index[ref.root_reference.data] for stream in plan for code, ref, _ in stream
                 if code == _ACTIVE and ref.root_reference.data in index}
    heap = [s for s, stream in enumerate(plan) if stream and s not in activated]
    parked: dict[Any, list[int]] = {}
    recorded: set[Any] = set()
    counter = 0
    while heap:
        s = heap[0]
        i = pos[s]
        if i == len(plan[s]):
            heapq.heappop(heap)
            continue
        code, event, external = plan[s][i]
        if code == _WAIT and not external and event not in recorded:
            heapq.heappop(heap)
            parked.setdefault(event, []).append(s)
            continue
        seqs[s][i] = counter
        counter += 1
        if code == _RECORD:
            if event not in recorded:
                recorded.add(event)
                for other in parked.pop(event, ()):
                    heapq.heappush(heap, other)
        elif code == _RESET:
            recorded.discard(event)
        elif code == _ACTIVE and (target := index.get(event.root_reference.data)) is not None:
            heapq.heappush(heap, target)  # the capture continues on the activated stream
        pos[s] = i + 1
    for s, stream in enumerate(plan):
        if pos[s] < len(stream) and stream[pos[s]][0] != _WAIT:
            fail(f"streams[{s}].tasks[{pos[s]}]",
                 "the stream is never activated in the simulated capture: its stream_active task never "
                 "runs; activate it from a stream that does, or give every task a seq")
        if pos[s] < len(stream):
            event = stream[pos[s]][1].root_reference.data
            fail(f"streams[{s}].tasks[{pos[s]}]",
                      f"event_wait on '{event}' can never run in the simulated capture: no "
                      f"event_record of '{event}' comes first in its epoch and every other stream "
                      "is blocked too; record the event before the wait, or give every task a seq")
    return seqs
