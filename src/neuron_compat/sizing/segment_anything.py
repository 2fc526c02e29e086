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


def _pair(config: Mapping[str, object], name: str, default: int) -> tuple[int, int]:
    value = config.get(name)
    if value is None:
        return default, default
    if isinstance(value, list):
        sides = [read_int({name: side}, name) for side in value]
        if len(sides) != 2:
            raise FieldError(f"{name} is a list, not two integers")
        return sides[0], sides[1]
    side = read_int(config, name)
    return side, side


def _hiera(backbone: Mapping[str, object]) -> int:
    """SAM 2's Hiera backbone: patch Conv2d, a background position table and a window one, then multi-scale blocks
    (LayerNorm, biased qkv to the stage width and projection, LayerNorm, a two-layer MLP of mlp_ratio, and a linear
    where the width changes at a stage's first block)."""
    widths = read_int_list(backbone, "embed_dim_per_stage")
    blocks = read_int_list(backbone, "blocks_per_stage")
    heads = read_int_list(backbone, "num_attention_heads_per_stage")
    windows = read_int_list(backbone, "window_size_per_stage")
    if not widths or not (len(widths) == len(blocks) == len(heads) == len(windows)) \
            or min(widths + blocks + heads + windows) < 1:
        raise FieldError("embed_dim_per_stage, blocks_per_stage, num_attention_heads_per_stage and "
                         "window_size_per_stage are not positive lists of one length")
    first = read_int(backbone, "hidden_size")
    kernel_h, kernel_w = _pair(backbone, "patch_kernel_size", 7)
    background_h, background_w = _pair(backbone, "window_positional_embedding_background_size", 7)
    ratio = backbone.get("mlp_ratio", 4.0)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio < 1e6:
        raise FieldError("mlp_ratio is not a positive number")
    total = read_int(backbone, "num_channels", default=3) * first * kernel_h * kernel_w + first
    total += first * background_h * background_w + first * windows[0] * windows[0]
    previous = first
    for stage, (width, count, head_count) in enumerate(zip(widths, blocks, heads, strict=True)):
        exact_div(width, head_count, f"embed_dim_per_stage[{stage}] / num_attention_heads_per_stage")
        inner = int(width * ratio)
        for index in range(count):
            dim = previous if index == 0 else width
            total += 2 * dim + _linear(dim, 3 * width) + _linear(width, width) + 2 * width \
                + _linear(width, inner) + _linear(inner, width) + (_linear(dim, width) if dim != width else 0)
        previous = width
    return total


def _sam2_vision(vision: Mapping[str, object]) -> int:
    backbone = sub_config(vision, "backbone_config")
    if backbone is None:
        raise FieldError("vision_config.backbone_config is missing or not an object")
    fpn = read_int(vision, "fpn_hidden_size", default=256)
    kernel = read_int(vision, "fpn_kernel_size", default=1)
    channels = read_int_list(vision, "backbone_channel_list")
    if not channels or min(channels) < 1:
        raise FieldError("backbone_channel_list is not a list of positive integers")
    return _hiera(backbone) + sum(width * fpn * kernel * kernel + fpn for width in channels)


def count_sam2(config: Mapping[str, object], parts: PartList) -> None:
    """SAM 2 (Sam2Model): the Hiera image encoder with its FPN neck, SAM's prompt encoder, SAM's mask decoder plus
    high-resolution feature convolutions and an object-score head, and the no-memory embedding."""
    vision = sub_config(config, "vision_config")
    prompt = sub_config(config, "prompt_encoder_config")
    decoder = sub_config(config, "mask_decoder_config")
    if vision is None or prompt is None or decoder is None:
        parts.fail("model", "vision_config, prompt_encoder_config or mask_decoder_config is missing or not an object")
        return

    def mask_decoder() -> int:
        hidden = read_int(decoder, "hidden_size")
        return _mask_decoder(decoder) + _linear(hidden, hidden // 8) + _linear(hidden, hidden // 4) + hidden \
            + _feed_forward(hidden, hidden, 1, 3)

    parts.add("vision_encoder", lambda: _sam2_vision(vision))
    parts.add("prompt_encoder", lambda: _prompt_encoder(prompt))
    parts.add("mask_decoder", mask_decoder)
    parts.add("no_memory_embedding", lambda: read_int(vision, "fpn_hidden_size", default=256))


def _memory(config: Mapping[str, object], hidden: int) -> int:
    """SAM 2 video's memory: attention layers (RoPE self-attention, cross-attention from 64-channel memories, an MLP,
    three LayerNorms) with a final LayerNorm, the memory encoder (a strided mask downsampler, projections and
    ConvNeXt-style fuser blocks) and the model's memory and object-pointer parameters."""
    width = read_int(config, "memory_attention_hidden_size", default=256)
    inner = width // read_int(config, "memory_attention_downsample_rate", default=1)
    exact_div(inner, read_int(config, "memory_attention_num_attention_heads", default=1),
              "memory attention width / memory_attention_num_attention_heads")
    feed_forward = read_int(config, "memory_attention_feed_forward_hidden_size", default=2048)
    layer = 4 * _linear(width, inner) + 2 * _linear(inner, width) + 2 * _linear(64, inner) \
        + _linear(width, feed_forward) + _linear(feed_forward, width) + 3 * 2 * width
    total = read_int(config, "memory_attention_num_layers", default=4) * layer + 2 * width
    stride = read_int(config, "mask_downsampler_stride", default=2)
    steps = read_int(config, "mask_downsampler_total_stride", default=16)
    if stride < 2:
        raise FieldError("mask_downsampler_stride is below 2")
    kernel = read_int(config, "mask_downsampler_kernel_size", default=3)
    channels, count = 1, 0
    while stride ** (count + 1) <= steps:
        count += 1
    for _ in range(count):
        out = channels * stride * stride
        total += channels * out * kernel * kernel + out + 2 * out
        channels = out
    encoder_width = read_int(config, "memory_encoder_hidden_size", default=256)
    memory = read_int(config, "memory_encoder_output_channels", default=64)
    total += _linear(channels, read_int(config, "mask_downsampler_embed_dim", default=256))
    total += _linear(encoder_width, encoder_width) + _linear(encoder_width, memory)
    fuser, fuser_inner = read_int(config, "memory_fuser_embed_dim", default=256), \
        read_int(config, "memory_fuser_intermediate_dim", default=1024)
    fuser_kernel = read_int(config, "memory_fuser_kernel_size", default=7)
    total += read_int(config, "memory_fuser_num_layers", default=2) * (
        fuser * fuser_kernel * fuser_kernel + fuser + 2 * fuser + _linear(fuser, fuser_inner)
        + _linear(fuser_inner, fuser) + fuser)
    total += hidden + read_int(config, "num_maskmem", default=7) * memory + hidden + 16 + 1 \
        + _feed_forward(hidden, hidden, hidden, 3)
    total += _linear(hidden, memory) if read_bool(config, "enable_temporal_pos_encoding_for_object_pointers", True) \
        else 0
    total += memory if read_bool(config, "enable_occlusion_spatial_embedding", True) else 0
    return total


def count_sam2_video(config: Mapping[str, object], parts: PartList) -> None:
    """SAM 2 for video (Sam2VideoModel): SAM 2's image model plus the memory attention, memory encoder and the
    memory and object-pointer parameters."""
    count_sam2(config, parts)
    vision = sub_config(config, "vision_config")
    if vision is not None:
        parts.add("memory", lambda: _memory(config, read_int(vision, "fpn_hidden_size", default=256)))


SAM_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {"sam": count_sam, "sam2": count_sam2,
                                                                          "sam2_video": count_sam2_video}
"""model_type -> counter, for dispatch by sizing.models."""
