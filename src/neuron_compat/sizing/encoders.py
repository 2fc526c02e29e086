"""Encoder-only models: BERT/RoBERTa, ViT, CLIP text and vision towers (post- or pre-LayerNorm, biased linears)."""

from __future__ import annotations

from collections.abc import Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import exact_div, read_bool, read_int
from neuron_compat.sizing.shapes import hidden_size, layers


def _encoder_layers(config: Mapping[str, object], qkv_bias: bool = True) -> int:
    """Self-attention (q, k, v, out), two LayerNorms and the up/down MLP, per layer times layers."""
    hidden = hidden_size(config)
    heads = read_int(config, "num_attention_heads")
    exact_div(hidden, heads, "hidden_size / num_attention_heads")
    intermediate = read_int(config, "intermediate_size")
    attention = 3 * (hidden * hidden + (hidden if qkv_bias else 0)) + hidden * hidden + hidden
    mlp = hidden * intermediate + intermediate + intermediate * hidden + hidden
    return layers(config) * (attention + mlp + 2 * 2 * hidden)


def count_bert(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: (read_int(config, "vocab_size")
                                     + read_int(config, "type_vocab_size", minimum=0, default=2)) * hidden()
              + 2 * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "max_position_embeddings") * hidden())
    parts.add("encoder", lambda: _encoder_layers(config))
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
        side = exact_div(read_int(config, "image_size"), read_int(config, "patch_size"), "image_size / patch_size")
        return side * side

    def patch() -> int:
        return read_int(config, "num_channels", default=3) * read_int(config, "patch_size") ** 2

    parts.add("patch_embedding", lambda: patch() * hidden() + hidden())
    parts.add("cls_token", lambda: hidden())
    parts.add("position_embeddings", lambda: (patches() + 1) * hidden())
    parts.add("encoder", lambda: _encoder_layers(config, read_bool(config, "qkv_bias", True)))
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
        side = exact_div(read_int(config, "image_size"), read_int(config, "patch_size"), "image_size / patch_size")
        return side * side

    parts.add("patch_embedding", lambda: read_int(config, "num_channels", default=3)
              * read_int(config, "patch_size") ** 2 * hidden())  # Conv2d without bias
    parts.add("cls_token", lambda: hidden())
    parts.add("position_embeddings", lambda: (patches() + 1) * hidden())
    parts.add("encoder", lambda: _encoder_layers(config))
    parts.add("norms", lambda: 2 * 2 * hidden())  # pre_layrnorm and post_layernorm


def count_clip_text(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "max_position_embeddings") * hidden())
    parts.add("encoder", lambda: _encoder_layers(config))
    parts.add("final_norm", lambda: 2 * hidden())
