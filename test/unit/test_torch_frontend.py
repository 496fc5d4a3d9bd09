"""The PyTorch front end: op mapping, streams and events, scopes, errors, and the examples."""

from __future__ import annotations

import importlib.util
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import skir  # noqa: E402
from skir.frontends.capture import from_dict  # noqa: E402
from skir.frontends.capture_export import format_json  # noqa: E402
from skir.frontends.torch import capture, capture_dict, results  # noqa: E402
from skir.frontends.torch.stream_capture import StreamCapture  # noqa: E402

F = torch.nn.functional
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "torch"


def kernel_tasks(model: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(stream, task) of every kernel task, in seq order."""
    tasks = [(s["name"], t) for s in model["streams"] for t in s["tasks"] if t["type"] == "kernel"]
    return sorted(tasks, key=lambda st: st[1]["seq"])


def types_of(model: dict[str, Any]) -> list[str]:
    return [model["kernels"][t["kernel"]]["kernel_type"] for _, t in kernel_tasks(model)]


class Ops(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(64, 64)
        self.proj = torch.nn.Linear(64, 64, bias=False)
        self.conv = torch.nn.Conv2d(4, 8, 3)

    def forward(self, x: Any, img: Any) -> Any:
        a = self.fc(x)  # linear with bias: cube + vector epilogue
        b = self.proj(a)  # linear without bias: cube only
        c = torch.matmul(b, x.t())  # plain matmul: cube only
        d = torch.relu(c).view(-1).reshape(64, 64)  # views make no task
        e = torch.softmax(d, dim=-1) + F.layer_norm(d, (64,))
        return e.sum(), self.conv(img)


def test_kernel_type_by_op_class() -> None:
    model = capture_dict(Ops(), torch.randn(64, 64), torch.randn(1, 4, 16, 16))
    names = [t["kernel"] for _, t in kernel_tasks(model)]
    assert names == ["linear", "linear_v2", "matmul", "relu", "softmax", "layer_norm", "add", "sum", "conv2d"]
    assert types_of(model) == ["mix_aic_1_2", "aic_only", "aic_only"] + ["aiv_only"] * 5 + ["mix_aic_1_2"]
    linear = kernel_tasks(model)[0][1]
    assert linear["args"] == ["input_x", "param_fc_weight", "param_fc_bias", "linear_out"]
    assert model["kernels"]["linear"]["params"] == ["in", "in", "in", "out"]
    # a second kernel of an op is `<op>_v2`, never `<op>_2`, which would read as TorchDynamo's node linear_2
    assert kernel_tasks(model)[1][1]["args"][-1] == "linear_1_out"
    assert model["buffers"]["param_fc_weight"] == 64 * 64 * 4
    assert model["buffers"]["linear_out"] == 64 * 64 * 4
    for _, task in kernel_tasks(model):
        assert 1 <= task["blocks"] <= 48 and task["duration_us"] >= 1.0
    assert all(t["blocks"] <= 24 for t, ty in zip((t for _, t in kernel_tasks(model)), types_of(model))
               if ty != "aiv_only")


def test_graphs_with_leaf_modules_read_their_parameters() -> None:
    from torch.fx.passes.shape_prop import ShapeProp

    from skir.frontends.torch import graph_model

    class Leaf(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(16, 8)
            self.norm = torch.nn.LayerNorm(8)

        def forward(self, x: Any) -> Any:
            return self.norm(self.fc(x))

    traced = torch.fx.symbolic_trace(Leaf())  # nn modules stay call_module nodes
    ShapeProp(traced).propagate(torch.randn(4, 16))
    model = graph_model(traced, "leaf")
    (_, fc), (_, norm) = kernel_tasks(model)
    assert fc["args"] == ["input_x", "param_fc_weight", "param_fc_bias", "fc_out"]
    assert model["kernels"][fc["kernel"]]["kernel_type"] == "mix_aic_1_2"
    assert norm["kernel"] == "layer_norm" and norm["args"][1:3] == ["param_norm_weight", "param_norm_bias"]
    assert model["buffers"]["param_fc_weight"] == 16 * 8 * 4


def test_bigger_tensors_get_more_blocks_and_time() -> None:
    class Scale(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return x * 2.0

    small = kernel_tasks(capture_dict(Scale(), torch.empty(8, 64, device="meta")))[0][1]
    large = kernel_tasks(capture_dict(Scale(), torch.empty(4096, 4096, device="meta")))[0][1]
    assert small["blocks"] < large["blocks"] == 48
    assert small["duration_us"] < large["duration_us"]


def test_in_place_op_updates_its_buffer() -> None:
    class Acc(torch.nn.Module):
        def forward(self, x: Any, y: Any) -> Any:
            x.add_(y)
            return torch.exp(x)

    model = capture_dict(Acc(), torch.randn(8), torch.randn(8))
    (_, add), (_, exp) = kernel_tasks(model)
    assert model["kernels"][add["kernel"]]["params"] == ["inout", "in"]
    assert add["args"] == ["input_x", "input_y"]
    assert exp["args"] == ["input_x", "exp_out"]


class TwoStreams(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        a = torch.relu(x)
        with skir.stream("side"):
            b = torch.sigmoid(a)  # needs a (event s0 -> side)
            c = torch.tanh(a)  # already ordered: no second event
        d = torch.exp(a)  # independent of side
        return d + b + c  # needs b and c (event side -> s0)


def test_cross_stream_uses_get_events_and_streams_join() -> None:
    model = capture_dict(TwoStreams(), torch.randn(16))
    streams = {s["name"]: [(t["type"], t.get("kernel") or t.get("event")) for t in s["tasks"]]
               for s in model["streams"]}
    assert list(streams) == ["s0", "side"]
    assert model["events"] == ["e0", "e1", "e2"]
    assert streams["side"] == [("event_wait", "e0"), ("kernel", "sigmoid"), ("kernel", "tanh"),
                               ("event_record", "e1"), ("event_record", "e2")]
    assert streams["s0"] == [("kernel", "relu"), ("event_record", "e0"), ("kernel", "exp"), ("event_wait", "e1"),
                             ("kernel", "add"), ("kernel", "add"), ("event_wait", "e2"), ("event_reset", "e0"),
                             ("event_reset", "e1"), ("event_reset", "e2")]
    module = from_dict(model)
    result = skir.compile(module)
    assert result.superkernels  # the whole model is one candidate scope without marks


def test_stream_capture_orders_write_after_read() -> None:
    streams = StreamCapture()
    streams.data_task("s0", {"type": "kernel", "kernel": "k"}, ["x"], ["y"])
    streams.data_task("s1", {"type": "kernel", "kernel": "k"}, [], ["x"])  # overwrites what s0 read
    streams.data_task("s1", {"type": "kernel", "kernel": "k"}, [], ["x"])  # ordered already
    kinds = [t["type"] for t in streams.tasks["s1"]]
    assert kinds == ["event_wait", "kernel", "kernel"]
    assert streams.tasks["s0"][-1] == {"seq": 1, "type": "event_record", "event": "e0"}


def test_ordering_through_a_third_stream_needs_no_extra_event() -> None:
    streams = StreamCapture()
    streams.data_task("s0", {"type": "kernel"}, [], ["a"])
    streams.data_task("s1", {"type": "kernel"}, ["a"], ["b"])
    streams.data_task("s2", {"type": "kernel"}, ["b"], ["c"])
    streams.data_task("s2", {"type": "kernel"}, ["a"], ["d"])  # a is ordered through s1 already
    assert [t["type"] for t in streams.tasks["s2"]] == ["event_wait", "kernel", "kernel"]


class Scoped(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        with skir.super_kernel_scope("outer", options="early-start=1"):
            x = torch.relu(x)
            with skir.super_kernel_scope("inner"):
                x = torch.exp(x)
            x = torch.neg(x)
        with skir.super_kernel_scope(None):
            x = torch.abs(x)
        return torch.sqrt(x)


def test_scopes_nest_and_none_means_do_not_fuse() -> None:
    model = capture_dict(Scoped(), torch.randn(16))
    marks = [(t["type"], t.get("scope", t.get("kernel")), t.get("options")) for t in model["streams"][0]["tasks"]
             if t["type"] != "placeholder"]
    assert marks == [
        ("scope_begin", "outer", "early-start=1"), ("kernel", "relu", None),
        ("scope_begin", "inner", None), ("kernel", "exp", None), ("scope_end", "inner", None),
        ("kernel", "neg", None), ("scope_end", "outer", None),
        ("scope_begin", None, None), ("kernel", "abs", None), ("scope_end", None, None),
        ("kernel", "sqrt", None),
    ]
    tasks = model["streams"][0]["tasks"]
    begin = next(i for i, t in enumerate(tasks) if t["type"] == "scope_begin")
    assert [t["type"] for t in tasks[begin + 1:begin + 3]] == ["placeholder", "placeholder"]
    result = skir.compile(from_dict(model))
    reasons = {u.kernel: u.reason for u in result.fail_reasons}
    assert reasons["abs"] == "in_unfusible_scope" and reasons["sqrt"] == "not_in_scope"


def test_bad_marks_fail_at_the_with_line() -> None:
    with pytest.raises(skir.SkirError, match="unknown option 'warp-speed'"):
        skir.super_kernel_scope("a", options="warp-speed=9")
    with pytest.raises(skir.SkirError, match="1 to 255 bytes"):
        skir.super_kernel_scope("")
    with pytest.raises(skir.SkirError, match="1 to 255 bytes"):
        skir.super_kernel_scope("x" * 256)
    with pytest.raises(skir.SkirError, match="identifier"):
        skir.stream("not a name")


def test_unsupported_op_is_opaque_with_a_warning() -> None:
    class Nz(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return torch.special.i0(torch.relu(x)), torch.exp(x)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = capture_dict(Nz(), torch.randn(16))
    messages = [str(w.message) for w in caught]
    assert any("test_torch_frontend.py:" in m and "op 'special_i0'" in m and "aicpu" in m for m in messages)
    kinds = [(t["type"], t.get("kind")) for t in model["streams"][0]["tasks"]]
    assert kinds == [("kernel", None), ("default", "aicpu"), ("kernel", None)]


def test_data_dependent_control_flow_is_a_located_error() -> None:
    class Branchy(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            y = torch.relu(x)
            if y.sum() > 0:
                return y * 2
            return y

    with pytest.raises(skir.SkirError) as err:
        capture(Branchy(), torch.randn(4))
    message = str(err.value)
    assert re.search(r"test_torch_frontend.py:\d+: data-dependent control flow cannot be captured", message)
    assert "\n" not in message


def test_bad_example_inputs_are_one_line_errors() -> None:
    with pytest.raises(skir.SkirError, match=r"test_torch_frontend.py:\d+: cannot capture Ops on the example inputs: "
                       "RuntimeError: a and b must have same reduction dim") as err:
        capture(Ops(), torch.randn(3, 5), torch.randn(1, 4, 16, 16))
    assert "\n" not in str(err.value)


def test_torch_compile_backend_keeps_scopes_and_streams(tmp_path: Path) -> None:
    model = torch.compile(TwoStreamsScoped(), backend="skir", fullgraph=True,
                          options={"out_dir": str(tmp_path), "name": "tc"})
    x = torch.randn(32)
    assert torch.allclose(model(x), TwoStreamsScoped()(x))
    result = results()[-1]
    (sk,) = result.superkernels
    assert {m.stream for m in sk.members} == {"s0", "side"}
    name = sk.name.removesuffix("_sk0")
    assert (tmp_path / name / f"{sk.name}" / f"{sk.name}_kernel.cpp").is_file()
    buffers = {op.sym_name.data for op in result.original.walk() if op.name == "aclgraph.buffer"}
    assert {"input_x", "param_fc_weight", "param_fc_bias"} <= buffers


class TwoStreamsScoped(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(32, 32)
        torch.nn.init.eye_(self.fc.weight)
        torch.nn.init.zeros_(self.fc.bias)

    def forward(self, x: Any) -> Any:
        with skir.super_kernel_scope("both"):
            a = torch.relu(self.fc(x))
            with skir.stream("side"):
                b = torch.sigmoid(a)
            c = torch.exp(a)
            return c * b


def _load_example(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"skir_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(EXAMPLES))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(EXAMPLES))
    return module


EXAMPLE_FACTS = {
    # name: (streams, events, kernel tasks, fused kernel tasks)
    "mlp_block": (1, 0, 5, 5),
    "decoder_layer": (1, 0, 23, 23),
    "attention_moe": (2, 3, 16, 16),
    "serving_decode": (1, 0, 11, 11),
    "tp_decode": (1, 0, 15, 15),
}


@pytest.mark.parametrize("name", sorted(EXAMPLE_FACTS))
def test_examples_match_their_scripts_and_compile(name: str) -> None:
    module, inputs = _load_example(name).build()
    model = capture_dict(module, *inputs, name=name)
    assert format_json(model) == (EXAMPLES / f"{name}.json").read_text(), f"rerun examples/torch/{name}.py"
    ir = from_dict(model)
    assert str(ir) + "\n" == (EXAMPLES / f"{name}.mlir").read_text(), f"rerun examples/torch/{name}.py"
    streams, events, kernels, fused = EXAMPLE_FACTS[name]
    assert (len(model["streams"]), len(model["events"]), len(kernel_tasks(model))) == (streams, events, kernels)
    result = skir.compile(ir).check()
    assert sum(len(sk.members) for sk in result.superkernels) == fused
    assert result.proof is not None and result.proof.ok
