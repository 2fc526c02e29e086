"""Segment Anything (SamModel): a ViT image encoder with windowed and global attention (relative position tables)
and a convolutional neck, a prompt encoder (point and mask embeddings) and a two-way-transformer mask decoder.
Counts follow transformers 5.25; the prompt encoder's positional embedding is the model's shared one."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, exact_div, read_bool, read_int, read_int_list, sub_config

__all__ = ["SAM_COUNTERS"]


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def _vision(vision: Mapping[str, object]) -> int:
    hidden, inner = read_int(vision, "hidden_size"), read_int(vision, "mlp_dim")
    head_dim = exact_div(hidden, read_int(vision, "num_attention_heads"), "hidden_size / num_attention_heads")
    patch, image = read_int(vision, "patch_size"), read_int(vision, "image_size")
    if patch > image:
        raise FieldError(f"patch_size ({patch}) is larger than image_size ({image})")
    grid = image // patch
    output = read_int(vision, "output_channels", default=256)
    window = read_int(vision, "window_size", minimum=0, default=14)
    global_layers = set(read_int_list(vision, "global_attn_indexes"))
    total = read_int(vision, "num_channels", default=3) * patch * patch * hidden + hidden
    total += grid * grid * hidden if read_bool(vision, "use_abs_pos", True) else 0
    for index in range(read_int(vision, "num_hidden_layers")):
        side = grid if index in global_layers or window == 0 else window
        total += 2 * 2 * hidden + _linear(hidden, 3 * hidden, read_bool(vision, "qkv_bias", True)) \
            + _linear(hidden, hidden) + _linear(hidden, inner) + _linear(inner, hidden)
        total += 2 * (2 * side - 1) * head_dim if read_bool(vision, "use_rel_pos", True) else 0
    return total + hidden * output + 2 * output + output * output * 9 + 2 * output


def _prompt_encoder(prompt: Mapping[str, object]) -> int:
    hidden, channels = read_int(prompt, "hidden_size"), read_int(prompt, "mask_input_channels", default=16)
    quarter = channels // 4
    if quarter < 1:
        raise FieldError("mask_input_channels is below 4")
    mask = 4 * quarter + quarter + quarter * channels * 4 + channels + _linear(channels, hidden) \
        + 2 * quarter + 2 * quarter * 4
    return mask + hidden + read_int(prompt, "num_point_embeddings", default=4) * hidden + hidden


def _attention(hidden: int, heads: int, rate: int) -> int:
    inner = hidden // rate
    exact_div(inner, heads, "hidden_size / attention_downsample_rate / num_attention_heads")
    return 3 * _linear(hidden, inner) + _linear(inner, hidden)


def _feed_forward(fan_in: int, width: int, fan_out: int, depth: int) -> int:
    if depth < 2:
        raise FieldError("iou_head_depth is below 2")
    return _linear(fan_in, width) + (depth - 2) * _linear(width, width) + _linear(width, fan_out)


def _mask_decoder(decoder: Mapping[str, object]) -> int:
    hidden, inner = read_int(decoder, "hidden_size"), read_int(decoder, "mlp_dim")
    heads, rate = read_int(decoder, "num_attention_heads"), read_int(decoder, "attention_downsample_rate", default=2)
    masks = read_int(decoder, "num_multimask_outputs", minimum=0, default=3) + 1
    block = _attention(hidden, heads, 1) + 2 * _attention(hidden, heads, rate) + _linear(hidden, inner) \
        + _linear(inner, hidden) + 4 * 2 * hidden
    transformer = read_int(decoder, "num_hidden_layers") * block + _attention(hidden, heads, rate) + 2 * hidden
    quarter, eighth = hidden // 4, hidden // 8
    upscale = hidden * quarter * 4 + quarter + quarter * eighth * 4 + eighth + 2 * quarter
    hypernetworks = masks * _feed_forward(hidden, hidden, eighth, 3)
    iou = _feed_forward(hidden, read_int(decoder, "iou_head_hidden_dim", default=256), masks,
                        read_int(decoder, "iou_head_depth", default=3))
    return hidden + masks * hidden + transformer + upscale + hypernetworks + iou


def count_sam(config: Mapping[str, object], parts: PartList) -> None:
    vision = sub_config(config, "vision_config")
    prompt = sub_config(config, "prompt_encoder_config")
    decoder = sub_config(config, "mask_decoder_config")
    if vision is None or prompt is None or decoder is None:
        parts.fail("model", "vision_config, prompt_encoder_config or mask_decoder_config is missing or not an object")
        return
    parts.add("shared_image_embedding", lambda: 2 * read_int(vision, "num_pos_feats", default=128))
    parts.add("vision_encoder", lambda: _vision(vision))
    parts.add("prompt_encoder", lambda: _prompt_encoder(prompt))
    parts.add("mask_decoder", lambda: _mask_decoder(decoder))


SAM_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {"sam": count_sam}
"""model_type -> counter, for dispatch by sizing.models."""
