"""skir's CPU model of the ACL runtime: built, loaded, and filled with a captured model.

`cpu_library()` compiles `cpu_model/*.cpp` against the real ACL headers (`acl_headers`) into a
shared library, cached by a hash of its sources, the headers and the compiler, and loads it as an
`AclLibrary`, the type the applier drives a device with. `load_graph(cpu, module, work)` builds a
model runtime instance of an aclgraph module through the ACL calls a framework makes
(`aclmdlRIBuildBegin` / `aclmdlRIBindStream`, then per task in seq order `aclrtLaunchKernel`,
`aclrtRecordEvent`, `aclrtStreamWaitEvent`, `aclrtResetEvent`, `aclrtValueWrite` /
`aclrtValueWait`, `aclrtMemcpyAsync` for the runtime's own tasks, task groups between
`aclmdlRICaptureTaskGrpBegin` and `...End`, a condition task `aclmdlRIAddCondTask`, whose
sub-models are instances of their own): every kernel a function of a stand-in ELF object, every
buffer, cell and event a device allocation or handle of its own. `skir.runtime.cpu_writer` reads
the model back.

```python
cpu = cpu_library()
graph = load_graph(cpu, skir.load_model("examples/decode_layer.json"), work_dir)
apply(cpu, graph.model_ri, "out/decode_layer", object_dir=host_objects)
```
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from skir.dialects.aclgraph import (
    CondOp,
    LaunchOp,
    ModelOp,
    RecordOp,
    ResetOp,
    StreamOp,
    TaskOp,
    ValueWaitOp,
    ValueWriteOp,
    WaitOp,
)
from skir.dialects.aclgraph_decls import BufferOp, CellOp, EventOp, KernelOp
from skir.dialects.model_lookup import the_model
from skir.errors import MissingToolError, SkirError
from skir.runtime.acl_headers import include_dir
from skir.runtime.acl_lib import AclLibrary
from skir.runtime.acl_types import AclTaskParams, c_handle
from skir.targets.runtime_identity import ARG_BYTES, MARKER_FUNCTIONS, function_name

SOURCES = ("acl_cpu_state.h", "acl_cpu_model.cpp", "acl_cpu_capture.cpp", "acl_cpu_tasks.cpp")
HERE = Path(__file__).resolve().parent / "cpu_model"

COND_TYPES = {"if": 0, "while": 1, "switch": 2}
"""`aclmdlRICondTaskType` of each condition kind."""


class AclCondTaskParams(ctypes.Structure):
    """`aclmdlRICondTaskParams` (passed by value to `aclmdlRIAddCondTask`)."""

    _fields_ = [("handle", c_handle), ("type", ctypes.c_int), ("size", ctypes.c_uint32),
                ("modelRIArray", ctypes.POINTER(c_handle))]


LOADER = {
    "aclrtCreateStream": (ctypes.POINTER(c_handle),),
    "aclrtCreateEventWithFlag": (ctypes.POINTER(c_handle), ctypes.c_uint32),
    "aclrtRecordEvent": (c_handle, c_handle),
    "aclrtStreamWaitEvent": (c_handle, c_handle),
    "aclrtResetEvent": (c_handle, c_handle),
    "aclrtValueWrite": (c_handle, ctypes.c_uint64, ctypes.c_uint32, c_handle),
    "aclrtValueWait": (c_handle, ctypes.c_uint64, ctypes.c_uint32, c_handle),
    "aclrtLaunchKernel": (c_handle, ctypes.c_uint32, c_handle, ctypes.c_size_t, c_handle),
    "aclrtMemcpyAsync": (c_handle, ctypes.c_size_t, c_handle, ctypes.c_size_t, ctypes.c_int, c_handle),
    "aclmdlRIBuildBegin": (ctypes.POINTER(c_handle), ctypes.c_uint32),
    "aclmdlRIBindStream": (c_handle, c_handle, ctypes.c_uint32),
    "aclmdlRIBuildEnd": (c_handle, c_handle),
    "aclmdlRICaptureBegin": (c_handle, ctypes.c_int),
    "aclmdlRICaptureEnd": (c_handle, ctypes.POINTER(c_handle)),
    "aclmdlRICaptureTaskGrpBegin": (c_handle,),
    "aclmdlRICaptureTaskGrpEnd": (c_handle, ctypes.POINTER(c_handle)),
    "aclmdlRICaptureTaskUpdateBegin": (c_handle, c_handle),
    "aclmdlRICaptureTaskUpdateEnd": (c_handle,),
    "aclmdlRIExecuteAsync": (c_handle, c_handle),
    "aclmdlRICondHandleCreate": (c_handle, ctypes.c_uint32, ctypes.c_int, ctypes.POINTER(c_handle)),
    "aclmdlRIAddCondTask": (AclCondTaskParams, c_handle, ctypes.c_uint32),
    "aclmdlRIDestroy": (c_handle,),
}
"""The calls of a capture (and of a replay) that the loader and the integration make."""
MEMCPY_DEVICE_TO_DEVICE = 3
WAIT_RULES = ("geq", "eq", "and", "nor")
"""`aclrtValueWait` flags in order."""


class CpuModel(AclLibrary):
    """The CPU model as an `AclLibrary`, with its own `skcpu_` functions."""

    def __init__(self, lib: ctypes.CDLL):
        super().__init__(lib, LOADER)
        for name, argtypes, restype in (
            ("skcpu_fail_call", (ctypes.c_char_p, ctypes.c_uint32), ctypes.c_int),
            ("skcpu_call_count", (ctypes.c_char_p,), ctypes.c_uint32),
            ("skcpu_task_state", (c_handle, ctypes.c_int, ctypes.POINTER(AclTaskParams), ctypes.POINTER(ctypes.c_int)),
             ctypes.c_int),
            ("skcpu_model_updates", (c_handle,), ctypes.c_uint32),
            ("skcpu_outstanding", (), ctypes.c_size_t),
        ):
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = list(argtypes), restype

    def fail_call(self, call: str, nth: int) -> None:
        """Fail call number `nth` (from now) of `call` with ACL_ERROR_FAILURE; 0: no fault."""
        if call not in self.fns:
            raise SkirError(f"--inject-fault: {call} is no ACL call the applier or the loader makes")
        self.lib.skcpu_fail_call(call.encode(), nth)

    def calls(self, call: str) -> int:
        return int(self.lib.skcpu_call_count(call.encode()))

    def state(self, task: int, which: int) -> tuple[AclTaskParams, bool]:
        """A task's parameters and disabled flag: 0 staged, 1 committed (what runs), 2 as captured."""
        params, disabled = AclTaskParams(), ctypes.c_int()
        if self.lib.skcpu_task_state(task, which, ctypes.byref(params), ctypes.byref(disabled)) != 0:
            raise SkirError("the CPU model knows no such task")
        return params, bool(disabled.value)

    def updates(self, model_ri: int) -> int:
        return int(self.lib.skcpu_model_updates(model_ri))

    def outstanding(self) -> int:
        return int(self.lib.skcpu_outstanding())


_LOADED: dict[str, CpuModel] = {}


def _compiler() -> str:
    cxx = os.environ.get("CXX", "g++")
    if shutil.which(cxx) is None:
        raise MissingToolError(f"the CPU runtime model needs a C++ compiler: {cxx} is not on PATH (set CXX)")
    return cxx


def build(include: Path | None = None) -> Path:
    """The CPU model's shared library (built when its sources, the headers or the compiler changed)."""
    include = include or include_dir()
    cxx = _compiler()
    h = hashlib.sha256(subprocess.run([cxx, "--version"], capture_output=True, text=True, check=False).stdout.encode())
    for name in SOURCES:
        h.update((HERE / name).read_bytes())
    for header in sorted((include / "acl").rglob("*.h")):
        h.update(header.read_bytes())
    base = os.environ.get("SKIR_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "skir")
    target = Path(base) / "cpu_model" / f"libskir_acl_cpu_{h.hexdigest()[:16]}.so"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    sources = [str(HERE / n) for n in SOURCES if n.endswith(".cpp")]
    done = subprocess.run([cxx, "-std=c++17", "-O1", "-Wall", "-Werror", "-fPIC", "-shared", f"-I{include}", "-o",
                           str(tmp), *sources], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        first = next((ln for ln in done.stderr.splitlines() if "error" in ln), done.stderr.strip()[:300])
        raise SkirError(f"building the CPU runtime model failed: {first}")
    os.replace(tmp, target)
    return target


def cpu_library(include: Path | None = None) -> CpuModel:
    """The CPU model, built if needed and loaded once per process."""
    path = str(build(include))
    if path not in _LOADED:
        _LOADED[path] = CpuModel(ctypes.CDLL(path))
    return _LOADED[path]


@dataclass
class LoadedGraph:
    """A model runtime instance the loader built from `module`, and its names."""

    module: ModuleOp
    model_ri: int
    streams: list[int]
    buffers: dict[int, str] = field(default_factory=dict)
    """Device address -> buffer name."""
    cells: dict[int, str] = field(default_factory=dict)
    events: dict[int, str] = field(default_factory=dict)
    functions: dict[int, str] = field(default_factory=dict)
    """Function handle -> the kernel symbol (or marker kind) it stands for."""
    groups: dict[int, int] = field(default_factory=dict)
    """Task group handle -> the model's group id."""
    model: ModelOp | None = None
    """The model this instance holds (a sub-model's own; None: the module's model)."""
    submodels: dict[str, LoadedGraph] = field(default_factory=dict)
    """Sub-model name -> its instance (`aclmdlRIAddCondTask`'s `modelRIArray`), at every depth."""

    def the_model(self) -> ModelOp:
        return self.model or the_model(self.module)


@dataclass
class _Context:
    """What every (sub-)model of one load shares: functions, addresses, the copy tasks' scratch."""

    kernels: dict[str, KernelOp]
    functions: dict[str, int]
    addresses: dict[str, int]
    scratch: int


def _stand_in_object(work: Path, names: list[str]) -> Path:
    """An ELF object that defines one function per kernel: what the loader's launches run."""
    source, obj = work / "kernels.c", work / "kernels.o"
    source.write_text("".join(f"void {name}(void) {{}}\n" for name in names))
    done = subprocess.run([os.environ.get("CC", "gcc"), "-c", str(source), "-o", str(obj)], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SkirError(f"compiling the kernels' stand-in object failed: {done.stderr.strip()[:300]}")
    return obj


def load_graph(cpu: CpuModel, module: ModuleOp, work: Path) -> LoadedGraph:
    """Build the model runtime instance of `module` in the CPU model (see the module docstring);
    each sub-model of a condition task is an instance of its own, from `aclmdlRIAddCondTask`."""
    model = the_model(module)
    work.mkdir(parents=True, exist_ok=True)
    kernels = {op.sym_name.data: op for op in model.body.block.ops if isinstance(op, KernelOp)}
    names = sorted({function_name(k) for k in kernels.values()} | set(MARKER_FUNCTIONS.values()))
    binary = cpu.load_binary(str(_stand_in_object(work, names)), at="the kernels' stand-in object")
    by_name = {name: cpu.get_function(binary, name) for name in names}
    ri = c_handle()
    cpu("aclmdlRIBuildBegin", ctypes.byref(ri), 0, at="loading the model")
    graph = LoadedGraph(module, ri.value or 0, [])
    graph.functions = {handle: name for name, handle in by_name.items()}
    addresses: dict[str, int] = {}
    for op in model.body.block.ops:
        if isinstance(op, BufferOp | CellOp):
            size = op.size.data if isinstance(op, BufferOp) and op.size is not None else 64
            addresses[op.sym_name.data] = addr = cpu.malloc(max(size, 64), at=f"@{op.sym_name.data}")
            (graph.cells if isinstance(op, CellOp) else graph.buffers)[addr] = op.sym_name.data
        elif isinstance(op, EventOp):
            event = c_handle()
            cpu("aclrtCreateEventWithFlag", ctypes.byref(event), 1, at=f"@{op.sym_name.data}")
            addresses[op.sym_name.data] = event.value or 0
            graph.events[event.value or 0] = op.sym_name.data
    context = _Context(kernels, by_name, addresses, cpu.malloc(64, at="the copy tasks' scratch"))
    _fill(cpu, graph, graph, model, context)
    return graph


def _fill(cpu: CpuModel, top: LoadedGraph, graph: LoadedGraph, model: ModelOp, context: _Context) -> None:
    """Bind `model`'s streams to `graph`'s instance, issue its tasks in seq order, end the build."""
    streams = [op for op in model.body.block.ops if isinstance(op, StreamOp)]
    handles = {}
    for op in streams:
        stream = c_handle()
        cpu("aclrtCreateStream", ctypes.byref(stream), at=f"@{op.sym_name.data}")
        cpu("aclmdlRIBindStream", graph.model_ri, stream, 0, at=f"@{op.sym_name.data}")
        handles[op.sym_name.data] = stream.value or 0
        graph.streams.append(stream.value or 0)
    order = sorted(((t.seq.data, s.sym_name.data, t) for s in streams for t in s.body.block.ops
                    if isinstance(t, TaskOp)), key=lambda item: item[0])
    open_groups: dict[str, int] = {}  # stream -> the id of its open task group
    seen_groups: dict[int, int] = {}
    for seq, stream_name, task in order:
        _group(cpu, graph, open_groups, seen_groups, stream_name, handles[stream_name], task)
        if isinstance(task, CondOp):
            _cond(cpu, top, graph, task, handles[stream_name], context, f"@{stream_name} seq {seq}")
        else:
            _issue(cpu, task, handles[stream_name], context, f"@{stream_name} seq {seq}")
    for stream_name, _ in list(open_groups.items()):
        _close_group(cpu, graph, open_groups, seen_groups, stream_name, handles[stream_name])
    top.groups.update(graph.groups)
    cpu("aclmdlRIBuildEnd", graph.model_ri, None, at=f"loading @{model.sym_name.data}")


def _cond(cpu: CpuModel, top: LoadedGraph, graph: LoadedGraph, task: CondOp, stream: int, context: _Context,
          at: str) -> None:
    """A condition task (`aclmdlRIAddCondTask`), then each of its sub-models built into the
    instance the call returned."""
    subs = task.submodels()
    handle = c_handle()
    cpu("aclmdlRICondHandleCreate", graph.model_ri, 0, 0, ctypes.byref(handle), at=at)
    array = (c_handle * len(subs))()
    params = AclCondTaskParams(handle.value, COND_TYPES[task.cond_kind.value], len(subs), array)
    cpu("aclmdlRIAddCondTask", params, stream, 0, at=at)
    for i, sub in enumerate(subs):
        loaded = LoadedGraph(graph.module, array[i] or 0, [], graph.buffers, graph.cells, graph.events,
                             graph.functions, {}, sub)
        top.submodels[sub.sym_name.data] = loaded
        _fill(cpu, top, loaded, sub, context)


def _group(cpu: CpuModel, graph: LoadedGraph, open_groups: dict[str, int], seen: dict[int, int],
           stream_name: str, stream: int, task: TaskOp) -> None:
    """Open or close the stream's task group around `task`: each run of one group id on one stream
    is one `aclmdlRICaptureTaskGrpBegin .. End`, as a capture makes it (its own handle)."""
    group = task.group
    current = open_groups.get(stream_name)
    if current is not None and current != group:
        _close_group(cpu, graph, open_groups, seen, stream_name, stream)
        current = None
    if group is not None and current is None:  # a group id met again later is another capture group
        cpu("aclmdlRICaptureTaskGrpBegin", stream, at=f"task group {group}")
        open_groups[stream_name] = group


def _close_group(cpu: CpuModel, graph: LoadedGraph, open_groups: dict[str, int], seen: dict[int, int],
                 stream_name: str, stream: int) -> None:
    group = open_groups.pop(stream_name)
    handle = c_handle()
    cpu("aclmdlRICaptureTaskGrpEnd", stream, ctypes.byref(handle), at=f"task group {group}")
    seen[group] = handle.value or 0
    graph.groups[handle.value or 0] = group


def _issue(cpu: CpuModel, task: TaskOp, stream: int, context: _Context, at: str) -> None:
    """The capture call that makes `task` a task of the model."""
    kernels, functions, addresses, scratch = context.kernels, context.functions, context.addresses, context.scratch
    if isinstance(task, LaunchOp):
        kernel = kernels[task.kernel.root_reference.data]
        args = [addresses[a.root_reference.data] for a in task.args] if task.args is not None else []
        args += [0] * (kernel.num_params - len(args))
        data = b"".join(w.to_bytes(ARG_BYTES, "little") for w in args)
        buffer = ctypes.create_string_buffer(data, len(data)) if data else None
        cpu("aclrtLaunchKernel", functions[function_name(kernel)], task.blocks.data, buffer, len(data), stream, at=at)
    elif type(task) in MARKER_FUNCTIONS:
        cpu("aclrtLaunchKernel", functions[MARKER_FUNCTIONS[type(task)]], 1, None, 0, stream, at=at)
    elif isinstance(task, RecordOp | WaitOp | ResetOp):
        event = addresses[task.event.root_reference.data]
        if isinstance(task, WaitOp):
            cpu("aclrtStreamWaitEvent", stream, event, at=at)
        else:
            cpu("aclrtRecordEvent" if isinstance(task, RecordOp) else "aclrtResetEvent", event, stream, at=at)
    elif isinstance(task, ValueWriteOp):
        cpu("aclrtValueWrite", addresses[task.cell.root_reference.data], task.value.data, 0, stream, at=at)
    elif isinstance(task, ValueWaitOp):
        cpu("aclrtValueWait", addresses[task.cell.root_reference.data], task.value.data,
            WAIT_RULES.index(task.rule.data.value), stream, at=at)
    else:  # the runtime's own tasks (copies, aicpu, stream activation, conditions): default tasks
        cpu("aclrtMemcpyAsync", scratch, 8, scratch + 8, 8, MEMCPY_DEVICE_TO_DEVICE, stream, at=at)


__all__ = ["CpuModel", "LoadedGraph", "build", "cpu_library", "load_graph"]
