"""Random PyTorch programs (ops, streams, scopes) through the front end, the pipeline and sk-check."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import skir  # noqa: E402
from skir.frontends import capture as capture_json  # noqa: E402
from skir.frontends.torch import capture_dict, register_op  # noqa: E402
from skir.testing.capture_order import check_writes_ordered  # noqa: E402


@torch.library.custom_op("skir_random::accumulate", mutates_args=("dst",))
def accumulate(src: torch.Tensor, dst: torch.Tensor) -> None:
    """Adds `src` into `dst` in place and returns nothing (the shape of a KV-cache write)."""
    dst.add_(src)


@accumulate.register_fake
def _(src: torch.Tensor, dst: torch.Tensor) -> None:
    return None


register_op(accumulate, kernel_type="aiv_only")

WIDTH = 32
UNARY = {"relu": torch.relu, "exp": torch.exp, "softmax": lambda x: torch.softmax(x, -1), "neg": torch.neg}
BINARY = {"add": torch.add, "mul": torch.mul, "matmul": lambda x, y: x @ y}

step = st.tuples(
    st.sampled_from(sorted(UNARY) + sorted(BINARY) + ["linear", "add_", "accumulate"]),
    st.integers(0, 2),  # operands: indices back into the values made so far
    st.integers(0, 2),
    st.sampled_from(["s0", "s0", "s1", "s2"]),
    st.sampled_from(["", "", "a", "b", None]),  # "" = no scope
)


class Program(torch.nn.Module):
    """Runs a list of steps; each reads earlier values and appends its result. `add_` adds into
    an earlier value in place; `accumulate` (a custom op that writes its second argument and
    returns nothing) adds one earlier value into another: both write a buffer that later steps,
    on any stream, read."""

    def __init__(self, steps: list[tuple[str, int, int, str, str | None]]) -> None:
        super().__init__()
        self.steps = steps
        self.fc = torch.nn.Linear(WIDTH, WIDTH)

    def forward(self, x: Any) -> Any:
        values = [x]
        for op, i, j, stream, scope in self.steps:
            a, b = values[-1 - i % len(values)], values[-1 - j % len(values)]
            with skir.stream(stream), (skir.super_kernel_scope(scope) if scope != "" else nullcontext()):
                if op in UNARY:
                    values.append(UNARY[op](a))
                elif op in BINARY:
                    values.append(BINARY[op](a, b))
                elif op == "add_":
                    values.append(a.add_(b) if a is not b else a.add_(1.0))
                elif op == "accumulate":
                    if a is not b:
                        accumulate(b, a)
                    values.append(a)
                else:
                    values.append(self.fc(a))
        return values[-1]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=12), options=st.sampled_from(["", "stream-fusion=0", "early-start=1"]))
def test_random_torch_programs_compile_and_prove(steps: list[Any], options: str) -> None:
    data = capture_dict(Program(steps), torch.randn(WIDTH, WIDTH), name="program")
    check_writes_ordered(data)  # every cross-stream use of a written buffer waits for the write
    module = capture_json.from_dict(data, "<program>")
    result = skir.compile(module, options=options).check()
    assert result.proof is not None and result.proof.ok
    fused = sum(len(sk.members) for sk in result.superkernels)
    assert fused + len(result.fail_reasons) == result.kernel_tasks
