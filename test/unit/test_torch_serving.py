"""The PyTorch front end on serving code: ops that write their arguments (the schema's `Tensor(a!)`,
`custom_op(..., mutates_args=...)`), namespaces, data-dependent sizes, work that must neither
vanish nor appear. Every write a graph records is checked with an order computed here, apart
from skir's analysis: a later use of the buffer on another stream is after the write by events."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import skir  # noqa: E402
from skir.frontends.torch import capture_dict, graph_model, register_op  # noqa: E402
from skir.frontends.torch.op_registry import unregister_op  # noqa: E402
from skir.testing.capture_order import check_writes_ordered, ordered_after, tasks  # noqa: E402


def dynamo_model(module: Any, *inputs: Any, dynamic: bool | None = None) -> dict[str, Any]:
    """The capture JSON of the graph TorchDynamo gives a backend (no compile, no run)."""
    graphs: list[Any] = []

    def backend(gm: Any, example_inputs: Any) -> Any:
        graphs.append(graph_model(gm, "g"))
        return gm.forward

    torch._dynamo.reset()
    torch.compile(module, backend=backend, fullgraph=True, dynamic=dynamic)(*inputs)
    return graphs[0]


# ---- 1. an op that writes an argument and returns nothing ------------------------------------------


@torch.library.custom_op("skir_serving::cache_write", mutates_args=("cache",))
def cache_write(x: torch.Tensor, cache: torch.Tensor) -> None:
    cache.copy_(x)


@cache_write.register_fake
def _(x: torch.Tensor, cache: torch.Tensor) -> None:
    return None


class CacheOnTwoStreams(torch.nn.Module):
    """The cache is written on a side stream and read on the main one (as a KV-cache write and
    the attention that reads it)."""

    def forward(self, x: Any, cache: Any) -> Any:
        y = x * 2
        with skir.stream("side"):
            cache_write(y, cache)
        return cache.sum(0)


def test_a_written_argument_is_a_write_the_other_stream_waits_for() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = capture_dict(CacheOnTwoStreams(), torch.randn(4, 8), torch.zeros(4, 8))
    assert check_writes_ordered(model) == 0  # opaque: its write is not a kernel argument here ...
    writer = next(t for _, t in tasks(model) if t.get("kind") == "aicpu")
    reader = next(t for _, t in tasks(model) if t.get("kernel") == "sum")
    assert (writer["seq"], reader["seq"]) in ordered_after(model)  # ... but the sum waits for it
    register_op(cache_write, kernel_type="aiv_only")
    try:
        model = capture_dict(CacheOnTwoStreams(), torch.randn(4, 8), torch.zeros(4, 8))
        compiled = dynamo_model(CacheOnTwoStreams(), torch.randn(4, 8), torch.zeros(4, 8))
    finally:
        unregister_op(cache_write)
    for captured in (model, compiled):
        kernel = captured["kernels"]["skir_serving__cache_write"]
        assert kernel["params"] == ["in", "inout"]  # from the schema: (Tensor x, Tensor(a!) cache) -> ()
        assert check_writes_ordered(captured) == 2  # y (s0 -> side) and the cache (side -> s0)
        assert skir.compile(captured).check().proof.ok


def test_an_aten_out_variant_writes_its_out() -> None:
    class Out(torch.nn.Module):
        def forward(self, x: Any, buf: Any) -> Any:
            torch.mul(x, 2, out=buf)
            with skir.stream("side"):
                return buf + 1

    model = capture_dict(Out(), torch.randn(4, 8), torch.zeros(4, 8))
    assert check_writes_ordered(model) == 1


def test_setitem_writes_its_target() -> None:
    class SetItem(torch.nn.Module):
        def forward(self, x: Any, cache: Any) -> Any:
            cache[1:3] = x[0:2] * 2
            with skir.stream("side"):
                return cache.sum(0)

    for model in (capture_dict(SetItem(), torch.randn(4, 8), torch.zeros(4, 8)),
                  dynamo_model(SetItem(), torch.randn(4, 8), torch.zeros(4, 8))):  # operator.setitem
        assert check_writes_ordered(model) >= 1


# ---- 4. work that vanishes or appears ----------------------------------------------------------------


def test_dead_nodes_make_no_launches_and_unfold_is_work() -> None:
    class Dead(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.pooler = torch.nn.Linear(8, 8)

        def forward(self, x: Any) -> Any:
            torch.arange(x.shape[0])  # as TorchDynamo keeps HF decoders' unused position ids
            self.pooler(x[:, 0])  # a pooler nobody reads
            cols = torch.nn.functional.unfold(x.unsqueeze(1), kernel_size=2)  # im2col, not Tensor.unfold
            return cols.relu()

    x = torch.randn(2, 8, 8)
    for model in (dynamo_model(Dead(), x), capture_dict(Dead(), x)):
        names = [t.get("kernel", t.get("kind")) for _, t in tasks(model)]
        assert names == ["im2col", "relu"], names  # by hand: the two ops the result needs


# ---- 2. sizes the data decides ------------------------------------------------------------------------


class EagerMoe(torch.nn.Module):
    """An eager MoE loop that sizes each expert's tokens by the routing (OLMoE on transformers 4)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = torch.nn.Linear(16, 4)
        self.experts = torch.nn.ModuleList(torch.nn.Linear(16, 16) for _ in range(4))

    def forward(self, x: Any) -> Any:
        w, idx = torch.topk(self.gate(x), 2)
        out = torch.zeros_like(x)
        for e in range(4):
            tok, k = torch.where(idx == e)  # one argument: nonzero, a size the data decides
            out = out.index_add(0, tok, self.experts[e](x[tok]) * w[tok, k, None])
        return out


def test_a_size_the_data_decides_is_a_located_error_not_one() -> None:
    with pytest.raises(skir.SkirError) as err:
        capture_dict(EagerMoe(), torch.randn(8, 16))
    message = str(err.value)
    line = EagerMoe.forward.__code__.co_firstlineno + 4  # the torch.where line
    assert message.startswith(f"{__file__}:{line}: the size u0 of 'where'") and "\n" not in message
    assert "static_moe" in message  # a routed MoE: the way out is named

    class Tolist(torch.nn.Module):
        def forward(self, x: Any, sizes: Any) -> Any:
            return [p.relu() for p in torch.split(x, sizes.tolist())]  # GraniteMoE's split sizes

    with pytest.raises(skir.SkirError, match=r"depends on the data .* cannot know it; compute it on the host"):
        capture_dict(Tolist(), torch.randn(8, 16), torch.tensor([3, 5]))


# ---- 7. op-table gaps -----------------------------------------------------------------------------------


def test_interpolate_einsum_eye_floor_divide_are_kernels() -> None:
    class Gaps(torch.nn.Module):
        def forward(self, x: Any, a: Any, b: Any) -> Any:
            up = torch.nn.functional.interpolate(x, scale_factor=2)
            return up, torch.einsum("ik,kj->ij", a, b), torch.eye(4), torch.floor_divide(a, 2)

    inputs = (torch.randn(1, 3, 8, 8), torch.randn(16, 32), torch.randn(32, 8))
    for model in (capture_dict(Gaps(), *inputs), dynamo_model(Gaps(), *inputs)):
        found = [t for _, t in tasks(model)]
        assert all(t["type"] == "kernel" for t in found), found  # no opaque aicpu task ends a SuperKernel
        einsum = next(t for t in found if t["kernel"] == "einsum")
        assert model["kernels"]["einsum"]["kernel_type"] == "aic_only"
        mm = capture_dict(_Mm(), inputs[1], inputs[2])  # the same contraction as a matmul
        assert einsum["duration_us"] == next(t for _, t in tasks(mm))["duration_us"]


class _Mm(torch.nn.Module):
    def forward(self, a: Any, b: Any) -> Any:
        return a @ b


def test_a_grouped_matmul_reads_the_routed_experts_weights() -> None:
    """Four rows reach at most four experts: 64 stacked experts cost what 4 do."""

    class Grouped(torch.nn.Module):
        def forward(self, x: Any, w: Any, ends: Any) -> Any:
            return torch.ops.npu.npu_grouped_matmul([x], [w], group_list=ends, split_item=2, group_type=0)[0]

    def duration(experts: int) -> float:
        model = capture_dict(Grouped(), torch.randn(4, 256), torch.randn(experts, 256, 512),
                             torch.full((experts,), 4, dtype=torch.int64))
        (task,) = [t for _, t in tasks(model) if t["type"] == "kernel"]
        return float(task["duration_us"])

    assert duration(64) == duration(4) < duration(1) * 4


# ---- 8. what vllm-ascend model code calls ---------------------------------------------------------------


def test_the_atb_ops_write_what_their_schemas_say() -> None:
    import skir.frontends.torch.npu_ops as npu_ops

    assert set(npu_ops.ATB_SCHEMAS) == set(npu_ops.ATB_FAKES)

    class Step(torch.nn.Module):
        def forward(self, k: Any, v: Any, kc: Any, vc: Any, slots: Any, q: Any, table: Any, lens: Any) -> Any:
            torch.ops.atb._npu_reshape_and_cache(k, v, kc, vc, slots)
            out = torch.empty_like(q)
            with skir.stream("attn"):
                torch.ops.atb._npu_paged_attention(q, kc, vc, 2, 4, 0.5, table, lens, out)
            return out * 2

    inputs = (torch.randn(3, 2, 8), torch.randn(3, 2, 8), torch.zeros(4, 2, 2, 8), torch.zeros(4, 2, 2, 8),
              torch.tensor([0, 5, 6], dtype=torch.int32), torch.randn(2, 4, 8),
              torch.tensor([[0, 1], [2, 3]], dtype=torch.int32), torch.tensor([3, 2], dtype=torch.int32))
    model = capture_dict(Step(), *inputs)
    params = {k: v["params"] for k, v in model["kernels"].items()}
    assert params["npu_reshape_and_cache"] == ["in", "in", "inout", "inout", "in"]
    assert params["npu_paged_attention"] == ["in", "in", "in", "in", "in", "inout"]
    assert check_writes_ordered(model) == 3  # by hand: both caches to attn, and its out back to s0
    assert skir.compile(model).check().proof.ok


def test_the_paged_attention_reference_is_attention() -> None:
    """The CPU reference of `_npu_paged_attention` against dense attention over the same keys."""
    kc, vc = torch.randn(4, 2, 2, 8), torch.randn(4, 2, 2, 8)  # 4 blocks of 2 slots, 2 kv heads
    q, out = torch.randn(2, 4, 8), torch.empty(2, 4, 8)
    table, lens = torch.tensor([[3, 1], [0, 2]], dtype=torch.int32), torch.tensor([3, 4], dtype=torch.int32)
    torch.ops.atb._npu_paged_attention(q, kc, vc, 2, 4, 0.25, table, lens, out)
    for b in range(2):
        slots = [int(table[b, i // 2]) * 2 + i % 2 for i in range(int(lens[b]))]
        keys = kc.view(-1, 2, 8)[slots].repeat_interleave(2, dim=1).transpose(0, 1)  # heads x n x dim
        values = vc.view(-1, 2, 8)[slots].repeat_interleave(2, dim=1).transpose(0, 1)
        dense = torch.nn.functional.scaled_dot_product_attention(q[b].unsqueeze(1), keys, values, scale=0.25)
        assert torch.allclose(out[b], dense.squeeze(1), atol=1e-5)


# ---- 6. dynamic=True ---------------------------------------------------------------------------------------


def test_float_attributes_under_dynamic_shapes_are_no_device_tasks() -> None:
    """TorchDynamo lifts `eps` and `scaling` into 0-d inputs read back with `.item()`: values on
    the host, not aicpu tasks that would cut the SuperKernel."""

    class Norm(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.eps, self.scaling = 1e-6, 0.125
            self.w = torch.nn.Parameter(torch.ones(16))
            self.proj = torch.nn.Linear(16, 16)

        def forward(self, x: Any) -> Any:
            with skir.super_kernel_scope("layer"):
                h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.w
                return self.proj(h) * self.scaling

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unmapped-op warning
        model = dynamo_model(Norm(), torch.randn(4, 16), dynamic=True)
    assert all(t["type"] != "default" for _, t in tasks(model))
    assert not any("eps" in b or "scaling" in b for b in model["buffers"])
    result = skir.compile(model).check()
    assert len(result.superkernels) == 1 and not result.fail_reasons


# ---- functional collectives (docs/design.md §3, "Communication kernels") ---------------------------------


def test_functional_collectives_are_communication_kernels() -> None:
    """Tensor-parallel code traced on the CPU with the "fake" process group: each functional
    collective is a communication kernel task of its group, its wait no task."""
    import torch.distributed as dist
    import torch.distributed._functional_collectives as funcol

    if not dist.is_initialized():
        from torch.testing._internal.distributed.fake_pg import FakeStore

        dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=2)

    class RowParallel(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(16, 8, bias=False)

        def forward(self, x: Any) -> Any:
            h = funcol.all_reduce(self.fc(x), "sum", dist.group.WORLD)
            g = funcol.all_gather_tensor(h, 0, dist.group.WORLD)
            return g.relu()

    for model in (capture_dict(RowParallel(), torch.randn(4, 16)), dynamo_model(RowParallel(), torch.randn(4, 16))):
        found = [t for _, t in tasks(model)]
        assert [t.get("kernel") for t in found] == ["linear", "all_reduce", "all_gather", "relu"]  # no wait task
        comm = {t["kernel"]: t["comm"] for t in found if "comm" in t}
        assert comm == {"all_reduce": {"group": "pg0", "op": "all_reduce", "bytes": 4 * 8 * 4},
                        "all_gather": {"group": "pg0", "op": "all_gather", "bytes": 8 * 8 * 4}}
        result = skir.compile(model).check()
        assert result.proof.ok and [len(sk.members) for sk in result.superkernels] == [4]
