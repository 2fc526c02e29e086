"""Qwen3.5's dense text decoder: layers of Gated DeltaNet linear attention or gated full attention (listed per layer
in layer_types), each with a gated MLP and two RMSNorms. Counts follow transformers 5.25's modelling code."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, read_bool, read_int
from neuron_compat.sizing.shapes import attention, hidden_size, layers

__all__ = ["LINEAR_ATTENTION_COUNTERS", "gated_delta_net", "gated_full_attention"]


def gated_delta_net(config: Mapping[str, object]) -> int:
    """One Gated DeltaNet block: fused q/k/v, z, b and a projections, a bias-free depthwise Conv1d over q/k/v,
    dt_bias and A_log per value head, a gated RMSNorm over the value head size and the output projection."""
    hidden = hidden_size(config)
    value_heads = read_int(config, "linear_num_value_heads")
    key_dim = read_int(config, "linear_key_head_dim") * read_int(config, "linear_num_key_heads")
    value_head = read_int(config, "linear_value_head_dim")
    value_dim = value_head * value_heads
    conv_dim = 2 * key_dim + value_dim
    return hidden * conv_dim + hidden * value_dim + 2 * hidden * value_heads \
        + conv_dim * read_int(config, "linear_conv_kernel_dim") + 2 * value_heads + value_head + value_dim * hidden


def gated_full_attention(config: Mapping[str, object]) -> int:
    """Full attention whose q projection also yields an output gate (2 x heads x head_dim), with q and k RMSNorms."""
    hidden = hidden_size(config)
    shape = attention(config)
    q_out, kv_out = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    bias = read_bool(config, "attention_bias", False)
    return hidden * 2 * q_out + 2 * hidden * kv_out + q_out * hidden + 2 * shape.head_dim \
        + ((2 * q_out + 2 * kv_out + hidden) if bias else 0)


def _layer_types(config: Mapping[str, object]) -> list[str]:
    value = config.get("layer_types")
    if not isinstance(value, list) or not all(isinstance(kind, str) for kind in value):
        raise FieldError("layer_types is not set: which layers use linear attention is not known")
    if len(value) != layers(config):
        raise FieldError(f"layer_types has {len(value)} entries for {layers(config)} layers")
    unknown = sorted(set(value) - {"linear_attention", "full_attention"})
    if unknown:
        raise FieldError(f"layer_types names {unknown[0]!r}, neither linear_attention nor full_attention")
    return value


def count_qwen3_5_text(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def tied() -> bool:
        return read_bool(config, "tie_word_embeddings", False)

    def mixers() -> int:
        kinds = _layer_types(config)
        linear = kinds.count("linear_attention")
        return linear * gated_delta_net(config) + (len(kinds) - linear) * gated_full_attention(config)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("attention", mixers)
    parts.add("mlp", lambda: layers(config) * 3 * hidden() * read_int(config, "intermediate_size"))
    parts.add("norms", lambda: (2 * layers(config) + 1) * hidden())
    parts.add("lm_head", lambda: 0 if tied() else read_int(config, "vocab_size") * hidden())


LINEAR_ATTENTION_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {"qwen3_5_text": count_qwen3_5_text}
"""model_type -> counter, for dispatch by sizing.models."""
