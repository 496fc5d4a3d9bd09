"""torch_npu's fused ops without torch_npu, so model code written for Ascend traces on a CPU.

Models written for Ascend (vllm-ascend, MindSpeed) call `torch.ops.npu.npu_rms_norm`,
`torch_npu.npu_add_rms_norm`, ... and torch_npu's ATB ops (`torch.ops.atb._npu_reshape_and_cache`,
`torch.ops.atb._npu_paged_attention`, which write their `Tensor(a!)` arguments and return
nothing). Importing this module defines, for every op below that the process does not have
already (torch_npu registers the real ones), a `torch.library` op with torch_npu's published
schema and a fake (shape) implementation, and maps it to a kernel task with `register_op`; the
tensors an op writes come from the schema. With torch_npu installed only the mapping is added.

```python
import skir.frontends.torch.npu_ops                     # defines torch.ops.npu.* when missing
y, rstd = torch.ops.npu.npu_rms_norm(x, w, 1e-6)        # traces with capture() / torch.compile
```

The ops have shapes, not values, unless noted: on CPU tensors `npu_rms_norm`,
`npu_add_rms_norm`, `npu_swiglu`, `npu_rotary_mul`, `npu_apply_rotary_pos_emb` and the MoE
dispatch `static_moe` emits (`npu_moe_init_routing`, `npu_moe_compute_expert_tokens`,
`npu_grouped_matmul`, `npu_moe_finalize_routing`: `npu_moe_reference`) compute the reference
math; the others raise torch's "no kernel" error if run eagerly on a CPU (a
capture never runs them: `torch.export` uses the fake implementations).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

import skir.frontends.torch.npu_moe_reference as moe_reference
from skir.frontends.torch.op_registry import register_op

_F32, _I32, _I8 = torch.float32, torch.int32, torch.int8

# name -> (schema, kernel type); schemas as torch_npu publishes them (op-plugin's op_plugin_functions.yaml,
# and the ATB library's TORCH_LIBRARY_FRAGMENT(atb, ...) definitions)
ATB_SCHEMAS: dict[str, tuple[str, str]] = {
    "_npu_reshape_and_cache": ("(Tensor key, Tensor value, Tensor(a!) key_cache, Tensor(b!) value_cache, "
                               "Tensor slot_indices) -> ()", "aiv_only"),
    "_npu_paged_attention": ("(Tensor query, Tensor key_cache, Tensor value_cache, int num_kv_heads, int num_heads, "
                             "float scale_value, Tensor block_table, Tensor context_lens, Tensor(a!) out, *, "
                             "Tensor? workspace=None) -> ()", "mix_aic_1_2"),
}
SCHEMAS: dict[str, tuple[str, str]] = {
    "npu_rms_norm": ("(Tensor self, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor)", "aiv_only"),
    "npu_add_rms_norm": ("(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) -> (Tensor, Tensor, Tensor)",
                         "aiv_only"),
    "npu_apply_rotary_pos_emb": ("(Tensor query, Tensor key, Tensor cos, Tensor sin, str layout='BSND', "
                                 "str rotary_mode='half') -> (Tensor, Tensor)", "aiv_only"),
    "npu_rotary_mul": ("(Tensor self, Tensor r1, Tensor r2, str rotary_mode='half', Tensor? rotate=None) -> Tensor",
                       "aiv_only"),
    "npu_swiglu": ("(Tensor self, int dim=-1) -> Tensor", "aiv_only"),
    "npu_dynamic_quant": ("(Tensor input, *, Tensor? smooth_scales=None, Tensor? group_index=None, int? dst_type=None, "
                          "str quant_mode=\"pertoken\", float dst_type_max=0.0) -> (Tensor, Tensor)", "aiv_only"),
    "npu_dequant_swiglu_quant": (
        "(Tensor x, *, Tensor? weight_scale=None, Tensor? activation_scale=None, Tensor? bias=None, "
        "Tensor? quant_scale=None, Tensor? quant_offset=None, Tensor? group_index=None, bool activate_left=False, "
        "int quant_mode=0, int? dst_type=None, int? round_mode=None, int? activate_dim=None, int swiglu_mode=0, "
        "float clamp_limit=7.0, float glu_alpha=1.702, float glu_bias=1.0) -> (Tensor, Tensor)", "aiv_only"),
    "npu_moe_gating_top_k": (
        "(Tensor x, int k, *, Tensor? bias=None, Tensor? input_ids=None, Tensor? tid2eid=None, int k_group=1, "
        "int group_count=1, int group_select_mode=0, int renorm=0, int norm_type=0, bool out_flag=False, "
        "float routed_scaling_factor=1.0, float eps=1e-20) -> (Tensor, Tensor, Tensor)", "aiv_only"),
    "npu_moe_init_routing": ("(Tensor x, Tensor row_idx, Tensor expert_idx, int active_num) "
                             "-> (Tensor, Tensor, Tensor)", "aiv_only"),
    "npu_moe_compute_expert_tokens": ("(Tensor sorted_expert_for_source_row, int num_expert) -> Tensor", "aiv_only"),
    "npu_moe_finalize_routing": (
        "(Tensor expanded_permuted_rows, Tensor? skip1, Tensor? skip2, Tensor? bias, Tensor? scales, "
        "Tensor expanded_src_to_dst_row, Tensor? export_for_source_row, int? drop_pad_mode=0, int? k=1) -> Tensor",
        "aiv_only"),
    "npu_quant_matmul": (
        "(Tensor x1, Tensor x2, Tensor scale, *, Tensor? offset=None, Tensor? pertoken_scale=None, Tensor? bias=None, "
        "int? output_dtype=None, int? x1_dtype=None, int? x2_dtype=None, int? pertoken_scale_dtype=None, "
        "int? scale_dtype=None, int[]? group_sizes=None, Tensor? y_scale=None) -> Tensor", "mix_aic_1_2"),
    "npu_grouped_matmul": (
        "(Tensor[] x, Tensor[] weight, *, Tensor[]? bias=None, Tensor[]? scale=None, Tensor[]? offset=None, "
        "Tensor[]? antiquant_scale=None, Tensor[]? antiquant_offset=None, Tensor[]? per_token_scale=None, "
        "Tensor? group_list=None, Tensor[]? activation_input=None, Tensor[]? activation_quant_scale=None, "
        "Tensor[]? activation_quant_offset=None, int? split_item=0, int? group_type=None, int? group_list_type=0, "
        "int? act_type=0, int[]? tuning_config=None, int? output_dtype=None, int? x_dtype=None, "
        "int? weight_dtype=None, int? scale_dtype=None, int? per_token_scale_dtype=None) -> Tensor[]", "mix_aic_1_2"),
    "npu_fused_infer_attention_score": (
        "(Tensor query, Tensor key, Tensor value, *, Tensor? pse_shift=None, Tensor? atten_mask=None, "
        "SymInt[]? actual_seq_lengths=None, SymInt[]? actual_seq_lengths_kv=None, Tensor? dequant_scale1=None, "
        "Tensor? quant_scale1=None, Tensor? dequant_scale2=None, Tensor? quant_scale2=None, "
        "Tensor? quant_offset2=None, Tensor? antiquant_scale=None, Tensor? antiquant_offset=None, "
        "Tensor? key_antiquant_scale=None, Tensor? key_antiquant_offset=None, Tensor? value_antiquant_scale=None, "
        "Tensor? value_antiquant_offset=None, Tensor? block_table=None, Tensor? query_padding_size=None, "
        "Tensor? kv_padding_size=None, Tensor? key_shared_prefix=None, Tensor? value_shared_prefix=None, "
        "SymInt[]? actual_shared_prefix_len=None, Tensor? query_rope=None, Tensor? key_rope=None, "
        "Tensor? key_rope_antiquant_scale=None, int num_heads=1, float scale=1.0, int pre_tokens=2147483647, "
        "int next_tokens=2147483647, str input_layout=\"BSH\", int num_key_value_heads=0, int sparse_mode=0, "
        "int inner_precise=0, int block_size=0, int antiquant_mode=0, int key_antiquant_mode=0, "
        "int value_antiquant_mode=0, bool softmax_lse_flag=False) -> (Tensor, Tensor)", "mix_aic_1_2"),
    "npu_incre_flash_attention": (
        "(Tensor query, Tensor key, Tensor value, *, Tensor? padding_mask=None, Tensor? atten_mask=None, "
        "Tensor? pse_shift=None, SymInt[]? actual_seq_lengths=None, Tensor? antiquant_scale=None, "
        "Tensor? antiquant_offset=None, Tensor? block_table=None, Tensor? dequant_scale1=None, "
        "Tensor? quant_scale1=None, Tensor? dequant_scale2=None, Tensor? quant_scale2=None, "
        "Tensor? quant_offset2=None, Tensor? kv_padding_size=None, int num_heads=1, float scale_value=1.0, "
        "str input_layout=\"BSH\", int num_key_value_heads=0, int block_size=0, int inner_precise=1) -> Tensor",
        "mix_aic_1_2"),
}


def _rstd_shape(x: torch.Tensor, gamma: torch.Tensor) -> list[int]:
    return [*x.shape[: x.dim() - gamma.dim()], *([1] * gamma.dim())]


def _halved(x: torch.Tensor, dim: int) -> list[int]:
    shape = list(x.shape)
    shape[dim] //= 2
    return shape


def _grouped_matmul(x: list[torch.Tensor], weight: list[torch.Tensor], **kw: Any) -> list[torch.Tensor]:
    if len(x) == 1 and len(weight) >= 1 and weight[0].dim() == 3:  # one x, experts stacked: one output
        return [x[0].new_empty((x[0].shape[0], weight[0].shape[-1]))]
    return [xi.new_empty((*xi.shape[:-1], wi.shape[-1])) for xi, wi in zip(x, weight, strict=False)]


def _reshape_and_cache(key: torch.Tensor, value: torch.Tensor, key_cache: torch.Tensor, value_cache: torch.Tensor,
                       slot_indices: torch.Tensor) -> None:
    """Token i's key and value go to slot `slot_indices[i]` of the (blocks x block_size) cache."""
    for src, cache in ((key, key_cache), (value, value_cache)):
        cache.view(-1, *cache.shape[2:])[slot_indices.long()] = src.to(cache.dtype)


def _paged_attention(query: torch.Tensor, key_cache: torch.Tensor, value_cache: torch.Tensor, num_kv_heads: int,
                     num_heads: int, scale_value: float, block_table: torch.Tensor, context_lens: torch.Tensor,
                     out: torch.Tensor, workspace: torch.Tensor | None = None) -> None:
    """Decode attention over a paged cache: sequence b attends to its first `context_lens[b]`
    cache slots, found block by block through `block_table[b]` (query: batch x heads x dim)."""
    block = key_cache.shape[1]
    for b in range(query.shape[0]):
        n = int(context_lens[b])
        slots = [int(block_table[b, i // block]) * block + i % block for i in range(n)]
        keys = key_cache.view(-1, *key_cache.shape[2:])[slots].float()  # n x kv_heads x dim
        values = value_cache.view(-1, *value_cache.shape[2:])[slots].float()
        group = num_heads // num_kv_heads
        keys, values = keys.repeat_interleave(group, dim=1), values.repeat_interleave(group, dim=1)
        scores = torch.einsum("hd,nhd->hn", query[b].float(), keys) * scale_value
        out[b] = torch.einsum("hn,nhd->hd", scores.softmax(-1), values).to(out.dtype)


ATB_FAKES: dict[str, Callable[..., Any]] = {
    "_npu_reshape_and_cache": lambda key, value, key_cache, value_cache, slot_indices: None,
    "_npu_paged_attention": lambda query, key_cache, value_cache, num_kv_heads, num_heads, scale_value, block_table,
    context_lens, out, workspace=None: None,
}
ATB_CPU_IMPLS: dict[str, Callable[..., Any]] = {
    "_npu_reshape_and_cache": _reshape_and_cache,
    "_npu_paged_attention": _paged_attention,
}

FAKES: dict[str, Callable[..., Any]] = {
    "npu_rms_norm": lambda x, gamma, epsilon=1e-6: (torch.empty_like(x),
                                                    x.new_empty(_rstd_shape(x, gamma), dtype=_F32)),
    "npu_add_rms_norm": lambda x1, x2, gamma, epsilon=1e-6: (
        torch.empty_like(x1), x1.new_empty(_rstd_shape(x1, gamma), dtype=_F32), torch.empty_like(x1)),
    "npu_apply_rotary_pos_emb": lambda q, k, cos, sin, layout="BSND", rotary_mode="half": (
        torch.empty_like(q), torch.empty_like(k)),
    "npu_rotary_mul": lambda x, r1, r2, rotary_mode="half", rotate=None: torch.empty_like(x),
    "npu_swiglu": lambda x, dim=-1: x.new_empty(_halved(x, dim)),
    "npu_dynamic_quant": lambda x, **kw: (torch.empty_like(x, dtype=_I8), x.new_empty(x.shape[:-1], dtype=_F32)),
    "npu_dequant_swiglu_quant": lambda x, **kw: (x.new_empty(_halved(x, -1), dtype=_I8),
                                                 x.new_empty(x.shape[:-1], dtype=_F32)),
    "npu_moe_gating_top_k": lambda x, k, **kw: (x.new_empty((x.shape[0], k)),
                                                x.new_empty((x.shape[0], k), dtype=_I32),
                                                x.new_empty(x.shape, dtype=_F32)),
    "npu_moe_init_routing": lambda x, row_idx, expert_idx, active_num: (
        x.new_empty((min(x.shape[0], active_num) * expert_idx.shape[1], x.shape[1])),
        x.new_empty((x.shape[0] * expert_idx.shape[1],), dtype=_I32),
        x.new_empty((x.shape[0] * expert_idx.shape[1],), dtype=_I32)),
    "npu_moe_compute_expert_tokens": lambda sorted_experts, num_expert: sorted_experts.new_empty(
        (num_expert,), dtype=_I32),
    # one row per token: the tokens are the scales' (or skip1's) rows, else the expanded rows / k
    "npu_moe_finalize_routing": lambda rows, skip1, skip2, bias, scales, src_to_dst, export, drop_pad_mode=0, k=1: (
        rows.new_empty((scales.shape[0] if scales is not None else skip1.shape[0] if skip1 is not None
                        else src_to_dst.shape[0] // max(1, k or 1), rows.shape[-1]))),
    "npu_quant_matmul": lambda x1, x2, scale, **kw: x1.new_empty(
        (*x1.shape[:-1], x2.shape[-1]), dtype=torch.float16 if kw.get("output_dtype") else _I8),
    "npu_grouped_matmul": _grouped_matmul,
    "npu_fused_infer_attention_score": lambda q, k, v, **kw: (torch.empty_like(q), q.new_empty((1,), dtype=_F32)),
    "npu_incre_flash_attention": lambda q, k, v, **kw: torch.empty_like(q),
}


def _rms(x: torch.Tensor, gamma: torch.Tensor, eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    dims = tuple(range(x.dim() - gamma.dim(), x.dim()))
    rstd = torch.rsqrt(x.float().pow(2).mean(dim=dims, keepdim=True) + eps)
    return (x.float() * rstd).to(x.dtype) * gamma, rstd


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


CPU_IMPLS: dict[str, Callable[..., Any]] = {
    "npu_rms_norm": lambda x, gamma, epsilon=1e-6: _rms(x, gamma, epsilon),
    "npu_add_rms_norm": lambda x1, x2, gamma, epsilon=1e-6: (*_rms(x1 + x2, gamma, epsilon), x1 + x2),
    "npu_swiglu": lambda x, dim=-1: torch.nn.functional.silu(x.chunk(2, dim)[0]) * x.chunk(2, dim)[1],
    "npu_rotary_mul": lambda x, r1, r2, rotary_mode="half", rotate=None: x * r1 + _rotate_half(x) * r2,
    "npu_apply_rotary_pos_emb": lambda q, k, cos, sin, layout="BSND", rotary_mode="half": (
        q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin),
    "npu_moe_init_routing": moe_reference.init_routing,
    "npu_moe_compute_expert_tokens": moe_reference.compute_expert_tokens,
    "npu_grouped_matmul": moe_reference.grouped_matmul,
    "npu_moe_finalize_routing": moe_reference.finalize_routing,
}

_LIBRARIES: dict[str, Any] = {}


def install() -> list[str]:
    """Define the missing ops (once) and register every op's kernel mapping; returns the names
    (`ns::name`) this call defined."""
    defined = []
    tables = (("npu", SCHEMAS, FAKES, CPU_IMPLS), ("atb", ATB_SCHEMAS, ATB_FAKES, ATB_CPU_IMPLS))
    for ns, schemas, fakes, impls in tables:
        namespace = getattr(torch.ops, ns)
        for name, (schema, kernel_type) in schemas.items():
            register_op(f"{ns}::{name}", kernel_type=kernel_type)
            if hasattr(namespace, name):
                continue
            if ns not in _LIBRARIES:  # kept alive: the ops live as long as it
                _LIBRARIES[ns] = torch.library.Library(ns, "FRAGMENT")
            library = _LIBRARIES[ns]
            library.define(name + schema)
            torch.library.register_fake(f"{ns}::{name}", fakes[name], lib=library)
            if name in impls:
                library.impl(name, impls[name], "CPU")
            defined.append(f"{ns}::{name}")
    return defined


install()
