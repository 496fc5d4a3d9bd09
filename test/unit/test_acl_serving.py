"""A serving process's flow (`skir.runtime.serving`) on skir's CPU model of the ACL runtime: a step
captured on two streams with the ACL capture calls, exported as capture JSON through ACL, compiled,
applied, replayed; a per-step update of its attention group forwarded into the SuperKernel; and
the CPU model's own contracts, each refused as the headers document.

On a device the same code runs on libascendcl.so (docs/device.md); what only a device shows is
there."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import skir
from skir.errors import SkirError
from skir.runtime.acl_lib import AclCallError
from skir.runtime.acl_types import AclTaskParams, c_handle

pytestmark = pytest.mark.skipif(
    not os.environ.get("SKIR_ACL_INCLUDE") or shutil.which("g++") is None,
    reason="needs the ACL headers (make acl-headers sets SKIR_ACL_INCLUDE) and g++")

FUNCTIONS = ("rms_norm", "qkv", "attention", "o_proj", "rope_k")
TYPES = {"rms_norm": "aiv_only", "qkv": "mix_aic_1_2", "attention": "mix_aic_1_1", "o_proj": "aic_only",
         "rope_k": "aiv_only"}


class Step:
    """What a framework holds for one decode step: streams, events, buffers, the kernels' binary."""

    def __init__(self, cpu: Any, work: Path):
        self.cpu = cpu
        source, obj = work / "ops.c", work / "ops.o"
        source.write_text("".join(f"void {f}(void) {{}}\n" for f in FUNCTIONS))
        subprocess.run(["gcc", "-c", str(source), "-o", str(obj)], check=True)
        binary = cpu.load_binary(str(obj))
        self.fn = {f: cpu.get_function(binary, f) for f in FUNCTIONS}
        self.s0, self.s1 = self._stream(), self._stream()
        self.fork, self.join, self.update_event = self._event(), self._event(), self._event()
        self.buf = {name: cpu.malloc(4096) for name in ("x", "w", "h", "q", "k", "cache", "attn", "out", "attn2")}
        self.group = 0

    def _stream(self) -> int:
        handle = c_handle()
        self.cpu("aclrtCreateStream", ctypes.byref(handle))
        return handle.value or 0

    def _event(self) -> int:
        handle = c_handle()
        self.cpu("aclrtCreateEventWithFlag", ctypes.byref(handle), 1)
        return handle.value or 0

    def launch(self, function: str, blocks: int, args: list[str], stream: int) -> None:
        words = b"".join(self.buf[a].to_bytes(8, "little") for a in args)
        self.cpu("aclrtLaunchKernel", self.fn[function], blocks, ctypes.create_string_buffer(words, len(words)),
                 len(words), stream)

    def forward(self, attn_out: str = "attn") -> None:
        """The step: norm and qkv on s0, rope on s1 beside it, attention (updated every step, in a
        task group behind the framework's external event) and the projection on s0."""
        cpu = self.cpu
        self.launch("rms_norm", 48, ["x", "w", "h"], self.s0)
        self.launch("qkv", 24, ["h", "w", "q"], self.s0)
        cpu("aclrtRecordEvent", self.fork, self.s0)
        cpu("aclrtStreamWaitEvent", self.s1, self.fork)  # s1 joins the capture
        self.launch("rope_k", 8, ["q", "k"], self.s1)
        cpu("aclrtRecordEvent", self.join, self.s1)
        cpu("aclrtStreamWaitEvent", self.s0, self.join)
        cpu("aclrtStreamWaitEvent", self.s0, self.update_event)  # the framework's per-step update event,
        cpu("aclrtResetEvent", self.update_event, self.s0)       # waited and reset before the group
        cpu("aclmdlRICaptureTaskGrpBegin", self.s0)
        self.launch("attention", 24, ["q", "k", "cache", attn_out], self.s0)
        group = c_handle()
        cpu("aclmdlRICaptureTaskGrpEnd", self.s0, ctypes.byref(group))
        self.group = group.value or 0
        self.launch("o_proj", 24, [attn_out, "w", "out"], self.s0)
        cpu("aclrtResetEvent", self.fork, self.s0)
        cpu("aclrtResetEvent", self.join, self.s0)


@pytest.fixture(scope="module")
def cpu() -> Any:
    from skir.runtime.cpu_model import cpu_library

    return cpu_library()


def test_capture_export_compile_apply_replay_update(cpu: Any, tmp_path: Path) -> None:
    from skir.runtime.cpu_apply import host_objects
    from skir.runtime.serving import CapturedGraph

    step = Step(cpu, tmp_path)
    with CapturedGraph(cpu, step.s0) as graph:
        step.forward()
    capture = graph.export(TYPES, name="step", group_update="args")
    assert [len(s["tasks"]) for s in capture["streams"]] == [10, 3]  # s0 captured first; s1 joined on the wait
    (tmp_path / "step.json").write_text(json.dumps(capture))
    result = skir.compile(tmp_path / "step.json", "fuse-updated=1").check().write(tmp_path / "out")
    assert result.superkernels and result.updates  # attention fused, its update forwarded by the plan
    applied = graph.apply(tmp_path / "out", object_dir=host_objects(tmp_path / "out", tmp_path / "objects"))
    graph.replay()  # aclmdlRIExecuteAsync: committed, every launched binary loaded
    # the per-step update: attention re-issued writing attn2; the SuperKernel's table takes the new words
    [update] = applied.plan["updates"]
    table, _ = applied.tables[update["superkernel"]]
    graph.update(step.group, lambda: step.launch("attention", 24, ["q", "k", "cache", "attn2"], step.s0))
    words = cpu.from_device(table, 8 * (max(update["slots"]) + 1))
    forwarded = [int.from_bytes(words[8 * s:8 * s + 8], "little") for s in update["slots"]]
    assert forwarded == [step.buf[a] for a in ("q", "k", "cache", "attn2")]  # by hand, from the re-issue
    # the re-capture replaced only the group's own (disabled) task: the host slot still launches the entry
    [sk] = applied.plan["superkernels"]
    host = applied.tasks[(sk["host"]["stream"], sk["host"]["seq"])]
    assert cpu.function_name(cpu.params(host).u.kernel.funcHandle) == sk["entry"]
    graph.replay()
    graph.destroy()


def _ended_model(cpu: Any, tmp_path: Path) -> tuple[Step, Any, int]:
    from skir.runtime.serving import CapturedGraph

    step = Step(cpu, tmp_path)
    with CapturedGraph(cpu, step.s0) as graph:
        step.forward()
    return step, graph, cpu.tasks(cpu.streams(graph.model_ri)[0])[0]


def test_the_cpu_model_enforces_the_documented_contracts(cpu: Any, tmp_path: Path) -> None:
    step, graph, first = _ended_model(cpu, tmp_path)
    params = cpu.params(first)
    # a kernel task needs a function of a loaded binary, and args it can read
    bad = params.copy()
    bad.u.kernel.funcHandle = 12345
    with pytest.raises(AclCallError, match="funcHandle is no function of a loaded binary"):
        cpu("aclmdlRITaskSetParams", first, ctypes.byref(bad))
    bad = params.copy()
    bad.u.kernel.args, bad.u.kernel.isHostArgs = 0x10, 0
    with pytest.raises(AclCallError, match="device args do not lie in one device allocation"):
        cpu("aclmdlRITaskSetParams", first, ctypes.byref(bad))
    bad = params.copy()
    bad.taskGrp = step.group
    with pytest.raises(AclCallError, match="taskGrp must stay the task's own group"):
        cpu("aclmdlRITaskSetParams", first, ctypes.byref(bad))
    # a disabled task cannot be set; disabling twice is refused
    cpu("aclmdlRITaskDisable", first)
    with pytest.raises(AclCallError, match="a disabled task cannot be set"):
        cpu("aclmdlRITaskSetParams", first, ctypes.byref(params.copy()))
    with pytest.raises(AclCallError, match="disabled already"):
        cpu("aclmdlRITaskDisable", first)
    # staged changes do not run: execute refuses them until aclmdlRIUpdate
    with pytest.raises(AclCallError, match="staged changes: call aclmdlRIUpdate"):
        graph.replay()
    cpu("aclmdlRIUpdate", graph.model_ri)
    graph.replay()
    assert cpu.state(first, 1)[1] and not cpu.state(first, 2)[1]  # committed disabled; captured as it was


def test_parameters_wait_for_the_end_of_the_capture(cpu: Any, tmp_path: Path) -> None:
    step = Step(cpu, tmp_path)
    cpu("aclmdlRICaptureBegin", step.s0, 2)
    step.launch("rms_norm", 48, ["x", "w", "h"], step.s0)
    ri = c_handle()
    # the model exists only through its stream while capturing: its tasks are not readable yet
    status = ctypes.c_int()
    cpu.lib.aclmdlRICaptureGetInfo.argtypes = [c_handle, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(c_handle)]
    assert cpu.lib.aclmdlRICaptureGetInfo(step.s0, ctypes.byref(status), ctypes.byref(ri)) == 0 and status.value == 1
    [task] = cpu.tasks(step.s0)
    with pytest.raises(AclCallError, match="the capture has not ended"):
        cpu.params(task)
    with pytest.raises(AclCallError, match="aclmdlRIUpdate: no ended capture"):
        cpu("aclmdlRIUpdate", ri.value)
    end = c_handle()
    cpu("aclmdlRICaptureEnd", step.s0, ctypes.byref(end))
    assert cpu.params(task).u.kernel.numBlocks == 48


def test_an_update_must_reissue_the_groups_kernel_as_captured(cpu: Any, tmp_path: Path) -> None:
    step, _, _ = _ended_model(cpu, tmp_path)
    cpu("aclmdlRICaptureTaskUpdateBegin", step.s0, step.group)
    with pytest.raises(AclCallError, match="re-issue the group's kernel with its function and argument size"):
        step.launch("attention", 24, ["q", "k", "cache"], step.s0)  # one argument short
    step.launch("attention", 24, ["q", "k", "cache", "attn2"], step.s0)
    cpu("aclmdlRICaptureTaskUpdateEnd", step.s0)
    cpu("aclmdlRICaptureTaskUpdateBegin", step.s0, step.group)
    with pytest.raises(AclCallError, match="were not all re-issued"):
        cpu("aclmdlRICaptureTaskUpdateEnd", step.s0)


def test_an_export_needs_every_kernels_type(cpu: Any, tmp_path: Path) -> None:
    _, graph, _ = _ended_model(cpu, tmp_path)
    with pytest.raises(SkirError, match="no kernel type given for function rope_k"):
        graph.export({k: v for k, v in TYPES.items() if k != "rope_k"})
    params = AclTaskParams()
    assert params.type == 0
