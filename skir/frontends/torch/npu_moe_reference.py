"""CPU reference math of torch_npu's MoE dispatch ops, as their published descriptions define
them, so that a model rewritten by `skir.frontends.torch.static_moe` runs (and can be checked
against the model it came from) on a CPU.

The dispatch of `k` experts per token over `T` tokens, with `row_idx[t, j] = j * T + t`:

- `npu_moe_init_routing(x, row_idx, expert_idx, active_num)`: the `T * k` (token, choice)
  rows sorted by expert, stably: `expanded_x[i] = x[sorted_row[i] % T]`, `src_to_dst[row] = i`
  (where row `row` of the flattened `row_idx` went) and the sorted experts;
- `npu_moe_compute_expert_tokens(sorted_experts, num_expert)`: for each expert, the end of its
  rows in the sorted order (a running count, int32);
- `npu_grouped_matmul([x], [w], group_list=ends, split_item=2, group_type=0)`: rows
  `ends[e-1]:ends[e]` of `x` times `w[e]` (`w`: experts x K x N), one output;
- `npu_moe_finalize_routing(rows, skip1, skip2, bias, scales, src_to_dst, experts)`:
  `out[t] = skip1[t] + skip2[t] + sum_j scales[t, j] * (rows[src_to_dst[j * T + t]] +
  bias[experts[t, j]])`, each term where given.

Only the forms `static_moe` emits are computed (full capacity: `active_num >= T`, cumulative
group lists); anything else raises, naming the op.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import torch


def init_routing(x: torch.Tensor, row_idx: torch.Tensor, expert_idx: torch.Tensor,
                 active_num: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    tokens = x.shape[0]
    if active_num < tokens:
        raise NotImplementedError("npu_moe_init_routing: the CPU reference needs active_num >= the token count")
    experts = expert_idx.reshape(-1)
    order = torch.sort(experts.to(torch.int64), stable=True).indices
    sorted_rows = row_idx.reshape(-1).to(torch.int64)[order]
    src_to_dst = torch.empty_like(sorted_rows)
    src_to_dst[sorted_rows] = torch.arange(sorted_rows.numel())
    return x[sorted_rows % tokens], src_to_dst.to(torch.int32), experts[order].to(torch.int32)


def compute_expert_tokens(sorted_experts: torch.Tensor, num_expert: int) -> torch.Tensor:
    bounds = torch.arange(num_expert, dtype=torch.int64)
    return torch.searchsorted(sorted_experts.to(torch.int64), bounds, right=True).to(torch.int32)


def grouped_matmul(x: list[torch.Tensor], weight: list[torch.Tensor], **kw: Any) -> list[torch.Tensor]:
    group_list = kw.get("group_list")
    if len(x) == 1 and len(weight) == 1 and weight[0].dim() == 3 and group_list is not None \
            and kw.get("split_item") in (2, 3) and not kw.get("group_list_type"):
        ends = [0, *(int(e) for e in group_list)]
        parts = [x[0][lo:hi] @ weight[0][e] for e, (lo, hi) in enumerate(pairwise(ends))]
        return [torch.cat(parts) if parts else x[0].new_empty((0, weight[0].shape[-1]))]
    if group_list is None and len(x) == len(weight):
        return [xi @ wi for xi, wi in zip(x, weight, strict=True)]
    raise NotImplementedError("npu_grouped_matmul: the CPU reference computes one stacked weight with a cumulative "
                              "group_list, or one weight per input")


def finalize_routing(rows: torch.Tensor, skip1: torch.Tensor | None, skip2: torch.Tensor | None,
                     bias: torch.Tensor | None, scales: torch.Tensor | None, src_to_dst: torch.Tensor,
                     experts: torch.Tensor | None, drop_pad_mode: int | None = 0, k: int | None = 1) -> torch.Tensor:
    if scales is None:
        raise NotImplementedError("npu_moe_finalize_routing: the CPU reference needs scales")
    tokens, choices = scales.shape
    picked = rows[src_to_dst.to(torch.int64).view(choices, tokens).t()]  # [T, k, H]
    if bias is not None and experts is not None:
        picked = picked + bias[experts.to(torch.int64)]
    out = (picked * scales.unsqueeze(-1).to(rows.dtype)).sum(dim=1)
    for skip in (skip1, skip2):
        if skip is not None:
            out = out + skip
    return out
