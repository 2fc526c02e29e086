"""Vision towers of vision-language models and the text decoders they name: the Qwen2-VL, Qwen2.5-VL and Qwen3-VL
towers (Conv3d patches over frames, a patch merger into the text width) and GLM-4V's; their text model_types map
onto the decoder families. Counts follow transformers 5.25's modelling code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import FAMILIES, Family, count_decoder
from neuron_compat.sizing.fields import (
    FieldError,
    exact_div,
    read_bool,
    read_int,
    read_int_list,
    read_str,
    sub_config,
)
from neuron_compat.sizing.shapes import attention, hidden_size
from neuron_compat.sizing.vision_towers import image_sides

__all__ = ["TOP_LEVEL_TIE", "VLM_TOWER_COUNTERS"]


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def _frame_patch(config: Mapping[str, object], width: int, bias: bool) -> int:
    """A Conv3d over temporal_patch_size frames of patch_size x patch_size pixels, in_channels in."""
    pixels = read_int(config, "in_channels", default=3) * read_int(config, "temporal_patch_size", default=2) \
        * read_int(config, "patch_size") ** 2
    return pixels * width + (width if bias else 0)


def _heads_divide(config: Mapping[str, object], width: int) -> None:
    exact_div(width, read_int(config, "num_heads"), "hidden_size / num_heads")


def count_qwen2_vl_vision(config: Mapping[str, object], parts: PartList) -> None:
    """Qwen2-VL's tower at embed_dim: bias-free Conv3d patches, LayerNorm blocks (fused biased qkv, plain MLP of
    embed_dim x mlp_ratio) and a merger (LayerNorm, two biased linears) from spatial_merge_size^2 patches to
    hidden_size (the text width)."""

    def width() -> int:
        return read_int(config, "embed_dim")

    def block() -> int:
        embed = width()
        _heads_divide(config, embed)
        ratio = config.get("mlp_ratio", 4)
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or ratio <= 0:
            raise FieldError("mlp_ratio is not a positive number")
        inner = int(embed * ratio)
        return 2 * 2 * embed + _linear(embed, 3 * embed) + _linear(embed, embed) + _linear(embed, inner) \
            + _linear(inner, embed)

    def merger() -> int:
        merged = width() * read_int(config, "spatial_merge_size", default=2) ** 2
        return 2 * width() + _linear(merged, merged) + _linear(merged, read_int(config, "hidden_size"))

    parts.add("patch_embedding", lambda: _frame_patch(config, width(), bias=False))
    parts.add("blocks", lambda: read_int(config, "depth") * block())
    parts.add("merger", merger)


def count_qwen2_5_vl_vision(config: Mapping[str, object], parts: PartList) -> None:
    """Qwen2.5-VL's tower at hidden_size: bias-free Conv3d patches, RMSNorm blocks (fused biased qkv, biased gated
    MLP of intermediate_size) and a merger (RMSNorm, two biased linears) to out_hidden_size."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def block() -> int:
        hidden, inner = width(), read_int(config, "intermediate_size")
        _heads_divide(config, hidden)
        return 2 * hidden + _linear(hidden, 3 * hidden) + _linear(hidden, hidden) + 2 * _linear(hidden, inner) \
            + _linear(inner, hidden)

    def merger() -> int:
        merged = width() * read_int(config, "spatial_merge_size", default=2) ** 2
        return width() + _linear(merged, merged) + _linear(merged, read_int(config, "out_hidden_size"))

    parts.add("patch_embedding", lambda: _frame_patch(config, width(), bias=False))
    parts.add("blocks", lambda: read_int(config, "depth") * block())
    parts.add("merger", merger)


def count_qwen3_vl_vision(config: Mapping[str, object], parts: PartList) -> None:
    """Qwen3-VL's tower: biased Conv3d patches, a learned position table (num_position_embeddings), LayerNorm
    blocks with a plain biased MLP, a merger (LayerNorm before the shuffle) and one DeepStack merger per
    deepstack_visual_indexes entry (LayerNorm after the shuffle)."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def block() -> int:
        hidden, inner = width(), read_int(config, "intermediate_size")
        _heads_divide(config, hidden)
        return 2 * 2 * hidden + _linear(hidden, 3 * hidden) + _linear(hidden, hidden) + _linear(hidden, inner) \
            + _linear(inner, hidden)

    def merger(post_shuffle: bool) -> int:
        merged = width() * read_int(config, "spatial_merge_size", default=2) ** 2
        return 2 * (merged if post_shuffle else width()) + _linear(merged, merged) \
            + _linear(merged, read_int(config, "out_hidden_size"))

    parts.add("patch_embedding", lambda: _frame_patch(config, width(), bias=True))
    parts.add("position_embeddings", lambda: read_int(config, "num_position_embeddings") * width())
    parts.add("blocks", lambda: read_int(config, "depth") * block())
    parts.add("merger", lambda: merger(False)
              + len(read_int_list(config, "deepstack_visual_indexes")) * merger(True))


def count_glm4v_vision(config: Mapping[str, object], parts: PartList) -> None:
    """GLM-4V's tower: a learned position table ((image_size // patch_size)^2), biased Conv3d patches, RMSNorm
    blocks (qkv biased when attention_bias, gated MLP to out_hidden_size), a post-conv RMSNorm, a downsampling
    Conv2d to out_hidden_size, a final RMSNorm and a merger (linear, LayerNorm, gated MLP of intermediate_size)."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def out() -> int:
        return read_int(config, "out_hidden_size")

    def block() -> int:
        hidden = width()
        _heads_divide(config, hidden)
        qkv_bias = config.get("attention_bias") is True
        return 2 * hidden + _linear(hidden, 3 * hidden, qkv_bias) + hidden * hidden + 3 * hidden * out()

    def positions() -> int:
        side = read_int(config, "image_size") // read_int(config, "patch_size")
        return side * side * width()

    def downsample() -> int:
        return width() * out() * read_int(config, "spatial_merge_size", default=2) ** 2 + out() + 2 * width()

    parts.add("position_embeddings", positions)
    parts.add("patch_embedding", lambda: _frame_patch(config, width(), bias=True))
    parts.add("blocks", lambda: read_int(config, "depth") * block())
    parts.add("downsample", downsample)
    parts.add("merger", lambda: out() * out() + 2 * out() + 3 * out() * read_int(config, "intermediate_size"))


def _patch_sides(config: Mapping[str, object]) -> tuple[int, int]:
    value = config.get("patch_size")
    if isinstance(value, list):
        sides = [read_int({"patch_size": side}, "patch_size") for side in value]
        if len(sides) != 2:
            raise FieldError("patch_size is a list, not two integers")
        return sides[0], sides[1]
    side = read_int(config, "patch_size")
    return side, side


def count_internvl_vision(config: Mapping[str, object], parts: PartList) -> None:
    """InternVL's InternViT: BEiT-like embeddings (class token, optional mask token and absolute positions), q/k/v
    biased when attention_bias, optional q/k RMSNorms over the width, LayerNorm or RMSNorm (norm_type), LayerScale on
    both branches; a final LayerNorm unless use_mean_pooling."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def embeddings() -> int:
        hidden = width()
        height, side = image_sides(config)
        patch_h, patch_w = _patch_sides(config)
        total = read_int(config, "num_channels", default=3) * patch_h * patch_w * hidden + hidden + hidden
        total += hidden if read_bool(config, "use_mask_token", False) else 0
        if read_bool(config, "use_absolute_position_embeddings", True):
            total += ((height // patch_h) * (side // patch_w) + 1) * hidden
        return total

    def layer() -> int:
        hidden, inner = width(), read_int(config, "intermediate_size")
        exact_div(hidden, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        norm = read_str(config, "norm_type") or "layer_norm"
        if norm not in ("layer_norm", "rms_norm"):
            raise FieldError(f"norm_type {norm!r} is neither layer_norm nor rms_norm")
        per_norm = 2 * hidden if norm == "layer_norm" else hidden
        return 3 * _linear(hidden, hidden, read_bool(config, "attention_bias", False)) + _linear(hidden, hidden) \
            + (2 * hidden if read_bool(config, "use_qk_norm", False) else 0) + 2 * per_norm \
            + _linear(hidden, inner) + _linear(inner, hidden) + 2 * hidden

    parts.add("embeddings", embeddings)
    parts.add("encoder", lambda: read_int(config, "num_hidden_layers") * layer())
    parts.add("final_norm", lambda: 0 if read_bool(config, "use_mean_pooling", True) else 2 * width())


def count_mllama_vision(config: Mapping[str, object], parts: PartList) -> None:
    """Llama 3.2 Vision's tower: bias-free patches, a class embedding, gated position and per-tile (aspect ratio)
    embeddings, LayerNorms before and after, a local encoder and a gated global encoder (bias-free attention,
    biased MLP)."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def ratios() -> int:
        value = config.get("supported_aspect_ratios")
        if not isinstance(value, list) or not value:
            raise FieldError("supported_aspect_ratios is not set: the tile embedding tables' size is not known")
        return len(value) + 1

    def embeddings() -> int:
        hidden, tiles = width(), read_int(config, "max_num_tiles", default=4)
        positions = (read_int(config, "image_size") // read_int(config, "patch_size")) ** 2 + 1
        return read_int(config, "num_channels", default=3) * read_int(config, "patch_size") ** 2 * hidden \
            + hidden + 1 + positions * hidden + ratios() * tiles * positions * hidden \
            + 2 * (ratios() * tiles * hidden + 1) + 2 * 2 * hidden

    def layer() -> int:
        hidden, inner = width(), read_int(config, "intermediate_size")
        exact_div(hidden, read_int(config, "attention_heads"), "hidden_size / attention_heads")
        return 4 * hidden * hidden + _linear(hidden, inner) + _linear(inner, hidden) + 2 * 2 * hidden

    parts.add("embeddings", embeddings)
    parts.add("encoder", lambda: read_int(config, "num_hidden_layers") * layer())
    parts.add("global_encoder", lambda: read_int(config, "num_global_layers") * (layer() + 2))


def count_mllama_text(config: Mapping[str, object], parts: PartList) -> None:
    """Llama 3.2 Vision's text decoder: vocab_size + 8 embeddings, Llama layers, and at cross_attention_layers
    gated cross-attention layers (q/k RMSNorms, two tanh gates) in place of self-attention; an untied output head."""

    def hidden() -> int:
        return read_int(config, "hidden_size")

    def cross() -> int:
        indices = read_int_list(config, "cross_attention_layers")
        return len({index for index in indices if 0 <= index < read_int(config, "num_hidden_layers")})

    def layers_() -> int:
        shape = attention(config)
        h, inner = hidden(), read_int(config, "intermediate_size")
        mixer = 2 * h * shape.heads * shape.head_dim + 2 * h * shape.kv_heads * shape.head_dim
        plain = mixer + 3 * h * inner + 2 * h
        return read_int(config, "num_hidden_layers") * plain + cross() * (2 * shape.head_dim + 2)

    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + 8) * hidden())
    parts.add("layers", layers_)
    parts.add("norm", hidden)
    # never tied: the output head has vocab_size rows, the embeddings vocab_size + 8 (transformers cannot tie them)
    parts.add("lm_head", lambda: read_int(config, "vocab_size") * hidden())


def _mllama_projector(config: Mapping[str, object], text: Mapping[str, object],
                      vision: Mapping[str, object]) -> int:
    """One biased linear from vision_output_dim (the concatenated intermediate layers) to the text width."""
    return _linear(read_int(vision, "vision_output_dim"), hidden_size(text))


def count_llama4_vision(config: Mapping[str, object], parts: PartList) -> None:
    """Llama 4's vision tower: a bias-free unfolded patch linear, a class embedding and position table, LayerNorms
    before and after, biased pre-LayerNorm layers, and the pixel-shuffle adapter (two bias-free linears)."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def layer() -> int:
        hidden, inner = width(), read_int(config, "intermediate_size")
        exact_div(hidden, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        return 4 * _linear(hidden, hidden) + _linear(hidden, inner) + _linear(inner, hidden) + 2 * 2 * hidden

    def embeddings() -> int:
        hidden = width()
        positions = (read_int(config, "image_size") // read_int(config, "patch_size")) ** 2 + 1
        return read_int(config, "num_channels", default=3) * read_int(config, "patch_size") ** 2 * hidden \
            + hidden + positions * hidden + 2 * 2 * hidden

    def adapter() -> int:
        output = read_int(config, "projector_output_dim")
        return read_int(config, "intermediate_size") * read_int(config, "projector_input_dim") + output * output

    parts.add("embeddings", embeddings)
    parts.add("encoder", lambda: read_int(config, "num_hidden_layers") * layer())
    parts.add("adapter", adapter)


def _llama4_projector(config: Mapping[str, object], text: Mapping[str, object],
                      vision: Mapping[str, object]) -> int:
    """One bias-free linear from vision_output_dim to the text width."""
    return read_int(vision, "vision_output_dim") * hidden_size(text)


def count_minimax_m3_vl_vision(config: Mapping[str, object], parts: PartList) -> None:
    """MiniMax-M3-VL's vision tower: bias-free Conv3d patches, a LayerNorm, and post-LayerNorm-free encoder layers
    (biased attention and MLP, two LayerNorms each); 2D RoPE, no position table."""

    def width() -> int:
        return read_int(config, "hidden_size")

    def layer() -> int:
        hidden, inner = width(), read_int(config, "intermediate_size")
        exact_div(hidden, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        return 4 * _linear(hidden, hidden) + _linear(hidden, inner) + _linear(inner, hidden) + 2 * 2 * hidden

    parts.add("patch_embedding", lambda: _frame_patch(config, width(), bias=False) + 2 * width())
    parts.add("encoder", lambda: read_int(config, "num_hidden_layers") * layer())


def _minimax_m3_vl_projector(config: Mapping[str, object], text: Mapping[str, object],
                             vision: Mapping[str, object]) -> int:
    """Two biased GELU MLPs to the text width: one per patch from the vision width, one from merged_hidden_size
    (spatial_merge_size^2 patches grouped), both through projector_hidden_size."""
    inner, text_width = read_int(config, "projector_hidden_size"), hidden_size(text)
    return _linear(hidden_size(vision), inner) + _linear(inner, text_width) \
        + _linear(read_int(config, "merged_hidden_size"), inner) + _linear(inner, text_width)


def count_idefics(config: Mapping[str, object], parts: PartList) -> None:
    """IDEFICS (IdeficsForVisionText2Text): decoupled token embeddings (vocab_size + additional_vocab_size), a
    CLIP-style vision tower (bias-free patches), an optional Perceiver resampler, Llama-style bias-free decoder layers
    with a gated cross-attention layer every cross_layer_interval layers, and a decoupled output head (tied only when
    tie_word_embeddings)."""
    vision = sub_config(config, "vision_config")
    if vision is None:
        parts.fail("model", "vision_config is missing or not an object")
        return

    def hidden() -> int:
        return read_int(config, "hidden_size")

    def vocabulary() -> int:
        return read_int(config, "vocab_size") + read_int(config, "additional_vocab_size", minimum=0, default=0)

    def embed() -> int:
        return read_int(vision, "embed_dim")

    def tower() -> int:
        width, inner = embed(), read_int(vision, "intermediate_size")
        exact_div(width, read_int(vision, "num_attention_heads"), "embed_dim / num_attention_heads")
        positions = (read_int(vision, "image_size") // read_int(vision, "patch_size")) ** 2 + 1
        layer = 4 * _linear(width, width) + _linear(width, inner) + _linear(inner, width) + 2 * 2 * width
        return width + read_int(vision, "num_channels", default=3) * read_int(vision, "patch_size") ** 2 * width \
            + positions * width + 2 * 2 * width + read_int(vision, "num_hidden_layers") * layer

    def resampler() -> int:
        if not read_bool(config, "use_resampler", False):
            return 0
        perceiver = sub_config(config, "perceiver_config")
        if perceiver is None:
            raise FieldError("use_resampler is true but perceiver_config is missing")
        width = embed()
        inner = read_int(perceiver, "resampler_n_heads") * read_int(perceiver, "resampler_head_dim")
        norms = 4 * read_int(perceiver, "resampler_head_dim") \
            if read_bool(perceiver, "qk_layer_norms_perceiver", False) else 0
        block = 2 * 2 * width + norms + 3 * width * inner + inner * width + 2 * width + 2 * width * 4 * width
        return read_int(perceiver, "resampler_n_latents") * width \
            + read_int(perceiver, "resampler_depth") * block + 2 * width

    def decoder() -> int:
        h, inner = hidden(), read_int(config, "intermediate_size")
        head_dim = exact_div(h, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        plain = 4 * h * h + 3 * h * inner + 2 * h
        alpha = config.get("alpha_type", "float")
        if alpha not in ("float", "vector"):
            raise FieldError("alpha_type is neither 'float' nor 'vector'")
        cross = 2 * h * h + 2 * embed() * h + 3 * h * inner + 2 * h + (2 if alpha == "float" else 2 * h)
        cross += 2 * head_dim if read_bool(config, "qk_layer_norms", False) else 0
        layer_count = read_int(config, "num_hidden_layers")
        return layer_count * plain + layer_count // read_int(config, "cross_layer_interval", default=1) * cross + h

    parts.add("embeddings", lambda: vocabulary() * hidden())
    parts.add("vision", tower)
    parts.add("perceiver_resampler", resampler)
    parts.add("decoder", decoder)
    parts.add("lm_head", lambda: 0 if read_bool(config, "tie_word_embeddings", False) else vocabulary() * hidden())


def _feature_layers(config: Mapping[str, object]) -> int:
    value = config.get("vision_feature_layer", -1)
    return len(value) if isinstance(value, list) and value else 1


def _llava_onevision_projector(config: Mapping[str, object], text: Mapping[str, object],
                               vision: Mapping[str, object]) -> int:
    """Two linears (biased when multimodal_projector_bias) from the vision width, and image_newline."""
    bias = read_bool(config, "multimodal_projector_bias", True)
    text_width = hidden_size(text)
    return _linear(hidden_size(vision) * _feature_layers(config), text_width, bias) \
        + _linear(text_width, text_width, bias) + text_width


def _mistral3_projector(config: Mapping[str, object], text: Mapping[str, object],
                        vision: Mapping[str, object]) -> int:
    """An RMSNorm, a bias-free patch merger (spatial_merge_size^2 patches to one) and two linears."""
    bias = read_bool(config, "multimodal_projector_bias", False)
    vision_width, text_width = hidden_size(vision), hidden_size(text)
    merge = read_int(config, "spatial_merge_size", default=2)
    return vision_width + vision_width * merge * merge * vision_width \
        + _linear(vision_width * _feature_layers(config), text_width, bias) + _linear(text_width, text_width, bias)


def _internvl_projector(config: Mapping[str, object], text: Mapping[str, object],
                        vision: Mapping[str, object]) -> int:
    """A LayerNorm and two biased linears from the pixel-shuffled vision width (x int(1 / downsample_ratio)^2)."""
    ratio = config.get("downsample_ratio", 0.5)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 1:
        raise FieldError("downsample_ratio is not a number in (0, 1]")
    shuffled = hidden_size(vision) * int(1 / ratio) ** 2
    return 2 * shuffled + _linear(shuffled, hidden_size(text)) + _linear(hidden_size(text), hidden_size(text))


def _in_tower(config: Mapping[str, object], text: Mapping[str, object], vision: Mapping[str, object]) -> int:
    return 0  # the patch merger is counted with the vision tower


Projector = Callable[[Mapping[str, object], Mapping[str, object], Mapping[str, object]], int]
PROJECTORS: dict[str, Projector] = {
    **dict.fromkeys(("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "glm4v"),
                    _in_tower),
    "llava_onevision": _llava_onevision_projector,
    "mistral3": _mistral3_projector,
    "internvl": _internvl_projector,
    "mllama": _mllama_projector,
    "llama4": _llama4_projector,
    "minimax_m3_vl": _minimax_m3_vl_projector,
}
"""VLM model_type -> its vision-to-text connector's count from (config, text_config, vision_config)."""

TOP_LEVEL_TIE = frozenset(PROJECTORS) - {"llama4"}  # Llama 4 nests a whole causal LM that ties by its own config
"""The VLM model_types above, whose output head is tied or not by the top-level tie_word_embeddings (transformers 5
ties by the outer config; absent means untied)."""


def _text(family: Family, config: Mapping[str, object], parts: PartList) -> None:
    count_decoder(config, "", family, parts)


TEXT_FAMILIES: dict[str, Family] = {
    "qwen2_vl_text": FAMILIES["qwen2"],
    "qwen2_5_vl_text": FAMILIES["qwen2"],
    "qwen3_vl_text": FAMILIES["qwen3"],
    "glm4v_text": Family(norms_per_layer=4, qkv_bias_always=True),  # post-attention and post-MLP norms too
}
"""A VLM's text model_type -> the decoder family whose layout it has (checked against transformers 5.25)."""

VLM_TOWER_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "idefics": count_idefics,
    "qwen2_vl_vision": count_qwen2_vl_vision,
    "qwen2_5_vl_vision": count_qwen2_5_vl_vision,
    "qwen3_vl_vision": count_qwen3_vl_vision,
    "qwen3_vl_moe_vision": count_qwen3_vl_vision,
    "qwen3_5_vision": count_qwen3_vl_vision,  # no DeepStack mergers: deepstack_visual_indexes is not a field
    "qwen3_5_moe_vision": count_qwen3_vl_vision,
    "glm4v_vision": count_glm4v_vision,
    "internvl_vision": count_internvl_vision,
    "mllama_vision_model": count_mllama_vision,
    "mllama_text_model": count_mllama_text,
    "llama4_vision_model": count_llama4_vision,
    "minimax_m3_vl_vision": count_minimax_m3_vl_vision,
    **{name: partial(_text, family) for name, family in TEXT_FAMILIES.items()},
}
"""model_type -> counter, for dispatch by sizing.models."""
