"""One decode step of a Llama-style transformer decoder layer, as one SuperKernel scope.

RMSNorm, fused QKV projection, rotary embedding, KV-cache update in place, attention over
the cache, output projection and residual; RMSNorm, gate/up projection, SiLU-and-multiply,
down projection and residual.

    python examples/torch/decoder_layer.py      # writes decoder_layer.json and decoder_layer.mlir here
    sk-compile examples/torch/decoder_layer.json -o out/decoder_layer --check --emulate

Built on the `meta` device: only shapes matter, so nothing is allocated.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

import skir

BATCH = 8
HIDDEN = 2048
HEADS = 16
HEAD_DIM = HIDDEN // HEADS
INTERMEDIATE = 5632
CACHE = 1024


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    first, second = x[..., : HEAD_DIM // 2], x[..., HEAD_DIM // 2 :]
    return torch.cat((-second, first), dim=-1)


class DecoderLayer(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attn_norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.qkv = torch.nn.Linear(HIDDEN, 3 * HIDDEN, bias=False)
        self.o_proj = torch.nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.mlp_norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.gate_up = torch.nn.Linear(HIDDEN, 2 * INTERMEDIATE, bias=False)
        self.down = torch.nn.Linear(INTERMEDIATE, HIDDEN, bias=False)
        self.register_buffer("k_cache", torch.zeros(BATCH, HEADS, CACHE, HEAD_DIM))
        self.register_buffer("v_cache", torch.zeros(BATCH, HEADS, CACHE, HEAD_DIM))

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        with skir.super_kernel_scope("layer0"):
            h = F.rms_norm(x, (HIDDEN,), self.attn_norm)
            q, k, v = self.qkv(h).view(BATCH, 3, HEADS, 1, HEAD_DIM).unbind(1)
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
            self.k_cache.index_copy_(2, pos, k)
            self.v_cache.index_copy_(2, pos, v)
            attn = F.scaled_dot_product_attention(q, self.k_cache, self.v_cache)
            x = x + self.o_proj(attn.reshape(BATCH, HIDDEN))
            h = F.rms_norm(x, (HIDDEN,), self.mlp_norm)
            gate, up = self.gate_up(h).chunk(2, dim=-1)
            return x + self.down(F.silu(gate) * up)


def build() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """The module and its example inputs (one new token per sequence)."""
    with torch.device("meta"):
        module = DecoderLayer().to(torch.bfloat16)
        inputs = (
            torch.empty(BATCH, HIDDEN, dtype=torch.bfloat16),
            torch.empty(BATCH, 1, 1, HEAD_DIM, dtype=torch.bfloat16),
            torch.empty(BATCH, 1, 1, HEAD_DIM, dtype=torch.bfloat16),
            torch.zeros(1, dtype=torch.long),
        )
    return module, inputs


if __name__ == "__main__":
    from _common import write_example

    module, inputs = build()
    write_example("decoder_layer", module, *inputs)
