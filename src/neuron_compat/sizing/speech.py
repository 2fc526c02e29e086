"""Speech models beyond wav2vec 2.0's layout: SEW and SEW-D (squeezed sequence, upsampling), the wav2vec 2.0
Conformer and Wav2Vec2-BERT (Conformer blocks: two half-step feed-forwards, self-attention with relative positions,
a convolution module), SpeechT5 (speech-to-text) and SeamlessM4T (text-to-text). Counts follow transformers 5.25 for
the bare encoders (no CTC, quantizer or adapter) and for the named task classes."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.encoders import conv_dims, conv_positions, feature_encoder
from neuron_compat.sizing.fields import FieldError, exact_div, read_bool, read_int, read_str
from neuron_compat.sizing.shapes import hidden_size, layers

__all__ = ["SPEECH_COUNTERS"]


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def _number(config: Mapping[str, object], name: str, default: float) -> float:
    value = config.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FieldError(f"{name} is not a number")
    return float(value)


def _masked_spec_embed(config: Mapping[str, object]) -> int:
    """The masking vector exists when time or feature masking is configured (mask_time_prob or mask_feature_prob)."""
    masking = _number(config, "mask_time_prob", 0.05) > 0 or _number(config, "mask_feature_prob", 0.0) > 0
    return hidden_size(config) if masking else 0


def _post_norm_layer(config: Mapping[str, object]) -> int:
    hidden, inner = hidden_size(config), read_int(config, "intermediate_size")
    exact_div(hidden, read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
    return 4 * _linear(hidden, hidden) + 2 * hidden + _linear(hidden, inner) + _linear(inner, hidden) + 2 * hidden


def count_sew(config: Mapping[str, object], parts: PartList) -> None:
    """SEW (SEWModel): the feature encoder, a LayerNorm and (when conv_dim[-1] differs from hidden_size) a projection,
    a strided (squeeze_factor) convolutional position embedding, a LayerNorm, post-norm layers and an upsampling
    linear back to the frame rate."""

    def hidden() -> int:
        return hidden_size(config)

    def projection() -> int:
        last = conv_dims(config)[-1]
        return 2 * last + (0 if last == hidden() else _linear(last, hidden()))

    parts.add("feature_encoder", lambda: feature_encoder(config))
    parts.add("feature_projection", projection)
    parts.add("encoder", lambda: conv_positions(config) + 2 * hidden() + layers(config) * _post_norm_layer(config)
              + _linear(hidden(), hidden() * read_int(config, "squeeze_factor", default=2)))
    parts.add("masked_spec_embed", lambda: _masked_spec_embed(config))


def count_sew_d(config: Mapping[str, object], parts: PartList) -> None:
    """SEW-D (SEWDModel): SEW's feature encoder, projection, squeezing position convolution and upsampling around a
    DeBERTa-v2 encoder (post-norm layers, relative-position embeddings shared with the attention keys, a LayerNorm
    on them when norm_rel_ebd says so)."""

    def hidden() -> int:
        return hidden_size(config)

    def projection() -> int:
        last = conv_dims(config)[-1]
        return 2 * last + (0 if last == hidden() else _linear(last, hidden()))

    def relative() -> int:
        if not read_bool(config, "relative_attention", True):
            return 0
        if not read_bool(config, "share_att_key", True):
            raise FieldError("share_att_key is false: the separate position projections are not modelled")
        buckets = read_int(config, "position_buckets", minimum=-(10**9), default=256)
        span = buckets if buckets > 0 else read_int(config, "max_relative_positions", minimum=-(10**9), default=-1)
        if span < 1:
            span = read_int(config, "max_position_embeddings")
        norm = config.get("norm_rel_ebd", "none")
        if not isinstance(norm, str):
            raise FieldError("norm_rel_ebd is not a string")
        with_norm = "layer_norm" in [part.strip() for part in norm.lower().split("|")]
        return 2 * span * hidden() + (2 * hidden() if with_norm else 0)

    if read_int(config, "conv_kernel_size", minimum=0, default=0) > 0:
        parts.fail("model", "conv_kernel_size: DeBERTa's convolution layer is not modelled")
        return
    parts.add("feature_encoder", lambda: feature_encoder(config))
    parts.add("feature_projection", projection)
    parts.add("encoder", lambda: conv_positions(config) + layers(config) * _post_norm_layer(config) + relative()
              + _linear(hidden(), hidden() * read_int(config, "squeeze_factor", default=2)))
    parts.add("masked_spec_embed", lambda: _masked_spec_embed(config))


def count_speecht5(config: Mapping[str, object], parts: PartList) -> None:
    """SpeechT5 for speech-to-text (SpeechT5ForSpeechToText): a wav2vec 2.0-style speech prenet (feature encoder,
    projection, position convolution, masking vector), a post-norm encoder with a LayerNorm and relative position
    keys, a text prenet (token embeddings, sinusoidal positions) and a decoder with cross-attention; the output head
    is tied to the token embeddings unless tie_word_embeddings is false."""

    def hidden() -> int:
        return hidden_size(config)

    def attention(heads_field: str) -> int:
        exact_div(hidden(), read_int(config, heads_field), f"hidden_size / {heads_field}")
        return 4 * _linear(hidden(), hidden())

    def encoder() -> int:
        inner = read_int(config, "encoder_ffn_dim")
        head_dim = exact_div(hidden(), read_int(config, "encoder_attention_heads"), "hidden_size / heads")
        layer = attention("encoder_attention_heads") + 2 * hidden() + _linear(hidden(), inner) \
            + _linear(inner, hidden()) + 2 * hidden()
        return 2 * hidden() + read_int(config, "encoder_layers") * layer \
            + 2 * read_int(config, "encoder_max_relative_position", default=160) * head_dim

    def decoder() -> int:
        inner = read_int(config, "decoder_ffn_dim")
        layer = 2 * attention("decoder_attention_heads") + 3 * 2 * hidden() + _linear(hidden(), inner) \
            + _linear(inner, hidden())
        return read_int(config, "decoder_layers") * layer

    parts.add("speech_prenet", lambda: feature_encoder(config) + 2 * conv_dims(config)[-1]
              + _linear(conv_dims(config)[-1], hidden()) + conv_positions(config) + _masked_spec_embed(config))
    parts.add("encoder", encoder)
    parts.add("text_prenet", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("decoder", decoder)
    parts.add("lm_head", lambda: 0 if read_bool(config, "tie_word_embeddings", True)
              else read_int(config, "vocab_size") * hidden())
    parts.notes.append("counted as speech-to-text (SpeechT5ForSpeechToText); the speech decoder prenet and postnet "
                       "of text-to-speech are not counted")


def count_seamless_m4t_text(config: Mapping[str, object], parts: PartList) -> None:
    """SeamlessM4T as text-to-text (SeamlessM4TForTextToText): shared token embeddings, a pre-norm encoder and a
    decoder with cross-attention (biased attention, ReLU feed-forward, final LayerNorms), sinusoidal positions, and
    an output head tied to the embeddings unless tie_word_embeddings is false."""

    def hidden() -> int:
        return hidden_size(config)

    def stack(side: str, cross: bool) -> int:
        h, inner = hidden(), read_int(config, f"{side}_ffn_dim")
        exact_div(h, read_int(config, f"{side}_attention_heads"), f"hidden_size / {side}_attention_heads")
        attention = 4 * _linear(h, h) + 2 * h
        layer = attention * (2 if cross else 1) + _linear(h, inner) + _linear(inner, h) + 2 * h
        return read_int(config, f"{side}_layers") * layer + 2 * h

    def embeddings() -> int:  # untied, the encoder and decoder keep their own copies beside the shared table
        copies = 1 if read_bool(config, "tie_word_embeddings", True) else 3
        return copies * read_int(config, "vocab_size") * hidden()

    parts.add("embeddings", embeddings)
    parts.add("text_encoder", lambda: stack("encoder", cross=False))
    parts.add("text_decoder", lambda: stack("decoder", cross=True))
    parts.add("lm_head", lambda: 0 if read_bool(config, "tie_word_embeddings", True)
              else read_int(config, "vocab_size") * hidden())
    parts.notes.append("counted as text-to-text (SeamlessM4TForTextToText): the speech encoder, text-to-unit model "
                       "and vocoder of a full SeamlessM4T checkpoint are not counted")


def _conformer_layer(config: Mapping[str, object]) -> int:
    """Two feed-forwards with their LayerNorms, self-attention (+ relative-position terms), the convolution module
    (LayerNorm, bias-free pointwise -> GLU -> depthwise, BatchNorm or LayerNorm, bias-free pointwise) and a final
    LayerNorm."""
    hidden, inner = hidden_size(config), read_int(config, "intermediate_size")
    heads = read_int(config, "num_attention_heads")
    head_size = exact_div(hidden, heads, "hidden_size / num_attention_heads")
    kernel = read_int(config, "conv_depthwise_kernel_size", default=31)
    feed_forward = 2 * hidden + _linear(hidden, inner) + _linear(inner, hidden)
    attention = 2 * hidden + 4 * _linear(hidden, hidden)
    kind = read_str(config, "position_embeddings_type")
    if kind == "relative":
        attention += hidden * hidden + 2 * heads * head_size  # linear_pos, pos_bias_u, pos_bias_v
    elif kind == "relative_key":
        attention += (read_int(config, "left_max_position_embeddings", default=64)
                      + read_int(config, "right_max_position_embeddings", default=8) + 1) * head_size
    elif kind not in (None, "rotary"):
        raise FieldError(f"position_embeddings_type {kind!r} is not one transformers builds")
    # BatchNorm (Conformer) or LayerNorm (Wav2Vec2-BERT) after the depthwise convolution: a weight and a bias either way
    convolution = 2 * hidden + hidden * 2 * hidden + hidden * kernel + 2 * hidden + hidden * hidden
    return 2 * feed_forward + attention + convolution + 2 * hidden


def count_wav2vec2_conformer(config: Mapping[str, object], parts: PartList) -> None:
    """wav2vec 2.0 Conformer (Wav2Vec2ConformerModel): the feature encoder and projection, the convolutional
    position embedding, a LayerNorm and Conformer layers."""

    def hidden() -> int:
        return hidden_size(config)

    if read_bool(config, "add_adapter", False):
        parts.fail("model", "add_adapter: the output adapter is not modelled")
        return
    parts.add("feature_encoder", lambda: feature_encoder(config))
    parts.add("feature_projection", lambda: 2 * conv_dims(config)[-1] + _linear(conv_dims(config)[-1], hidden()))
    parts.add("encoder", lambda: conv_positions(config) + 2 * hidden()
              + layers(config) * _conformer_layer(config))
    parts.add("masked_spec_embed", lambda: _masked_spec_embed(config))


def count_wav2vec2_bert(config: Mapping[str, object], parts: PartList) -> None:
    """Wav2Vec2-BERT (Wav2Vec2BertModel): a LayerNorm and projection from filter-bank features
    (feature_projection_input_dim), then Conformer layers; no convolutional feature encoder or position
    convolution."""

    if read_bool(config, "add_adapter", False) or read_bool(config, "use_intermediate_ffn_before_adapter", False):
        parts.fail("model", "add_adapter / use_intermediate_ffn_before_adapter: the adapter is not modelled")
        return
    parts.add("feature_projection", lambda: 2 * read_int(config, "feature_projection_input_dim")
              + _linear(read_int(config, "feature_projection_input_dim"), hidden_size(config)))
    parts.add("encoder", lambda: layers(config) * _conformer_layer(config))
    parts.add("masked_spec_embed", lambda: _masked_spec_embed(config))


SPEECH_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "sew": count_sew,
    "sew-d": count_sew_d,
    "speecht5": count_speecht5,
    "seamless_m4t": count_seamless_m4t_text,
    "wav2vec2-conformer": count_wav2vec2_conformer,
    "wav2vec2-bert": count_wav2vec2_bert,
}
"""model_type -> counter, for dispatch by sizing.models."""
