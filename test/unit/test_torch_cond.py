"""`torch.cond` -> a condition task with its branches as sub-models (docs/design.md §3
"Conditional sub-models"): each branch's ops become the sub-model's kernel tasks, reading the
operands' buffers and writing the condition's results, which the model's later ops read. Checked
by reading the capture JSON by hand, and by compiling, proving and emulating it."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import skir  # noqa: E402
from skir.frontends.torch import capture_dict  # noqa: E402


class Branchy(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Linear(16, 16)
        self.b = torch.nn.Linear(16, 16)

    def forward(self, x: Any, flag: Any) -> Any:
        h = torch.relu(x)

        def then_fn(h: Any) -> Any:
            return torch.relu(self.a(h) * 2)

        def else_fn(h: Any) -> Any:
            return torch.sigmoid(self.b(h))

        return torch.cond(flag.sum() > 0, then_fn, else_fn, (h,)) + 1


def _tasks(data: dict[str, Any], where: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for s in where for t in s["tasks"]]


def test_torch_cond_becomes_a_condition_task_with_two_sub_models() -> None:
    data = capture_dict(Branchy(), torch.randn(4, 16), torch.ones(3), name="br")
    (cond,) = [t for t in _tasks(data, data["streams"]) if t["type"] == "cond"]
    assert cond["kind"] == "if" and cond["cell"] in data["cells"]
    assert cond["submodels"] == [s["name"] for s in data["submodels"]] == ["cond0_then", "cond0_else"]
    then_b, else_b = (_tasks(data, s["streams"]) for s in data["submodels"])
    assert [t["kernel"] for t in then_b] == ["linear", "mul", "relu"]
    assert [t["kernel"] for t in else_b] == ["linear", "sigmoid"]
    parent = _tasks(data, data["streams"])
    after = parent[parent.index(cond) + 1]
    # by hand: both branches write the one buffer the op after the condition reads
    result = after["args"][0]
    assert then_b[-1]["args"][-1] == else_b[-1]["args"][-1] == result
    relu = next(t for t in parent if t.get("kernel") == "relu")
    assert then_b[0]["args"][0] == else_b[0]["args"][0] == relu["args"][-1]  # the operand's buffer
    seqs = [t["seq"] for t in parent + then_b + else_b]
    assert len(seqs) == len(set(seqs))


def test_the_branches_form_prove_and_emulate() -> None:
    data = capture_dict(Branchy(), torch.randn(4, 16), torch.ones(3), name="br")
    result = skir.compile(data).check().write(emulate=shutil.which("g++") is not None)
    names = sorted(sk.name for sk in result.superkernels)
    assert names == ["br_cond0_else_sk0", "br_cond0_then_sk0", "br_sk0"] and result.proof.ok
    assert [(u.kernel, u.reason) for u in result.fail_reasons] == [("add", "default_node")]
    assert all(e.ok for e in result.emulation)
