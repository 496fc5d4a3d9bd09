"""A serving process's side of skir: capture a step on an NPU stream, export the captured graph
as skir's input, apply skir's products to it, replay it, forward its per-step updates.

```python
import torch, torch_npu                                   # on a device
from skir.runtime.acl_lib import open_library
from skir.runtime.serving import CapturedGraph

acl = open_library()                                      # libascendcl.so
stream = torch.npu.current_stream().npu_stream            # the handle torch_npu's public Stream exposes
with CapturedGraph(acl, stream) as graph:                 # aclmdlRICaptureBegin .. aclmdlRICaptureEnd
    out = model(x)                                        # the step's launches, now tasks of the graph
capture = graph.export(kernel_types)                      # skir's capture JSON, read through ACL
# offline: sk-compile capture.json -o OUT && sh OUT/<sk>/build.sh OBJDIR  (once per deployment)
graph.apply("OUT")                                        # skir.runtime.acl: checked, then rewritten
graph.replay(stream)                                      # aclmdlRIExecuteAsync
```

Every call is a public ACL call (`acl/acl_rt.h`), so the same code runs on skir's CPU model of the
runtime, which the tests drive it with. `export` reads what the runtime knows of each task (type,
sequence id, function name, blocks, arguments as opaque 64-bit words, events and value addresses
by handle, task groups); a kernel's type is not among it, so the caller gives each function's
kernel type (`kernel_types`: function name -> `aiv_only`, `mix_aic_1_2`, ..., from the operators'
compile information).
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from typing import Any

from skir.errors import SkirError
from skir.runtime.acl import AppliedPlan, apply
from skir.runtime.acl_lib import AclLibrary
from skir.runtime.acl_types import (
    TASK_EVENT_RECORD,
    TASK_EVENT_RESET,
    TASK_EVENT_WAIT,
    TASK_KERNEL,
    TASK_VALUE_WAIT,
    TASK_VALUE_WRITE,
    c_handle,
)
from skir.targets.runtime_identity import MARKER_FUNCTIONS

CAPTURE_MODE_RELAXED = 2
"""`aclmdlRICaptureMode`: RELAXED, as torch_npu's graphs capture."""
SERVING_CALLS = {
    "aclmdlRICaptureBegin": (c_handle, ctypes.c_int),
    "aclmdlRICaptureEnd": (c_handle, ctypes.POINTER(c_handle)),
    "aclmdlRICaptureTaskUpdateBegin": (c_handle, c_handle),
    "aclmdlRICaptureTaskUpdateEnd": (c_handle,),
    "aclmdlRIExecuteAsync": (c_handle, c_handle),
    "aclmdlRIDestroy": (c_handle,),
}
_MARKERS = {name: op.__name__ for op, name in MARKER_FUNCTIONS.items()}
_WAIT_RULES = ("geq", "eq", "and", "nor")


class CapturedGraph:
    """One captured step (see the module docstring). Use as a context manager around the step."""

    def __init__(self, acl: AclLibrary, stream: int):
        for name in SERVING_CALLS:
            if name not in acl.fns:
                raise SkirError(f"the ACL library lacks {name}: open it with extra=SERVING_CALLS")
        self.acl, self.stream, self.model_ri = acl, stream, 0
        self.applied: AppliedPlan | None = None

    def __enter__(self) -> CapturedGraph:
        self.acl("aclmdlRICaptureBegin", self.stream, CAPTURE_MODE_RELAXED, at="beginning the capture")
        return self

    def __exit__(self, *exc: object) -> None:
        handle = c_handle()
        self.acl("aclmdlRICaptureEnd", self.stream, ctypes.byref(handle), at="ending the capture")
        self.model_ri = handle.value or 0

    def export(self, kernel_types: dict[str, str], name: str = "captured", cores: tuple[int, int] = (24, 48),
               group_update: str = "launch") -> dict[str, Any]:
        """The captured graph as skir's capture JSON (format v1), read through ACL."""
        return export_graph(self.acl, self.model_ri, kernel_types, name, cores, group_update)

    def apply(self, out_dir: str | os.PathLike[str], object_dir: str | os.PathLike[str] | None = None) -> AppliedPlan:
        """Apply sk-compile's OUT to the graph (`skir.runtime.acl.apply`)."""
        self.applied = apply(self.acl, self.model_ri, out_dir, object_dir=object_dir)
        return self.applied

    def replay(self, stream: int | None = None) -> None:
        self.acl("aclmdlRIExecuteAsync", self.model_ri, stream or self.stream, at="replaying the graph")

    def update(self, group: int, reissue: Callable[[], None], stream: int | None = None) -> None:
        """Re-capture task group `group` (its handle) with `reissue` (the step's launches of that
        group, with this step's arguments), then forward the new arguments into the SuperKernels
        that absorbed members of the group (`fuse-updated=1`)."""
        on = stream or self.stream
        self.acl("aclmdlRICaptureTaskUpdateBegin", on, group, at="updating a task group")
        reissue()
        self.acl("aclmdlRICaptureTaskUpdateEnd", on, at="updating a task group")
        if self.applied is not None:
            self.applied.forward_updates()

    def destroy(self) -> None:
        """Destroy the graph, then free what the applier allocated."""
        self.acl("aclmdlRIDestroy", self.model_ri, at="destroying the graph")
        if self.applied is not None:
            self.applied.release()


def export_graph(acl: AclLibrary, model_ri: int, kernel_types: dict[str, str], name: str,
                 cores: tuple[int, int] = (24, 48), group_update: str = "launch") -> dict[str, Any]:
    """A captured model runtime instance as capture JSON: streams `s<i>` in `aclmdlRIGetStreams`
    order, each task with its sequence id as `seq`; a kernel per function name (its params the
    task's argument words, opaque), an argument word a buffer `a<hex address>`, events and value
    addresses by first appearance (`e0`, `c0`, ...; an event waited on but recorded by no task is
    external), a task group per handle (1, 2, ... as they first appear, each `group_update`:
    `launch`, or `args` when the serving stack's updates change arguments only); the runtime's own
    tasks `default`. The vendor's marker kernels are skir's scope markers and placeholders
    (unnamed). `cores`: the device's (AIC, AIV) cores."""
    kernels: dict[str, Any] = {}
    events: dict[int, str] = {}
    cells: dict[int, str] = {}
    buffers: set[str] = set()
    groups: dict[int, int] = {}
    streams: list[dict[str, Any]] = []
    for index, stream in enumerate(acl.streams(model_ri)):
        tasks: list[dict[str, Any]] = []
        for task in acl.tasks(stream, at=f"stream {index}"):
            seq = acl.seq_id(task)
            params = acl.params(task, at=f"stream {index} seq id {seq}")
            out: dict[str, Any] = {"seq": seq}
            if params.type == TASK_KERNEL:
                function = acl.function_name(params.u.kernel.funcHandle)
                if function in _MARKERS:
                    marker = _MARKERS[function]
                    out["type"] = {"ScopeBeginOp": "scope_begin", "ScopeEndOp": "scope_end"}.get(marker, "placeholder")
                    if out["type"] != "placeholder":
                        out["scope"] = None
                else:
                    if function not in kernel_types:
                        raise SkirError(f"stream {index} seq id {seq}: no kernel type given for function {function}")
                    k = params.u.kernel
                    words = [int.from_bytes(acl.from_device(k.args, k.argsSize)[i:i + 8], "little")
                             for i in range(0, k.argsSize - 7, 8)] if k.argsSize and not k.isHostArgs else []
                    kernels.setdefault(function, {"kernel_type": kernel_types[function], "params": len(words)})
                    args = [f"a{w:x}" for w in words]
                    buffers.update(args)
                    out.update(type="kernel", kernel=function, blocks=k.numBlocks, args=args)
            elif params.type in (TASK_EVENT_RECORD, TASK_EVENT_WAIT, TASK_EVENT_RESET):
                event = params.u.event_record.event or 0
                out.update(type={TASK_EVENT_RECORD: "event_record", TASK_EVENT_WAIT: "event_wait",
                                 TASK_EVENT_RESET: "event_reset"}[params.type],
                           event=events.setdefault(event, f"e{len(events)}"))
            elif params.type in (TASK_VALUE_WRITE, TASK_VALUE_WAIT):
                value = params.u.value_write if params.type == TASK_VALUE_WRITE else params.u.value_wait
                cell = cells.setdefault(value.devAddr or 0, f"c{len(cells)}")
                out.update(type="value_write" if params.type == TASK_VALUE_WRITE else "value_wait", cell=cell,
                           value=value.value)
                if params.type == TASK_VALUE_WAIT:
                    out["rule"] = _WAIT_RULES[params.u.value_wait.flag]
            else:
                out.update(type="default", kind="other")
            if params.taskGrp:
                out["task_group"] = groups.setdefault(params.taskGrp, len(groups) + 1)
                out["update"] = group_update
            tasks.append(out)
        streams.append({"name": f"s{index}", "tasks": tasks})
    every: list[dict[str, Any]] = [t for s in streams for t in s["tasks"]]
    recorded = {t["event"] for t in every if t["type"] == "event_record"}
    for t in every:
        if t["type"] in ("event_wait", "event_reset") and t["event"] not in recorded:
            t["external"] = True  # recorded outside the graph (the framework's per-step event)
    return {"format": "skir.aclgraph.capture", "version": 1, "model": name,
            "cores": {"aic": cores[0], "aiv": cores[1]},
            "kernels": kernels, "buffers": dict.fromkeys(sorted(buffers)), "events": list(events.values()),
            "cells": list(cells.values()), "streams": streams}
