"""Capture one decode step of a HuggingFace transformers model, named by its config class.

    python examples/torch/hf_decode.py LlamaConfig -o out/llama      # needs skir[torch,hf]
    python examples/torch/hf_decode.py Qwen2Config --layers 4 --per-layer -o out/qwen2
    python examples/torch/hf_decode.py Qwen3MoeConfig -o out/qwen3_moe  # MoE blocks: static_moe
    python examples/torch/hf_decode.py LlamaConfig --npu-attention --per-layer -o out/llama_fia

The model is built from its config at a small size (random weights: only shapes matter), with a
static KV cache of `--cache` positions; the step decodes one token at position `--position`.
A MoE model's sparse blocks are first rewritten by `static_moe` into the dispatch an Ascend
deployment runs (HF's eager loop over the picked experts depends on the data). The capture
JSON, the `.mlir` and sk-compile's products are written to OUT (`-o`).

`--npu-attention` makes the attention torch_npu's fused attention (`npu_fused_infer_attention_score`,
BNSD) given the step's sequence length, as an Ascend deployment runs it: a kernel updated before
every replay (docs/design.md §3 "Updated kernels"). The step is then compiled with
`fuse-updated=0` (the default: attention stays a launch, each layer splits around it) and
`fuse-updated=1` (attention fuses; the runtime forwards its update), and the script prints both.
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


def npu_attention(position: int) -> str:
    """Register, with transformers' attention registry, an attention that calls torch_npu's fused
    attention with this step's KV length (`actual_seq_lengths_kv`); returns its name."""
    import skir.frontends.torch.npu_ops  # noqa: F401  (defines torch.ops.npu's ops without torch_npu)

    def attention(module: Any, query: Any, key: Any, value: Any, attention_mask: Any, scaling: float | None = None,
                  dropout: float = 0.0, **kwargs: Any) -> tuple[Any, None]:
        heads, kv_heads = query.shape[1], key.shape[1]
        out, _ = torch.ops.npu.npu_fused_infer_attention_score(
            query, key, value, num_heads=heads, num_key_value_heads=kv_heads, input_layout="BNSD",
            scale=float(scaling if scaling is not None else query.shape[-1] ** -0.5),
            actual_seq_lengths_kv=[position + 1])
        return out.transpose(1, 2).contiguous(), None

    transformers.AttentionInterface.register("npu_fia", attention)
    return "npu_fia"


def decode_step(config_class: str, layers: int, cache: int,
                attention: str | None = None) -> tuple[torch.nn.Module, tuple[Any, ...]]:
    config_type = getattr(transformers, config_class, None)
    if config_type is None or not isinstance(config_type, type):
        raise SystemExit(f"hf_decode: transformers has no config class {config_class!r}")
    config = config_type(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=max(64, cache))
    for key, value in (("num_experts", 4), ("num_local_experts", 4), ("n_routed_experts", 4),
                       ("num_experts_per_tok", 2), ("moe_intermediate_size", 32)):
        if hasattr(config, key):  # a MoE config: a few small experts
            setattr(config, key, value)
    if attention is not None:
        config._attn_implementation = attention
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
    parser.add_argument("--npu-attention", action="store_true",
                        help="attention is torch_npu's fused attention, updated every step; compare fuse-updated=0 / 1")
    args = parser.parse_args(argv)
    attention = npu_attention(args.position) if args.npu_attention else None
    module, (ids,) = decode_step(args.config, args.layers, args.cache, attention)
    if args.per_layer:
        scope_layers(module)
    name = f"{args.config.removesuffix('Config').lower()}_decode"
    args.output.mkdir(parents=True, exist_ok=True)
    ir = capture(module, ids, torch.tensor([args.position]), name=name,
                 json_path=args.output / f"{name}.json", mlir_path=args.output / f"{name}.mlir")
    if not args.npu_attention:
        result = skir.compile(ir).check().write(args.output / "out")
        print(f"{name}: {result.kernel_tasks} kernel tasks, {len(result.superkernels)} SuperKernels, "
              f"{result.launches_saved} launches saved; products in {args.output / 'out'}")
        return 0
    print(f"{name}: {args.layers} layers, attention updated every step")
    print(f"  {'fuse-updated':<13}{'SuperKernels':>13}{'launches':>10}{'dynamic_task':>14}  per layer")
    for fuse in (0, 1):
        result = skir.compile(args.output / f"{name}.json", options=f"fuse-updated={fuse}").check()
        result.write(args.output / f"out_fuse{fuse}")
        launches = result.kernel_tasks - result.launches_saved
        dynamic = sum(u.reason == "dynamic_task" for u in result.fail_reasons)
        print(f"  {fuse:<13}{len(result.superkernels):>13}{launches:>10}{dynamic:>14}  {_per_layer(result)}")
    return 0


def _per_layer(result: skir.CompileResult) -> str:
    """SuperKernels per decoder layer scope (`layers.<i>`), then those outside the layers."""
    from skir.dialects.model_lookup import the_model
    from skir.dialects.superkernel import SuperKernelOp

    per: dict[str, int] = {}
    for op in the_model(result.module).body.block.ops:
        if isinstance(op, SuperKernelOp):
            label = op.attributes.get("sk.label")
            key = label.data[0].data if label is not None and label.data else "outside"  # type: ignore[attr-defined]
            per[key] = per.get(key, 0) + 1
    layers = sorted((k for k in per if k != "outside"), key=lambda k: (len(k), k))
    return ", ".join([*(f"{k} {per[k]}" for k in layers), *([f"outside {per['outside']}"] if "outside" in per else [])])


if __name__ == "__main__":
    sys.exit(main())
