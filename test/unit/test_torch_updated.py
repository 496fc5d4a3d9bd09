"""torch_npu's fused attention given per-step sequence lengths -> an updated kernel (docs/design.md
§3 "Updated kernels"): its task group and `update args`, behind the external wait and reset the
capture puts right before it on its stream. Read back by hand from the capture JSON; compiled,
it stays `dynamic_task` by default and fuses with `fuse-updated=1`."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import skir  # noqa: E402
import skir.frontends.torch.npu_ops  # noqa: E402
from skir.frontends.torch import capture_dict  # noqa: E402


class Decode(torch.nn.Module):
    def __init__(self, lengths: list[int] | None) -> None:
        super().__init__()
        self.lengths = lengths
        self.qkv = torch.nn.Parameter(torch.randn(64, 192))
        self.up = torch.nn.Parameter(torch.randn(64, 64))

    def forward(self, x: Any, k_cache: Any, v_cache: Any) -> Any:
        q = (x @ self.qkv)[..., :64]
        kwargs = {} if self.lengths is None else {"actual_seq_lengths": self.lengths}
        a, _ = torch.ops.npu.npu_fused_infer_attention_score(q, k_cache, v_cache, num_heads=4, input_layout="BSH",
                                                              **kwargs)
        return torch.relu(a @ self.up)


INPUTS = (torch.randn(1, 8, 64), torch.randn(1, 32, 64), torch.randn(1, 32, 64))


def _stream(data: dict[str, Any]) -> list[dict[str, Any]]:
    (stream,) = data["streams"]
    return stream["tasks"]  # type: ignore[no-any-return]


def test_per_step_lengths_make_an_updated_kernel_behind_its_external_wait() -> None:
    data = capture_dict(Decode([8]), *INPUTS, name="dec")
    tasks = _stream(data)
    i = next(i for i, t in enumerate(tasks) if t.get("kernel") == "npu_fused_infer_attention_score")
    fia, reset, wait = tasks[i], tasks[i - 1], tasks[i - 2]
    assert (fia["task_group"], fia["update"]) == (1, "args")
    # by hand: the external wait, then its reset, right before the kernel on its stream
    assert wait == {"seq": wait["seq"], "type": "event_wait", "event": "update1", "external": True}
    assert reset == {"seq": reset["seq"], "type": "event_reset", "event": "update1"}
    assert "update1" in data["events"]


def test_without_lengths_attention_is_a_plain_kernel() -> None:
    tasks = _stream(capture_dict(Decode(None), *INPUTS, name="dec"))
    assert not any("task_group" in t or t["type"].startswith("event") for t in tasks)


def test_fuse_updated_fuses_the_attention_and_proves_it() -> None:
    data = capture_dict(Decode([8]), *INPUTS, name="dec")
    plain = skir.compile(data).check()
    assert [(u.kernel, u.reason) for u in plain.fail_reasons if u.reason == "dynamic_task"] == [
        ("npu_fused_infer_attention_score", "dynamic_task")]
    fused = skir.compile(data, options="fuse-updated=1").check().write(emulate=shutil.which("g++") is not None)
    assert len(fused.superkernels) == 1 and not fused.fail_reasons and fused.proof.ok
    assert [(g, sk) for g, _, _, sk in fused.updates] == [(1, "dec_sk0")]
    assert all(e.ok and "forwarding 1 update" in e.verdict for e in fused.emulation)
