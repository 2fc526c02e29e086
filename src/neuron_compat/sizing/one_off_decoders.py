"""Decoders with a layout of their own, each as transformers 5.25.0 builds it: MPT (fused Wqkv, weight-only
LayerNorms, ALiBi), DBRX (fused Wqkv, weight-only LayerNorms, experts), Gemma 3n's text model (per-layer MLP
widths, KV sharing across the last layers, AltUp, LAuReL and per-layer input embeddings), HunYuan dense and MoE
(QK RMSNorms; the MoE's experts and shared MLP both of intermediate_size) and Nemotron (LayerNorm1P with biases, a
plain up/down MLP)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, as_int, read_bool, read_int
from neuron_compat.sizing.moe_layouts import experts, gated_mlp, lm_head_part, standard_attention
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


def _gated_mlps(config: Mapping[str, object], hidden: int, total: int) -> int:
    """Gated MLPs of intermediate_size, one width for every layer or a list of one per layer."""
    value = config.get("intermediate_size")
    if isinstance(value, list):
        widths = [as_int(v) for v in value]
        if any(w is None or w < 1 for w in widths):
            raise FieldError("intermediate_size is a list with an entry that is not a positive integer")
        if len(widths) != total:
            raise FieldError(f"intermediate_size lists {len(widths)} widths for {total} layers")
        return sum(gated_mlp(hidden, int(w)) for w in widths if w is not None)
    return total * gated_mlp(hidden, read_int(config, "intermediate_size"))


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
        return _gated_mlps(config, hidden, total())

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


def count_dbrx(config: Mapping[str, object], parts: PartList) -> None:
    """DBRX: Wqkv (hidden -> hidden + 2 x attn_config.kv_n_heads x head size) and out_proj without biases,
    LayerNorms with a weight and no bias, and on every layer a router and moe_num_experts gated experts of
    ffn_hidden_size (all read from ffn_config)."""
    def sub(name: str) -> Mapping[str, object]:
        value = config.get(name)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise FieldError(f"{name} is not an object")
        return value

    def hidden() -> int:
        return hidden_size(config)  # d_model

    def n_layers() -> int:
        return read_int(config, "n_layers", "num_hidden_layers")

    def attn() -> int:
        heads = read_int(config, "n_heads", "num_attention_heads")
        if hidden() % heads:
            raise FieldError(f"d_model / n_heads: {hidden()} is not divisible by {heads}")
        kv_heads = read_int(sub("attn_config"), "kv_n_heads", default=1)
        return n_layers() * (hidden() * (hidden() + 2 * kv_heads * (hidden() // heads)) + hidden() * hidden())

    def n_experts() -> int:
        return read_int(sub("ffn_config"), "moe_num_experts", default=4)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("attention", attn)
    parts.add("experts", lambda: n_layers() * experts(n_experts(), hidden(),
                                                      read_int(sub("ffn_config"), "ffn_hidden_size", default=3584)))
    parts.add("router", lambda: n_layers() * n_experts() * hidden())
    parts.add("norms", lambda: (2 * n_layers() + 1) * hidden())
    lm_head_part(config, parts, False)


def _hunyuan_attention(config: Mapping[str, object]) -> int:
    shape = attention(config)
    return layers(config) * standard_attention(config, bias=read_bool(config, "attention_bias", False),
                                               q_norm=shape.head_dim, k_norm=shape.head_dim)


def count_hunyuan_v1_dense(config: Mapping[str, object], parts: PartList) -> None:
    """HunYuan dense: Llama's layout with RMSNorms over head_dim on queries and keys on every layer."""
    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden_size(config))
    parts.add("attention", lambda: _hunyuan_attention(config))
    parts.add("mlp", lambda: layers(config) * gated_mlp(hidden_size(config), read_int(config, "intermediate_size")))
    parts.add("norms", lambda: (2 * layers(config) + 1) * hidden_size(config))
    lm_head_part(config, parts, False)


def count_hunyuan_v1_moe(config: Mapping[str, object], parts: PartList) -> None:
    """HunYuan MoE as transformers builds it: on every layer a router, num_experts experts and one shared MLP, all
    of intermediate_size (moe_intermediate_size and num_shared_expert are not read by transformers)."""
    def n_experts() -> int:
        return read_int(config, "num_experts", "num_local_experts", default=1)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden_size(config))
    parts.add("attention", lambda: _hunyuan_attention(config))
    parts.add("experts", lambda: layers(config) * experts(n_experts(), hidden_size(config),
                                                          read_int(config, "intermediate_size")))
    parts.add("shared_experts", lambda: layers(config) * gated_mlp(hidden_size(config),
                                                                   read_int(config, "intermediate_size")))
    parts.add("router", lambda: layers(config) * n_experts() * hidden_size(config))
    parts.add("norms", lambda: (2 * layers(config) + 1) * hidden_size(config))
    lm_head_part(config, parts, False)


def count_nemotron(config: Mapping[str, object], parts: PartList) -> None:
    """Nemotron: LayerNorm1P (weight and bias) twice per layer and at the end, attention with attention_bias,
    a plain up/down MLP (squared ReLU) with mlp_bias; head size head_dim, else hidden_size // heads."""
    def attn() -> int:
        floored = dict(config)
        if config.get("head_dim") is None:
            floored["head_dim"] = hidden_size(config) // read_int(config, "num_attention_heads")
        return layers(config) * standard_attention(floored, bias=read_bool(config, "attention_bias", False))

    def mlp() -> int:
        hidden, width = hidden_size(config), read_int(config, "intermediate_size")
        return layers(config) * (2 * hidden * width + ((width + hidden) if read_bool(config, "mlp_bias", False)
                                                       else 0))

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden_size(config))
    parts.add("attention", attn)
    parts.add("mlp", mlp)
    parts.add("norms", lambda: 2 * (2 * layers(config) + 1) * hidden_size(config))
    lm_head_part(config, parts, False)


NOT_MODELLED = {
    "qwen2_5_omni": "a thinker (audio encoder, vision encoder and text decoder), a talker and token2wav (a DiT and "
                    "a BigVGAN vocoder), three models in one checkpoint",
    "musicgen": "a T5 text encoder, an EnCodec audio codec and a decoder over several codebooks, three models in "
                "one checkpoint",
}
"""Registry model types refused with what they are, rather than the generic count's list of missing fields."""


def refuse(model_type: str) -> Callable[[Mapping[str, object], PartList], None]:
    def counter(config: Mapping[str, object], parts: PartList) -> None:
        parts.fail("model", f"model_type {model_type!r} is not modelled: {NOT_MODELLED[model_type]}")
    return counter


ONE_OFF_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "mpt": count_mpt,
    "gemma3n_text": count_gemma3n_text,
    "dbrx": count_dbrx,
    "hunyuan_v1_dense": count_hunyuan_v1_dense,
    "hunyuan_v1_moe": count_hunyuan_v1_moe,
    "nemotron": count_nemotron,
    **{model_type: refuse(model_type) for model_type in NOT_MODELLED},
}
"""model_type -> its counter, for the one-off layouts of this module."""
