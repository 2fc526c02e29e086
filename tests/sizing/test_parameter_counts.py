"""Parameter counts, weight bytes, KV cache and TP degrees from real config.json fixtures and broken configs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neuron_compat.sizing import (
    count_parameters,
    declared_dtype,
    kv_cache_bytes_per_token,
    tensor_parallel_degrees,
    weights_bytes,
)

CONFIGS = Path(__file__).parent / "configs"
MANIFEST = json.loads((CONFIGS / "manifest.json").read_text())["fixtures"]
CHECKED = [row for row in MANIFEST if row.get("published_figure_checked_here") is True]
KINDS = {"decoder", "moe", "encoder", "encoder-decoder", "vision"}
MIN_CHECKED, MIN_MODEL_TYPES = 15, 8


def load(name: str) -> dict[str, Any]:
    config: dict[str, Any] = json.loads((CONFIGS / name).read_text())
    return config


def test_manifest_lists_every_fixture_with_its_sources() -> None:
    on_disk = {path.name for path in CONFIGS.glob("*.json")} - {"manifest.json"}
    assert on_disk == {row["fixture"] for row in MANIFEST}
    assert all(row["config_source"].startswith("https://github.com/") for row in MANIFEST)
    assert all(row["kind"] in KINDS for row in MANIFEST)
    for row in MANIFEST:
        if row.get("published_figure_checked_here") is True:
            assert row["published_parameters"], row["fixture"]
            assert row["published_source"].startswith("https://"), row["fixture"]
            assert row["published_quote_location"], row["fixture"]
        elif row["published_parameters"]:
            assert row["not_checked_because"], row["fixture"]


def coverage_shortfalls(rows: list[dict[str, Any]]) -> list[str]:
    """What the checked fixtures lack against issue 22's bar (empty when it is met)."""
    checked = [row for row in rows if row.get("published_figure_checked_here") is True]
    model_types = {load(row["fixture"])["model_type"] for row in checked}
    shortfalls = []
    if len(checked) < MIN_CHECKED:
        shortfalls.append(f"{len(checked)} checked fixtures, need {MIN_CHECKED}")
    if len(model_types) < MIN_MODEL_TYPES:
        shortfalls.append(f"{len(model_types)} model types among them, need {MIN_MODEL_TYPES}")
    missing = KINDS - {row["kind"] for row in checked}
    if missing:
        shortfalls.append(f"no checked {', '.join(sorted(missing))} fixture")
    return shortfalls


def test_checked_fixtures_meet_the_issue_bar() -> None:
    assert coverage_shortfalls(MANIFEST) == []


def test_the_bar_fails_when_checks_types_or_kinds_are_missing() -> None:
    no_vision = [dict(row, published_figure_checked_here=False) if row["kind"] == "vision" else row
                 for row in MANIFEST]
    assert "no checked vision fixture" in coverage_shortfalls(no_vision)
    few = CHECKED[:MIN_CHECKED - 1]
    assert f"{MIN_CHECKED - 1} checked fixtures, need {MIN_CHECKED}" in coverage_shortfalls(few)
    llama_only = [row for row in CHECKED if load(row["fixture"])["model_type"] == "llama"]
    assert "1 model types among them, need 8" in coverage_shortfalls(llama_only)
    assert "no checked encoder, encoder-decoder, moe, vision fixture" in coverage_shortfalls(llama_only)


@pytest.mark.parametrize("row", CHECKED, ids=[row["fixture"] for row in CHECKED])
def test_count_is_within_one_percent_of_published(row: dict[str, Any]) -> None:
    count = count_parameters(load(row["fixture"]))
    assert count.complete, [part for part in count.parts if part.count is None]
    assert not count.assumed_layout
    assert abs(count.total - row["published_parameters"]) / row["published_parameters"] < 0.01


@pytest.mark.parametrize(("fixture", "exact"), [
    ("gpt2.json", 124_439_808),
    ("t5-small.json", 60_506_624),
    ("snowflake-arctic-embed-m.json", 109_482_240),
    ("llama-2-7b.json", 6_738_415_616),
    ("mixtral-8x7b-v0.1.json", 46_702_792_704),
    ("gemma-2-2b.json", 2_614_341_888),
    ("clip-vit-base-patch32.json", 151_277_313),
])
def test_exact_counts(fixture: str, exact: int) -> None:
    assert count_parameters(load(fixture)).total == exact


def test_parts_are_separate_and_sum_to_total() -> None:
    count = count_parameters(load("qwen1.5-moe-a2.7b.json"))
    names = [part.name for part in count.parts]
    assert names == ["embeddings", "attention", "mlp", "experts", "shared_experts", "router", "norms", "lm_head"]
    assert count.part("mlp").count == 0  # every layer is MoE
    assert count.total == sum(part.count or 0 for part in count.parts)


def test_tied_embeddings_cost_no_lm_head() -> None:
    tied = load("qwen3-1.7b.json")
    assert count_parameters(tied).part("lm_head").count == 0
    untied = dict(tied, tie_word_embeddings=False)
    assert count_parameters(untied).part("lm_head").count == 151936 * 2048


def test_qwen2_counts_qkv_bias_that_llama_does_not() -> None:
    qwen2 = load("qwen2-7b.json")
    as_llama = dict(qwen2, model_type="llama")
    difference = count_parameters(qwen2).total - count_parameters(as_llama).total
    assert difference == 28 * (3584 + 2 * 4 * 128)  # q, k and v biases in every layer


def test_deepseek_v3_mla_and_moe() -> None:
    # the size fields of deepseek-ai/DeepSeek-V3's config.json; 671B main-model parameters (tenstorrent/tt-metal
    # models/demos/deepseek_v3/reference/README_WEIGHTS.md quotes DeepSeek's figure)
    v3 = {"model_type": "deepseek_v3", "first_k_dense_replace": 3, "hidden_size": 7168,
          "intermediate_size": 18432, "kv_lora_rank": 512, "moe_intermediate_size": 2048, "moe_layer_freq": 1,
          "n_routed_experts": 256, "n_shared_experts": 1, "num_attention_heads": 128, "num_hidden_layers": 61,
          "num_key_value_heads": 128, "num_nextn_predict_layers": 1, "q_lora_rank": 1536,
          "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "tie_word_embeddings": False,
          "topk_method": "noaux_tc", "v_head_dim": 128, "vocab_size": 129280,
          "quantization_config": {"quant_method": "fp8", "fmt": "e4m3"}}
    count = count_parameters(v3)
    assert count.complete
    assert abs(count.total - 671e9) / 671e9 < 0.01
    assert any("multi-token" in note for note in count.notes)
    assert declared_dtype(v3)[0] == "fp8"
    assert kv_cache_bytes_per_token(v3, "bf16").bytes_per_token == (512 + 64) * 61 * 2


def test_vit_base_with_classifier() -> None:
    vit = {"model_type": "vit", "architectures": ["ViTForImageClassification"], "hidden_size": 768,
           "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072, "image_size": 224,
           "patch_size": 16, "num_channels": 3, "qkv_bias": True, "id2label": {str(i): str(i) for i in range(1000)}}
    assert count_parameters(vit).total == 86_567_656


def test_nested_multimodal_says_what_it_could_not_count() -> None:
    count = count_parameters(load("llava-1.5-7b.json"))
    assert not count.complete
    vision = [part for part in count.parts if part.name.startswith("vision.")]
    assert vision and all(part.count is not None for part in vision)
    text = count.part("text.embeddings")
    assert text.count is None and text.reason is not None and "hidden_size" in text.reason


def test_unknown_model_type_falls_back_and_says_so() -> None:
    generic = dict(load("llama-2-7b.json"), model_type="somebrandnewlm")
    count = count_parameters(generic)
    assert count.assumed_layout and count.complete
    assert count.total == count_parameters(load("llama-2-7b.json")).total
    assert any("not known" in note for note in count.notes)
    bare = count_parameters({"model_type": "somebrandnewlm", "hidden_size": 64})
    assert not bare.complete and bare.total == 0
    assert "num_hidden_layers" in (bare.part("model").reason or "")


BROKEN: list[tuple[str, dict[str, Any], str]] = [
    ("no hidden size", {"hidden_size": None}, "hidden_size"),
    ("heads do not divide hidden", {"hidden_size": 4000, "num_attention_heads": 48}, "divisible"),
    ("negative layers", {"num_hidden_layers": -2}, "below"),
    ("absurd vocab", {"vocab_size": 10**14}, "plausible"),
    ("more kv heads than heads", {"num_key_value_heads": 64}, "larger"),
    ("boolean heads", {"num_attention_heads": True}, "not an integer"),
    ("string hidden", {"hidden_size": "4096"}, "not an integer"),
    ("fractional layers", {"num_hidden_layers": 32.5}, "not an integer"),
    ("list hidden", {"hidden_size": [4096]}, "an array, not an integer"),
]


@pytest.mark.parametrize(("label", "change", "says"), BROKEN, ids=[case[0] for case in BROKEN])
def test_broken_configs_are_not_counted_with_a_reason(label: str, change: dict[str, Any], says: str) -> None:
    config = dict(load("llama-3.1-8b.json"), **change)
    count = count_parameters(config)
    assert not count.complete
    reasons = [part.reason or "" for part in count.parts if part.count is None]
    assert any(says in reason for reason in reasons), reasons
    assert weights_bytes(count, "bf16").complete is False


@pytest.mark.parametrize("config", [[], "llama", 7, None])
def test_non_object_config(config: Any) -> None:
    count = count_parameters(config)
    assert not count.complete and count.total == 0
    assert kv_cache_bytes_per_token(config, "bf16").bytes_per_token is None
    assert tensor_parallel_degrees(config, 8).reason


def test_weights_bytes_per_dtype() -> None:
    count = count_parameters(load("llama-3.1-8b.json"))
    assert weights_bytes(count, "fp32").bytes == 4 * count.total
    assert weights_bytes(count, "bfloat16").bytes == 2 * count.total
    assert weights_bytes(count, "fp16").bytes == 2 * count.total
    assert weights_bytes(count, "fp8").bytes == count.total
    assert weights_bytes(count, "int8").bytes == count.total
    assert weights_bytes(count, "int4").bytes == count.total // 2
    unknown = weights_bytes(count, "fp12")
    assert unknown.bytes is None and unknown.reason and "unknown dtype" in unknown.reason


def test_declared_dtype() -> None:
    assert declared_dtype(load("llama-3.1-8b.json")) == ("bf16", "torch_dtype='bfloat16'")
    assert declared_dtype(load("gpt2.json"))[0] is None
    assert declared_dtype({"quantization_config": {"load_in_4bit": True}})[0] == "int4"


def test_kv_cache_gqa_mha_and_window() -> None:
    llama3 = kv_cache_bytes_per_token(load("llama-3.1-8b.json"), "bf16")
    assert llama3.bytes_per_token == 2 * 32 * 8 * 128 * 2  # 131,072 bytes
    llama2 = kv_cache_bytes_per_token(load("llama-2-7b.json"), "fp16")
    assert llama2.bytes_per_token == 2 * 32 * 32 * 128 * 2
    gemma2 = kv_cache_bytes_per_token(load("gemma-2-9b.json"), "bf16")
    assert gemma2.bytes_per_token == 2 * 42 * 8 * 256 * 2
    assert any("sliding window of 4096" in note for note in gemma2.notes)
    assert kv_cache_bytes_per_token(load("gpt2.json"), "fp32").bytes_per_token == 2 * 12 * 768 * 4
    mla = kv_cache_bytes_per_token(load("deepseek-v2-lite.json"), "bf16")
    assert mla.bytes_per_token == (512 + 64) * 27 * 2


def test_kv_cache_none_for_encoders_and_bad_input() -> None:
    bert = kv_cache_bytes_per_token(load("snowflake-arctic-embed-m.json"), "bf16")
    assert bert.bytes_per_token is None and bert.reason and "encoder-only" in bert.reason
    assert kv_cache_bytes_per_token({"model_type": "mamba"}, "bf16").bytes_per_token is None
    broken = kv_cache_bytes_per_token(dict(load("mistral-7b-v0.1.json"), num_key_value_heads=3), "bf16")
    assert broken.bytes_per_token is None and broken.reason and "multiple" in broken.reason
    t5 = kv_cache_bytes_per_token(load("t5-small.json"), "fp32")
    assert t5.bytes_per_token == 2 * 6 * 8 * 64 * 4 and "cross-attention" in t5.notes[0]


def test_tensor_parallel_gqa() -> None:
    degrees = tensor_parallel_degrees(load("llama-3.1-8b.json"), 64)  # 32 heads, 8 KV heads
    assert degrees.strict == (1, 2, 4, 8)
    assert degrees.with_kv_replication == (1, 2, 4, 8, 16, 32)


def test_tensor_parallel_non_power_of_two_heads() -> None:
    degrees = tensor_parallel_degrees(load("qwen2-7b.json"), 32)  # 28 heads, 4 KV heads
    assert degrees.strict == (1, 2, 4)
    assert degrees.with_kv_replication == (1, 2, 4, 28)
    mqa = tensor_parallel_degrees(load("gemma-2b.json"), 16)  # 8 heads, 1 KV head
    assert mqa.strict == (1,) and mqa.with_kv_replication == (1, 2, 4, 8)
    mla = tensor_parallel_degrees(load("deepseek-v2-lite.json"), 128)
    assert mla.strict == (1, 2, 4, 8, 16) and any("MLA" in note for note in mla.notes)


def test_tensor_parallel_bad_input() -> None:
    assert tensor_parallel_degrees(load("gpt2.json"), 0).reason
    broken = tensor_parallel_degrees(dict(load("llama-3.1-8b.json"), num_key_value_heads=48), 8)
    assert broken.strict == () and broken.reason and "larger" in broken.reason


def test_a_whole_float_reads_as_its_integer_and_huge_products_are_not_counted() -> None:
    """32.0 is 32 (a browser's JSON cannot tell them apart, and the check page must agree); a part whose count
    passes 2^53 is not counted rather than given inexactly."""
    base = load("llama-3.1-8b.json")
    assert count_parameters(dict(base, num_hidden_layers=32.0)) == count_parameters(base)
    huge = count_parameters(dict(base, vocab_size=10**12, hidden_size=10**12 // 4, head_dim=128))
    embeddings = huge.part("embeddings")
    assert embeddings.count is None and "above 2^53" in (embeddings.reason or "")
    many = dict(load("qwen3-30b-a3b.json"), num_hidden_layers=10**12)  # counted, not looped over
    assert count_parameters(many).part("experts").count is None
