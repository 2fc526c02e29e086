"""Encoder-only models: BERT/RoBERTa, ViT, CLIP text and vision towers (post- or pre-LayerNorm, biased linears)."""

from __future__ import annotations

from collections.abc import Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, exact_div, read_bool, read_int, read_int_list, read_str
from neuron_compat.sizing.shapes import hidden_size, layers


def encoder_layers(config: Mapping[str, object], qkv_bias: bool = True) -> int:
    """Self-attention (q, k, v, out), two LayerNorms and the up/down MLP, per layer times layers."""
    hidden = hidden_size(config)
    heads = read_int(config, "num_attention_heads")
    exact_div(hidden, heads, "hidden_size / num_attention_heads")
    intermediate = read_int(config, "intermediate_size")
    attention = 3 * (hidden * hidden + (hidden if qkv_bias else 0)) + hidden * hidden + hidden
    mlp = hidden * intermediate + intermediate + intermediate * hidden + hidden
    return layers(config) * (attention + mlp + 2 * 2 * hidden)


def _patch_grid(config: Mapping[str, object]) -> int:
    """Patches per square image as transformers sizes the position table: (image_size // patch_size) ** 2."""
    image, patch = read_int(config, "image_size"), read_int(config, "patch_size")
    if patch > image:
        raise FieldError(f"patch_size ({patch}) is larger than image_size ({image})")
    return (image // patch) ** 2


def count_bert(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: (read_int(config, "vocab_size")
                                     + read_int(config, "type_vocab_size", minimum=0, default=2)) * hidden()
              + 2 * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "max_position_embeddings") * hidden())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.add("pooler", lambda: hidden() * hidden() + hidden())
    parts.notes.append("counted as the bare encoder with pooler (BertModel/RobertaModel); task heads not counted")


def _num_labels(config: Mapping[str, object]) -> int:
    labels = config.get("id2label")
    if isinstance(labels, Mapping) and labels:
        return len(labels)
    return read_int(config, "num_labels", default=2)


def count_vit(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def patches() -> int:
        return _patch_grid(config)

    def patch() -> int:
        return read_int(config, "num_channels", default=3) * read_int(config, "patch_size") ** 2

    parts.add("patch_embedding", lambda: patch() * hidden() + hidden())
    parts.add("cls_token", lambda: hidden())
    parts.add("position_embeddings", lambda: (patches() + 1) * hidden())
    parts.add("encoder", lambda: encoder_layers(config, read_bool(config, "qkv_bias", True)))
    parts.add("final_norm", lambda: 2 * hidden())
    architectures = config.get("architectures")
    if isinstance(architectures, list) and "ViTForImageClassification" in architectures:
        parts.add("classifier", lambda: hidden() * _num_labels(config) + _num_labels(config))
        parts.notes.append("ViTForImageClassification: classifier counted, no pooler")
    else:
        parts.add("pooler", lambda: hidden() * hidden() + hidden())


def count_clip_vision(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def patches() -> int:
        return _patch_grid(config)

    parts.add("patch_embedding", lambda: read_int(config, "num_channels", default=3)
              * read_int(config, "patch_size") ** 2 * hidden())  # Conv2d without bias
    parts.add("cls_token", lambda: hidden())
    parts.add("position_embeddings", lambda: (patches() + 1) * hidden())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.add("norms", lambda: 2 * 2 * hidden())  # pre_layrnorm and post_layernorm


def count_clip_text(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "max_position_embeddings") * hidden())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.add("final_norm", lambda: 2 * hidden())


def count_distilbert(config: Mapping[str, object], parts: PartList) -> None:
    """DistilBERT: word and position embeddings (a table even when sinusoidal), no token types, no pooler."""

    def dim() -> int:
        return read_int(config, "dim")

    def layer() -> int:
        width = read_int(config, "hidden_dim")
        exact_div(dim(), read_int(config, "n_heads"), "dim / n_heads")
        return 4 * (dim() * dim() + dim()) + dim() * width + width + width * dim() + dim() + 2 * 2 * dim()

    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + read_int(config, "max_position_embeddings"))
              * dim() + 2 * dim())
    parts.add("encoder", lambda: read_int(config, "n_layers") * layer())
    parts.notes.append("counted as the bare encoder (DistilBertModel); task heads not counted")


def count_electra(config: Mapping[str, object], parts: PartList) -> None:
    """ELECTRA: embeddings at embedding_size projected to hidden_size when they differ; no pooler."""

    def width() -> int:
        return read_int(config, "embedding_size", default=hidden_size(config))

    def projection() -> int:
        return 0 if width() == hidden_size(config) else width() * hidden_size(config) + hidden_size(config)

    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + read_int(config, "max_position_embeddings")
                                     + read_int(config, "type_vocab_size", minimum=0, default=2)) * width()
              + 2 * width() + projection())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.notes.append("counted as the bare encoder (ElectraModel); task heads not counted")


def count_mpnet(config: Mapping[str, object], parts: PartList) -> None:
    """MPNet: word and position embeddings (no token types), a shared relative-position bias, pooler."""

    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + read_int(config, "max_position_embeddings"))
              * hidden() + 2 * hidden())
    parts.add("encoder", lambda: encoder_layers(config) + read_int(
        config, "relative_attention_num_buckets", default=32) * read_int(config, "num_attention_heads"))
    parts.add("pooler", lambda: hidden() * hidden() + hidden())
    parts.notes.append("counted as the bare encoder with pooler (MPNetModel); task heads not counted")


def conv_dims(config: Mapping[str, object]) -> list[int]:
    """The feature encoder's Conv1d widths (conv_dim; transformers' default seven of 512)."""
    return read_int_list(config, "conv_dim") or [512] * 7


def feature_encoder(config: Mapping[str, object]) -> int:
    """The convolutional feature encoder over raw audio: Conv1d layers (biased when conv_bias), GroupNorm on the
    first (feat_extract_norm 'group') or a LayerNorm on each ('layer'); any other norm is refused, as transformers
    refuses it."""
    dims, kernels = conv_dims(config), read_int_list(config, "conv_kernel") or [10, 3, 3, 3, 3, 2, 2]
    if len(dims) != len(kernels):
        raise FieldError(f"conv_dim has {len(dims)} entries and conv_kernel {len(kernels)}")
    bias = read_bool(config, "conv_bias", False)
    total, previous = 0, 1
    for width, kernel in zip(dims, kernels, strict=True):
        total += previous * width * kernel + (width if bias else 0)
        previous = width
    norm = read_str(config, "feat_extract_norm") or "group"
    if norm not in ("group", "layer"):
        raise FieldError(f"feat_extract_norm {norm!r} is neither 'group' nor 'layer'")
    return total + (2 * dims[0] if norm == "group" else 2 * sum(dims))


def conv_positions(config: Mapping[str, object]) -> int:
    """The weight-normed grouped Conv1d position embedding: weight_v, weight_g (one per kernel tap) and a bias."""
    hidden = hidden_size(config)
    kernel = read_int(config, "num_conv_pos_embeddings")
    per_group = exact_div(hidden, read_int(config, "num_conv_pos_embedding_groups"),
                          "hidden_size / num_conv_pos_embedding_groups")
    return hidden * per_group * kernel + kernel + hidden


SPEECH_ENCODERS = frozenset({"wav2vec2", "hubert", "unispeech", "unispeech-sat", "wavlm"})


def count_speech_encoder(config: Mapping[str, object], parts: PartList, model_type: str = "wav2vec2") -> None:
    """wav2vec 2.0-style speech encoders: a convolutional feature encoder, a feature projection, a grouped
    convolutional position embedding (weight-normed) and a post- or pre-LayerNorm transformer encoder."""

    def hidden() -> int:
        return hidden_size(config)

    def projection() -> int:
        last = conv_dims(config)[-1]
        return 2 * last + last * hidden() + hidden()

    def relative() -> int:
        if model_type != "wavlm":
            return 0
        heads = read_int(config, "num_attention_heads")
        head_dim = exact_div(hidden(), heads, "hidden_size / num_attention_heads")
        per_layer = heads + head_dim * 8 + 8  # gru_rel_pos_const and gru_rel_pos_linear
        return read_int(config, "num_buckets", default=320) * heads + layers(config) * per_layer

    parts.add("feature_encoder", lambda: feature_encoder(config))
    parts.add("feature_projection", projection)
    parts.add("position_embedding", lambda: conv_positions(config))
    parts.add("encoder", lambda: encoder_layers(config) + 2 * hidden() + relative())
    parts.add("masked_spec_embed", lambda: hidden())
    parts.notes.append("counted as the bare encoder (no CTC or quantizer head)")


def count_deit(config: Mapping[str, object], parts: PartList) -> None:
    """DeiT: ViT with a distillation token beside the class token; bare model with its pooler."""

    def hidden() -> int:
        return hidden_size(config)

    def patches() -> int:
        return _patch_grid(config)

    parts.add("patch_embedding", lambda: read_int(config, "num_channels", default=3)
              * read_int(config, "patch_size") ** 2 * hidden() + hidden())
    parts.add("cls_and_distillation_tokens", lambda: 2 * hidden())
    parts.add("position_embeddings", lambda: (patches() + 2) * hidden())
    parts.add("encoder", lambda: encoder_layers(config, read_bool(config, "qkv_bias", True)))
    parts.add("final_norm", lambda: 2 * hidden())
    parts.add("pooler", lambda: hidden() * read_int(config, "pooler_output_size", default=hidden())
              + read_int(config, "pooler_output_size", default=hidden()))


def count_dinov2(config: Mapping[str, object], parts: PartList) -> None:
    """DINOv2: ViT with a mask token, LayerScale on both branches and mlp_ratio-wide MLPs (plain, or SwiGLU when
    use_swiglu_ffn); final LayerNorm, no pooler."""

    def hidden() -> int:
        return hidden_size(config)

    def patches() -> int:
        return _patch_grid(config)

    def layer() -> int:
        exact_div(hidden(), read_int(config, "num_attention_heads"), "hidden_size / num_attention_heads")
        if read_bool(config, "use_swiglu_ffn", False):
            raise FieldError("use_swiglu_ffn: the SwiGLU variant's widths are not modelled")
        width = hidden() * read_int(config, "mlp_ratio", default=4)
        attention = 4 * (hidden() * hidden() + hidden())
        mlp = hidden() * width + width + width * hidden() + hidden()
        return attention + mlp + 2 * 2 * hidden() + 2 * hidden()  # two LayerNorms, two LayerScales

    parts.add("patch_embedding", lambda: read_int(config, "num_channels", default=3)
              * read_int(config, "patch_size") ** 2 * hidden() + hidden())
    parts.add("cls_and_mask_tokens", lambda: 2 * hidden())
    parts.add("position_embeddings", lambda: (patches() + 1) * hidden())
    parts.add("encoder", lambda: layers(config) * layer())
    parts.add("final_norm", lambda: 2 * hidden())


def count_siglip_vision(config: Mapping[str, object], parts: PartList) -> None:
    """SigLIP's vision tower: biased patch Conv2d, one position per patch (no class token), the encoder, a final
    LayerNorm and, when vision_use_head, the attention-pooling head (probe, attention, LayerNorm, MLP)."""

    def hidden() -> int:
        return hidden_size(config)

    def patches() -> int:
        return _patch_grid(config)

    def head() -> int:
        if not read_bool(config, "vision_use_head", True):
            return 0
        width = read_int(config, "intermediate_size")
        return hidden() + 4 * (hidden() * hidden() + hidden()) + 2 * hidden() + hidden() * width + width \
            + width * hidden() + hidden()

    parts.add("patch_embedding", lambda: read_int(config, "num_channels", default=3)
              * read_int(config, "patch_size") ** 2 * hidden() + hidden())
    parts.add("position_embeddings", lambda: patches() * hidden())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.add("final_norm", lambda: 2 * hidden())
    parts.add("head", head)


def count_siglip_text(config: Mapping[str, object], parts: PartList) -> None:
    """SigLIP's text tower: token and position embeddings, the encoder, a final LayerNorm and a linear head."""

    def hidden() -> int:
        return hidden_size(config)

    def projection() -> int:
        return read_int(config, "projection_size", default=hidden())

    parts.add("embeddings", lambda: (read_int(config, "vocab_size") + read_int(config, "max_position_embeddings"))
              * hidden())
    parts.add("encoder", lambda: encoder_layers(config))
    parts.add("final_norm", lambda: 2 * hidden())
    parts.add("head", lambda: hidden() * projection() + projection())
