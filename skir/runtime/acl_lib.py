"""The ACL calls of a plan applier, through `ctypes`, on `libascendcl.so` or skir's CPU model.

Every call is declared with the argument types of `acl/acl_rt.h` (`skir.runtime.acl_types`), and
a call that does not return `ACL_SUCCESS` raises `AclCallError` naming the call, its code and what
it was doing (`at`: the slot or object). The same object drives a device and the CPU model: only
the library differs (`open_library(path)`).

```python
acl = open_library()                         # libascendcl.so, found as the dynamic linker finds it
streams = acl.streams(model_ri)              # aclmdlRIGetStreams
tasks = acl.tasks(streams[0])                # aclmdlRIGetTasksByStream
acl.params(tasks[3]).u.kernel.numBlocks      # aclmdlRITaskGetParams
```
"""

from __future__ import annotations

import ctypes
from typing import Any

from skir.errors import ExitCode, SkirError
from skir.runtime.acl_types import (
    MEM_MALLOC_HUGE_FIRST,
    MEMCPY_DEVICE_TO_HOST,
    MEMCPY_HOST_TO_DEVICE,
    SIGNATURES,
    AclTaskParams,
    c_handle,
)

LIBRARY = "libascendcl.so"
"""The ACL runtime library of a CANN install (or torch_npu's environment)."""

EXTRA = {"aclrtGetHardwareSyncAddr": (ctypes.POINTER(c_handle),)}
"""Calls beyond `SIGNATURES` the applier makes: the FFTS / C2C control address of slot 0."""


class AclCallError(SkirError):
    """An ACL call that did not succeed: `call`, its `code`, and what it was doing (`at`)."""

    def __init__(self, call: str, code: int, at: str = "", why: str = ""):
        where = f" ({at})" if at else ""
        detail = f": {why}" if why else ""
        super().__init__(f"{call} failed with {code}{where}{detail}", ExitCode.BAD_INPUT)
        self.call, self.acl_code, self.at = call, code, at


class AclLibrary:
    """The ACL functions of one loaded library, typed (`SIGNATURES`)."""

    def __init__(self, lib: ctypes.CDLL, extra: dict[str, tuple[Any, ...]] | None = None):
        self.lib = lib
        self.fns: dict[str, Any] = {}
        for name, argtypes in {**SIGNATURES, **EXTRA, **(extra or {})}.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = list(argtypes), ctypes.c_int
            self.fns[name] = fn
        self.why = self._why_function()

    def _why_function(self) -> Any:
        """`skcpu_last_error` of the CPU model (the reason of a refused call); a device has none."""
        fn = getattr(self.lib, "skcpu_last_error", None)
        if fn is not None:
            fn.argtypes, fn.restype = [], ctypes.c_char_p
        return fn

    def __call__(self, name: str, *args: Any, at: str = "") -> None:
        code = self.fns[name](*args)
        if code != 0:
            why = self.why().decode("utf-8", "replace") if self.why is not None else ""
            raise AclCallError(name, code, at, why)

    # ---- introspection ----------------------------------------------------------------------

    def _listed(self, call: str, handle: Any, at: str) -> list[int]:
        """A list the runtime fills (streams of a model, tasks of a stream): asked with a growing
        array until it fits, whichever way the runtime answers an array that is too small."""
        size = 256
        while True:
            array = (c_handle * size)()
            count = ctypes.c_uint32(size)
            code = self.fns[call](handle, array, ctypes.byref(count))
            if code == 0 and count.value < size:
                return [array[i] or 0 for i in range(count.value)]
            if code != 0 and count.value <= size:
                why = self.why().decode("utf-8", "replace") if self.why is not None else ""
                raise AclCallError(call, code, at, why)
            size = max(size * 2, count.value + 1)

    def streams(self, model_ri: int) -> list[int]:
        return self._listed("aclmdlRIGetStreams", model_ri, "the model's streams")

    def tasks(self, stream: int, at: str = "") -> list[int]:
        return self._listed("aclmdlRIGetTasksByStream", stream, at)

    def task_type(self, task: int, at: str = "") -> int:
        value = ctypes.c_int()
        self("aclmdlRITaskGetType", task, ctypes.byref(value), at=at)
        return value.value

    def seq_id(self, task: int, at: str = "") -> int:
        value = ctypes.c_uint32()
        self("aclmdlRITaskGetSeqId", task, ctypes.byref(value), at=at)
        return value.value

    def params(self, task: int, at: str = "") -> AclTaskParams:
        out = AclTaskParams()
        self("aclmdlRITaskGetParams", task, ctypes.byref(out), at=at)
        return out

    def function_name(self, func: int, at: str = "") -> str:
        buffer = ctypes.create_string_buffer(1024)
        self("aclrtGetFunctionName", func, len(buffer), buffer, at=at)
        return buffer.value.decode("utf-8", "replace")

    # ---- memory and binaries ------------------------------------------------------------------

    def malloc(self, size: int, at: str = "") -> int:
        ptr = c_handle()
        self("aclrtMalloc", ctypes.byref(ptr), size, MEM_MALLOC_HUGE_FIRST, at=at)
        assert ptr.value is not None
        return ptr.value

    def to_device(self, ptr: int, data: bytes, at: str = "") -> None:
        buffer = ctypes.create_string_buffer(data, len(data))
        self("aclrtMemcpy", ptr, len(data), buffer, len(data), MEMCPY_HOST_TO_DEVICE, at=at)

    def from_device(self, ptr: int, size: int, at: str = "") -> bytes:
        buffer = ctypes.create_string_buffer(size)
        self("aclrtMemcpy", buffer, size, ptr, size, MEMCPY_DEVICE_TO_HOST, at=at)
        return buffer.raw

    def load_binary(self, path: str, at: str = "") -> int:
        handle = c_handle()
        self("aclrtBinaryLoadFromFile", path.encode(), None, ctypes.byref(handle), at=at)
        assert handle.value is not None
        return handle.value

    def get_function(self, binary: int, name: str, at: str = "") -> int:
        handle = c_handle()
        self("aclrtBinaryGetFunction", binary, name.encode(), ctypes.byref(handle), at=at)
        assert handle.value is not None
        return handle.value

    def hardware_sync_addr(self) -> int:
        ptr = c_handle()
        self("aclrtGetHardwareSyncAddr", ctypes.byref(ptr), at="the FFTS address of argument slot 0")
        return ptr.value or 0


def open_library(path: str | None = None, extra: dict[str, tuple[Any, ...]] | None = None) -> AclLibrary:
    """The ACL functions of `path` (default `libascendcl.so`); a library that cannot be loaded, or
    lacks a call, is a `MissingToolError`-like one-line error."""
    from skir.errors import MissingToolError

    try:
        lib = ctypes.CDLL(path or LIBRARY)
        return AclLibrary(lib, extra)
    except (OSError, AttributeError) as err:
        raise MissingToolError(f"cannot use the ACL runtime {path or LIBRARY}: {err}") from None
