"""`static_moe(model)`: HuggingFace's sparse MoE blocks in the static-shape form an Ascend
deployment runs, so that a MoE model captures.

HF's eager MoE blocks loop over the experts the router picked (`nonzero`, `torch.where`,
`index_add_`): which tasks run depends on the data, which no captured graph holds (`capture`
says so, naming the line). vllm-ascend runs a MoE layer as a fixed sequence of torch_npu ops
instead, and so does the model after `static_moe`: each sparse MoE block keeps its router
(plain torch: logits, softmax or sigmoid, top-k, exactly as the block computes them) and
dispatches the tokens with

```
rows, src_to_dst, experts = npu_moe_init_routing(x, row_idx, topk_ids, T)   # rows sorted by expert
ends = npu_moe_compute_expert_tokens(experts, E)                             # rows per expert
h = npu_grouped_matmul([rows], [w_gate_up], group_list=ends, split_item=2, group_type=0)[0]
h = npu_swiglu(h)                                                             # silu(gate) * up
h = npu_grouped_matmul([h], [w_down], group_list=ends, split_item=2, group_type=0)[0]
y = npu_moe_finalize_routing(h, None, None, None, topk_weights, src_to_dst, topk_ids)
```
with the experts' projections stacked (`w_gate_up`: E x H x 2I, `w_down`: E x I x H; the
expert modules are dropped). Shared experts stay as they are. On the CPU the ops compute
their reference math (`npu_moe_reference`), so the rewritten model gives the original's output.

```python
from skir.frontends.torch import capture_dict, static_moe
model = transformers.MixtralForCausalLM(config)
static_moe(model)                          # ['model.layers.0.block_sparse_moe', ...]
capture_dict(model, ids)                   # one task per op, no data-dependent loop
```
Blocks (transformers 4): Mixtral, Qwen2-MoE, Qwen3-MoE (softmax routing, rewritten whole) and
DeepSeek-V2 / V3 (their `moe(hidden, topk_ids, topk_weights)` step, after their own router).
Experts must be SiLU-gated MLPs (`gate_proj` / `up_proj` / `down_proj`, or Mixtral's `w1` /
`w3` / `w2`). transformers 5 fuses a block's experts into one module whose stacked
`gate_up_proj` (E x 2I x H) and `down_proj` (E x H x I) its `forward(hidden, top_k_index,
top_k_weights)` uses after the block's router: there the experts module alone is rewritten (any
model whose experts take that form: Mixtral, Qwen2/3-MoE, DeepSeek-V2/V3, OLMoE, GraniteMoE,
...), its router and shared experts staying as they are. Experts that are not SiLU-gated are a
`SkirError` naming them.
"""

from __future__ import annotations

import types
from typing import Any

import torch
import torch.nn.functional as F

from skir.errors import SkirError

_SOFTMAX_BLOCKS = frozenset(("MixtralSparseMoeBlock", "Qwen2MoeSparseMoeBlock", "Qwen3MoeSparseMoeBlock"))
_MOE_STEP_BLOCKS = frozenset(("DeepseekV3MoE", "DeepseekV2Moe", "DeepseekV2MoE"))
_SILU = frozenset(("SiLU", "SiLUActivation"))  # torch's module, transformers' ACT2FN["silu"]


def static_moe(model: torch.nn.Module) -> list[str]:
    """Rewrite every sparse MoE block of `model` in place (see the module docstring); returns the
    qualified names of the blocks rewritten, in module order."""
    done = []
    for name, block in list(model.named_modules()):
        kind = type(block).__name__
        if _fused_experts(block):  # transformers 5
            if not _is_silu(getattr(block, "act_fn", None)):
                raise SkirError(f"static_moe: {name} ({kind}) is not a SiLU-gated MLP (its act_fn is "
                                f"{type(getattr(block, 'act_fn', None)).__name__})")
            block.forward = types.MethodType(_fused_experts_forward, block)
            done.append(name.rsplit(".", 1)[0] if "." in name else name)
            continue
        if kind in _SOFTMAX_BLOCKS and isinstance(getattr(block, "experts", None), torch.nn.ModuleList):
            _stack_experts(block, name)
            block.forward = types.MethodType(_softmax_block_forward, block)
        elif kind in _MOE_STEP_BLOCKS and isinstance(getattr(block, "experts", None), torch.nn.ModuleList):
            _stack_experts(block, name)
            block.moe = types.MethodType(_moe_step, block)
        else:
            continue
        done.append(name)
    return done


def _stack_experts(block: torch.nn.Module, name: str) -> None:
    """`w_gate_up` (E x H x 2I) and `w_down` (E x I x H) from the block's experts, which go."""
    gate_up, down = [], []
    for i, expert in enumerate(block.experts):  # type: ignore[arg-type]
        projections = _projections(expert)
        if projections is None:
            raise SkirError(f"static_moe: {name}.experts[{i}] ({type(expert).__name__}) is not a SiLU-gated MLP "
                            "(gate_proj / up_proj / down_proj or w1 / w3 / w2, act silu)")
        gate, up, proj_down = projections
        gate_up.append(torch.cat((gate.weight.t(), up.weight.t()), dim=1))
        down.append(proj_down.weight.t())
    with torch.no_grad():
        block.register_parameter("w_gate_up", torch.nn.Parameter(torch.stack(gate_up), requires_grad=False))
        block.register_parameter("w_down", torch.nn.Parameter(torch.stack(down), requires_grad=False))
    del block.experts


def _is_silu(act: Any) -> bool:
    return act is F.silu or type(act).__name__ in _SILU


def _fused_experts(module: torch.nn.Module) -> bool:
    """A transformers 5 experts module: stacked 3-d `gate_up_proj` and `down_proj`."""
    gate_up, down = getattr(module, "gate_up_proj", None), getattr(module, "down_proj", None)
    return (isinstance(gate_up, torch.Tensor) and isinstance(down, torch.Tensor) and gate_up.dim() == 3
            and down.dim() == 3)


def _fused_experts_forward(self: Any, hidden_states: torch.Tensor, top_k_index: torch.Tensor,
                           top_k_weights: torch.Tensor) -> torch.Tensor:
    """A fused experts module's forward through `dispatch`: its (E x 2I x H) and (E x H x I)
    weights are the (E x H x 2I) and (E x I x H) the grouped matmuls take."""
    out = dispatch(hidden_states, top_k_index, top_k_weights.to(hidden_states.dtype),
                   self.gate_up_proj.transpose(1, 2), self.down_proj.transpose(1, 2))
    return out.to(hidden_states.dtype)


def _projections(expert: torch.nn.Module) -> tuple[Any, Any, Any] | None:
    if not _is_silu(getattr(expert, "act_fn", None)):
        return None
    for gate, up, down in (("gate_proj", "up_proj", "down_proj"), ("w1", "w3", "w2")):
        mods = [getattr(expert, n, None) for n in (gate, up, down)]
        if all(isinstance(m, torch.nn.Linear) and m.bias is None for m in mods):
            return mods[0], mods[1], mods[2]
    return None


def dispatch(x: torch.Tensor, topk_ids: torch.Tensor, topk_weights: torch.Tensor, w_gate_up: torch.Tensor,
             w_down: torch.Tensor) -> torch.Tensor:
    """The experts' outputs for tokens `x` (T x H), summed with `topk_weights` over each token's
    `topk_ids` (T x k), through the torch_npu dispatch ops."""
    npu = torch.ops.npu
    tokens, k = topk_ids.shape
    ids = topk_ids.to(torch.int32)
    row_idx = torch.arange(tokens * k, dtype=torch.int32, device=x.device).view(k, tokens).t().contiguous()
    rows, src_to_dst, experts = npu.npu_moe_init_routing(x, row_idx, ids, tokens)
    ends = npu.npu_moe_compute_expert_tokens(experts, w_gate_up.shape[0]).to(torch.int64)
    h = npu.npu_grouped_matmul([rows], [w_gate_up.to(x.dtype)], group_list=ends, split_item=2, group_type=0)[0]
    h = npu.npu_swiglu(h)
    h = npu.npu_grouped_matmul([h], [w_down.to(x.dtype)], group_list=ends, split_item=2, group_type=0)[0]
    out: torch.Tensor = npu.npu_moe_finalize_routing(h, None, None, None, topk_weights.to(x.dtype), src_to_dst, ids)
    return out


def _softmax_block_forward(self: Any, hidden_states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Mixtral / Qwen2-MoE / Qwen3-MoE: the block's softmax top-k routing, then `dispatch`."""
    batch, seq, hidden = hidden_states.shape
    x = hidden_states.view(-1, hidden)
    router_logits = self.gate(x)
    weights = F.softmax(router_logits, dim=1, dtype=torch.float)
    weights, ids = torch.topk(weights, self.top_k, dim=-1)
    if getattr(self, "norm_topk_prob", True):  # Mixtral always renormalises
        weights = weights / weights.sum(dim=-1, keepdim=True)
    out = dispatch(x, ids, weights.to(x.dtype), self.w_gate_up, self.w_down)
    if getattr(self, "shared_expert", None) is not None:  # Qwen2-MoE
        out = out + F.sigmoid(self.shared_expert_gate(x)) * self.shared_expert(x)
    return out.reshape(batch, seq, hidden), router_logits


def _moe_step(self: Any, hidden_states: torch.Tensor, topk_ids: torch.Tensor,
              topk_weights: torch.Tensor) -> torch.Tensor:
    """DeepSeek-V2 / V3: the block's `moe` step (its router and shared experts stay)."""
    out = dispatch(hidden_states, topk_ids, topk_weights.to(hidden_states.dtype), self.w_gate_up, self.w_down)
    return out.type(hidden_states.dtype)
