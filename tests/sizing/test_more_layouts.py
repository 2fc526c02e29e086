"""The MoE, state-space, linear-attention and one-off layouts (sizing/moe_layouts.py, state_space.py,
one_off_decoders.py, protein_encoders.py) against transformers 5.25.0.

VARIANTS are small configs that switch on the branches the published sizes leave off (biases, dense layers among
MoE ones, attention layers among Mamba ones, shared adapters, per-layer widths, tied heads with a bias); each
expected count was measured by building the model on PyTorch's meta device with transformers 5.25.0 (the
method of scripts/sizing_reference.py), not derived from the counters. The published sizes themselves are held by
registry/upstream/sizing-reference.yaml, checked here exactly where these modules count them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_compat.sizing import count_parameters, kv_cache_bytes_per_token, weights_bytes

ROOT = Path(__file__).resolve().parents[2]
REPORT = yaml.safe_load((ROOT / "registry" / "upstream" / "sizing-reference.yaml").read_text(encoding="utf-8"))
EXACT = ("afmoe", "bamba", "dbrx", "deepseek_v32", "ernie4_5_moe", "esm", "falcon_h1", "gemma3n_text", "glm4_moe",
         "glm_moe_dsa", "gpt_oss", "granitemoe", "granitemoehybrid", "hunyuan_v1_dense", "hunyuan_v1_moe", "jamba",
         "llama4_text", "mamba2", "minimax", "minimax_m3_vl_text", "mpt", "nemotron", "olmoe", "phimoe",
         "qwen3_next", "recurrent_gemma", "zamba2")

VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ('olmoe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 4,
      'num_hidden_layers': 3,
      'intermediate_size': 128,
      'num_experts': 8,
      'vocab_size': 1000,
      'attention_bias': True},
     3472512),
    ('granitemoe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 3,
      'intermediate_size': 128,
      'num_local_experts': 4,
      'vocab_size': 1000,
      'tie_word_embeddings': True},
     1932032),
    ('phimoe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 3,
      'intermediate_size': 128,
      'num_local_experts': 4,
      'vocab_size': 1000,
      'lm_head_bias': True,
      'attention_bias': True},
     2192744),
    ('afmoe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 4,
      'intermediate_size': 512,
      'moe_intermediate_size': 64,
      'num_experts': 8,
      'num_shared_experts': 1,
      'num_dense_layers': 2,
      'vocab_size': 1000,
      'layer_types': ['sliding_attention', 'sliding_attention', 'sliding_attention', 'full_attention']},
     3109392),
    ('ernie4_5_moe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 6,
      'intermediate_size': 512,
      'moe_intermediate_size': 64,
      'moe_num_experts': 8,
      'moe_num_shared_experts': 0,
      'moe_layer_interval': 2,
      'moe_layer_start_index': 0,
      'moe_layer_end_index': 4,
      'use_bias': True,
      'vocab_size': 1000},
     3615736),
    ('glm4_moe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 48,
      'num_hidden_layers': 4,
      'intermediate_size': 512,
      'moe_intermediate_size': 64,
      'n_routed_experts': 8,
      'n_shared_experts': 2,
      'first_k_dense_replace': 2,
      'use_qk_norm': True,
      'attention_bias': True,
      'vocab_size': 1000},
     3273600),
    ('gpt_oss',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 2,
      'intermediate_size': 128,
      'num_local_experts': 4,
      'vocab_size': 1000,
      'layer_types': ['sliding_attention', 'full_attention'],
      'attention_bias': False},
     1633560),
    ('llama4_text',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 4,
      'intermediate_size': 128,
      'intermediate_size_mlp': 512,
      'num_local_experts': 4,
      'interleave_moe_layer_step': 2,
      'vocab_size': 1000},
     2941184),
    ('minimax',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 4,
      'intermediate_size': 128,
      'num_local_experts': 4,
      'vocab_size': 1000,
      'layer_types': ['linear_attention', 'linear_attention', 'full_attention', 'linear_attention']},
     3238912),
    ('deepseek_v32',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_hidden_layers': 4,
      'intermediate_size': 512,
      'moe_intermediate_size': 64,
      'n_routed_experts': 8,
      'n_shared_experts': 2,
      'first_k_dense_replace': 1,
      'q_lora_rank': 96,
      'kv_lora_rank': 64,
      'qk_rope_head_dim': 16,
      'qk_nope_head_dim': 32,
      'v_head_dim': 32,
      'index_n_heads': 4,
      'index_head_dim': 32,
      'vocab_size': 1000,
      'n_group': 1,
      'topk_group': 1},
     3196032),
    ('mamba2',
     {'hidden_size': 256,
      'num_heads': 16,
      'head_dim': 32,
      'num_hidden_layers': 3,
      'n_groups': 2,
      'state_size': 16,
      'expand': 2,
      'vocab_size': 1000,
      'use_bias': True,
      'use_conv_bias': False,
      'tie_word_embeddings': True},
     1510784),
    ('bamba',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 4,
      'intermediate_size': 512,
      'mamba_n_heads': 16,
      'mamba_d_head': 32,
      'mamba_n_groups': 2,
      'mamba_d_state': 16,
      'attn_layer_indices': [1, 3],
      'vocab_size': 1000,
      'mamba_proj_bias': True},
     3251840),
    ('falcon_h1',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 3,
      'intermediate_size': 512,
      'mamba_n_heads': 8,
      'mamba_d_head': 32,
      'mamba_d_ssm': 256,
      'mamba_n_groups': 1,
      'mamba_d_state': 16,
      'mamba_rms_norm': True,
      'projectors_bias': True,
      'vocab_size': 1000},
     2811432),
    ('granitemoehybrid',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 4,
      'intermediate_size': 128,
      'shared_intermediate_size': 256,
      'num_local_experts': 0,
      'mamba_n_heads': 16,
      'mamba_d_head': 32,
      'mamba_n_groups': 1,
      'mamba_d_state': 16,
      'layer_types': ['linear_attention', 'full_attention', 'linear_attention', 'full_attention'],
      'vocab_size': 1000},
     2445984),
    ('jamba',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 6,
      'intermediate_size': 512,
      'num_experts': 4,
      'attn_layer_period': 3,
      'attn_layer_offset': 1,
      'expert_layer_period': 3,
      'expert_layer_offset': 2,
      'mamba_d_state': 8,
      'vocab_size': 1000,
      'mamba_proj_bias': True},
     7270784),
    ('qwen3_next',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 4,
      'intermediate_size': 512,
      'moe_intermediate_size': 64,
      'shared_expert_intermediate_size': 64,
      'num_experts': 8,
      'decoder_sparse_step': 2,
      'mlp_only_layers': [3],
      'linear_num_value_heads': 8,
      'linear_num_key_heads': 4,
      'linear_key_head_dim': 32,
      'linear_value_head_dim': 16,
      'layer_types': ['linear_attention', 'full_attention', 'linear_attention', 'full_attention'],
      'vocab_size': 1000},
     2936512),
    ('recurrent_gemma',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_hidden_layers': 5,
      'intermediate_size': 384,
      'lru_width': 128,
      'vocab_size': 1000,
      'block_types': ['recurrent', 'attention'],
      'attention_bias': True},
     1837440),
    ('zamba2',
     {'hidden_size': 128,
      'num_attention_heads': 8,
      'num_hidden_layers': 6,
      'n_mamba_heads': 8,
      'mamba_d_state': 16,
      'num_mem_blocks': 2,
      'use_shared_attention_adapter': True,
      'adapter_rank': 16,
      'vocab_size': 1000,
      'layers_block_type': ['mamba', 'hybrid', 'mamba', 'hybrid', 'hybrid', 'mamba']},
     1790672),
    ('mpt',
     {'d_model': 256, 'n_heads': 8, 'n_layers': 3, 'vocab_size': 1000, 'expansion_ratio': 4},
     2617088),
    ('gemma3n_text',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 4,
      'intermediate_size': [512, 512, 256, 256],
      'num_kv_shared_layers': 2,
      'vocab_size': 1000,
      'vocab_size_per_layer_input': 500,
      'hidden_size_per_layer_input': 32,
      'laurel_rank': 16,
      'layer_types': ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention'],
      'activation_sparsity_pattern': [0.0, 0.0, 0.0, 0.0]},
     2626848),
    ('dbrx',
     {'d_model': 256,
      'n_heads': 8,
      'n_layers': 3,
      'vocab_size': 1000,
      'attn_config': {'kv_n_heads': 2, 'rope_theta': 10000},
      'ffn_config': {'ffn_hidden_size': 128, 'moe_num_experts': 4}},
     2188032),
    ('hunyuan_v1_moe',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'head_dim': 32,
      'num_hidden_layers': 3,
      'intermediate_size': 128,
      'num_experts': 4,
      'vocab_size': 1000},
     2483136),
    ('nemotron',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_key_value_heads': 2,
      'num_hidden_layers': 3,
      'intermediate_size': 512,
      'vocab_size': 1000,
      'mlp_bias': True,
      'attention_bias': True},
     1797760),
    ('esm',
     {'hidden_size': 256,
      'num_attention_heads': 8,
      'num_hidden_layers': 3,
      'intermediate_size': 512,
      'vocab_size': 33,
      'position_embedding_type': 'rotary',
      'emb_layer_norm_before': True},
     1656601),
    # without layer_types / mlp_layer_types: the config classes' own defaults
    ('qwen3_next',
     {'hidden_size': 256, 'num_attention_heads': 8, 'num_key_value_heads': 2, 'head_dim': 32,
      'num_hidden_layers': 6, 'intermediate_size': 512, 'moe_intermediate_size': 64,
      'shared_expert_intermediate_size': 64, 'num_experts': 8, 'linear_num_value_heads': 8,
      'linear_num_key_heads': 4, 'linear_key_head_dim': 32, 'linear_value_head_dim': 16,
      'full_attention_interval': 3, 'vocab_size': 1000},
     4320256),
    ('minimax',
     {'hidden_size': 256, 'num_attention_heads': 8, 'num_key_value_heads': 2, 'head_dim': 32,
      'num_hidden_layers': 5, 'intermediate_size': 128, 'num_local_experts': 4, 'vocab_size': 1000},
     3633408),
    ('minimax_m3_vl_text',
     {'hidden_size': 256, 'num_attention_heads': 8, 'num_key_value_heads': 2, 'head_dim': 32,
      'num_hidden_layers': 4, 'intermediate_size': 64, 'shared_intermediate_size': 64,
      'dense_intermediate_size': 256, 'num_local_experts': 4, 'vocab_size': 1000,
      'sparse_attention_config': {'sparse_attention_freq': [0, 1, 0, 1], 'sparse_num_index_heads': 2,
                                  'sparse_index_dim': 16},
      'moe_layer_freq': [0, 1, 1, 1]},
     2131520),
    # the older layer-type names ("mamba", "attention") that transformers renames on load
    ('granitemoehybrid',
     {'hidden_size': 256, 'num_attention_heads': 8, 'num_key_value_heads': 2, 'num_hidden_layers': 4,
      'intermediate_size': 128, 'shared_intermediate_size': 256, 'num_local_experts': 2, 'mamba_n_heads': 16,
      'mamba_d_head': 32, 'mamba_n_groups': 1, 'mamba_d_state': 16,
      'layer_types': ['mamba', 'attention', 'mamba', 'mamba'], 'vocab_size': 1000},
     3479408),
]


@pytest.mark.parametrize("model_type", EXACT)
def test_a_published_size_counts_to_the_parameter(model_type: str) -> None:
    entry = REPORT["model_types"][model_type]
    count = count_parameters(entry["config_fields"])
    assert count.complete, [part.reason for part in count.parts if part.count is None]
    assert count.total == entry["reference"]


@pytest.mark.parametrize(("model_type", "overrides", "expected"), VARIANTS, ids=[row[0] for row in VARIANTS])
def test_a_variant_counts_as_transformers_builds_it(model_type: str, overrides: dict[str, Any],
                                                    expected: int) -> None:
    count = count_parameters({"model_type": model_type, **overrides})
    assert count.complete, [part.reason for part in count.parts if part.count is None]
    assert count.total == expected


@pytest.mark.parametrize("model_type", ["qwen3_5_moe", "llama4"])
def test_the_text_model_of_a_composite_counts_to_the_parameter(model_type: str) -> None:
    """The reference builds these as image-text-to-text models: the text parts (this module's counters) and the
    vision tower and projector (sizing/vlm_towers.py) add up to it."""
    entry = REPORT["model_types"][model_type]
    count = count_parameters(entry["config_fields"])
    text = [part for part in count.parts if part.name.startswith("text.")]
    assert text and all(part.count is not None for part in text)
    assert count.complete and count.total == entry["reference"]
    assert 0 < sum(part.count for part in text if part.count is not None) < entry["reference"]


BROKEN: list[tuple[str, dict[str, Any], str]] = [
    ("olmoe", {"hidden_size": 256, "num_attention_heads": 8, "num_hidden_layers": 2, "vocab_size": 10,
               "intermediate_size": 64}, "num_experts is not set"),
    ("gpt_oss", {"hidden_size": 256, "num_attention_heads": 8, "num_hidden_layers": -3, "vocab_size": 10,
                 "intermediate_size": 64, "num_local_experts": 4}, "below 1"),
    ("minimax", {"hidden_size": 256, "num_attention_heads": 8, "num_hidden_layers": 4, "vocab_size": 10,
                 "intermediate_size": 64, "num_local_experts": 4, "layer_types": ["full_attention"]},
     "layer_types has 1 entries, fewer than the 4 layers"),
    ("deepseek_v32", {"hidden_size": 256, "num_attention_heads": 8, "num_hidden_layers": 2, "vocab_size": 10,
                      "kv_lora_rank": 64, "qk_rope_head_dim": 16, "qk_nope_head_dim": 32, "v_head_dim": 32,
                      "index_n_heads": 4, "index_head_dim": 32, "n_routed_experts": 4, "moe_intermediate_size": 8,
                      "intermediate_size": 64}, "q_lora_rank is not set"),
    ("mamba2", {"hidden_size": 256, "num_hidden_layers": 2, "vocab_size": 10, "expand": "two"},
     "expand is a string, not a positive number"),
    ("zamba2", {"hidden_size": 128, "num_attention_heads": 8, "num_hidden_layers": 2, "vocab_size": 10},
     "layers_block_type is not set"),
    ("qwen3_next", {"hidden_size": 256, "num_attention_heads": 8, "num_hidden_layers": 2, "vocab_size": 10,
                    "layer_types": ["linear_attention", "full_attention"], "num_experts": 0,
                    "intermediate_size": 64}, "linear_num_value_heads is not set"),
    ("gemma3n_text", {"hidden_size": 256, "num_attention_heads": 8, "head_dim": 32, "num_hidden_layers": 2,
                      "vocab_size": 10, "intermediate_size": [64, "wide"]}, "not a positive integer"),
    ("jamba", {"hidden_size": 256, "num_attention_heads": 7, "num_hidden_layers": 8, "vocab_size": 10,
               "intermediate_size": 64}, "not divisible by 7"),
    ("dbrx", {"d_model": 256, "n_heads": 8, "n_layers": 2, "vocab_size": 10, "ffn_config": [1, 2]},
     "ffn_config is not an object"),
    ("esm", {"hidden_size": 256, "num_attention_heads": 8, "num_hidden_layers": 2, "intermediate_size": 64},
     "vocab_size is not set"),
]


@pytest.mark.parametrize(("model_type", "config", "reason"), BROKEN, ids=[row[0] for row in BROKEN])
def test_a_broken_config_gives_a_reason_never_a_number_or_a_traceback(model_type: str, config: dict[str, Any],
                                                                     reason: str) -> None:
    count = count_parameters({"model_type": model_type, **config})
    assert not count.complete
    reasons = [part.reason or "" for part in count.parts if part.count is None]
    assert any(reason in text for text in reasons), reasons
    assert all(part.count is None or part.count >= 0 for part in count.parts)
    weights_bytes(count, "bfloat16")  # the byte sizes of an incomplete count do not raise either
    kv_cache_bytes_per_token({"model_type": model_type, **config}, "bfloat16")


@pytest.mark.parametrize("model_type", sorted({row[0] for row in VARIANTS}))
def test_junk_in_every_size_field_never_raises(model_type: str) -> None:
    """Each field of a working variant replaced by junk (a string, a negative, a fraction, a list, an object):
    the count either completes with a non-negative number or says why, never raises."""
    for base in (overrides for name, overrides, _ in VARIANTS if name == model_type):
        _junk_each_field(model_type, base)


def _junk_each_field(model_type: str, base: dict[str, Any]) -> None:
    for field in base:
        for junk in ("x", -1, 0, 2.5, [], {}, None, True, 10**12, 10**14, math.inf):
            count = count_parameters({"model_type": model_type, **base, field: junk})
            assert count.complete or all(part.reason for part in count.parts if part.count is None)
            assert all(part.count is None or part.count >= 0 for part in count.parts), (field, junk)


def _check_json(tmp_path: Path, config: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    import json

    from neuron_compat.cli import main

    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    code = main(["check", str(path), "--json", "--instance", "trn2.48xlarge"])
    out = capsys.readouterr().out
    assert code in (0, 1, 3, 4), out[-400:]
    verdict: dict[str, Any] = json.loads(out)
    return verdict


def test_check_sizes_a_state_space_moe_config_and_refuses_a_broken_one(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`check` on Jamba's published size gives the meta-device count; on a broken gpt-oss config it says why."""
    entry = REPORT["model_types"]["jamba"]
    fit = _check_json(tmp_path, entry["config_fields"], capsys)["fit"]
    assert fit["parameters"] == entry["reference"]
    broken = _check_json(tmp_path, {"model_type": "gpt_oss", "hidden_size": "big", "num_hidden_layers": 0}, capsys)
    parts = broken["fit"]["parameter_parts"]
    assert broken["fit"]["parameters"] is None and parts and all(p["reason"] for p in parts if p["count"] is None)


@pytest.mark.parametrize(("model_type", "cached_layers"), [("jamba", 4), ("qwen3_next", 12), ("minimax", 16),
                                                            ("recurrent_gemma", 8)])
def test_a_hybrid_caches_keys_and_values_only_on_its_attention_layers(model_type: str, cached_layers: int) -> None:
    config = REPORT["model_types"][model_type]["config_fields"]
    heads = config["num_attention_heads"]
    kv_heads = config.get("num_key_value_heads") or heads
    head_dim = config.get("head_dim") or config["hidden_size"] // heads
    kv = kv_cache_bytes_per_token(config, "bf16")
    assert kv.bytes_per_token == 2 * cached_layers * kv_heads * head_dim * 2
    assert any(f"only the {cached_layers} attention layers" in note for note in kv.notes)


def test_zamba2_caches_its_shared_attention_over_twice_the_hidden_size() -> None:
    config = REPORT["model_types"]["zamba2"]["config_fields"]
    hybrid = config["layers_block_type"].count("hybrid")
    heads, kv_heads = config["num_attention_heads"], config["num_key_value_heads"]
    kv = kv_cache_bytes_per_token(config, "bf16")
    assert kv.bytes_per_token == 2 * hybrid * kv_heads * (2 * config["hidden_size"] // heads) * 2


def test_gemma3n_caches_only_the_layers_that_do_not_reuse_an_earlier_cache() -> None:
    config = REPORT["model_types"]["gemma3n_text"]["config_fields"]
    storing = config["num_hidden_layers"] - config["num_kv_shared_layers"]
    kv = kv_cache_bytes_per_token(config, "bf16")
    assert kv.bytes_per_token == 2 * storing * config["num_key_value_heads"] * config["head_dim"] * 2


@pytest.mark.parametrize(("model_type", "tied"), [("qwen3_vl_moe", False), ("mistral3", True), ("internvl", True)])
def test_the_outer_config_decides_whether_a_composite_ties_its_lm_head(model_type: str, tied: bool) -> None:
    """Measured on the meta device: Qwen3-VL-MoE's text_config says tied but the model is not (the outer config
    says false); Mistral 3's and InternVL's say untied but the models are tied (the outer configs say true)."""
    config = REPORT["model_types"][model_type]["config_fields"]
    text = config["text_config"]
    head = count_parameters(config).part("text.lm_head").count
    assert head == (0 if tied else text["vocab_size"] * text["hidden_size"])


@pytest.mark.parametrize("model_type", sorted({row[0] for row in VARIANTS}))
def test_a_huge_layer_count_without_per_layer_lists_is_counted_not_looped(model_type: str) -> None:
    """Layer-type defaults are counted arithmetically: 10^12 layers answer at once (a count or a reason)."""
    import time

    base = {k: v for k, v in next(o for n, o, _ in VARIANTS if n == model_type).items()
            if k not in ("layer_types", "layers_block_type", "mlp_layer_types", "intermediate_size")
            or not isinstance(v, list)}
    started = time.monotonic()
    for field in ("num_hidden_layers", "n_layers"):
        count = count_parameters({"model_type": model_type, **base, field: 10**12})
        kv_cache_bytes_per_token({"model_type": model_type, **base, field: 10**12}, "bf16")
        assert count.complete or all(part.reason for part in count.parts if part.count is None)
    assert time.monotonic() - started < 2
