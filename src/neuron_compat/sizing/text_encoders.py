"""Text encoders whose layout differs from BERT's: ALBERT (factorised embeddings, shared layers), XLM and FlauBERT,
ModernBERT (fused projections, RoPE, optional biases), LayoutLMv3 (2D layout positions and image patches),
ConvBERT and MobileBERT. Counts follow transformers 5.25 for the bare model."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.encoders import encoder_layers
from neuron_compat.sizing.fields import FieldError, exact_div, read_bool, read_int
from neuron_compat.sizing.shapes import hidden_size, layers

__all__ = ["TEXT_ENCODER_COUNTERS"]


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def _bert_layer(hidden: int, inner: int) -> int:
    """Biased q, k, v, output, LayerNorm, up, down, LayerNorm."""
    return 4 * _linear(hidden, hidden) + 2 * hidden + _linear(hidden, inner) + _linear(inner, hidden) + 2 * hidden


def count_albert(config: Mapping[str, object], parts: PartList) -> None:
    """ALBERT (AlbertModel): embeddings at embedding_size, a linear up to hidden_size, num_hidden_groups groups of
    inner_group_num layers shared across num_hidden_layers, and a pooler."""

    def hidden() -> int:
        return hidden_size(config)

    def width() -> int:
        return read_int(config, "embedding_size", default=128)

    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + read_int(config, "max_position_embeddings")
                                     + read_int(config, "type_vocab_size", minimum=0, default=2)) * width()
              + 2 * width() + _linear(width(), hidden()))
    def groups() -> int:
        exact_div(hidden(), read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        return read_int(config, "num_hidden_groups", default=1) * read_int(config, "inner_group_num", default=1)

    parts.add("encoder", lambda: groups() * _bert_layer(hidden(), read_int(config, "intermediate_size")))
    parts.add("pooler", lambda: _linear(hidden(), hidden()))
    parts.notes.append("ALBERT shares its layer groups across layers: counted once each")


def count_xlm(config: Mapping[str, object], parts: PartList) -> None:
    """XLM and FlauBERT (XLMModel/FlaubertModel, encoders): position, language (n_langs > 1 and use_lang_emb) and
    word embeddings at emb_dim, a LayerNorm, and post-norm layers with a 4 x emb_dim MLP."""

    def dim() -> int:
        return read_int(config, "emb_dim")

    def layer() -> int:
        width = dim()
        exact_div(width, read_int(config, "n_heads"), "emb_dim / n_heads")
        return 4 * _linear(width, width) + 2 * width + _linear(width, 4 * width) + _linear(4 * width, width) \
            + 2 * width

    if not read_bool(config, "is_encoder", True):
        parts.fail("model", "is_encoder is false: transformers builds XLM/FlauBERT only as an encoder")
        return

    def languages() -> int:
        count = read_int(config, "n_langs", default=1)
        return count if count > 1 and read_bool(config, "use_lang_emb", True) else 0

    parts.add("embeddings", lambda: (read_int(config, "max_position_embeddings") + languages()
                                     + read_int(config, "vocab_size", "n_words")) * dim() + 2 * dim())
    parts.add("encoder", lambda: read_int(config, "n_layers") * layer())


def count_modernbert(config: Mapping[str, object], parts: PartList) -> None:
    """ModernBERT (ModernBertModel): token embeddings and a LayerNorm, layers of fused Wqkv and Wo (biased when
    attention_bias), a gated Wi (2 x intermediate) and Wo (biased when mlp_bias), pre-norms (none before the first
    layer's attention; biased when norm_bias), a final LayerNorm; RoPE, no position table."""

    def hidden() -> int:
        return hidden_size(config)

    def norm() -> int:
        return hidden() * (2 if read_bool(config, "norm_bias", False) else 1)

    def encoder() -> int:
        h, inner = hidden(), read_int(config, "intermediate_size")
        exact_div(h, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        attention_bias, mlp_bias = read_bool(config, "attention_bias", False), read_bool(config, "mlp_bias", False)
        layer = _linear(h, 3 * h, attention_bias) + _linear(h, h, attention_bias) + _linear(h, 2 * inner, mlp_bias) \
            + _linear(inner, h, mlp_bias) + 2 * norm()
        return layers(config) * layer - norm()

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden() + norm())
    parts.add("encoder", encoder)
    parts.add("final_norm", norm)


def count_layoutlmv3(config: Mapping[str, object], parts: PartList) -> None:
    """LayoutLMv3 (LayoutLMv3Model): text embeddings with 1D and 2D layout positions (text_embed), image patches
    with class token, position table and two LayerNorms (visual_embed), BERT layers, and the relative 1D/2D
    attention-bias tables when configured."""

    def hidden() -> int:
        return hidden_size(config)

    def text() -> int:
        if not read_bool(config, "text_embed", True):
            return 0
        positions_2d = read_int(config, "max_2d_position_embeddings")
        return (read_int(config, "vocab_size") + read_int(config, "type_vocab_size", minimum=0, default=1)
                + read_int(config, "max_position_embeddings")) * hidden() + 2 * hidden() \
            + 2 * positions_2d * read_int(config, "coordinate_size") + 2 * positions_2d * read_int(config, "shape_size")

    def visual() -> int:
        if not read_bool(config, "visual_embed", True):
            return 0
        patch, size = read_int(config, "patch_size"), read_int(config, "input_size")
        if patch > size:
            raise FieldError(f"patch_size ({patch}) is larger than input_size ({size})")
        side = size // patch
        return read_int(config, "num_channels", default=3) * patch * patch * hidden() + hidden() + hidden() \
            + (side * side + 1) * hidden() + 2 * 2 * hidden()

    def biases() -> int:
        heads = read_int(config, "num_attention_heads")
        total = read_int(config, "rel_pos_bins") * heads if read_bool(config, "has_relative_attention_bias", True) \
            else 0
        if read_bool(config, "has_spatial_attention_bias", True):
            total += 2 * read_int(config, "rel_2d_pos_bins") * heads
        return total

    parts.add("text_embeddings", text)
    parts.add("visual_embeddings", visual)
    parts.add("encoder", lambda: encoder_layers(config) + biases())


def _grouped(fan_in: int, fan_out: int, groups: int) -> int:
    """ConvBERT's grouped linear (a plain biased linear when groups is 1)."""
    if groups == 1:
        return _linear(fan_in, fan_out)
    return groups * exact_div(fan_in, groups, "width / num_groups") * exact_div(fan_out, groups, "width / num_groups") \
        + fan_out


def count_convbert(config: Mapping[str, object], parts: PartList) -> None:
    """ConvBERT (ConvBertModel): embeddings at embedding_size (projected when it differs), layers of mixed attention
    (num_attention_heads // head_ratio self-attention heads of half size beside span-based dynamic convolution:
    a separable Conv1d key, a kernel generator and a convolution output projection), grouped feed-forward."""

    def hidden() -> int:
        return hidden_size(config)

    def width() -> int:
        return read_int(config, "embedding_size", default=hidden())

    def layer() -> int:
        h, kernel = hidden(), read_int(config, "conv_kernel_size", default=9)
        heads = max(read_int(config, "num_attention_heads") // read_int(config, "head_ratio", default=2), 1)
        mixed = heads * (exact_div(h, heads, "hidden_size / attention heads after head_ratio") // 2)
        groups = read_int(config, "num_groups", default=1)
        inner = read_int(config, "intermediate_size")
        attention = 3 * _linear(h, mixed) + h * kernel + h * mixed + mixed + _linear(mixed, heads * kernel) \
            + _linear(h, mixed) + _linear(h, h) + 2 * h
        return attention + _grouped(h, inner, groups) + _grouped(inner, h, groups) + 2 * h

    if read_bool(config, "add_cross_attention", False):
        parts.fail("model", "add_cross_attention: ConvBERT as a decoder with cross-attention is not modelled")
        return
    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + read_int(config, "max_position_embeddings")
                                     + read_int(config, "type_vocab_size", minimum=0, default=2)) * width()
              + 2 * width() + (0 if width() == hidden() else _linear(width(), hidden())))
    parts.add("encoder", lambda: layers(config) * layer())


def count_mobilebert(config: Mapping[str, object], parts: PartList) -> None:
    """MobileBERT (MobileBertModel): narrow embeddings (trigram input when trigram_input) projected to hidden_size,
    layers working at intra_bottleneck_size with input (and shared key/query) bottlenecks, num_feedforward_networks
    stacked feed-forwards, LayerNorm or NoNorm (both a weight and a bias), and a pooler when
    classifier_activation."""

    def hidden() -> int:
        return hidden_size(config)

    def bottleneck() -> bool:
        return read_bool(config, "use_bottleneck", True)

    def inner_width() -> int:
        return read_int(config, "intra_bottleneck_size", default=128) if bottleneck() else hidden()

    def embeddings() -> int:
        h, width = hidden(), read_int(config, "embedding_size", default=128)
        trigram = 3 if read_bool(config, "trigram_input", True) else 1
        return read_int(config, "vocab_size") * width + read_int(config, "max_position_embeddings") * h \
            + read_int(config, "type_vocab_size", minimum=0, default=2) * h + _linear(trigram * width, h) + 2 * h

    def layer() -> int:
        h, t, inner = hidden(), inner_width(), read_int(config, "intermediate_size")
        exact_div(t, read_int(config, "num_attention_heads"), "true hidden size / num_attention_heads")
        value_in = t if read_bool(config, "use_bottleneck_attention", False) else h
        total = 2 * _linear(t, t) + _linear(value_in, t) + _linear(t, t) + 2 * t
        total += _linear(t, inner) + _linear(inner, t) + 2 * t
        if bottleneck():
            total += _linear(t, h) + 2 * h + _linear(h, t) + 2 * t
            if read_bool(config, "key_query_shared_bottleneck", True):
                total += _linear(h, t) + 2 * t
        networks = read_int(config, "num_feedforward_networks", default=4)
        return total + (networks - 1) * (_linear(t, inner) + _linear(inner, t) + 2 * t)

    norm = config.get("normalization_type", "no_norm")
    if norm not in ("no_norm", "layer_norm"):
        parts.fail("model", "normalization_type is neither no_norm nor layer_norm")
        return
    parts.add("embeddings", embeddings)
    parts.add("encoder", lambda: layers(config) * layer())
    parts.add("pooler", lambda: _linear(hidden(), hidden()) if read_bool(config, "classifier_activation", True)
              else 0)


def count_perceiver(config: Mapping[str, object], parts: PartList) -> None:
    """Perceiver IO's bare encoder (PerceiverModel, no input preprocessor: inputs at d_model): learned latents, one
    cross-attention layer from the inputs into the latents and num_self_attends_per_block self-attention layers
    (shared by the num_blocks repeats), each with LayerNorms and a widening MLP."""

    def latents() -> int:
        return read_int(config, "d_latents")

    def layer(q_dim: int, kv_dim: int, qk: int, v: int, widening: int, cross: bool) -> int:
        norms = 2 * q_dim + (2 * kv_dim if cross else 0) + 2 * q_dim
        # the output dense maps v_channels to q_dim after cross-attention, but to v_channels after self-attention
        projections = _linear(q_dim, qk) + _linear(kv_dim, qk) + _linear(kv_dim, v) + _linear(v, q_dim if cross else v)
        return norms + projections + _linear(q_dim, widening * q_dim) + _linear(widening * q_dim, q_dim)

    def channels(default: int) -> tuple[int, int]:
        qk = read_int(config, "qk_channels", default=default)
        return qk, read_int(config, "v_channels", default=qk)

    def cross() -> int:
        q_dim, kv_dim = latents(), read_int(config, "d_model")
        exact_div(q_dim, read_int(config, "num_cross_attention_heads"), "d_latents / num_cross_attention_heads")
        shape = config.get("cross_attention_shape_for_attention", "kv")
        if shape not in ("q", "kv"):
            raise FieldError("cross_attention_shape_for_attention is neither 'q' nor 'kv'")
        qk, v = channels(q_dim if shape == "q" else kv_dim)
        return layer(q_dim, kv_dim, qk, v, read_int(config, "cross_attention_widening_factor", default=1), True)

    def self_attends() -> int:
        q_dim = latents()
        exact_div(q_dim, read_int(config, "num_self_attention_heads"), "d_latents / num_self_attention_heads")
        qk, v = channels(q_dim)
        return read_int(config, "num_self_attends_per_block") * layer(
            q_dim, q_dim, qk, v, read_int(config, "self_attention_widening_factor", default=1), False)

    parts.add("latents", lambda: read_int(config, "num_latents") * latents())
    parts.add("cross_attention", cross)
    parts.add("self_attention", self_attends)
    parts.notes.append("counted as the bare encoder (PerceiverModel, no input preprocessor or decoder): the "
                       "task-specific preprocessors and decoders are not counted")


TEXT_ENCODER_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "albert": count_albert,
    "xlm": count_xlm,
    "flaubert": count_xlm,
    "modernbert": count_modernbert,
    "layoutlmv3": count_layoutlmv3,
    "convbert": count_convbert,
    "mobilebert": count_mobilebert,
    "perceiver": count_perceiver,
}
"""model_type -> counter, for dispatch by sizing.models."""
