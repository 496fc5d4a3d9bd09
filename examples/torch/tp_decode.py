"""One decode step of a Llama-style layer under 2-way tensor parallelism, as one rank runs it.

Column-parallel QKV and gate/up projections, row-parallel output and down projections, each
row-parallel result all-reduced over the tensor-parallel group (`torch.distributed`'s
functional collectives: what `torch.compile` and `torch.export` trace tensor-parallel code
into). The collectives become communication kernel tasks of group `pg0` (HCCL's AIV expansion
runs them on the vector cores), which `fuse-comm=1` fuses with the layer's kernels.

    python examples/torch/tp_decode.py          # writes tp_decode.json and tp_decode.mlir here
    sk-compile examples/torch/tp_decode.json -o out/tp --check --emulate --report
    sk-compile examples/torch/tp_decode.json -o out/tp0 --options fuse-comm=0 --report

The process group is PyTorch's `"fake"` backend: one CPU process traces rank 0 without peers.
Built on the `meta` device: only shapes matter, so nothing is allocated.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
import torch.nn.functional as F

import skir

RANKS = 2
BATCH = 16
HIDDEN = 4096
HEADS = 32 // RANKS
HEAD_DIM = 128
INTERMEDIATE = 11008 // RANKS
CACHE = 1024


class TpDecodeLayer(torch.nn.Module):
    def __init__(self, group: dist.ProcessGroup) -> None:
        super().__init__()
        self.group = group
        self.attn_norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.qkv = torch.nn.Linear(HIDDEN, 3 * HEADS * HEAD_DIM, bias=False)  # column-parallel
        self.o_proj = torch.nn.Linear(HEADS * HEAD_DIM, HIDDEN, bias=False)  # row-parallel
        self.mlp_norm = torch.nn.Parameter(torch.ones(HIDDEN))
        self.gate_up = torch.nn.Linear(HIDDEN, 2 * INTERMEDIATE, bias=False)  # column-parallel
        self.down = torch.nn.Linear(INTERMEDIATE, HIDDEN, bias=False)  # row-parallel
        self.register_buffer("k_cache", torch.zeros(BATCH, HEADS, CACHE, HEAD_DIM))
        self.register_buffer("v_cache", torch.zeros(BATCH, HEADS, CACHE, HEAD_DIM))

    def forward(self, x: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        with skir.super_kernel_scope("layer0"):
            h = F.rms_norm(x, (HIDDEN,), self.attn_norm)
            q, k, v = self.qkv(h).view(BATCH, 3, HEADS, 1, HEAD_DIM).unbind(1)
            self.k_cache.index_copy_(2, pos, k)
            self.v_cache.index_copy_(2, pos, v)
            attn = F.scaled_dot_product_attention(q, self.k_cache, self.v_cache)
            partial = self.o_proj(attn.reshape(BATCH, HEADS * HEAD_DIM))
            x = x + funcol.all_reduce(partial, "sum", self.group)  # the row-parallel sum over the ranks
            h = F.rms_norm(x, (HIDDEN,), self.mlp_norm)
            gate, up = self.gate_up(h).chunk(2, dim=-1)
            partial = self.down(F.silu(gate) * up)
            return x + funcol.all_reduce(partial, "sum", self.group)


def build() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """The layer of rank 0 and its example inputs (one new token per sequence)."""
    if not dist.is_initialized():
        from torch.testing._internal.distributed.fake_pg import FakeStore

        dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=RANKS)
    with torch.device("meta"):
        module = TpDecodeLayer(dist.group.WORLD).to(torch.bfloat16)
        inputs = (torch.empty(BATCH, HIDDEN, dtype=torch.bfloat16), torch.zeros(1, dtype=torch.long))
    return module, inputs


if __name__ == "__main__":
    from _common import write_example

    module, inputs = build()
    write_example("tp_decode", module, *inputs)
