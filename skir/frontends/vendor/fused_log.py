"""Reading `sk_fused_nodes.log`: the members of each vendor SuperKernel, by node identity.

The log has one block per SuperKernel, a header and one line per member kernel, each member
named by its identity in the graph the vendor read (`sk_graph_origin.json`, which is the model
skir compiles):

```
SK Function: sk_0__start_RmsNorm_end_MatMulV2, scope id: 0, Node Count: 2
[0] [nodeId:1, streamId:5, streamIdxInGraph:0, nodeIdxInStream:1] - KernelInfos{funcName:RmsNorm, ...}
[1] [nodeId:4, streamId:7, streamIdxInGraph:1, nodeIdxInStream:1] - KernelInfos{funcName:MatMulV2, ...}
```

A member is matched to a kernel task of the original model by that identity: `nodeId` is the
task's seq, `streamIdxInGraph` the index of its stream, `nodeIdxInStream` its index in the
stream. Names play no part (the updated dump's slots launch the vendor's entry kernels, whose
names are not the log's). A member that matches no kernel task is a warning located at its log
line (`sk_fused_nodes.log:12: warning: ...`), never a silent disagreement.

```python
blocks, warnings = read_fused_log(text, "sk_fused_nodes.log", TaskIdentity.of(model))
blocks[0].members     # [("s0", 1), ("s1", 4)]
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from skir.dialects.aclgraph import LaunchOp, ModelOp, StreamOp, TaskOp

_HEAD = re.compile(r"SK Function:\s*([^,]*),\s*scope id:\s*(-?\d+)")
_FIELDS = {key: re.compile(rf"\b{key}:\s*(-?\d+)") for key in ("nodeId", "streamIdxInGraph", "nodeIdxInStream")}


class VendorLogWarning(UserWarning):
    """A line of the vendor's logs that matches nothing of the model (`sk_fused_nodes.log:12: ...`)."""


@dataclass(frozen=True)
class TaskIdentity:
    """Each task of a model by seq: (stream index, index in stream, stream name, is a kernel launch)."""

    by_seq: dict[int, tuple[int, int, str, bool]]
    streams: list[str]

    @staticmethod
    def of(model: ModelOp) -> TaskIdentity:
        streams = [op for op in model.body.block.ops if isinstance(op, StreamOp)]
        by_seq: dict[int, tuple[int, int, str, bool]] = {}
        for si, stream in enumerate(streams):
            name = stream.sym_name.data
            tasks = [op for op in stream.body.block.ops if isinstance(op, TaskOp)]
            for index, task in enumerate(tasks):
                by_seq[task.seq.data] = (si, index, name, isinstance(task, LaunchOp))
        return TaskIdentity(by_seq, [s.sym_name.data for s in streams])


@dataclass
class LogBlock:
    """One `SK Function` block of the log."""

    line: int
    name: str
    scope_id: int
    members: list[tuple[str, int]] = field(default_factory=list)
    """The kernel tasks of the model its member lines name, as (stream, seq)."""


def read_fused_log(text: str, log: str, tasks: TaskIdentity) -> tuple[list[LogBlock], list[str]]:
    """The log's blocks with their members matched to `tasks`, and the located warnings."""
    blocks: list[LogBlock] = []
    warnings: list[str] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        head = _HEAD.search(line)
        if head is not None:
            blocks.append(LogBlock(lineno, head.group(1).strip(), int(head.group(2))))
            continue
        ident = line.split(" - ", 1)[0]
        values = {key: (int(m.group(1)) if (m := rx.search(ident)) else None) for key, rx in _FIELDS.items()}
        seq = values["nodeId"]
        if seq is None:
            continue  # not a member line
        where = f"{log}:{lineno}: warning: "
        if not blocks:
            warnings.append(f"{where}member nodeId {seq} before any 'SK Function' line: left out")
            continue
        problem = _mismatch(seq, values["streamIdxInGraph"], values["nodeIdxInStream"], tasks)
        if problem is not None:
            warnings.append(f"{where}member nodeId {seq} matches no kernel task of the model ({problem}); left out "
                            "of the comparison")
            continue
        blocks[-1].members.append((tasks.by_seq[seq][2], seq))
    return blocks, warnings


def _mismatch(seq: int, stream: int | None, index: int | None, tasks: TaskIdentity) -> str | None:
    """Why the log's (nodeId, streamIdxInGraph, nodeIdxInStream) is no kernel task, or None."""
    found = tasks.by_seq.get(seq)
    if found is None:
        return f"no task has seq {seq}"
    si, at, name, launch = found
    if stream is None:
        return "the line gives no streamIdxInGraph"
    if stream != si:
        return f"seq {seq} is on stream index {si} (@{name}), the log says {stream}"
    if index is not None and index != at:
        return f"seq {seq} is task {at} of @{name}, the log says nodeIdxInStream {index}"
    if not launch:
        return f"seq {seq} on @{name} is not a kernel launch"
    return None
