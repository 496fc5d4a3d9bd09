"""The ACL types a plan applier passes through `ctypes`, laid out as `acl/acl_rt.h` declares them.

`test/unit/test_acl_layout.py` compiles a probe against the real headers (torch-npu's wheel) and
checks the size and every member offset used here, so a layout that drifts fails a test, not a
device. Handles (`aclmdlRI`, `aclrtStream`, `aclmdlRITask`, `aclrtFuncHandle`, `aclrtTaskGrp`,
...) are `void *`.

```python
params = AclTaskParams()
lib.aclmdlRITaskGetParams(task, ctypes.byref(params))
params.type == TASK_KERNEL and params.u.kernel.numBlocks
```
"""

from __future__ import annotations

import ctypes
from typing import Any

c_handle = ctypes.c_void_p

TASK_DEFAULT, TASK_KERNEL, TASK_EVENT_RECORD, TASK_EVENT_WAIT, TASK_EVENT_RESET, TASK_VALUE_WRITE, TASK_VALUE_WAIT = \
    range(7)
"""`aclmdlRITaskType`."""
TASK_TYPE_NAMES = ("default", "kernel", "event_record", "event_wait", "event_reset", "value_write", "value_wait")

MEMCPY_HOST_TO_DEVICE, MEMCPY_DEVICE_TO_HOST = 1, 2
"""`aclrtMemcpyKind`."""
MEM_MALLOC_HUGE_FIRST = 0
"""`aclrtMemMallocPolicy`."""
LAUNCH_ATTR_SCHEM_MODE = 1
"""`aclrtLaunchKernelAttrId`: the schedule mode (1: batch, every block resident at once)."""
ACL_SUCCESS = 0


class AclLaunchKernelAttrValue(ctypes.Union):
    _fields_ = [("schemMode", ctypes.c_uint8), ("dynUBufSize", ctypes.c_uint32), ("rsv", ctypes.c_uint32 * 4)]


class AclLaunchKernelAttr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("value", AclLaunchKernelAttrValue)]


class AclLaunchKernelCfg(ctypes.Structure):
    _fields_ = [("attrs", ctypes.POINTER(AclLaunchKernelAttr)), ("numAttrs", ctypes.c_size_t)]


class AclKernelTaskParams(ctypes.Structure):
    _fields_ = [("funcHandle", c_handle), ("cfg", ctypes.POINTER(AclLaunchKernelCfg)), ("args", c_handle),
                ("isHostArgs", ctypes.c_uint32), ("argsSize", ctypes.c_size_t), ("numBlocks", ctypes.c_uint32),
                ("rsv", ctypes.c_uint32 * 10)]


class AclEventTaskParams(ctypes.Structure):
    """`aclmdlRIEventRecordTaskParams` / `...WaitTaskParams` / `...ResetTaskParams`: one layout."""

    _fields_ = [("event", c_handle), ("eventFlag", ctypes.c_uint32), ("flag", ctypes.c_uint32)]


class AclValueWriteTaskParams(ctypes.Structure):
    _fields_ = [("devAddr", c_handle), ("value", ctypes.c_uint64)]


class AclValueWaitTaskParams(ctypes.Structure):
    _fields_ = [("devAddr", c_handle), ("value", ctypes.c_uint64), ("flag", ctypes.c_uint32)]


class AclTaskParamsUnion(ctypes.Union):
    _fields_ = [("rsv2", ctypes.c_uint8 * 128), ("kernel", AclKernelTaskParams), ("event_record", AclEventTaskParams),
                ("event_wait", AclEventTaskParams), ("event_reset", AclEventTaskParams),
                ("value_write", AclValueWriteTaskParams), ("value_wait", AclValueWaitTaskParams)]


class AclTaskParams(ctypes.Structure):
    """`aclmdlRITaskParams`."""

    _fields_ = [("type", ctypes.c_int), ("rsv0", ctypes.c_uint32 * 3), ("taskGrp", c_handle),
                ("opInfoPtr", c_handle), ("opInfoSize", ctypes.c_size_t), ("rsv1", ctypes.c_uint8 * 32),
                ("u", AclTaskParamsUnion)]

    def copy(self) -> AclTaskParams:
        out = AclTaskParams()
        ctypes.pointer(out)[0] = self
        return out


LAYOUT: dict[str, tuple[type[ctypes.Structure] | type[ctypes.Union], dict[str, str]]] = {
    "aclmdlRITaskParams": (AclTaskParams, {"type": "type", "taskGrp": "taskGrp", "opInfoPtr": "opInfoPtr",
                                           "opInfoSize": "opInfoSize", "kernelTaskParams": "u"}),
    "aclmdlRIKernelTaskParams": (AclKernelTaskParams, {f: f for f in ("funcHandle", "cfg", "args", "isHostArgs",
                                                                       "argsSize", "numBlocks")}),
    "aclmdlRIEventRecordTaskParams": (AclEventTaskParams, {"event": "event", "eventFlag": "eventFlag",
                                                           "recordFlag": "flag"}),
    "aclmdlRIEventWaitTaskParams": (AclEventTaskParams, {"event": "event", "eventFlag": "eventFlag",
                                                         "waitFlag": "flag"}),
    "aclmdlRIEventResetTaskParams": (AclEventTaskParams, {"event": "event", "eventFlag": "eventFlag",
                                                          "resetFlag": "flag"}),
    "aclmdlRIValueWriteTaskParams": (AclValueWriteTaskParams, {"devAddr": "devAddr", "value": "value"}),
    "aclmdlRIValueWaitTaskParams": (AclValueWaitTaskParams, {"devAddr": "devAddr", "value": "value", "flag": "flag"}),
    "aclrtLaunchKernelCfg": (AclLaunchKernelCfg, {"attrs": "attrs", "numAttrs": "numAttrs"}),
    "aclrtLaunchKernelAttr": (AclLaunchKernelAttr, {"id": "id", "value": "value"}),
}
"""Header struct -> (its ctypes type, header member -> ctypes field): what the layout probe checks
(sizes and offsets; the union's members all start at the union, `kernelTaskParams` at `u`)."""


def layout_of(ctype: Any, fields: dict[str, str]) -> tuple[int, dict[str, int]]:
    """(size, header member -> offset) of a ctypes type, for the probe's comparison."""
    return ctypes.sizeof(ctype), {member: getattr(ctype, field).offset for member, field in fields.items()}


SIGNATURES: dict[str, tuple[Any, ...]] = {
    "aclmdlRIGetStreams": (c_handle, ctypes.POINTER(c_handle), ctypes.POINTER(ctypes.c_uint32)),
    "aclmdlRIGetTasksByStream": (c_handle, ctypes.POINTER(c_handle), ctypes.POINTER(ctypes.c_uint32)),
    "aclmdlRITaskGetType": (c_handle, ctypes.POINTER(ctypes.c_int)),
    "aclmdlRITaskGetSeqId": (c_handle, ctypes.POINTER(ctypes.c_uint32)),
    "aclmdlRITaskGetParams": (c_handle, ctypes.POINTER(AclTaskParams)),
    "aclmdlRITaskSetParams": (c_handle, ctypes.POINTER(AclTaskParams)),
    "aclmdlRITaskDisable": (c_handle,),
    "aclmdlRIUpdate": (c_handle,),
    "aclrtBinaryLoadFromFile": (ctypes.c_char_p, c_handle, ctypes.POINTER(c_handle)),
    "aclrtBinaryGetFunction": (c_handle, ctypes.c_char_p, ctypes.POINTER(c_handle)),
    "aclrtBinaryUnLoad": (c_handle,),
    "aclrtGetFunctionName": (c_handle, ctypes.c_uint32, ctypes.c_char_p),
    "aclrtMalloc": (ctypes.POINTER(c_handle), ctypes.c_size_t, ctypes.c_int),
    "aclrtFree": (c_handle,),
    "aclrtMemset": (c_handle, ctypes.c_size_t, ctypes.c_int32, ctypes.c_size_t),
    "aclrtMemcpy": (c_handle, ctypes.c_size_t, c_handle, ctypes.c_size_t, ctypes.c_int),
}
"""The calls the applier makes, with their argument types (every one returns `aclError`, an int)."""
