"""The buffers an emitted entry needs besides params and cells, and how the runtime lays them
out: the feed-sync-all workspace, the profiling area and the progress area, each as whole 64-byte lines at a
64-aligned address (docs/design.md §5 "Memory layout").

```json
{"superkernel": "m_sk0", "slot": 8, "use": "workspace", "bytes": 2048, "align": 64}
```
"""

from __future__ import annotations

from typing import Any, cast

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import ModelOp
from skir.dialects.ascendc import SourceOp
from skir.dialects.ascendc_feed import FeedWorkspaceOp, ZeroWorkspaceOp
from skir.dialects.ascendc_profiling import ProfilingHelpersOp, ProfilingInitOp
from skir.dialects.ascendc_progress import ProgressOp
from skir.dialects.hardware import GM_LINE_BYTES, CoreType, line_bytes
from skir.dialects.superkernel import SuperKernelOp
from skir.xdsl_fast.walk import nested_ops

_BUFFER_OPS = frozenset((FeedWorkspaceOp, ZeroWorkspaceOp, ProfilingHelpersOp, ProfilingInitOp, ProgressOp))


def entry_buffer_sizes(source: SourceOp, sk: SuperKernelOp) -> tuple[tuple[int, int], ...]:
    """(slot, bytes) of the buffers an entry writes beyond a lock word: the feed-sync-all
    workspace it zeroes, the profiling area of every core and the progress area (a line per core
    of the launch, `debug-progress=1`)."""
    found: dict[int, int] = {}
    workspace = size = None
    per_core = aic_offset = None
    for op in nested_ops(source):
        if type(op) not in _BUFFER_OPS:
            continue
        if isinstance(op, ProgressOp):
            found[op.slot.value.data] = GM_LINE_BYTES * sum(sk.cores().values())
        elif isinstance(op, FeedWorkspaceOp):
            workspace = op.slot.value.data
        elif isinstance(op, ZeroWorkspaceOp):
            size = op.bytes.value.data
        elif isinstance(op, ProfilingHelpersOp):
            per_core, aic_offset = op.per_core.value.data, op.aic_offset.value.data
        elif isinstance(op, ProfilingInitOp) and per_core is not None and aic_offset is not None:
            cores = sk.cores()
            areas = max(aic_offset + cores[CoreType.AIC], cores[CoreType.AIV])
            found[op.slot.value.data] = 64 + areas * per_core
    if workspace is not None and size is not None:
        found[workspace] = size
    return tuple(sorted(found.items()))


def progress_slot(source: SourceOp) -> int | None:
    """The arg slot of the progress area the entry writes (`debug-progress=1`), if any."""
    return next((op.slot.value.data for op in nested_ops(source) if isinstance(op, ProgressOp)), None)


def entry_buffers(module: ModuleOp, model: ModelOp | None = None) -> list[dict[str, object]]:
    """Per emitted SuperKernel of `model` (the module's), the buffers its entry needs besides
    params and cells: the feed-sync-all workspace (`use: workspace`), the profiling area
    (`use: profiling`) and the progress area (`use: progress`)."""
    model = model if model is not None else next(op for op in module.ops if isinstance(op, ModelOp))
    sources = {op.sym_name.data: op for op in module.ops if isinstance(op, SourceOp)}
    found: list[dict[str, object]] = []
    for sk in model.body.block.ops:
        if isinstance(sk, SuperKernelOp) and sk.sym_name.data in sources:
            source = sources[sk.sym_name.data]
            buffers = entry_buffer_sizes(source, sk)
            feed = {op.slot.value.data for op in nested_ops(source) if isinstance(op, FeedWorkspaceOp)} \
                if buffers else set()
            progress = progress_slot(source)
            for slot, size in buffers:
                use = "progress" if slot == progress else "workspace" if slot in feed else "profiling"
                found.append({"superkernel": sk.sym_name.data, "slot": slot, "use": use, "bytes": size})
    return found


def workspaces(module: ModuleOp, model: ModelOp) -> list[dict[str, Any]]:
    """The workspaces of the model's entries as the runtime reserves them: whole 64-byte lines at
    a 64-aligned address (docs/design.md §5 "Memory layout")."""
    return [{**buffer, "bytes": line_bytes(cast(int, buffer["bytes"])), "align": GM_LINE_BYTES}
            for buffer in entry_buffers(module, model)]
