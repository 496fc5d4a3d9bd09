"""The update map: where a runtime writes the re-issued parameters of a fused updated kernel
(docs/design.md §3 "Updated kernels", §5).

A kernel of a task group that updates its arguments only (`task_group N update args`) may join a
SuperKernel under `fuse-updated=1`. Before each replay the runtime re-issues its parameters; it
must then write them into the SuperKernel's argument-table slots that came from that kernel's
task arguments. SK meta and `plan.json` list one entry per such member:

```json
{"task_group": 3, "stream": "s1", "seq": 6, "superkernel": "m_sk0", "slots": [6, 7]}
```

`slots[i]` holds the kernel's argument `i` (0 is the anonymous group of a capture that said
`"task_group": true`).
"""

from __future__ import annotations

from typing import Any

from skir.dialects.aclgraph import ModelOp
from skir.dialects.model_lookup import updated_launches

Json = dict[str, Any]


def update_map(model: ModelOp, superkernels: list[Json]) -> list[Json]:
    """One entry per fused updated member of `superkernels` (SK meta entries, with `members`
    and `args`), in SuperKernel then member order."""
    launches = updated_launches(model)
    out: list[Json] = []
    for sk in superkernels:
        for member in sk["members"]:
            launch = launches.get((member["stream"], member["seq"]))
            if launch is None:
                continue
            slots = [a["slot"] for a in sk["args"] if a["source"] == "task" and a["stream"] == member["stream"]
                     and a["seq"] == member["seq"]]
            out.append({"task_group": launch.group, "stream": member["stream"], "seq": member["seq"],
                        "superkernel": sk["name"], "slots": sorted(slots, key=lambda s: _arg_of(sk, s))})
    return out


def fused_updates(model: ModelOp) -> list[tuple[int, str, int, str]]:
    """(task group, stream, seq, SuperKernel) of every fused updated member, for the summary."""
    from skir.dialects.superkernel import SuperKernelOp

    launches = updated_launches(model)
    return [(launches[(s.stream.root_reference.data, s.seq.data)].group or 0, s.stream.root_reference.data,
             s.seq.data, op.sym_name.data)
            for op in model.body.block.ops if isinstance(op, SuperKernelOp)
            for s in op.subtasks() if (s.stream.root_reference.data, s.seq.data) in launches]


def _arg_of(sk: Json, slot: int) -> int:
    return int(sk["args"][slot]["arg"])
