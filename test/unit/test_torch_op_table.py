"""The op table on real-model idioms, one change per test (capture() on torch.export, and the
torch.compile backend where its graphs differ)."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import skir  # noqa: E402
from skir.frontends.torch import capture_dict, graph_model  # noqa: E402

F = torch.nn.functional


def tasks(model: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found = [(s["name"], t) for s in model["streams"] for t in s["tasks"] if t["type"] in ("kernel", "default")]
    return sorted(found, key=lambda st: st[1]["seq"])


def kernels(model: dict[str, Any]) -> list[str]:
    return [t.get("kernel", t.get("kind")) for _, t in tasks(model)]


def dynamo_model(module: torch.nn.Module, *inputs: Any) -> dict[str, Any]:
    """The capture JSON of the graph TorchDynamo gives a backend (no compile, no run)."""
    graphs: list[Any] = []

    def backend(gm: Any, example_inputs: Any) -> Any:
        graphs.append(graph_model(gm, "g"))
        return gm.forward

    torch._dynamo.reset()
    torch.compile(module, backend=backend, fullgraph=True)(*inputs)
    return graphs[0]


def test_shape_code_and_chunk_capture_through_export() -> None:
    class Attn(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.qkv = torch.nn.Linear(64, 192)
            self.n_head = 4

        def forward(self, x: Any) -> Any:
            B, T, C = x.size()
            q, k, v = self.qkv(x).split(C, dim=-1)
            q = q.view(B, T, self.n_head, C // self.n_head)
            a, b = q.chunk(2, dim=-1)
            scale = 1 / math.sqrt(q.shape[-1])
            if x.shape[0] != 1:  # a branch on a shape resolves at capture
                a = a * scale
            return a + b, k, v

    model = capture_dict(Attn().to("meta"), torch.randn(2, 8, 64, device="meta"))
    assert kernels(model) == ["linear", "mul", "add"]


def test_no_task_for_what_does_no_device_work() -> None:
    class Idle(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.drop = torch.nn.Dropout(0.1)

        def forward(self, x: Any) -> Any:
            torch._C._log_api_usage_once("model.forward")
            e = torch.empty_like(x)  # an allocation
            y = self.drop(x) + F.dropout(x, 0.2, training=False)  # eval-mode dropout
            y = y.to(torch.float32).type_as(x)  # same-dtype casts
            z = torch.view_as_real(torch.complex(y, y))  # a true view (complex builds a tensor)
            return y.T + e, z

    for model in (capture_dict(Idle().eval(), torch.randn(4, 4)), dynamo_model(Idle().eval(), torch.randn(4, 4))):
        assert kernels(model) == ["add", "complex", "add"], kernels(model)


def test_a_task_for_what_really_copies() -> None:
    class Copies(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.table = torch.nn.Parameter(torch.randn(1000, 64))

        def forward(self, x: Any, k: Any, idx: Any) -> Any:
            a = x.transpose(0, 1).contiguous()  # a copy
            b = x.contiguous()  # already contiguous: no task
            kv = k[:, :, None, :].expand(2, 4, 3, 8).reshape(2, 12, 8)  # repeat KV heads: a copy
            rows = self.table[idx]  # advanced indexing: a gather, not a view
            return a, b, kv, rows

    model = capture_dict(Copies(), torch.randn(4, 8), torch.randn(2, 4, 8), torch.tensor([3, 5]))
    assert kernels(model) == ["contiguous", "reshape", "index"]
    (gather,) = [t for _, t in tasks(model) if t["kernel"] == "index"]
    assert "param_table" in gather["args"]  # the gather reads the table


def test_a_gather_costs_the_rows_it_reads() -> None:
    class Lookup(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = torch.nn.Embedding(150_000, 4096, device="meta")

        def forward(self, ids: Any) -> Any:
            return self.emb(ids)

    model = capture_dict(Lookup(), torch.zeros(1, 1, dtype=torch.long, device="meta"))
    (lookup,) = [t for _, t in tasks(model)]
    table_mb = 150_000 * 4096 * 4 / 1e6
    assert table_mb > 2000 and lookup["duration_us"] < 5  # one row, not the 2.4 GB table


def test_a_view_reads_its_base_across_streams() -> None:
    """mm(a, b.T) with b made on another stream: the view carries b's buffer, so an event
    orders b's producer before the matmul."""

    class Side(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            with skir.stream("side"):
                b = torch.relu(x)
            a = torch.exp(x)
            return torch.mm(a, b.T)

    for model in (capture_dict(Side(), torch.randn(8, 8)), dynamo_model(Side(), torch.randn(8, 8))):
        (mm,) = [t for _, t in tasks(model) if t.get("kernel") == "mm"]
        (relu,) = [t for _, t in tasks(model) if t.get("kernel") == "relu"]
        assert set(relu["args"][1:]) & set(mm["args"])  # the matmul reads relu's result
        streams = {s["name"]: [t["type"] for t in s["tasks"]] for s in model["streams"]}
        assert "event_wait" in streams["s0"]
        assert skir.compile(model).check().proof.ok


def test_newly_mapped_ops() -> None:
    class Misc(torch.nn.Module):
        def forward(self, x: Any, m: Any) -> Any:
            s, i = torch.sort(x)
            h = torch.histc(x, bins=4)
            d = torch.diff(x)
            p = torch.polar(x.abs(), x)
            flags = (m & ~m) | m
            y = x.clone()
            y[0] = 1.0  # setitem
            return s, i, h, d, p, flags, y

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unmapped-op warning
        model = capture_dict(Misc(), torch.randn(16), torch.ones(16, dtype=torch.bool))
    assert "aicpu" not in kernels(model)


def test_unmapped_ops_are_one_warning_per_op_name() -> None:
    class Nz(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return torch.special.i0(x), torch.special.i0(x + 1), torch.special.i0(x - 1)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = capture_dict(Nz(), torch.randn(16))
    lines = [str(w.message) for w in caught if "no kernel mapping" in str(w.message)]
    assert len(lines) == 1 and "(3 tasks, the first here)" in lines[0] and "test_torch_op_table.py:" in lines[0]
    assert kernels(model).count("aicpu") == 3


def test_npu_ops_trace_a_vllm_ascend_style_decoder_layer() -> None:
    """torch_npu's fused ops, defined from their published schemas, trace on a CPU machine and
    map to kernel types; the layer fuses into one SuperKernel."""
    import skir.frontends.torch.npu_ops as npu_ops

    npu = torch.ops.npu

    class NpuLayer(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm = torch.nn.Parameter(torch.ones(64))
            self.qkv = torch.nn.Parameter(torch.randn(64, 192))
            self.up = torch.nn.Parameter(torch.randn(64, 256))
            self.down = torch.nn.Parameter(torch.randn(128, 64))

        def forward(self, x: Any, res: Any, cos: Any, sin: Any, k_cache: Any, v_cache: Any) -> Any:
            with skir.super_kernel_scope("layer0"):
                h, _, res = npu.npu_add_rms_norm(x, res, self.norm, 1e-6)
                q, k, _ = (h @ self.qkv).split(64, dim=-1)
                q, k = npu.npu_apply_rotary_pos_emb(q.view(1, 8, 4, 16), k.view(1, 8, 4, 16), cos, sin)
                a, _ = npu.npu_fused_infer_attention_score(q.view(1, 8, 64), k_cache, v_cache, num_heads=4,
                                                           input_layout="BSH")
                g = npu.npu_swiglu(a @ self.up)
                return g @ self.down + res

    inputs = (torch.randn(1, 8, 64), torch.randn(1, 8, 64), torch.randn(1, 8, 1, 16), torch.randn(1, 8, 1, 16),
              torch.randn(1, 32, 64), torch.randn(1, 32, 64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every op is mapped
        model = capture_dict(NpuLayer(), *inputs)
    types = {k: v["kernel_type"] for k, v in model["kernels"].items()}
    assert types["npu_add_rms_norm"] == "aiv_only" and types["npu_fused_infer_attention_score"] == "mix_aic_1_2"
    result = skir.compile(model)
    assert len(result.superkernels) == 1 and not result.fail_reasons
    # the schemas are torch_npu's: the op's arguments and results, as published
    schema = npu.npu_rms_norm.default._schema
    assert [a.name for a in schema.arguments] == ["self", "gamma", "epsilon"] and len(schema.returns) == 2
    # reference math where the module says so (here checked against torch's own rms_norm)
    x, w = torch.randn(4, 64), torch.rand(64)
    assert torch.allclose(npu.npu_rms_norm(x, w, 1e-6)[0], F.rms_norm(x, (64,), w, 1e-6), atol=1e-5)
    assert set(npu_ops.SCHEMAS) == set(npu_ops.FAKES)


def test_register_op_maps_a_custom_op() -> None:
    from skir.frontends.torch import register_op
    from skir.frontends.torch.op_registry import unregister_op

    lib = torch.library.Library("skir_test", "FRAGMENT")
    lib.define("gate(Tensor x) -> Tensor")
    lib.impl("gate", lambda x: x * 2, "CompositeExplicitAutograd")

    class Custom(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return torch.ops.skir_test.gate(torch.relu(x))

    try:
        register_op(torch.ops.skir_test.gate, kernel_type="mix_aic_1_2", blocks=7, cost=12.5)
        model = capture_dict(Custom(), torch.randn(64, 64))
        (gate,) = [t for _, t in tasks(model) if t["kernel"] == "skir_test__gate"]
        assert (model["kernels"]["skir_test__gate"]["kernel_type"], gate["blocks"], gate["duration_us"]) == (
            "mix_aic_1_2", 7, 12.5)
        with pytest.raises(skir.SkirError, match="kernel_type 'gpu' is not one of"):
            register_op("x", kernel_type="gpu")
    finally:
        unregister_op(torch.ops.skir_test.gate)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert "aicpu" in kernels(capture_dict(Custom(), torch.randn(64, 64)))
    assert any("skir_test::gate" in str(w.message) and "register_op" in str(w.message) for w in caught)


def test_ops_of_other_namespaces_are_the_users() -> None:
    """A user's `mylib::softmax` and vllm's `_C::rms_norm` are not aten's softmax and rms_norm:
    opaque until registered, and registering one leaves torch's op as it was."""
    from skir.frontends.torch import register_op
    from skir.frontends.torch.op_registry import unregister_op

    lib = torch.library.Library("skir_ns", "FRAGMENT")
    lib.define("softmax(Tensor x) -> Tensor")
    lib.define("rms_norm(Tensor x) -> Tensor")
    for op in ("softmax", "rms_norm"):
        lib.impl(op, lambda x: x * 2, "CompositeExplicitAutograd")
        torch.library.register_fake(f"skir_ns::{op}", lambda x: torch.empty_like(x), lib=lib)

    class Mixed(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return torch.softmax(torch.ops.skir_ns.rms_norm(torch.ops.skir_ns.softmax(x)), -1)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = kernels(capture_dict(Mixed(), torch.randn(8, 8)))
    assert names == ["aicpu", "aicpu", "softmax"]  # by hand: two opaque user ops, then aten's softmax
    assert {m for w in caught for m in ("skir_ns::softmax", "skir_ns::rms_norm") if m in str(w.message)} == {
        "skir_ns::softmax", "skir_ns::rms_norm"}
    # each warning's header names the user's line (the capture_dict call here), not a line of skir or torch
    assert {(w.filename, w.lineno) for w in caught if "no kernel mapping" in str(w.message)} == {
        (__file__, next(i for i, line in enumerate(Path(__file__).read_text().splitlines(), 1)
                        if "names = kernels(capture_dict(Mixed()" in line))}
    try:
        register_op(torch.ops.skir_ns.softmax, kernel_type="aic_only", blocks=3)
        model = capture_dict(Mixed(), torch.randn(8, 8))
        types = {k: v["kernel_type"] for k, v in model["kernels"].items()}
        assert kernels(model) == ["skir_ns__softmax", "aicpu", "softmax"]  # the user's and torch's stay apart
        assert (types["skir_ns__softmax"], types["softmax"]) == ("aic_only", "aiv_only")
    finally:
        unregister_op("skir_ns::softmax")


def test_scope_functions_and_torchair_spelling() -> None:
    class Full(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            skir.super_kernel_scope_begin("full_model")
            y = torch.relu(x)
            with skir.super_kernel("inner", "early-start=1"):
                y = torch.exp(y)
            skir.super_kernel_scope_end("full_model")
            return y * 2

    for model in (capture_dict(Full(), torch.randn(8)), dynamo_model(Full(), torch.randn(8))):
        marks = [(t["type"], t.get("scope")) for t in model["streams"][0]["tasks"] if t["type"].startswith("scope")]
        assert marks == [("scope_begin", "full_model"), ("scope_begin", "inner"), ("scope_end", "inner"),
                         ("scope_end", "full_model")]

    class Unbalanced(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            skir.super_kernel_scope_begin("a")
            y = torch.relu(x)
            skir.super_kernel_scope_end("b")
            return y

    with pytest.raises(skir.SkirError, match=r"test_torch_op_table.py:\d+: super_kernel_scope_end\('b'\) closes no "
                       r"open scope \(the innermost is 'a'\)"):
        capture_dict(Unbalanced(), torch.randn(8))


def test_scope_markers_go_on_the_stream_the_scope_was_entered_on() -> None:
    class Entered(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            with skir.super_kernel_scope("both"):
                with skir.stream("side"):
                    b = torch.relu(x)  # the scope's first op runs on `side`
                return torch.exp(x) + b

    model = capture_dict(Entered(), torch.randn(8))
    streams = {s["name"]: [t["type"] for t in s["tasks"]] for s in model["streams"]}
    assert streams["s0"][0] == "scope_begin" and "scope_begin" not in streams["side"]


def test_scope_layers_scopes_the_parts_around_the_layers() -> None:
    from skir.frontends.torch import scope_layers

    class Layer(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(32, 32)

        def forward(self, x: Any) -> Any:
            return torch.relu(self.fc(x)) + x

    class Net(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.emb = torch.nn.Embedding(100, 32)
            self.layers = torch.nn.ModuleList([Layer() for _ in range(3)])
            self.norm = torch.nn.LayerNorm(32)
            self.head = torch.nn.Linear(32, 100)

        def forward(self, ids: Any) -> Any:
            x = self.emb(ids) * 2
            for layer in self.layers:
                x = layer(x)
            return self.head(self.norm(x))

    net = Net()
    assert scope_layers(net) == ["outside", "layer0", "layer1", "layer2"]
    assert scope_layers(net) == ["outside", "layer0", "layer1", "layer2"]  # re-scoping does not nest
    result = skir.compile(capture_dict(net, torch.zeros(1, 4, dtype=torch.long)))
    assert [len(sk.members) for sk in result.superkernels] == [2, 3, 3, 3, 2] and not result.fail_reasons


def test_a_tensor_from_host_data_is_a_memcpy() -> None:
    class Host(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return x * torch.tensor([2.0])

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # mapped: no unmapped-op warning
        model = dynamo_model(Host(), torch.randn(4))
    assert kernels(model) == ["memcpy", "mul"]


def test_namespaces_of_targets() -> None:
    """aten and torch's Python functions are the table's; torch_npu's Python functions are its
    `npu` ops; a Python function of any other package, and a torch.library op of another
    namespace, are the user's."""
    import operator
    import types

    from skir.frontends.torch.op_table import op_namespace, qualified_name

    def function(name: str, module: str) -> Any:
        f = types.FunctionType((lambda x: x).__code__, {}, name)
        f.__module__ = module
        return f

    cases = [(torch.ops.aten.add_.Tensor, "aten", "aten::add_"), (torch.softmax, "torch", None),
             (torch.nn.functional.silu, "torch", None), (operator.add, "torch", None),
             (function("npu_rms_norm", "torch_npu.npu"), "npu", "npu::npu_rms_norm"),
             (function("rms_norm", "vllm._custom_ops"), "vllm", None),
             (torch.ops.npu.npu_rms_norm.default, "npu", "npu::npu_rms_norm")]
    for target, namespace, qualified in cases:
        assert (op_namespace("call_function", target), qualified_name(target)) == (namespace, qualified), target
    assert op_namespace("call_method", "add_") == "torch"
