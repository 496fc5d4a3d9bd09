"""A real model through the front end: a tiny Llama (HuggingFace transformers, built from its
config, random weights) captured for a decode step with a static KV cache, compiled and proved."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

import skir  # noqa: E402
from skir.frontends.torch import capture_dict, scope_layers  # noqa: E402

HF5 = int(transformers.__version__.split(".")[0]) >= 5
"""transformers 5 fuses a MoE block's experts into one module (the tests run on 4.57 and 5.x)."""
EAGER_EXPERTS = {"experts_implementation": "eager"} if HF5 else {}
"""transformers 5 exports MoE experts through its static grouped matmul unless told otherwise."""


def llama_decode(device: str = "meta") -> tuple[torch.nn.Module, tuple[Any, ...]]:
    """A decode step; on the meta device by default (no memory: only shapes matter)."""
    config = transformers.LlamaConfig(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    with torch.device(device):
        model = transformers.LlamaForCausalLM(config).eval()

    class Decode(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model
            self.cache = transformers.StaticCache(config=config, max_batch_size=1, max_cache_len=32,
                                                  device=device, dtype=torch.float32)

        def forward(self, ids: Any, position: Any) -> Any:
            return self.model(input_ids=ids, position_ids=position.unsqueeze(0), cache_position=position,
                              past_key_values=self.cache, use_cache=True).logits

    return Decode(), (torch.zeros(1, 1, dtype=torch.long, device=device), torch.tensor([5], device=device))


def kernel_tasks(model: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for s in model["streams"] for t in s["tasks"] if t["type"] in ("kernel", "default")]


def test_a_llama_decode_step_captures_without_aicpu_and_fuses() -> None:
    module, inputs = llama_decode()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # no unmapped op
        model = capture_dict(module, *inputs, name="llama_decode")
    tasks = kernel_tasks(model)
    assert all(t["type"] == "kernel" for t in tasks)  # no aicpu task (no logging call, no vmap helper)
    names = [t["kernel"] for t in tasks]
    assert names.count("scaled_dot_product_attention") == 2 and names.count("index_copy") == 4
    result = skir.compile(model).check()
    assert result.proof.ok and len(result.superkernels) == 1 and not result.fail_reasons
    assert sum(len(sk.members) for sk in result.superkernels) == len(tasks)


def test_meta_and_cpu_capture_alike() -> None:
    """The same decode step built on the meta device and on the CPU gives the same model."""
    on_meta, on_cpu = (capture_dict(m, *i, name="d") for m, i in (llama_decode("meta"), llama_decode("cpu")))
    assert on_meta == on_cpu


def test_per_layer_scopes_on_a_llama() -> None:
    module, inputs = llama_decode()
    names = scope_layers(module)
    assert names == ["outside", "layer0", "layer1"]
    result = skir.compile(capture_dict(module, *inputs, name="llama_layers"))
    # the parts before and after the layers fuse too: pre, layer0, layer1, post
    assert len(result.superkernels) == 4 and not result.fail_reasons


def _prefill(model: torch.nn.Module) -> torch.nn.Module:
    class Prefill(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model.eval()

        def forward(self, ids: Any) -> Any:
            out = self.model(input_ids=ids)
            return out.logits if hasattr(out, "logits") else out.last_hidden_state

    return Prefill()


SMALL = {"vocab_size": 500, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
         "num_attention_heads": 4}
MODELS = {
    "gpt2": lambda: transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=500, n_embd=64, n_layer=2,
                                                                         n_head=4, n_positions=64)),
    "bert": lambda: transformers.BertModel(transformers.BertConfig(**SMALL)),
    "qwen2": lambda: transformers.Qwen2ForCausalLM(transformers.Qwen2Config(**SMALL, num_key_value_heads=2)),
    "qwen3": lambda: transformers.Qwen3ForCausalLM(transformers.Qwen3Config(**SMALL, num_key_value_heads=2,
                                                                            head_dim=16)),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_hf_prefill_captures_and_fuses(name: str) -> None:
    model = capture_dict(_prefill(MODELS[name]()), torch.randint(0, 500, (1, 8)), name=name)
    assert all(t["type"] == "kernel" for t in kernel_tasks(model))
    result = skir.compile(model).check()
    assert result.proof.ok and len(result.superkernels) == 1 and not result.fail_reasons


def test_a_data_dependent_moe_loop_is_one_located_line() -> None:
    """HF's eager Mixtral loops over the experts the router hit: genuinely data-dependent."""
    config = transformers.MixtralConfig(**SMALL, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2,
                                        **EAGER_EXPERTS)
    with pytest.raises(skir.SkirError) as err:
        capture_dict(_prefill(transformers.MixtralForCausalLM(config)), torch.randint(0, 500, (1, 8)))
    message = str(err.value)
    assert "\n" not in message and "modeling_mixtral.py:" in message
    assert "data-dependent control flow" in message or "depends on the data" in message


@pytest.mark.skipif(not HF5, reason="transformers 5 exports MoE experts through a static grouped matmul")
def test_transformers_5_grouped_experts_capture_without_static_moe() -> None:
    config = transformers.MixtralConfig(**SMALL, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unmapped op: transformers::grouped_mm_fallback is a grouped matmul
        model = capture_dict(_prefill(transformers.MixtralForCausalLM(config).eval()), torch.randint(0, 500, (1, 8)))
    assert "grouped_mm" in {t.get("kernel") for t in kernel_tasks(model)}
    assert all(t["type"] == "kernel" for t in kernel_tasks(model))


_MOE = {"num_key_value_heads": 2, "moe_intermediate_size": 32}
MOE_MODELS = {
    "mixtral": lambda: transformers.MixtralForCausalLM(transformers.MixtralConfig(
        **SMALL, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2)),
    "qwen2_moe": lambda: transformers.Qwen2MoeForCausalLM(transformers.Qwen2MoeConfig(
        **SMALL, **_MOE, num_experts=4, num_experts_per_tok=2, shared_expert_intermediate_size=32)),
    "qwen3_moe": lambda: transformers.Qwen3MoeForCausalLM(transformers.Qwen3MoeConfig(
        **SMALL, **_MOE, head_dim=16, num_experts=4, num_experts_per_tok=2, norm_topk_prob=True)),
    "deepseek_v3": lambda: transformers.DeepseekV3ForCausalLM(transformers.DeepseekV3Config(
        **{**SMALL, **_MOE, "num_key_value_heads": 4}, first_k_dense_replace=1, n_routed_experts=8,
        num_experts_per_tok=2, n_group=2, topk_group=1, kv_lora_rank=16, q_lora_rank=32, qk_rope_head_dim=8,
        qk_nope_head_dim=8, v_head_dim=16)),
    "deepseek_v2": lambda: transformers.DeepseekV2ForCausalLM(transformers.DeepseekV2Config(
        **{**SMALL, **_MOE, "num_key_value_heads": 4}, first_k_dense_replace=1, n_routed_experts=4,
        num_experts_per_tok=2, kv_lora_rank=16, q_lora_rank=32, qk_rope_head_dim=8, qk_nope_head_dim=8,
        v_head_dim=16)),
}


@pytest.mark.parametrize("name", sorted(MOE_MODELS))
def test_static_moe_models_capture_and_keep_their_output(name: str) -> None:
    """HF's eager MoE dispatch is data-dependent (the test above); after `static_moe` the same
    model captures (no aicpu task, one SuperKernel, proved) and, on the CPU, computes what the
    eager model computes (the oracle: HF's own loop over the experts)."""
    from skir.frontends.torch import static_moe

    torch.manual_seed(0)
    model = MOE_MODELS[name]().eval()
    if name.startswith("deepseek"):  # a router bias that changes the choice, as a trained model has
        for module in model.modules():
            if hasattr(module, "e_score_correction_bias"):
                module.e_score_correction_bias.uniform_(-0.5, 0.5)
    ids = torch.randint(0, 500, (1, 8))
    with torch.no_grad():
        expected = _prefill(model)(ids)
        swapped = static_moe(model)
        assert swapped and all(".layers." in s for s in swapped)
        assert torch.allclose(_prefill(model)(ids), expected, atol=1e-5, rtol=1e-4)
    captured = capture_dict(_prefill(model), ids, name=name)
    tasks = kernel_tasks(captured)
    assert all(t["type"] == "kernel" for t in tasks)
    assert {"npu_moe_init_routing", "npu_grouped_matmul", "npu_moe_finalize_routing"} <= {t["kernel"] for t in tasks}
    result = skir.compile(captured).check()
    assert result.proof.ok and len(result.superkernels) == 1 and not result.fail_reasons


def test_static_moe_refuses_experts_it_cannot_stack() -> None:
    from skir.frontends.torch import static_moe

    config = transformers.MixtralConfig(**SMALL, num_key_value_heads=2, num_local_experts=2, hidden_act="gelu")
    expected = (r"static_moe: model\.layers\.0\.mlp\.experts \(MixtralExperts\) is not a SiLU-gated MLP" if HF5 else
                r"static_moe: model\.layers\.0\.block_sparse_moe\.experts\[0\] \(MixtralBlockSparseTop2MLP\) is not a "
                r"SiLU-gated MLP")
    with pytest.raises(skir.SkirError, match=expected):
        static_moe(transformers.MixtralForCausalLM(config))


@pytest.mark.parametrize("config", ["Qwen2Config", "Qwen3MoeConfig"])
def test_the_hf_decode_example_script(tmp_path: Any, config: str) -> None:
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "torch" / "hf_decode.py"
    spec = importlib.util.spec_from_file_location("skir_example_hf_decode", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main([config, "-o", str(tmp_path), "--per-layer"]) == 0
    name = f"{config.removesuffix('Config').lower()}_decode"
    assert (tmp_path / f"{name}.json").is_file() and (tmp_path / "out" / "sk_meta.json").is_file()


def test_the_hf_decode_example_with_npu_attention(tmp_path: Any, capsys: Any) -> None:
    """`--npu-attention`: the attention is torch_npu's fused attention updated every step; with
    fuse-updated=0 each layer splits around it, with fuse-updated=1 one SuperKernel a layer."""
    import importlib.util
    import json
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "torch" / "hf_decode.py"
    spec = importlib.util.spec_from_file_location("skir_example_hf_decode_fia", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["LlamaConfig", "-o", str(tmp_path), "--per-layer", "--npu-attention"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.strip()[:1] in ("0", "1")]
    assert [r[0] for r in rows] == ["0", "1"]
    assert rows[0][3] == "2" and rows[1][3] == "0"  # dynamic_task: the two attentions, then none
    assert int(rows[1][1]) < int(rows[0][1]) and int(rows[1][2]) < int(rows[0][2])
    meta = json.loads((tmp_path / "out_fuse1" / "sk_meta.json").read_text())
    assert len(meta["updates"]) == 2  # one forwarded update per layer's attention


def test_the_skir_backend_on_a_llama_prefill() -> None:
    """`torch.compile(backend="skir", fullgraph=True)` on the same kind of model: proved, and
    no aicpu task (the cache's `torch.tensor` is a host copy, a memcpy task)."""
    from skir.frontends.torch import results

    model = MODELS["qwen2"]().eval()
    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(model, backend="skir", fullgraph=True)(input_ids=torch.randint(0, 500, (1, 8)))
    result = results()[-1]
    assert result.proof.ok and result.superkernels and not result.fail_reasons
    kinds = {op.kind.data.value for op in result.original.walk() if op.name == "aclgraph.opaque"}  # type: ignore
    assert "aicpu" not in kinds
