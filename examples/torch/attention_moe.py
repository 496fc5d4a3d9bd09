"""Two streams in one scope: decode attention on `s0` beside MoE gating on stream `gate`.

The router, its softmax, the top-2 choice and the score scatter run on stream `gate` while
`s0` runs the attention; the expert FFN (all experts, as batched matmuls) and the weighted
combine on `s0` use the gate's scores, so the front end puts an event between the streams.
With stream fusion (the default) skir fuses both streams into one queue SuperKernel.

    python examples/torch/attention_moe.py      # writes attention_moe.json and attention_moe.mlir here
    sk-compile examples/torch/attention_moe.json -o out/attention_moe --check --emulate

Built on the `meta` device: only shapes matter, so nothing is allocated.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

import skir

BATCH = 8
HIDDEN = 1024
HEADS = 8
HEAD_DIM = HIDDEN // HEADS
CACHE = 512
EXPERTS = 4
TOP_K = 2
EXPERT_DIM = 1408


class AttentionMoe(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.qkv = torch.nn.Linear(HIDDEN, 3 * HIDDEN, bias=False)
        self.o_proj = torch.nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.router = torch.nn.Linear(HIDDEN, EXPERTS, bias=False)
        self.w_up = torch.nn.Parameter(torch.empty(EXPERTS, HIDDEN, EXPERT_DIM))
        self.w_down = torch.nn.Parameter(torch.empty(EXPERTS, EXPERT_DIM, HIDDEN))
        self.register_buffer("k_cache", torch.zeros(BATCH, HEADS, CACHE, HEAD_DIM))
        self.register_buffer("v_cache", torch.zeros(BATCH, HEADS, CACHE, HEAD_DIM))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with skir.super_kernel_scope("attn_moe"):
            h = F.rms_norm(x, (HIDDEN,), self.norm)
            with skir.stream("gate"):
                probs = torch.softmax(self.router(h), dim=-1)
                weights, experts = torch.topk(probs, TOP_K, dim=-1)
                scores = torch.zeros_like(probs).scatter(1, experts, weights)
            q, _, _ = self.qkv(h).view(BATCH, 3, HEADS, 1, HEAD_DIM).unbind(1)
            attn = F.scaled_dot_product_attention(q, self.k_cache, self.v_cache)
            x = x + self.o_proj(attn.reshape(BATCH, HIDDEN))
            tokens = x.unsqueeze(0).expand(EXPERTS, BATCH, HIDDEN)
            hidden = F.silu(torch.bmm(tokens, self.w_up))
            out = torch.bmm(hidden, self.w_down)
            return x + (out * scores.t().unsqueeze(-1)).sum(0)


def build() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """The module and its example input (one new token per sequence)."""
    with torch.device("meta"):
        return AttentionMoe().to(torch.bfloat16), (torch.empty(BATCH, HIDDEN, dtype=torch.bfloat16),)


if __name__ == "__main__":
    from _common import write_example

    module, inputs = build()
    write_example("attention_moe", module, *inputs)
