"""One decode step of a Llama-style layer written the way vllm-ascend writes it: a paged KV cache.

torch_npu's fused ops do the work: `npu_add_rms_norm` (the residual add and the norm in one),
`npu_rotary_mul`, the ATB cache write `_npu_reshape_and_cache` (it writes the key and value
caches in place at the slots `slot_mapping` names, and returns nothing), the ATB
`_npu_paged_attention` over the blocks `block_table` lists (it writes its `out` argument) and
`npu_swiglu`. The block table, the slot mapping and the context lengths are inputs, as a serving
engine passes them each step; the caches are the layer's buffers. GQA: 32 query heads share 8
key/value heads.

    python examples/torch/serving_decode.py     # writes serving_decode.json and serving_decode.mlir here
    sk-compile examples/torch/serving_decode.json -o out/serving --check --emulate

Built on the `meta` device: only shapes matter, so nothing is allocated. Without torch_npu,
`skir.frontends.torch.npu_ops` defines the ops from their published schemas.
"""

from __future__ import annotations

import torch

import skir
import skir.frontends.torch.npu_ops  # defines torch.ops.npu.* and torch.ops.atb.* when torch_npu is absent

BATCH = 16
HIDDEN = 4096
HEADS = 32
KV_HEADS = 8
HEAD_DIM = HIDDEN // HEADS
INTERMEDIATE = 11008
BLOCKS = 256
BLOCK_SIZE = 128
MAX_BLOCKS_PER_SEQ = 32
EPS = 1e-6


class ServingDecodeLayer(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attn_norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.qkv = torch.nn.Linear(HIDDEN, (HEADS + 2 * KV_HEADS) * HEAD_DIM, bias=False)
        self.o_proj = torch.nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.mlp_norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.gate_up = torch.nn.Linear(HIDDEN, 2 * INTERMEDIATE, bias=False)
        self.down = torch.nn.Linear(INTERMEDIATE, HIDDEN, bias=False)
        self.register_buffer("key_cache", torch.zeros(BLOCKS, BLOCK_SIZE, KV_HEADS, HEAD_DIM))
        self.register_buffer("value_cache", torch.zeros(BLOCKS, BLOCK_SIZE, KV_HEADS, HEAD_DIM))

    def forward(self, x: torch.Tensor, residual: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                slot_mapping: torch.Tensor, block_table: torch.Tensor, context_lens: torch.Tensor,
                ) -> tuple[torch.Tensor, torch.Tensor]:
        npu, atb = torch.ops.npu, torch.ops.atb
        with skir.super_kernel_scope("layer0"):
            h, _, residual = npu.npu_add_rms_norm(x, residual, self.attn_norm, EPS)
            q, k, v = self.qkv(h).split([HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM, KV_HEADS * HEAD_DIM], dim=-1)
            q = npu.npu_rotary_mul(q.view(BATCH, 1, HEADS, HEAD_DIM), cos, sin)
            k = npu.npu_rotary_mul(k.view(BATCH, 1, KV_HEADS, HEAD_DIM), cos, sin)
            atb._npu_reshape_and_cache(k.view(BATCH, KV_HEADS, HEAD_DIM), v.view(BATCH, KV_HEADS, HEAD_DIM),
                                       self.key_cache, self.value_cache, slot_mapping)
            attn = torch.empty(BATCH, HEADS, HEAD_DIM, dtype=x.dtype, device=x.device)
            atb._npu_paged_attention(q.view(BATCH, HEADS, HEAD_DIM), self.key_cache, self.value_cache, KV_HEADS,
                                     HEADS, HEAD_DIM ** -0.5, block_table, context_lens, attn)
            x = self.o_proj(attn.view(BATCH, HIDDEN))
            h, _, residual = npu.npu_add_rms_norm(x, residual, self.mlp_norm, EPS)
            return self.down(npu.npu_swiglu(self.gate_up(h))), residual


def build() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """The layer and one step's inputs (one new token per sequence)."""
    with torch.device("meta"):
        module = ServingDecodeLayer().to(torch.bfloat16)
        inputs = (
            torch.empty(BATCH, HIDDEN, dtype=torch.bfloat16),
            torch.empty(BATCH, HIDDEN, dtype=torch.bfloat16),
            torch.empty(BATCH, 1, 1, HEAD_DIM, dtype=torch.bfloat16),
            torch.empty(BATCH, 1, 1, HEAD_DIM, dtype=torch.bfloat16),
            torch.zeros(BATCH, dtype=torch.int32),
            torch.zeros(BATCH, MAX_BLOCKS_PER_SEQ, dtype=torch.int32),
            torch.zeros(BATCH, dtype=torch.int32),
        )
    return module, inputs


if __name__ == "__main__":
    from _common import write_example

    module, inputs = build()
    write_example("serving_decode", module, *inputs)
