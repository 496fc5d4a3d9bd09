"""Capture-order task lists per stream, with the events that cross-stream tensor uses need.

Tasks are appended in the order the model runs its ops (capture order), each on the stream
it was marked with; every task gets the next `seq`. Before a task that reads or writes a
buffer last written (or, for a write, read) by a task on another stream, an `event_record`
is appended to that stream and an `event_wait` to this one — unless this stream already
waited for a record that covers the task, directly or through a third stream. So

```
s0: A(writes x)                      s0: A  record e0           B
s1:              C(reads x)    ->    s1:              wait e0   C
```

At the end every other stream joins the first one (a record there, a wait on the first
stream), and the first stream resets every event, as a captured graph must before replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Record:
    """An event record: its name, its index on its stream, and what that stream had waited for."""

    event: str
    index: int
    seen: dict[str, int]


@dataclass
class StreamCapture:
    """Streams under construction; `main` is the first stream, where joins and resets go."""

    main: str = "s0"
    tasks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)
    _seq: int = 0
    _seen: dict[str, dict[str, int]] = field(default_factory=dict)
    """stream -> other stream -> index of the last task of it this stream has waited for."""
    _last_record: dict[str, _Record] = field(default_factory=dict)
    _writer: dict[str, tuple[str, int]] = field(default_factory=dict)
    """buffer -> (stream, index) of its last writer."""
    _readers: dict[str, dict[str, int]] = field(default_factory=dict)
    """buffer -> stream -> index of its last reader since the last write."""

    def __post_init__(self) -> None:
        self._stream(self.main)

    def _stream(self, name: str) -> list[dict[str, Any]]:
        if name not in self.tasks:
            self.tasks[name] = []
            self._seen[name] = {}
        return self.tasks[name]

    def append(self, stream: str, task: dict[str, Any]) -> int:
        """Append `task` to `stream` with the next seq; returns its index on the stream."""
        queue = self._stream(stream)
        queue.append({"seq": self._seq, **task})
        self._seq += 1
        return len(queue) - 1

    def wait_for(self, stream: str, other: str, index: int) -> None:
        """Order task `index` of stream `other` before whatever `stream` appends next."""
        self._stream(stream)
        if other == stream or self._seen[stream].get(other, -1) >= index:
            return
        record = self._last_record.get(other)
        if record is None or record.index <= index:
            event = f"e{len(self.events)}"
            self.events.append(event)
            seen = dict(self._seen[other])
            record = _Record(event, self.append(other, {"type": "event_record", "event": event}), seen)
            self._last_record[other] = record
        self.append(stream, {"type": "event_wait", "event": record.event})
        mine = self._seen[stream]
        mine[other] = max(mine.get(other, -1), record.index - 1)
        for third, position in record.seen.items():
            if third != stream:
                mine[third] = max(mine.get(third, -1), position)

    def data_task(self, stream: str, task: dict[str, Any], reads: list[str], writes: list[str],
                  prefix: list[dict[str, Any]] | None = None) -> None:
        """Append a task that reads and writes the named buffers, after the waits it needs (and
        after `prefix`, tasks that must come right before it: an updated kernel's group wait)."""
        for buffer in reads:
            if buffer in self._writer:
                self.wait_for(stream, *self._writer[buffer])
        for buffer in writes:
            if buffer in self._writer:
                self.wait_for(stream, *self._writer[buffer])
            for other, index in self._readers.get(buffer, {}).items():
                self.wait_for(stream, other, index)
        for before in prefix or ():
            self.append(stream, before)
        index = self.append(stream, task)
        for buffer in reads:
            self._readers.setdefault(buffer, {})[stream] = index
        for buffer in writes:
            self._writer[buffer] = (stream, index)
            self._readers[buffer] = {}

    def finish(self) -> list[dict[str, Any]]:
        """Join every stream into the main one, reset every event; the streams for capture JSON."""
        for name, queue in list(self.tasks.items()):
            if name != self.main and queue:
                self.wait_for(self.main, name, len(queue) - 1)
        for event in self.events:
            self.append(self.main, {"type": "event_reset", "event": event})
        return [{"name": name, "tasks": queue} for name, queue in self.tasks.items() if queue]
