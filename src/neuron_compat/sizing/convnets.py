"""Staged image backbones: ResNet, ConvNeXt (v1, v2, DINOv3), Swin (and Donut's Swin), SegFormer, MobileNetV2,
EfficientNet, CvT, LeViT, MobileViT, and the RT-DETR detector on its ResNet-D backbone. Each stage
has its own width and depth (hidden_sizes / depths lists); counts follow transformers 5.25 for the bare model
(BatchNorm and LayerNorm weights and biases counted, running statistics are buffers)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from functools import partial

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import (
    FieldError,
    as_int,
    exact_div,
    read_bool,
    read_int,
    read_int_list,
    read_str,
    sub_config,
)
from neuron_compat.sizing.vision_towers import image_sides

__all__ = ["CONVNET_COUNTERS"]


def _stages(config: Mapping[str, object], *names: str, count: int | None = None) -> list[list[int]]:
    """The per-stage lists `names`, all of one length (`count` when given), every entry positive."""
    lists = [read_int_list(config, name) for name in names]
    length = count if count is not None else len(lists[0])
    for name, values in zip(names, lists, strict=True):
        if not values:
            raise FieldError(f"{name} is not set")
        if len(values) < length:
            raise FieldError(f"{name} has {len(values)} entries, fewer than the {length} stages")
        if any(value < 1 for value in values[:length]):
            raise FieldError(f"{name} has an entry below 1")
    return [values[:length] for values in lists]


def _number(config: Mapping[str, object], name: str, default: float) -> float:
    value = config.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value > 1e6:
        raise FieldError(f"{name} is not a non-negative number")
    return float(value)


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def count_resnet(config: Mapping[str, object], parts: PartList) -> None:
    """ResNet (ResNetModel): a 7x7 stem, then stages of basic (two 3x3) or bottleneck (1x1, 3x3, 1x1 at a quarter
    width) layers, each convolution bias-free and followed by a BatchNorm; a 1x1 shortcut where the shape changes."""

    def stem() -> int:
        width = read_int(config, "embedding_size", default=64)
        return read_int(config, "num_channels", default=3) * width * 49 + 2 * width

    def layer(in_channels: int, out_channels: int, stride: int, bottleneck: bool) -> int:
        shortcut = in_channels * out_channels + 2 * out_channels if in_channels != out_channels or stride != 1 else 0
        if bottleneck:
            inner = out_channels // 4
            return shortcut + in_channels * inner + 2 * inner + 9 * inner * inner + 2 * inner \
                + inner * out_channels + 2 * out_channels
        return shortcut + 9 * in_channels * out_channels + 2 * out_channels + 9 * out_channels * out_channels \
            + 2 * out_channels

    def encoder() -> int:
        kind = read_str(config, "layer_type") or "bottleneck"
        if kind not in ("bottleneck", "basic"):
            raise FieldError(f"layer_type {kind!r} is neither 'basic' nor 'bottleneck'")
        widths, depths = _stages(config, "hidden_sizes", "depths")
        total, previous = 0, read_int(config, "embedding_size", default=64)
        for index, (width, depth) in enumerate(zip(widths, depths, strict=True)):
            stride = 1 if index == 0 and not read_bool(config, "downsample_in_first_stage", False) else 2
            total += layer(previous, width, stride, kind == "bottleneck")
            total += (depth - 1) * layer(width, width, 1, kind == "bottleneck")
            previous = width
        return total

    parts.add("stem", stem)
    parts.add("encoder", encoder)
    parts.notes.append("counted as the bare backbone (ResNetModel); classifier not counted")


def count_convnext(config: Mapping[str, object], parts: PartList, version: str = "v1") -> None:
    """ConvNeXt (v1 with LayerScale, v2 with GRN instead, DINOv3's with LayerScale and a fixed 4x4 stem): a
    patchifying stem with LayerNorm, stages of depthwise 7x7 blocks with a 4x pointwise MLP, a LayerNorm and 2x2
    convolution between stages and a final LayerNorm."""

    def block(width: int) -> int:
        total = 49 * width + width + 2 * width + _linear(width, 4 * width) + _linear(4 * width, width)
        if version == "v2":
            return total + 2 * 4 * width  # GRN gamma and beta
        if version == "dinov3" or _number(config, "layer_scale_init_value", 1e-6) > 0:
            return total + width
        return total

    def stages() -> list[list[int]]:
        count = None if version == "dinov3" else read_int(config, "num_stages", default=4)
        return _stages(config, "hidden_sizes", "depths", count=count)

    def stem() -> int:
        widths = stages()[0]
        patch = 4 if version == "dinov3" else read_int(config, "patch_size", default=4)
        return read_int(config, "num_channels", default=3) * widths[0] * patch * patch + widths[0] + 2 * widths[0]

    def encoder() -> int:
        widths, depths = stages()
        total, previous = 0, widths[0]
        for index, (width, depth) in enumerate(zip(widths, depths, strict=True)):
            if index > 0:
                total += 2 * previous + 4 * previous * width + width
            total += depth * block(width)
            previous = width
        return total

    parts.add("stem", stem)
    parts.add("encoder", encoder)
    parts.add("final_norm", lambda: 2 * stages()[0][-1])


def count_swin(config: Mapping[str, object], parts: PartList, donut: bool = False) -> None:
    """Swin (SwinModel; Donut's encoder when donut): patch Conv2d and LayerNorm, stages of window attention with a
    relative position table per layer, patch merging (LayerNorm and a bias-free 4d -> 2d linear) between stages and,
    for Swin, a final LayerNorm."""

    def embed() -> int:
        return read_int(config, "embed_dim")

    def embeddings() -> int:
        width = embed()
        patch = read_int(config, "patch_size")
        total = read_int(config, "num_channels", default=3) * width * patch * patch + width + 2 * width
        if read_bool(config, "use_absolute_embeddings", False):
            height, side = image_sides(config)
            total += ((height // patch) * (side // patch) + (1 if donut else 0)) * width
        return total

    def encoder() -> int:
        depths, heads = _stages(config, "depths", "num_heads")
        window = read_int(config, "window_size")
        ratio = _number(config, "mlp_ratio", 4.0)
        bias = read_bool(config, "qkv_bias", True)
        total = 0
        for index, (depth, head_count) in enumerate(zip(depths, heads, strict=True)):
            width = embed() * 2 ** index
            exact_div(width, head_count, f"stage {index} width / num_heads")
            inner = int(ratio * width)
            layer = 3 * _linear(width, width, bias) + _linear(width, width) + (2 * window - 1) ** 2 * head_count \
                + 2 * 2 * width + _linear(width, inner) + _linear(inner, width)
            total += depth * layer
            if index < len(depths) - 1:
                total += 2 * 4 * width + 4 * width * 2 * width
        return total

    parts.add("embeddings", embeddings)
    parts.add("encoder", encoder)
    if not donut:
        parts.add("final_norm", lambda: 2 * embed() * 2 ** (len(_stages(config, "depths")[0]) - 1))


def count_segformer(config: Mapping[str, object], parts: PartList) -> None:
    """SegFormer's Mix Transformer (SegformerModel): per stage an overlapping patch Conv2d with LayerNorm, layers of
    efficient attention (a strided Conv2d and LayerNorm reduce the keys where sr_ratio > 1) and a Mix-FFN with a
    depthwise 3x3 convolution, then a LayerNorm."""

    def encoder() -> int:
        blocks = read_int(config, "num_encoder_blocks", default=4)
        widths, depths, heads, ratios, patches, reductions = _stages(
            config, "hidden_sizes", "depths", "num_attention_heads", "mlp_ratios", "patch_sizes", "sr_ratios",
            count=blocks)
        total, previous = 0, read_int(config, "num_channels", default=3)
        for width, depth, head_count, ratio, patch, reduction in zip(
                widths, depths, heads, ratios, patches, reductions, strict=True):
            exact_div(width, head_count, "hidden_sizes / num_attention_heads")
            inner = width * ratio
            total += previous * width * patch * patch + width + 2 * width
            layer = 2 * 2 * width + 4 * _linear(width, width) + _linear(width, inner) + 9 * inner + inner \
                + _linear(inner, width)
            if reduction > 1:
                layer += width * width * reduction * reduction + width + 2 * width
            total += depth * layer + 2 * width
            previous = width
        return total

    parts.add("encoder", encoder)
    parts.notes.append("counted as the bare encoder (SegformerModel); decode head not counted")


def _make_divisible(value: float, divisor: int, minimum: int | None = None) -> int:
    """transformers' rounding of a channel count to a multiple of `divisor` (never below 90% of the value)."""
    floor = divisor if minimum is None else minimum
    rounded = max(floor, int(value + divisor / 2) // divisor * divisor)
    return int(rounded + divisor if rounded < 0.9 * value else rounded)


def _conv_bn(in_channels: int, out_channels: int, kernel: int, groups: int = 1) -> int:
    """A bias-free Conv2d followed by a BatchNorm."""
    return in_channels // groups * out_channels * kernel * kernel + 2 * out_channels


MOBILENET_V2_CHANNELS = (16, 24, 24, 32, 32, 32, 64, 64, 64, 64, 96, 96, 96, 160, 160, 160, 320)
"""The 17 channel counts MobileNetV2Model builds its 16 inverted residuals from, before the depth multiplier."""


def count_mobilenet_v2(config: Mapping[str, object], parts: PartList) -> None:
    """MobileNetV2 (MobileNetV2Model): a stem (3x3 conv, optional 1x1 expansion, depthwise 3x3, 1x1 reduction), 16
    inverted residuals (1x1 expansion by expand_ratio, depthwise 3x3, 1x1 reduction) at the fixed channel plan
    scaled by depth_multiplier, and a 1x1 convolution to 1280 channels; every convolution bias-free with a
    BatchNorm."""

    def multiplier() -> float:
        return _number(config, "depth_multiplier", 1.0)

    def scaled(channels: int) -> int:
        divisor = read_int(config, "depth_divisible_by", default=8)
        return _make_divisible(round(channels * multiplier()), divisor, read_int(config, "min_depth", default=8))

    def stem() -> int:
        expanded, out = scaled(32), scaled(MOBILENET_V2_CHANNELS[0])
        total = _conv_bn(read_int(config, "num_channels", default=3), expanded, 3)
        if not read_bool(config, "first_layer_is_expansion", True):
            total += _conv_bn(expanded, expanded, 1)
        return total + _conv_bn(expanded, expanded, 3, groups=expanded) + _conv_bn(expanded, out, 1)

    def layers_() -> int:
        channels = [scaled(value) for value in MOBILENET_V2_CHANNELS]
        divisor = read_int(config, "depth_divisible_by", default=8)
        total = 0
        for in_channels, out_channels in itertools.pairwise(channels):
            expanded = _make_divisible(round(in_channels * _number(config, "expand_ratio", 6.0)), divisor,
                                       read_int(config, "min_depth", default=8))
            total += _conv_bn(in_channels, expanded, 1) + _conv_bn(expanded, expanded, 3, groups=expanded) \
                + _conv_bn(expanded, out_channels, 1)
        return total

    def head() -> int:
        fine = read_bool(config, "finegrained_output", True) and multiplier() < 1.0
        return _conv_bn(scaled(MOBILENET_V2_CHANNELS[-1]), 1280 if fine else scaled(1280), 1)

    parts.add("stem", stem)
    parts.add("layers", layers_)
    parts.add("conv_1x1", head)


def count_efficientnet(config: Mapping[str, object], parts: PartList) -> None:
    """EfficientNet (EfficientNetModel): a 3x3 stem, blocks (1x1 expansion unless expand_ratio is 1, depthwise
    kernel, squeeze-excitation, 1x1 projection) per base stage repeated ceil(depth_coefficient x repeats) times at
    widths scaled by width_coefficient, and a 1x1 top convolution; convolutions bias-free with BatchNorms except the
    squeeze-excitation's."""

    def rounded(channels: int) -> int:
        return _make_divisible(channels * _number(config, "width_coefficient", 2.0),
                               read_int(config, "depth_divisor", default=8))

    def encoder() -> int:
        ins, outs, kernels, ratios, repeats = _stages(
            config, "in_channels", "out_channels", "kernel_sizes", "expand_ratios", "num_block_repeats")
        squeeze = _number(config, "squeeze_expansion_ratio", 0.25)
        depth = _number(config, "depth_coefficient", 3.1)
        total, out_dim = 0, 0
        for in_channels, out_channels, kernel, ratio, repeat in zip(ins, outs, kernels, ratios, repeats, strict=True):
            out_dim = rounded(out_channels)
            for index in range(math.ceil(depth * repeat)):
                in_dim = out_dim if index > 0 else rounded(in_channels)
                width = in_dim * ratio
                block = _conv_bn(in_dim, width, 1) if ratio != 1 else 0
                reduced = max(1, int(in_dim * squeeze))
                block += _conv_bn(width, width, kernel, groups=width) + _linear(width, reduced) \
                    + _linear(reduced, width) + _conv_bn(width, out_dim, 1)
                total += block
        return total + out_dim * rounded(1280) + 2 * read_int(config, "hidden_dim", default=2560)

    parts.add("stem", lambda: _conv_bn(read_int(config, "num_channels", default=3), rounded(32), 3))
    parts.add("encoder", encoder)


def _stage_list(config: Mapping[str, object], name: str, count: int) -> list[object]:
    value = config.get(name)
    if not isinstance(value, list) or len(value) < count:
        raise FieldError(f"{name} is not a list with an entry per stage")
    return value[:count]


def count_cvt(config: Mapping[str, object], parts: PartList) -> None:
    """CvT (CvtModel): per stage a convolutional token embedding with LayerNorm, a class token where cls_token says,
    and layers whose q/k/v come from depthwise convolutions with BatchNorm (qkv_projection_method 'dw_bn') then
    linears; a biased output and an MLP of mlp_ratio; no final norm."""

    def encoder() -> int:
        widths, depths, heads, patches, kernels = _stages(
            config, "embed_dim", "depth", "num_heads", "patch_sizes", "kernel_qkv")
        count = len(widths)
        methods = _stage_list(config, "qkv_projection_method", count)
        biases = _stage_list(config, "qkv_bias", count)
        ratios = _stage_list(config, "mlp_ratio", count)
        tokens = _stage_list(config, "cls_token", count)
        total, previous = 0, read_int(config, "num_channels", default=3)
        for stage, (width, depth, head_count, patch, kernel) in enumerate(
                zip(widths, depths, heads, patches, kernels, strict=True)):
            exact_div(width, head_count, "embed_dim / num_heads")
            method, bias, ratio = methods[stage], biases[stage], ratios[stage]
            if method not in ("dw_bn", "avg", "linear") or not isinstance(bias, bool) \
                    or isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or ratio <= 0:
                raise FieldError(f"stage {stage}: qkv_projection_method, qkv_bias or mlp_ratio is not usable")
            total += widths[-1] if tokens[stage] is True else 0
            total += previous * width * patch * patch + width + 2 * width
            inner = int(width * ratio)
            projections = 3 * (width * kernel * kernel + 2 * width) if method == "dw_bn" else 0
            layer = projections + 3 * _linear(width, width, bias) + _linear(width, width) + _linear(width, inner) \
                + _linear(inner, width) + 2 * 2 * width
            total += depth * layer
            previous = width
        return total

    parts.add("encoder", encoder)


def _offsets(points_out: int, points_in: int, stride: int) -> int:
    """Distinct |a x stride - b| over a < points_out, b < points_in: LeViT's attention-bias offsets per axis."""
    if points_out * points_in > 10**6:
        raise FieldError("image_size / patch_size is too large for LeViT's attention-bias tables")
    return len({abs(a * stride - b) for a in range(points_out) for b in range(points_in)})


def count_levit(config: Mapping[str, object], parts: PartList) -> None:
    """LeViT (LevitModel): four stride-2 conv-BatchNorm embeddings, then stages of attention (bias-free linears
    with BatchNorm, a learned bias per head and offset) and MLP residuals, with attention subsampling between
    stages as down_ops says."""

    def linear_bn(fan_in: int, fan_out: int) -> int:
        return fan_in * fan_out + 2 * fan_out

    def embeddings() -> int:
        first = _stages(config, "hidden_sizes")[0][0]
        kernel = read_int(config, "kernel_size", default=3)
        widths = [read_int(config, "num_channels", default=3), first // 8, first // 4, first // 2, first]
        return sum(_conv_bn(a, b, kernel) for a, b in itertools.pairwise(widths))

    def encoder() -> int:
        widths, key_dims, depths, heads, ratios, mlps = _stages(
            config, "hidden_sizes", "key_dim", "depths", "num_attention_heads", "attention_ratio", "mlp_ratio")
        down_ops = config.get("down_ops") or []
        if not isinstance(down_ops, list):
            raise FieldError("down_ops is not a list")
        resolution = read_int(config, "image_size") // read_int(config, "patch_size")
        total = 0
        for index, width in enumerate(widths):
            key, head_count, ratio = key_dims[index], heads[index], ratios[index]
            attention = linear_bn(width, ratio * key * head_count + 2 * key * head_count) \
                + linear_bn(ratio * key * head_count, width) + head_count * resolution ** 2
            mlp = linear_bn(width, width * mlps[index]) + linear_bn(width * mlps[index], width)
            total += depths[index] * (attention + mlp)
            op = down_ops[index] if index < len(down_ops) else None
            if isinstance(op, list) and op and op[0] == "Subsample":
                numbers = [as_int(value) for value in op[1:6]]
                if index + 1 >= len(widths) or len(numbers) < 5 or any(n is None or n < 0 for n in numbers) \
                        or numbers[4] == 0:
                    raise FieldError(f"down_ops[{index}] is not ['Subsample', key_dim, heads, ratio, mlp, stride]")
                sub_key, sub_heads, sub_ratio, sub_mlp, stride = (int(n or 0) for n in numbers)
                out = (resolution - 1) // stride + 1
                following = widths[index + 1]
                total += linear_bn(width, sub_ratio * sub_key * sub_heads + sub_key * sub_heads) \
                    + linear_bn(width, sub_key * sub_heads) + linear_bn(sub_ratio * sub_key * sub_heads, following) \
                    + sub_heads * _offsets(out, resolution, stride) ** 2
                total += linear_bn(following, following * sub_mlp) + linear_bn(following * sub_mlp, following)
                resolution = out
        return total

    parts.add("embeddings", embeddings)
    parts.add("encoder", encoder)


def count_mobilevit(config: Mapping[str, object], parts: PartList) -> None:
    """MobileViT (MobileViTModel): a 3x3 stem, two MobileNetV2 stages (one and three inverted residuals), three
    MobileViT blocks (a downsampling inverted residual, local kxk and 1x1 convolutions, transformer layers at
    hidden_sizes, a LayerNorm, a projection and a kxk fusion) and a 1x1 expansion; convolutions bias-free with
    BatchNorm except the 1x1 into the transformer."""

    def conv(fan_in: int, fan_out: int, kernel: int, groups: int = 1, norm: bool = True) -> int:
        return fan_in // groups * fan_out * kernel * kernel + (2 * fan_out if norm else 0)

    def inverted(fan_in: int, fan_out: int) -> int:
        expanded = _make_divisible(round(fan_in * _number(config, "expand_ratio", 4.0)), 8)
        return conv(fan_in, expanded, 1) + conv(expanded, expanded, 3, groups=expanded) + conv(expanded, fan_out, 1)

    def vit_block(fan_in: int, fan_out: int, hidden: int, depth: int) -> int:
        kernel = read_int(config, "conv_kernel_size", default=3)
        exact_div(hidden, read_int(config, "num_attention_heads"), "hidden_sizes / num_attention_heads")
        inner = int(hidden * _number(config, "mlp_ratio", 2.0))
        bias = read_bool(config, "qkv_bias", True)
        layer = 3 * _linear(hidden, hidden, bias) + _linear(hidden, hidden) + _linear(hidden, inner) \
            + _linear(inner, hidden) + 2 * 2 * hidden
        return inverted(fan_in, fan_out) + conv(fan_out, fan_out, kernel) + conv(fan_out, hidden, 1, norm=False) \
            + depth * layer + 2 * hidden + conv(hidden, fan_out, 1) + conv(2 * fan_out, fan_out, kernel)

    def model() -> int:
        neck = _stages(config, "neck_hidden_sizes", count=7)[0]
        hidden = _stages(config, "hidden_sizes", count=3)[0]
        total = conv(read_int(config, "num_channels", default=3), neck[0], 3)
        total += inverted(neck[0], neck[1])
        total += inverted(neck[1], neck[2]) + 2 * inverted(neck[2], neck[2])
        for index, depth in enumerate((2, 4, 3)):
            total += vit_block(neck[2 + index], neck[3 + index], hidden[index], depth)
        return total + conv(neck[5], neck[6], 1)

    parts.add("model", model)


def _rt_detr_backbone(backbone: Mapping[str, object], frozen: bool) -> tuple[int, list[int]]:
    """RT-DETR's ResNet-D backbone (bias-free convolutions; BatchNorms frozen into buffers when
    freeze_backbone_batch_norms): a three-convolution stem and ResNet stages whose strided shortcuts average-pool
    first. Returns the count and the channels of the stages it outputs (out_indices)."""
    norm = 0 if frozen else 2
    kind = read_str(backbone, "layer_type") or "bottleneck"
    if kind not in ("bottleneck", "basic"):
        raise FieldError(f"backbone_config.layer_type {kind!r} is neither 'basic' nor 'bottleneck'")
    widths, depths = _stages(backbone, "hidden_sizes", "depths")
    stem = read_int(backbone, "embedding_size", default=64)
    half = stem // 2
    total = read_int(backbone, "num_channels", default=3) * half * 9 + half * half * 9 + half * stem * 9 \
        + norm * (2 * half + stem)

    def conv(fan_in: int, fan_out: int, kernel: int) -> int:
        return fan_in * fan_out * kernel * kernel + norm * fan_out

    previous = stem
    for index, (width, depth) in enumerate(zip(widths, depths, strict=True)):
        stride = 1 if index == 0 and not read_bool(backbone, "downsample_in_first_stage", False) else 2
        for layer in range(depth):
            fan_in = previous if layer == 0 else width
            if kind == "bottleneck":
                inner = width // 4
                shortcut = layer == 0 and (fan_in != width or stride != 1)
                total += conv(fan_in, inner, 1) + conv(inner, inner, 3) + conv(inner, width, 1)
            else:
                shortcut = layer == 0
                total += conv(fan_in, width, 3) + conv(width, width, 3)
            total += conv(fan_in, width, 1) if shortcut else 0
        previous = width
    indices = read_int_list(backbone, "out_indices") or [2, 3, 4]
    if any(not 1 <= index <= len(widths) for index in indices):
        raise FieldError("backbone_config.out_indices names a stage the backbone does not have")
    return total, [widths[index - 1] for index in indices]


def count_rt_detr(config: Mapping[str, object], parts: PartList) -> None:
    """RT-DETR (RTDetrModel): the ResNet-D backbone, input projections, the hybrid encoder (AIFI transformer layers on
    encode_proj_layers, FPN and PAN paths of CSP blocks with RepVGG bottlenecks), the query-selection heads,
    denoising class embeddings and the deformable-attention decoder; convolutions bias-free with BatchNorm."""
    backbone = sub_config(config, "backbone_config")
    if backbone is None:
        parts.fail("backbone", "backbone_config is missing or not an object")
        return
    if read_str(backbone, "model_type") not in (None, "rt_detr_resnet"):
        parts.fail("backbone", "backbone_config is not an rt_detr_resnet backbone: other backbones are not modelled")
        return

    def labels() -> int:
        mapping = config.get("id2label")
        return len(mapping) if isinstance(mapping, Mapping) and mapping else read_int(config, "num_labels", default=2)

    def conv_bn(fan_in: int, fan_out: int, kernel: int) -> int:
        return fan_in * fan_out * kernel * kernel + 2 * fan_out

    def encoder() -> int:
        hidden, inner = read_int(config, "encoder_hidden_dim"), read_int(config, "encoder_ffn_dim")
        exact_div(hidden, read_int(config, "encoder_attention_heads"), "encoder_hidden_dim / encoder_attention_heads")
        levels = len(read_int_list(config, "encoder_in_channels"))
        if levels < 1:
            raise FieldError("encoder_in_channels is not set")
        layer = 4 * _linear(hidden, hidden) + 2 * hidden + _linear(hidden, inner) + _linear(inner, hidden) + 2 * hidden
        aifi = len(read_int_list(config, "encode_proj_layers")) * read_int(config, "encoder_layers") * layer
        expanded = int(hidden * _number(config, "hidden_expansion", 1.0))
        if expanded < 1:
            raise FieldError("hidden_expansion leaves no channels")
        csp = 2 * conv_bn(2 * hidden, expanded, 1) + 3 * (conv_bn(expanded, expanded, 3) + conv_bn(expanded, expanded, 1))
        csp += conv_bn(expanded, hidden, 1) if expanded != hidden else 0
        return aifi + (levels - 1) * (conv_bn(hidden, hidden, 1) + csp + conv_bn(hidden, hidden, 3) + csp)

    def decoder() -> int:
        width, inner = read_int(config, "d_model"), read_int(config, "decoder_ffn_dim")
        heads = read_int(config, "decoder_attention_heads")
        exact_div(width, heads, "d_model / decoder_attention_heads")
        samples = heads * read_int(config, "num_feature_levels") * read_int(config, "decoder_n_points", default=4)
        layer = 4 * _linear(width, width) + 2 * width + _linear(width, 2 * samples) + _linear(width, samples) \
            + 2 * _linear(width, width) + 2 * width + _linear(width, inner) + _linear(inner, width) + 2 * width
        return read_int(config, "decoder_layers") * layer + _linear(4, 2 * width) + _linear(2 * width, width)

    def heads() -> int:
        width = read_int(config, "d_model")
        total = (labels() + 1) * width if read_int(config, "num_denoising", minimum=0, default=100) > 0 else 0
        total += read_int(config, "num_queries") * width if read_bool(config, "learn_initial_query", False) else 0
        total += _linear(width, width) + 2 * width + _linear(width, labels())
        return total + _linear(width, width) + _linear(width, width) + _linear(width, 4)

    def projections() -> int:
        hidden, width = read_int(config, "encoder_hidden_dim"), read_int(config, "d_model")
        _, channels = _rt_detr_backbone(backbone, read_bool(config, "freeze_backbone_batch_norms", True))
        total = sum(conv_bn(channel, hidden, 1) for channel in channels)
        decoder_in = read_int_list(config, "decoder_in_channels")
        if not decoder_in:
            raise FieldError("decoder_in_channels is not set")
        total += sum(width * channel + 2 * width for channel in decoder_in)
        previous = decoder_in[-1]
        for _ in range(read_int(config, "num_feature_levels") - len(decoder_in)):
            total += conv_bn(previous, width, 3)
            previous = width
        return total

    parts.add("backbone", lambda: _rt_detr_backbone(backbone, read_bool(config, "freeze_backbone_batch_norms",
                                                                        True))[0])
    parts.add("projections", projections)
    parts.add("encoder", encoder)
    parts.add("query_heads", heads)
    parts.add("decoder", decoder)
    parts.notes.append("counted as the bare model (RTDetrModel): the detection heads of RTDetrForObjectDetection are "
                       "not counted")


CONVNET_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "resnet": count_resnet,
    "convnext": count_convnext,
    "convnextv2": partial(count_convnext, version="v2"),
    "dinov3_convnext": partial(count_convnext, version="dinov3"),
    "swin": count_swin,
    "donut-swin": partial(count_swin, donut=True),
    "segformer": count_segformer,
    "mobilenet_v2": count_mobilenet_v2,
    "efficientnet": count_efficientnet,
    "cvt": count_cvt,
    "levit": count_levit,
    "mobilevit": count_mobilevit,
    "rt_detr": count_rt_detr,
}
"""model_type -> counter, for dispatch by sizing.models."""
