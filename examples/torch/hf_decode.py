"""Capture one decode step of a HuggingFace transformers model, named by its config class.

    python examples/torch/hf_decode.py LlamaConfig -o out/llama      # needs skir[torch,hf]
    python examples/torch/hf_decode.py Qwen2Config --layers 4 --per-layer -o out/qwen2
    python examples/torch/hf_decode.py Qwen3MoeConfig -o out/qwen3_moe  # MoE blocks: static_moe

The model is built from its config at a small size (random weights: only shapes matter), with a
static KV cache of `--cache` positions; the step decodes one token at position `--position`.
A MoE model's sparse blocks are first rewritten by `static_moe` into the dispatch an Ascend
deployment runs (HF's eager loop over the picked experts depends on the data). The capture
JSON, the `.mlir` and sk-compile's products are written to OUT (`-o`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import torch
import transformers

import skir
from skir.frontends.torch import capture, scope_layers, static_moe


def decode_step(config_class: str, layers: int, cache: int) -> tuple[torch.nn.Module, tuple[Any, ...]]:
    config_type = getattr(transformers, config_class, None)
    if config_type is None or not isinstance(config_type, type):
        raise SystemExit(f"hf_decode: transformers has no config class {config_class!r}")
    config = config_type(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=max(64, cache))
    for key, value in (("num_experts", 4), ("num_local_experts", 4), ("n_routed_experts", 4),
                       ("num_experts_per_tok", 2), ("moe_intermediate_size", 32)):
        if hasattr(config, key):  # a MoE config: a few small experts
            setattr(config, key, value)
    model = transformers.AutoModelForCausalLM.from_config(config).eval()
    static_moe(model)

    class Decode(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model
            self.cache = transformers.StaticCache(config=config, max_batch_size=1, max_cache_len=cache,
                                                  device="cpu", dtype=torch.float32)

        def forward(self, ids: Any, position: Any) -> Any:
            return self.model(input_ids=ids, position_ids=position.unsqueeze(0), cache_position=position,
                              past_key_values=self.cache, use_cache=True).logits

    return Decode(), (torch.zeros(1, 1, dtype=torch.long),)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", help="a transformers config class, e.g. LlamaConfig, Qwen2Config, Qwen3Config")
    parser.add_argument("-o", "--output", type=Path, required=True, help="output folder")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--cache", type=int, default=32, help="static KV cache length")
    parser.add_argument("--position", type=int, default=5)
    parser.add_argument("--per-layer", action="store_true", help="scope each decoder layer (scope_layers)")
    args = parser.parse_args(argv)
    module, (ids,) = decode_step(args.config, args.layers, args.cache)
    if args.per_layer:
        scope_layers(module)
    name = f"{args.config.removesuffix('Config').lower()}_decode"
    args.output.mkdir(parents=True, exist_ok=True)
    ir = capture(module, ids, torch.tensor([args.position]), name=name,
                 json_path=args.output / f"{name}.json", mlir_path=args.output / f"{name}.mlir")
    result = skir.compile(ir, out_dir=args.output / "out", check=True)
    print(f"{name}: {result.kernel_tasks} kernel tasks, {len(result.superkernels)} SuperKernels, "
          f"{result.launches_saved} launches saved; products in {args.output / 'out'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
