"""Data dependence between kernel tasks from param roles and buffer args (`sync-mode=data`).

A launch reads its `in`, `inout` and `tiling` args and writes its `out`, `inout` and
`workspace` args. Two launches are *independent* when neither writes a buffer the other
reads or writes (no RAW, WAR or WAW); buffers with different names are disjoint. A kernel
without param roles, or a launch without args, is dependent on everything.

```
aclgraph.kernel @scale aiv_only params(inout)
aclgraph.launch seq 5 @scale blocks 8 args(@y)     // reads and writes @y
aclgraph.launch seq 6 @scale blocks 8 args(@z)     // independent of seq 5
```
"""

from __future__ import annotations

from dataclasses import dataclass

from skir.dialects.aclgraph import LaunchOp, StreamOp, TaskOp
from skir.dialects.aclgraph_decls import KernelOp
from skir.dialects.aclgraph_enums import ParamRole

_READS = (ParamRole.IN, ParamRole.INOUT, ParamRole.TILING)
_WRITES = (ParamRole.OUT, ParamRole.INOUT, ParamRole.WORKSPACE)


@dataclass(frozen=True)
class Access:
    """The buffers one launch reads and writes."""

    reads: frozenset[str]
    writes: frozenset[str]

    def independent(self, other: Access) -> bool:
        return not (self.writes & (other.reads | other.writes) or other.writes & self.reads)


def launch_access(launch: LaunchOp, kernel: KernelOp) -> Access | None:
    """What `launch` reads and writes, or None when its roles or args are unknown."""
    roles = kernel.roles
    if roles is None or launch.args is None or len(launch.args) != len(roles):
        return None
    args = [a.root_reference.data for a in launch.args]
    return Access(
        frozenset(b for b, r in zip(args, roles, strict=True) if r in _READS),
        frozenset(b for b, r in zip(args, roles, strict=True) if r in _WRITES),
    )


def launches_by_seq(streams: list[StreamOp]) -> dict[int, LaunchOp]:
    """Every kernel launch of the model by seq, including those a rewrite keeps in `was`."""
    found: dict[int, LaunchOp] = {}
    for stream in streams:
        for op in stream.body.block.ops:
            task: TaskOp | None = op
            if not isinstance(op, LaunchOp):
                was = getattr(op, "was_task", None)
                task = was() if was is not None else None
            if isinstance(task, LaunchOp):
                found[task.seq.data] = task
    return found
