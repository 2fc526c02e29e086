"""ViT-style image and audio towers without a vocabulary: BEiT, DINOv3-ViT, DPT, YOLOS, the Audio Spectrogram
Transformer, Pixtral and SigLIP2's vision tower. Each counts what transformers 5.25 builds for the bare model
(patch embedding, class/extra tokens, position table, layers, final norm, pooler)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.encoders import encoder_layers
from neuron_compat.sizing.fields import FieldError, as_int, exact_div, read_bool, read_int
from neuron_compat.sizing.shapes import hidden_size, layers


def image_sides(config: Mapping[str, object], name: str = "image_size") -> tuple[int, int]:
    """image_size as (height, width): one integer for a square, or a list of two."""
    value = config.get(name)
    if isinstance(value, list):
        sides = [as_int(side) for side in value]
        if len(sides) != 2 or any(side is None or side < 1 for side in sides):
            raise FieldError(f"{name} is a list, not two positive integers")
        return int(sides[0] or 0), int(sides[1] or 0)
    side = read_int(config, name)
    return side, side


def patch_grid(config: Mapping[str, object]) -> int:
    """Patches per image as transformers sizes its position table: floor(height / patch) * floor(width / patch)."""
    height, width = image_sides(config)
    patch = read_int(config, "patch_size")
    if patch > min(height, width):
        raise FieldError(f"patch_size ({patch}) is larger than image_size")
    return (height // patch) * (width // patch)


def patch_embedding(config: Mapping[str, object], bias: bool = True) -> int:
    """A Conv2d (or Linear) from num_channels x patch x patch pixels to hidden_size."""
    hidden = hidden_size(config)
    return read_int(config, "num_channels", default=3) * read_int(config, "patch_size") ** 2 * hidden \
        + (hidden if bias else 0)


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def count_beit(config: Mapping[str, object], parts: PartList) -> None:
    """BEiT (BeitModel): key without bias, optional LayerScale, per-layer or shared relative position bias, absolute
    positions and mask token when configured; mean pooling puts the final LayerNorm in the pooler."""

    def hidden() -> int:
        return hidden_size(config)

    def relative_table() -> int:
        height, width = image_sides(config)
        patch = read_int(config, "patch_size")
        return ((2 * (height // patch) - 1) * (2 * (width // patch) - 1) + 3) * read_int(config, "num_attention_heads")

    def layer() -> int:
        h = hidden()
        exact_div(h, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        width = read_int(config, "intermediate_size")
        scale = config.get("layer_scale_init_value", 0.1)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise FieldError("layer_scale_init_value is not a number")
        total = 4 * h * h + 3 * h + _linear(h, width) + _linear(width, h) + 2 * 2 * h
        total += 2 * h if scale > 0 else 0
        total += relative_table() if read_bool(config, "use_relative_position_bias", False) else 0
        return total

    def embeddings() -> int:
        total = patch_embedding(config) + hidden()
        total += hidden() if read_bool(config, "use_mask_token", False) else 0
        if read_bool(config, "use_absolute_position_embeddings", False):
            total += (patch_grid(config) + 1) * hidden()
        return total

    parts.add("embeddings", embeddings)
    parts.add("encoder", lambda: layers(config) * layer()
              + (relative_table() if read_bool(config, "use_shared_relative_position_bias", False) else 0))
    parts.add("final_norm", lambda: 2 * hidden())  # in the pooler with mean pooling, else after the encoder
    parts.notes.append("counted as the bare model with pooler (BeitModel); task heads not counted")


def count_dinov3_vit(config: Mapping[str, object], parts: PartList) -> None:
    """DINOv3 ViT: class, mask and register tokens, RoPE (no position table), per-projection biases, LayerScale on
    both branches, a plain or gated MLP and a final LayerNorm."""

    def hidden() -> int:
        return hidden_size(config)

    def layer() -> int:
        h = hidden()
        exact_div(h, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        width = read_int(config, "intermediate_size")
        biases = sum(read_bool(config, name, default) for name, default in
                     (("query_bias", True), ("key_bias", False), ("value_bias", True), ("proj_bias", True)))
        mlp_bias = read_bool(config, "mlp_bias", True)
        projections = 3 if read_bool(config, "use_gated_mlp", False) else 2
        mlp = projections * h * width + (projections - 1) * (width if mlp_bias else 0) + (h if mlp_bias else 0)
        return 4 * h * h + biases * h + mlp + 2 * 2 * h + 2 * h

    parts.add("embeddings", lambda: patch_embedding(config)
              + (2 + read_int(config, "num_register_tokens", minimum=0, default=0)) * hidden())
    parts.add("encoder", lambda: layers(config) * layer())
    parts.add("final_norm", lambda: 2 * hidden())


def count_dpt(config: Mapping[str, object], parts: PartList) -> None:
    """DPT (DPTModel): a ViT with class token and pooler; the hybrid (convolutional backbone) variant is not
    modelled."""

    def hidden() -> int:
        return hidden_size(config)

    if read_bool(config, "is_hybrid", False):
        parts.fail("model", "is_hybrid: DPT-Hybrid's convolutional backbone (backbone_config) is not modelled")
        return
    if config.get("backbone_config") is not None:
        parts.fail("model", "backbone_config: DPT on a separate backbone is not modelled")
        return
    parts.add("embeddings", lambda: patch_embedding(config) + hidden() + (patch_grid(config) + 1) * hidden())
    parts.add("encoder", lambda: encoder_layers(config, read_bool(config, "qkv_bias", True)))
    parts.add("final_norm", lambda: 2 * hidden())
    parts.add("pooler", lambda: _linear(hidden(), read_int(config, "pooler_output_size", default=hidden())))
    parts.notes.append("counted as the bare model with pooler (DPTModel); neck and depth head not counted")


def count_yolos(config: Mapping[str, object], parts: PartList) -> None:
    """YOLOS (YolosModel): ViT with detection tokens and, when use_mid_position_embeddings, a position table for
    every layer but the first; pooler."""

    def hidden() -> int:
        return hidden_size(config)

    def tokens() -> int:
        return read_int(config, "num_detection_tokens", default=100)

    def mid() -> int:
        if not read_bool(config, "use_mid_position_embeddings", True):
            return 0
        height, width = image_sides(config)
        sequence = 1 + height * width // read_int(config, "patch_size") ** 2 + tokens()
        return (layers(config) - 1) * sequence * hidden()

    parts.add("embeddings", lambda: patch_embedding(config) + (1 + tokens()) * hidden()
              + (patch_grid(config) + tokens() + 1) * hidden())
    parts.add("encoder", lambda: encoder_layers(config, read_bool(config, "qkv_bias", True)) + mid())
    parts.add("final_norm", lambda: 2 * hidden())
    parts.add("pooler", lambda: _linear(hidden(), hidden()))
    parts.notes.append("counted as the bare model with pooler (YolosModel); detection heads not counted")


def count_audio_spectrogram(config: Mapping[str, object], parts: PartList) -> None:
    """Audio Spectrogram Transformer (ASTModel): one-channel patches strided over frequency and time, class and
    distillation tokens, a ViT encoder and a final LayerNorm."""

    def hidden() -> int:
        return hidden_size(config)

    def positions() -> int:
        patch = read_int(config, "patch_size")
        mel, length = read_int(config, "num_mel_bins"), read_int(config, "max_length")
        if patch > min(mel, length):
            raise FieldError(f"patch_size ({patch}) is larger than num_mel_bins or max_length")
        frequency = (mel - patch) // read_int(config, "frequency_stride") + 1
        time = (length - patch) // read_int(config, "time_stride") + 1
        return frequency * time + 2

    parts.add("embeddings", lambda: read_int(config, "patch_size") ** 2 * hidden() + hidden() + 2 * hidden()
              + positions() * hidden())
    parts.add("encoder", lambda: encoder_layers(config, read_bool(config, "qkv_bias", True)))
    parts.add("final_norm", lambda: 2 * hidden())


def count_pixtral(config: Mapping[str, object], parts: PartList) -> None:
    """Pixtral's vision tower: a bias-free patch Conv2d, RMSNorms, bias-free attention (head size hidden / heads)
    and a gated MLP; 2D RoPE, no position table."""

    def hidden() -> int:
        return hidden_size(config)

    def layer() -> int:
        h = hidden()
        exact_div(h, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        return 4 * h * h + 3 * h * read_int(config, "intermediate_size") + 2 * h

    parts.add("patch_embedding", lambda: patch_embedding(config, bias=False))
    parts.add("ln_pre", hidden)
    parts.add("encoder", lambda: layers(config) * layer())


def count_siglip2_vision(config: Mapping[str, object], parts: PartList) -> None:
    """SigLIP2's vision tower: a biased Linear patch embedding, num_patches positions, the SigLIP encoder, a final
    LayerNorm and, when vision_use_head, the attention-pooling head."""

    def hidden() -> int:
        return hidden_size(config)

    def head() -> int:
        if not read_bool(config, "vision_use_head", True):
            return 0
        width = read_int(config, "intermediate_size")
        return hidden() + 4 * _linear(hidden(), hidden()) + 2 * hidden() + _linear(hidden(), width) \
            + _linear(width, hidden())

    parts.add("patch_embedding", lambda: patch_embedding(config))
    parts.add("position_embeddings", lambda: read_int(config, "num_patches", default=256) * hidden())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.add("final_norm", lambda: 2 * hidden())
    parts.add("head", head)



VISION_TOWER_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "beit": count_beit,
    "dinov3_vit": count_dinov3_vit,
    "dpt": count_dpt,
    "yolos": count_yolos,
    "audio-spectrogram-transformer": count_audio_spectrogram,
    "pixtral": count_pixtral,
    "siglip2_vision_model": count_siglip2_vision,
}
"""model_type -> counter, for dispatch by sizing.models."""
