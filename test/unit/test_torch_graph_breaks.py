"""A graph break inside a SuperKernel scope under `torch.compile(backend="skir")` is an error.

TorchDynamo cannot resume inside the marks, so without the check it runs the frame eagerly and
the backend never sees the scope's ops (no model, no error). Each case here would pass silently
before the check; the last one shows a break outside every scope still compiles as two graphs.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import skir  # noqa: E402
from skir.errors import SkirError  # noqa: E402
from skir.frontends.torch import results  # noqa: E402


def _line_of(cls: type, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(cls.forward)
    return first + next(i for i, line in enumerate(lines) if text in line)


class BreakInScope(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        with skir.super_kernel_scope("layer0"):
            y = torch.relu(x)
            print("inside", end="")  # TorchDynamo cannot trace print: a graph break
            z = y * 2
        return z + 1


class BreakInStream(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        y = torch.relu(x)
        with skir.stream("side"):
            z = y * 2
            torch._dynamo.graph_break()
        return z + 1


class BreakBetweenScopeCalls(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        skir.super_kernel_scope_begin("full_model")
        y = torch.relu(x)
        torch._dynamo.graph_break()
        z = y * 2
        skir.super_kernel_scope_end("full_model")
        return z + 1


class BreakOutsideScopes(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        with skir.super_kernel_scope("first"):
            y = torch.relu(x) * 2
        torch._dynamo.graph_break()
        with skir.super_kernel_scope("second"):
            return torch.exp(y) + 1


class DataDependentBranch(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        y = torch.relu(x) * 2
        if y.sum() > 0:  # TorchDynamo records this break as `unimplemented`, not `graph_break`
            y = y + 1
        return torch.exp(y)


def test_a_data_dependent_branch_outside_every_scope_warns_at_the_users_line() -> None:
    torch._dynamo.reset()
    before = len(results())
    x = torch.rand(8)
    with pytest.warns(UserWarning, match=r"skir backend: a graph break split the forward into several graphs "
                      r"\(Data-dependent branching .*\); model @\w+ is one of them") as record:
        out = torch.compile(DataDependentBranch(), backend="skir")(x)  # the warning's header names this line
    assert torch.allclose(out, torch.exp(torch.relu(x) * 2 + 1))
    assert len(results()) - before == 2
    [warning] = [w for w in record if "graph break" in str(w.message)]
    assert (warning.filename, warning.lineno) == (__file__, _caller_line("torch.compile(DataDependentBranch()"))


def _caller_line(text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(test_a_data_dependent_branch_outside_every_scope_warns_at_the_users_line)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_a_break_inside_a_with_scope_is_an_error_naming_it(capsys: Any) -> None:
    torch._dynamo.reset()
    compiled = torch.compile(BreakInScope(), backend="skir")
    line = _line_of(BreakInScope, "with skir.super_kernel_scope")
    for _ in range(2):  # the second call runs TorchDynamo's cached decision: still an error
        with pytest.raises(SkirError) as info:
            compiled(torch.randn(8))
        message = str(info.value)
        assert "\n" not in message
        assert re.match(rf".*test_torch_graph_breaks\.py:{line}: a graph break inside "
                        r"super_kernel_scope\('layer0'\)", message), message
        assert "print" in message and "move the break out of the scope" in message
    assert "inside" not in capsys.readouterr().out  # raised before the scope's code ran


def test_the_same_model_runs_under_other_backends_and_eagerly() -> None:
    torch._dynamo.reset()
    x = torch.randn(8)
    expected = torch.relu(x) * 2 + 1
    assert torch.allclose(BreakInScope()(x), expected)
    assert torch.allclose(torch.compile(BreakInScope(), backend="eager")(x), expected)


def test_a_break_inside_a_stream_is_an_error() -> None:
    torch._dynamo.reset()
    line = _line_of(BreakInStream, "with skir.stream")
    with pytest.raises(SkirError, match=rf":{line}: a graph break inside stream\('side'\)"):
        torch.compile(BreakInStream(), backend="skir")(torch.randn(8))


def test_a_break_between_scope_calls_names_the_split() -> None:
    torch._dynamo.reset()
    line = _line_of(BreakBetweenScopeCalls, "super_kernel_scope_begin")
    with pytest.raises(Exception, match="split the scope") as info:  # TorchDynamo wraps the SkirError
        torch.compile(BreakBetweenScopeCalls(), backend="skir")(torch.randn(8))
    assert re.search(rf":{line}: a graph break inside super_kernel_scope_begin\('full_model'\) split the scope "
                     r"over two graphs: .*graph_break", str(info.value)), str(info.value)


def test_a_break_outside_every_scope_compiles_both_graphs() -> None:
    torch._dynamo.reset()
    before = len(results())
    x = torch.randn(8)
    with pytest.warns(UserWarning, match=r"skir backend: a graph break split the forward into several graphs "
                      r"\(.*\); model @\w+ is one of them, and results\(\)\[-1\] only the last"):
        out = torch.compile(BreakOutsideScopes(), backend="skir")(x)
    assert torch.allclose(out, torch.exp(torch.relu(x) * 2) + 1)
    graphs = results()[before:]
    assert len(graphs) == 2
    assert [[sk.name.rsplit("_", 1)[-1] for sk in g.superkernels] for g in graphs] == [["sk0"], ["sk0"]]


def test_the_name_option_names_the_model() -> None:
    torch._dynamo.reset()
    before = len(results())
    x = torch.randn(8)
    torch.compile(BreakOutsideScopes(), backend="skir", options={"name": "alpha_model"})(x)
    names = [g.module.ops.first.sym_name.data for g in results()[before:]]  # type: ignore[union-attr]
    assert names == ["alpha_model", "alpha_model_2"]  # a suffix only because the name was taken
    torch._dynamo.reset()
    bad = torch.compile(BreakOutsideScopes(), backend="skir", options={"name": "../x"})
    with pytest.raises(Exception, match=re.escape("option 'name': '../x' is not a C identifier")):  # wrapped
        bad(x)
