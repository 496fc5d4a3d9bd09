"""An MLP block (pre-norm, up projection, GELU, down projection, residual) in one SuperKernel scope.

    python examples/torch/mlp_block.py          # writes mlp_block.json and mlp_block.mlir here
    sk-compile examples/torch/mlp_block.json -o out/mlp_block --check --emulate

The model is built on the `meta` device: only shapes matter, so nothing is allocated.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

import skir

HIDDEN = 1024
INTERMEDIATE = 4096
TOKENS = 32


class MlpBlock(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(HIDDEN)
        self.up = torch.nn.Linear(HIDDEN, INTERMEDIATE)
        self.down = torch.nn.Linear(INTERMEDIATE, HIDDEN)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with skir.super_kernel_scope("mlp"):
            h = self.up(self.norm(x))
            h = F.gelu(h)
            return x + self.down(h)


def build() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """The module and its example inputs."""
    with torch.device("meta"):
        return MlpBlock().to(torch.bfloat16), (torch.empty(TOKENS, HIDDEN, dtype=torch.bfloat16),)


if __name__ == "__main__":
    from _common import write_example

    module, inputs = build()
    write_example("mlp_block", module, *inputs)
