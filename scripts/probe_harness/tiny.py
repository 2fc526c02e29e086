"""Tiny configurations: the architecture's real config class with a few layers and a small hidden size."""

from __future__ import annotations

from typing import Any, TypeGuard

# Size fields shrunk to these values when the default configuration is larger.
TINY: dict[str, int] = {
    "num_hidden_layers": 2, "num_layers": 2, "n_layer": 2, "n_layers": 2, "num_decoder_layers": 2,
    "encoder_layers": 2, "decoder_layers": 2, "num_encoder_layers": 2,
    "hidden_size": 64, "d_model": 64, "n_embd": 64, "dim": 64, "embed_dim": 64, "word_embed_proj_dim": 64,
    "intermediate_size": 128, "ffn_dim": 128, "encoder_ffn_dim": 128, "decoder_ffn_dim": 128, "d_ff": 128,
    "n_inner": 128, "hidden_dim": 128, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32,
    "num_attention_heads": 4, "n_head": 4, "n_heads": 4, "encoder_attention_heads": 4,
    "decoder_attention_heads": 4, "num_heads": 4, "num_key_value_heads": 2, "num_kv_heads": 2,
    "head_dim": 16, "d_kv": 16, "kv_channels": 16,
    "vocab_size": 512, "max_position_embeddings": 512, "n_positions": 512,
    "num_local_experts": 4, "num_experts": 4, "n_routed_experts": 4, "num_experts_per_tok": 2,
    "q_lora_rank": 32, "kv_lora_rank": 16, "qk_rope_head_dim": 8, "qk_nope_head_dim": 8, "v_head_dim": 16,
    "image_size": 64, "num_mel_bins": 16, "max_source_positions": 64, "max_target_positions": 64,
    "first_k_dense_replace": 1, "rotary_dim": 8, "vocab_size_per_layer_input": 512, "hidden_size_per_layer_input": 16,
    "depth": 2,
}
SUB_CONFIGS = ("text_config", "vision_config", "audio_config", "encoder", "decoder", "speech_config",
               "backbone_config", "vq_config", "thinker_config", "talker_config", "token2wav_config",
               "dit_config", "bigvgan_config")  # fmt: skip  (the last five: Qwen2.5-Omni's thinker, talker and vocoder)
SPECIAL_IDS = ("pad_token_id", "bos_token_id", "eos_token_id", "decoder_start_token_id", "sep_token_id")
EXPERT_COUNTS = ("n_routed_experts", "num_local_experts", "num_experts")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def shrink(values: dict[str, Any]) -> dict[str, Any]:
    """The overrides that make a configuration tiny: size fields above their tiny value, nested configs."""
    out: dict[str, Any] = {}
    for key, tiny in TINY.items():
        value = values.get(key)
        if _is_int(value) and value > tiny:
            out[key] = tiny
    _fit_architecture_quirks(values, out)
    _fit_unset_and_derived_sizes(values, out)
    if isinstance(values.get("num_heads"), list):
        out.pop("embed_dim", None)  # Swin-like stages: heads per stage must divide the stage widths
        out.pop("hidden_size", None)  # and the last stage's width is derived from embed_dim
    if isinstance(values.get("embed_dim_per_stage"), list):
        out.pop("hidden_size", None)  # Hiera (SAM 2): the first stage's width, tied to the stages and the neck's channels
    if "qk_rope_head_dim" in values and "head_dim" in values:
        out["head_dim"] = out.get("qk_rope_head_dim", values["qk_rope_head_dim"])  # MLA: rotary part only
    _shrink_expert_groups(values, out)
    if _is_int(values.get("kv_lora_rank")) and _is_int(out.get("num_attention_heads")):
        out["num_key_value_heads"] = out["num_attention_heads"]  # MLA: one latent per attention head
    _keep_kv_sharing(values, out)
    _fit_layer_lists(values, out)
    _fit_block_indexes(values, out)
    for key in SUB_CONFIGS:
        if isinstance(values.get(key), dict):
            nested = shrink(values[key])
            if nested:
                out[key] = {**values[key], **nested}
    _project_vision_to_text(out)
    _fit_vision_projection(values, out)
    _fit_prompt_encoder(values, out)
    vision = out.get("vision_config")
    if values.get("image_grid_pinpoints") and isinstance(vision, dict) and _is_int(vision.get("image_size")):
        out["image_grid_pinpoints"] = [[vision["image_size"]] * 2]  # LLaVA-NeXT tiles: one tile of the tiny image
    _shrink_token_ids(values, out)
    return out


def _shrink_token_ids(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Token ids must stay inside the tiny vocabulary (the model's own, or its text config's for the image /
    audio placeholder tokens of multimodal models): pad/bos/eos... become 0, 1, 2..., the others the top ids."""
    vocab = out.get("vocab_size")
    text = out.get("text_config")
    if vocab is None and isinstance(text, dict) and _is_int(text.get("vocab_size")):
        vocab = text["vocab_size"]
    if not _is_int(vocab):
        return
    others = sorted(k for k in values if k.endswith(("_token_id", "_token_index")) and k not in SPECIAL_IDS)
    for key in SPECIAL_IDS:
        value = values.get(key)
        if _is_int(value) and value >= vocab:
            out[key] = min(SPECIAL_IDS.index(key), vocab - 1)
    for index, key in enumerate(others):
        value = values.get(key)
        if _is_int(value) and value >= vocab:
            out[key] = vocab - 1 - index


def _fit_layer_lists(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Lists with one entry per layer or stage follow the tiny layer count."""
    layers = out.get("num_hidden_layers", values.get("num_hidden_layers"))
    for key in ("depths", "encoder_depths", "num_layers_per_block"):
        value = values.get(key)
        if isinstance(value, list) and value and all(_is_int(v) for v in value):
            out[key] = [1 for _ in value]
    for key, tiny in TINY.items():  # per-layer lists (Gemma 3n's intermediate_size): one tiny value per layer
        value = values.get(key)
        if _is_int(layers) and isinstance(value, list) and value and all(_is_int(v) for v in value):
            out[key] = [min(v, tiny) for v in value[:layers]]
    original = values.get("num_hidden_layers")
    if _is_int(layers) and _is_int(original) and original > layers:
        for key, value in values.items():  # any other per-layer list follows the layer count
            if key not in out and isinstance(value, list) and len(value) == original:
                out[key] = value[:layers]
    if "attention_types" in values and "num_layers" in out:  # GPT-Neo: [[pattern, repeats]] must sum to the layers
        out["attention_types"] = [[["global", "local"], out["num_layers"] // 2]]
    if isinstance(values.get("layer_types"), list) and _is_int(layers) and "layer_types" not in out:
        out["layer_types"] = values["layer_types"][:layers]


def _fit_block_indexes(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Lists of block indexes (Qwen2.5-VL's full-attention blocks, Qwen3-VL's deepstack blocks, SAM's global-attention
    blocks, Mllama's intermediate and cross-attention layers) must name blocks of the tiny depth: the ones kept, else the last block."""
    depth = out.get("depth", out.get("num_hidden_layers"))
    if not _is_int(depth):
        return
    for key, value in values.items():
        if key.endswith(("_indexes", "layers_indices", "cross_attention_layers")) and isinstance(value, list) and value \
                and all(_is_int(v) for v in value):
            out[key] = [v for v in value if v < depth] or [depth - 1]
    kept = out.get("intermediate_layers_indices")
    if isinstance(kept, list) and _is_int(values.get("vision_output_dim")) and _is_int(out.get("hidden_size")):
        out["vision_output_dim"] = out["hidden_size"] * (len(kept) + 1)  # Mllama: last + intermediate layers


def _project_vision_to_text(out: dict[str, Any]) -> None:
    """A vision or audio tower whose output projects to the language model (Qwen-VL's out_hidden_size, Qwen3-ASR's
    output_dim) projects to the tiny text width."""
    text = out.get("text_config")
    width = text.get("hidden_size") if isinstance(text, dict) else None
    for key, field in (("vision_config", "out_hidden_size"), ("audio_config", "output_dim")):  # Qwen3-ASR's too
        tower = out.get(key)
        if isinstance(tower, dict) and _is_int(tower.get(field)) and _is_int(width):
            tower[field] = width


def _fit_vision_projection(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Image features must come out at the sizes the language model and the image tokens expect."""
    vision, text = out.get("vision_config"), out.get("text_config")
    width = text.get("hidden_size") if isinstance(text, dict) else None
    has_image_token = any(k in values for k in ("image_token_id", "image_token_index"))
    if has_image_token and _is_int(values.get("projection_dim")) and _is_int(width):
        out["projection_dim"] = width  # PaliGemma projects the vision tower to projection_dim, copied to its vision config
    if not isinstance(vision, dict):
        return
    patch, size = vision.get("patch_size"), vision.get("image_size")
    if _is_int(values.get("mm_tokens_per_image")) and _is_int(patch) and _is_int(size):
        patches = size // patch  # Gemma 3 average-pools the patch grid to mm_tokens_per_image tokens
        side = patches // 2 if patches % 2 == 0 else 1
        out["mm_tokens_per_image"] = side * side
    ratio = vision.get("pixel_shuffle_ratio")
    if isinstance(ratio, float) and _is_int(vision.get("projector_input_dim")) and _is_int(vision.get("hidden_size")):
        hidden = vision["hidden_size"]  # Llama 4: pixel shuffle, then an MLP from hidden_size / ratio**2
        vision["intermediate_size"] = int(hidden / ratio**2)
        for key in ("projector_input_dim", "projector_output_dim", "vision_output_dim"):
            if _is_int(vision.get(key)):
                vision[key] = hidden


def _fit_prompt_encoder(values: dict[str, Any], out: dict[str, Any]) -> None:
    """SAM's prompt encoder embeds prompts on the vision tower's patch grid: the tiny image's grid."""
    prompt, vision = values.get("prompt_encoder_config"), out.get("vision_config")
    if not (isinstance(prompt, dict) and isinstance(vision, dict) and _is_int(vision.get("image_size"))
            and _is_int(vision.get("patch_size")) and _is_int(prompt.get("image_size"))):
        return
    out["prompt_encoder_config"] = {**prompt, "image_size": vision["image_size"],
                                    "image_embedding_size": vision["image_size"] // vision["patch_size"]}


def _keep_kv_sharing(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Cross-layer KV sharing (Gemma 3n: the last `num_kv_shared_layers` reuse an earlier layer's cache): the tiny
    model keeps one producing and one consuming layer of each attention type, in the default's order."""
    shared, types = values.get("num_kv_shared_layers"), values.get("layer_types")
    if not (_is_int(shared) and shared > 0 and isinstance(types, list) and types):
        return
    kinds = list(dict.fromkeys(types))
    out["num_hidden_layers"] = 2 * len(kinds)
    out["layer_types"] = kinds + kinds
    out["num_kv_shared_layers"] = len(kinds)


def _fit_architecture_quirks(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Fields whose tiny value must follow another one, or that would need what the probe does not install."""
    if "width_coefficient" in values:
        out.pop("hidden_dim", None)  # EfficientNet: the head width is derived from the scaled stages
    if values.get("use_timm_backbone") is True:  # DETR-like: transformers' own ResNet backbone, not timm
        out["use_timm_backbone"] = False
        out["use_pretrained_backbone"] = False
    backbone = values.get("backbone_config")
    if isinstance(backbone, dict) and backbone.get("model_type") == "timm_backbone":
        out["backbone_config"] = {"model_type": "resnet", "depths": [1, 1, 1, 1], "embedding_size": 16,
                                  "hidden_sizes": [16, 32, 64, 128],
                                  "out_features": ["stage1", "stage2", "stage3", "stage4"]}
    window = values.get("window_size")
    if "image_size" in out and _is_int(window) and window > 2:
        out["window_size"] = 2  # Swin-like: windows that tile every stage of a 64-pixel image (16, 8, 4, 2 patches)
    if "vocab_size" in values and values["vocab_size"] is None:
        out["vocab_size"] = TINY["vocab_size"]  # ESM leaves it unset (its tokenizer sets it): no embedding without
        if values.get("pad_token_id") is None:
            out["pad_token_id"] = 1  # and its padding id with it (<pad> is 1 in ESM's vocabulary)
    if _is_int(values.get("coordinate_size")) and _is_int(values.get("shape_size")) and "hidden_size" in out:
        hidden = out["hidden_size"]  # LayoutLMv3: 4 coordinate + 2 shape embeddings concatenated to hidden_size
        out["shape_size"] = hidden // 8
        out["coordinate_size"] = (hidden - 2 * out["shape_size"]) // 4
    experts = next((values[k] for k in EXPERT_COUNTS if _is_int(values.get(k))), None)
    if experts is not None and values.get("num_experts_per_tok", 0) is None:
        out["num_experts_per_tok"] = 2  # DeepSeek V2's default leaves it unset: its router cannot run


def _fit_unset_and_derived_sizes(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Fields a default leaves unset that the modeling code reads, and sizes another tiny size derives."""
    if "head_dim" in values and values["head_dim"] is None and _is_int(out.get("hidden_size")) \
            and _is_int(out.get("num_attention_heads")):  # HunYuan reads head_dim as set: the value it stands for
        out["head_dim"] = out["hidden_size"] // out["num_attention_heads"]
    if "num_key_value_heads" in values and values["num_key_value_heads"] is None and "num_attention_heads" in out:
        out["num_key_value_heads"] = TINY["num_key_value_heads"]  # Nemotron leaves it unset and divides by it
    if _is_int(values.get("embedding_size")) and "trigram_input" in values and "hidden_size" in out:
        out["embedding_size"] = out["hidden_size"] // 2  # MobileBERT projects hidden_size - embedding_size
    if all(_is_int(values.get(k)) for k in ("expand", "num_heads", "head_dim", "hidden_size")) and "n_groups" in values:
        heads = out.get("hidden_size", values["hidden_size"]) * values["expand"] // out.get("head_dim", values["head_dim"])
        out["num_heads"] = heads  # Mamba 2: hidden_size * expand == num_heads * head_dim
        if _is_int(values["n_groups"]) and heads % values["n_groups"]:
            out["n_groups"] = 1
    attention = values.get("attn_config")
    rope = values.get("rope_parameters")
    if isinstance(attention, dict) and "rope_theta" not in attention and isinstance(rope, dict) \
            and "rope_theta" in rope:  # DBRX reads attn_config.rope_theta, as its checkpoints' config.json carry it
        out["attn_config"] = {**attention, "rope_theta": rope["rope_theta"]}
        if attention.get("clip_qkv") is None:  # DBRX clamps q/k/v to +-clip_qkv without checking it is set
            out["attn_config"]["clip_qkv"] = 8  # as DBRX's published checkpoints set it
    if _is_int(values.get("num_queries")) and isinstance(values.get("feat_strides"), list):
        out["num_queries"] = 16  # RT-DETR picks its queries among the encoder's tokens: a 64-pixel image has 84


def _shrink_expert_groups(values: dict[str, Any], out: dict[str, Any]) -> None:
    """Group-limited routing (DeepSeek V3: n_group, topk_group) must fit the shrunk expert count."""
    experts = next((out.get(k, values.get(k)) for k in EXPERT_COUNTS if _is_int(out.get(k, values.get(k)))), None)
    groups = values.get("n_group")
    if not (_is_int(experts) and _is_int(groups)) or (experts % groups == 0 and experts // groups >= 2):
        return
    out["n_group"] = 2 if experts % 2 == 0 and experts >= 4 else 1
    if _is_int(values.get("topk_group")) and values["topk_group"] > 1:
        out["topk_group"] = 1
    per_token = out.get("num_experts_per_tok", values.get("num_experts_per_tok"))
    if _is_int(per_token):  # the experts routed to must fit in the groups kept
        out["num_experts_per_tok"] = min(per_token, out.get("topk_group", values.get("topk_group", 1))
                                         * (experts // out["n_group"]))


def tiny_overrides(model_type: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(overrides passed to the config class, the changed fields to show) for a model type."""
    from transformers import AutoConfig

    default = AutoConfig.for_model(model_type)
    values = default.to_dict()
    overrides = shrink(values)
    _fit_mrope_sections(default, overrides)
    return overrides, changed_fields(values, overrides)


def _fit_mrope_sections(default: Any, overrides: dict[str, Any]) -> None:
    """Multimodal RoPE (Qwen-VL, GLM-4V) splits the rotary half of each head into temporal, height and width
    sections; checkpoints set rope_parameters.mrope_section, the modeling code falls back to the full-size split.
    The tiny model gets a split of its own rotary half, as even as it goes."""
    subs = [(None, default)] + [(k, getattr(default, k)) for k in SUB_CONFIGS if hasattr(default, k)]
    for key, sub in subs:
        if "mrope_section" not in getattr(type(sub), "ignore_keys_at_rope_validation", ()):
            continue
        target = overrides if key is None else overrides.get(key)
        if not isinstance(target, dict):
            continue
        merged = {**sub.to_dict(), **target} if key is None else target
        rope = dict(merged.get("rope_parameters") or {})
        heads, hidden = merged.get("num_attention_heads"), merged.get("hidden_size")
        head_dim = merged.get("head_dim") or (hidden // heads if _is_int(hidden) and _is_int(heads) else None)
        if not _is_int(head_dim):
            continue
        half = int(head_dim * rope.get("partial_rotary_factor", merged.get("partial_rotary_factor") or 1.0)) // 2
        rope["mrope_section"] = [half // 3 + (1 if i < half % 3 else 0) for i in range(3)]
        target["rope_parameters"] = rope


def changed_fields(values: dict[str, Any], overrides: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Dotted keys of the overrides that differ from the default values, sorted."""
    changed: dict[str, Any] = {}
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(values.get(key), dict):
            changed.update(changed_fields(values[key], value, f"{prefix}{key}."))
        elif values.get(key) != value:
            changed[f"{prefix}{key}"] = value
    return dict(sorted(changed.items()))
