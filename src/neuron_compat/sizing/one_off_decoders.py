"""Decoders with a layout of their own, each as transformers 5.25.0 builds it: MPT (fused Wqkv, weight-only
LayerNorms, ALiBi) and Gemma 3n's text model (per-layer MLP widths, KV sharing across the last layers, AltUp,
LAuReL and per-layer input embeddings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, as_int, read_bool, read_int
from neuron_compat.sizing.moe_layouts import gated_mlp, lm_head_part
from neuron_compat.sizing.shapes import attention, hidden_size, layers


def count_mpt(config: Mapping[str, object], parts: PartList) -> None:
    """MPT: Wqkv (hidden -> 3 x hidden) and out_proj without biases, an up/down MLP of 4 x d_model (transformers
    builds 4 x whatever expansion_ratio says), LayerNorms with a weight and no bias, no position embeddings."""
    def hidden() -> int:
        return hidden_size(config)  # d_model

    def n_layers() -> int:
        return read_int(config, "n_layers", "num_hidden_layers")

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("attention", lambda: n_layers() * 4 * hidden() * hidden())
    parts.add("mlp", lambda: n_layers() * 8 * hidden() * hidden())
    parts.add("norms", lambda: (2 * n_layers() + 1) * hidden())
    lm_head_part(config, parts, True)
    ratio = config.get("expansion_ratio")
    if ratio is not None and ratio != 4:
        parts.notes.append("expansion_ratio is not 4: transformers' MPT builds a 4 x d_model MLP whatever it says, "
                           "and so does this count")


def _per_layer_widths(config: Mapping[str, object], total: int) -> list[int]:
    value = config.get("intermediate_size")
    if isinstance(value, list):
        widths = [as_int(v) for v in value]
        if any(w is None or w < 1 for w in widths):
            raise FieldError("intermediate_size is a list with an entry that is not a positive integer")
        if len(widths) != total:
            raise FieldError(f"intermediate_size lists {len(widths)} widths for {total} layers")
        return [int(w) for w in widths if w is not None]
    return [read_int(config, "intermediate_size")] * total


def count_gemma3n_text(config: Mapping[str, object], parts: PartList) -> None:
    """Gemma 3n's text model: q_norm on every layer; k/v projections, k_norm (and a weightless v_norm) only on the
    first num_hidden_layers - num_kv_shared_layers layers (the rest reuse their cache); a gated MLP whose width
    intermediate_size may give per layer; four RMSNorms; AltUp (altup_num_inputs streams: coefficients, router,
    router norm, output scale, and input/unembed projections), LAuReL (laurel_rank) and per-layer inputs
    (hidden_size_per_layer_input, an embedding over vocab_size_per_layer_input, projections and norms)."""
    def total() -> int:
        return layers(config)

    def attn() -> int:
        shape = attention(config)
        hidden, bias = hidden_size(config), read_bool(config, "attention_bias", False)
        shared = min(read_int(config, "num_kv_shared_layers", minimum=0, default=15), total())
        q_out, kv_out = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
        every = 2 * hidden * q_out + shape.head_dim + ((q_out + hidden) if bias else 0)
        own_kv = 2 * hidden * kv_out + shape.head_dim + (2 * kv_out if bias else 0)
        return total() * every + (total() - shared) * own_kv

    def mlp() -> int:
        hidden = hidden_size(config)
        return sum(gated_mlp(hidden, width) for width in _per_layer_widths(config, total()))

    def per_layer_extras() -> int:
        hidden = hidden_size(config)
        streams = read_int(config, "altup_num_inputs", default=4)
        rank = read_int(config, "laurel_rank", default=64)
        per_input = read_int(config, "hidden_size_per_layer_input", default=256)
        altup = hidden + streams * streams + streams * streams * streams + hidden * streams + hidden
        laurel = 2 * hidden * rank + hidden
        per_layer = 2 * hidden * per_input + hidden
        return total() * (altup + laurel + per_layer)

    def model_extras() -> int:
        hidden = hidden_size(config)
        streams = read_int(config, "altup_num_inputs", default=4)
        per_input = read_int(config, "hidden_size_per_layer_input", default=256)
        per_layer_vocab = read_int(config, "vocab_size_per_layer_input", default=262144)
        return (per_layer_vocab * total() * per_input + hidden * total() * per_input + per_input
                + 2 * (streams - 1) * hidden * hidden)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden_size(config))
    parts.add("per_layer_embeddings", model_extras)
    parts.add("attention", attn)
    parts.add("mlp", mlp)
    parts.add("altup_laurel_per_layer", per_layer_extras)
    parts.add("norms", lambda: (4 * total() + 1) * hidden_size(config))
    lm_head_part(config, parts, True)


ONE_OFF_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "mpt": count_mpt,
    "gemma3n_text": count_gemma3n_text,
}
"""model_type -> its counter, for the one-off layouts of this module."""
