"""The counters for vision, encoder, convolutional, speech and vision-language model types: each gives the count
transformers 5.25 builds for a published size (the configuration class's defaults, stored with the meta-device
reference in registry/upstream/sizing-reference.yaml), exactly; and a broken config gives a reason, never a
traceback or a negative number."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_compat.sizing import count_parameters, kv_cache_bytes_per_token

ROOT = Path(__file__).resolve().parents[2]
REPORT = yaml.safe_load((ROOT / "registry" / "upstream" / "sizing-reference.yaml").read_text(encoding="utf-8"))
ENTRIES = REPORT["model_types"]

EXACT = {
    # ViT-style towers without a vocabulary
    "beit": 85_656_576, "dinov3_vit": 21_595_008, "dpt": 86_681_088, "yolos": 103_170_816,
    "audio-spectrogram-transformer": 86_187_264, "pixtral": 403_489_792, "siglip2": 203_202_050,
    # vision-language models (tower, projector, text decoder)
    "qwen2_vl": 73_381_962_752, "qwen2_5_vl": 75_789_228_800, "qwen3_vl": 12_616_410_352,
    "qwen3_5": 9_407_453_936, "glm4v": 10_292_777_472, "llava_onevision": 12_469_102_112,
    "mistral3": 23_340_272_640, "internvl": 11_765_025_792, "mllama": 10_642_941_475,
    "idefics": 12_670_461_504,
    # staged image backbones
    "resnet": 23_508_032, "convnext": 27_820_128, "convnextv2": 27_866_496, "dinov3_convnext": 27_820_128,
    "swin": 27_519_354, "donut-swin": 27_517_818, "segformer": 3_319_392, "mobilenet_v2": 2_223_872,
    "efficientnet": 63_786_960, "mobilevit": 4_937_632, "cvt": 19_611_712, "levit": 8_442_400, "rt_detr": 41_932_326, "sam": 93_735_728, "sam2": 31_440_721, "sam2_video": 38_962_498,
    # text encoders
    "albert": 222_595_584, "xlm": 667_088_896, "flaubert": 667_088_896, "modernbert": 149_014_272,
    "layoutlmv3": 125_326_208, "convbert": 105_680_520, "mobilebert": 24_844_544, "perceiver": 262_686_208,
    # speech and audio-language
    "sew": 93_196_416, "sew-d": 93_589_632, "speecht5": 151_165_056, "seamless_m4t": 1_370_531_840, "wav2vec2-conformer": 179_730_304, "wav2vec2-bert": 580_493_120,
    "qwen2_audio": 12_692_062_208, "qwen3_asr": 2_039_626_880, "phi4_multimodal": 5_308_268_992,
    # decoders
    "mpt": 1_311_213_568, "gemma3n_text": 6_835_235_568,
}
"""model_type -> the parameter count transformers 5.25 builds on the meta device for its default configuration."""


def config_of(model_type: str) -> dict[str, Any]:
    config: dict[str, Any] = copy.deepcopy(ENTRIES[model_type]["config_fields"])
    return config


@pytest.mark.parametrize("model_type", sorted(EXACT))
def test_the_count_is_exactly_what_transformers_builds(model_type: str) -> None:
    assert ENTRIES[model_type]["reference"] == EXACT[model_type]
    count = count_parameters(config_of(model_type))
    assert count.complete, [(part.name, part.reason) for part in count.parts if part.count is None]
    assert count.total == EXACT[model_type]
    assert not count.assumed_layout


def test_a_smaller_variant_moves_the_count_as_the_layout_says() -> None:
    """ViT-B/16 BEiT to ViT-L/16: 24 layers of width 1024 (the published BEiT-large has 303-304M parameters)."""
    config = dict(config_of("beit"), hidden_size=1024, num_hidden_layers=24, num_attention_heads=16,
                  intermediate_size=4096)
    assert 300_000_000 < count_parameters(config).total < 306_000_000


def test_the_outer_config_ties_a_vlm_output_head() -> None:
    untied = count_parameters(config_of("qwen2_vl"))
    tied = count_parameters(dict(config_of("qwen2_vl"), tie_word_embeddings=True))
    text = config_of("qwen2_vl")["text_config"]
    assert untied.total - tied.total == text["vocab_size"] * text["hidden_size"]


def test_a_position_table_floors_image_size_over_patch_size() -> None:
    """LLaVA-OneVision's SigLIP tower: 384 / 14 is not whole; transformers keeps 27 x 27 positions."""
    vision = config_of("llava_onevision")["vision_config"]
    count = count_parameters(dict(vision, model_type="siglip_vision_model"))
    assert count.part("position_embeddings").count == 27 * 27 * vision["hidden_size"]


def _mutations(config: dict[str, Any]) -> list[tuple[str, Any]]:
    """(key, broken value) pairs for every size-like top-level field of a config."""
    found: list[tuple[str, Any]] = []
    for key, value in config.items():
        if isinstance(value, bool) or key in ("model_type", "transformers_version"):
            continue
        if isinstance(value, (int, float)):
            found += [(key, 0), (key, -3), (key, "12"), (key, 10**15), (key, None), (key, 2.5)]
        elif isinstance(value, list):
            found += [(key, []), (key, ["a"]), (key, [0] * len(value)), (key, 7)]
        elif isinstance(value, dict):
            found += [(key, None), (key, {}), (key, [])]
    return found


@pytest.mark.parametrize("model_type", sorted(EXACT))
def test_broken_configs_give_reasons_never_tracebacks_or_negative_numbers(model_type: str) -> None:
    base = config_of(model_type)
    mutations = _mutations(base)
    for key, value in mutations:
        count = count_parameters(dict(base, **{key: value}))
        assert all(part.count is None or part.count >= 0 for part in count.parts), (key, value)
        assert all(part.reason for part in count.parts if part.count is None), (key, value)
        assert count.total >= 0
    for nested in ("vision_config", "text_config", "audio_config", "mask_decoder_config"):
        if isinstance(base.get(nested), dict):
            for key, value in _mutations(base[nested]):
                changed = copy.deepcopy(base)
                changed[nested][key] = value
                count = count_parameters(changed)
                assert all(part.count is None or part.count >= 0 for part in count.parts), (nested, key, value)
                assert all(part.reason for part in count.parts if part.count is None), (nested, key, value)


@pytest.mark.parametrize(("model_type", "change", "says"), [
    ("pixtral", {"hidden_size": 1000}, "divisible"),
    ("resnet", {"layer_type": "wide"}, "layer_type"),
    ("swin", {"num_heads": [3, 6]}, "num_heads"),
    ("levit", {"down_ops": [["Subsample", 16]]}, "down_ops"),
    ("qwen3_5", {"text_config": {"model_type": "qwen3_5_text", "hidden_size": 64, "num_hidden_layers": 2}},
     "layer_types"),
    ("dpt", {"is_hybrid": True}, "is_hybrid"),
    ("mllama", {"vision_config": {"model_type": "mllama_vision_model", "hidden_size": 64}}, "not set"),
    ("sam", {"mask_decoder_config": None}, "mask_decoder_config"),
])
def test_what_a_counter_cannot_count_it_names(model_type: str, change: dict[str, Any], says: str) -> None:
    count = count_parameters(dict(config_of(model_type), **change))
    assert not count.complete
    reasons = " ".join(part.reason or "" for part in count.parts if part.count is None)
    assert says in reasons, reasons


@pytest.mark.parametrize("model_type", ["albert", "beit", "resnet", "swin", "sam2", "wav2vec2-bert", "siglip2"])
def test_encoders_and_backbones_keep_no_kv_cache(model_type: str) -> None:
    kv = kv_cache_bytes_per_token(config_of(model_type), "bf16")
    assert kv.bytes_per_token is None and "no KV cache" in (kv.reason or "")


def test_a_vlm_keeps_its_text_decoders_kv_cache() -> None:
    text = config_of("qwen2_vl")["text_config"]
    expected = 2 * text["num_hidden_layers"] * text["num_key_value_heads"] * (
        text["hidden_size"] // text["num_attention_heads"]) * 2
    assert kv_cache_bytes_per_token(config_of("qwen2_vl"), "bf16").bytes_per_token == expected
