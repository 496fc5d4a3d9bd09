"""Random PyTorch programs (ops, streams, scopes) through the front end, the pipeline and sk-check."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import skir  # noqa: E402
from skir.frontends.torch import capture  # noqa: E402

WIDTH = 32
UNARY = {"relu": torch.relu, "exp": torch.exp, "softmax": lambda x: torch.softmax(x, -1), "neg": torch.neg}
BINARY = {"add": torch.add, "mul": torch.mul, "matmul": lambda x, y: x @ y}

step = st.tuples(
    st.sampled_from(sorted(UNARY) + sorted(BINARY) + ["linear"]),
    st.integers(0, 2),  # operands: indices back into the values made so far
    st.integers(0, 2),
    st.sampled_from(["s0", "s0", "s1", "s2"]),
    st.sampled_from(["", "", "a", "b", None]),  # "" = no scope
)


class Program(torch.nn.Module):
    """Runs a list of steps; each reads earlier values and appends its result."""

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
                else:
                    values.append(self.fc(a))
        return values[-1]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=12), options=st.sampled_from(["", "stream-fusion=0", "early-start=1"]))
def test_random_torch_programs_compile_and_prove(steps: list[Any], options: str) -> None:
    module = capture(Program(steps), torch.randn(WIDTH, WIDTH), name="program")
    result = skir.compile(module, options=options, check=True)
    assert result.check is not None and result.check.ok
    fused = sum(len(sk.members) for sk in result.superkernels)
    assert fused + len(result.fail_reasons) == result.kernel_tasks
