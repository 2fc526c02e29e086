"""Mixture-of-experts decoders outside decoder.py's families, each as transformers 5.25.0 builds it: OLMoE,
Granite-MoE, Phi-MoE, AFMoE, ERNIE 4.5 MoE, GLM-4 MoE, gpt-oss, Llama 4 (text), MiniMax, MiniMax-M3 (text),
DeepSeek-V3.2 and GLM-MoE-DSA (latent attention with a sparse-attention indexer).

Every expert block counts its routed experts (gate/up/down each, as the fused gate_up_proj and down_proj tensors),
the router's weight, a shared expert where the family has one, and the per-expert biases a family declares as
parameters (buffers such as DeepSeek's e_score_correction_bias are not parameters and are not counted)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import FAMILIES, add_lm_head, count_decoder, mla_attention_per_layer
from neuron_compat.sizing.fields import FieldError, read_bool, read_int, read_int_list
from neuron_compat.sizing.shapes import attention, hidden_size, layers


def gated_mlp(hidden: int, intermediate: int, bias: bool = False) -> int:
    """gate_proj, up_proj and down_proj (hidden -> intermediate -> hidden); biases on all three when `bias`."""
    return 3 * hidden * intermediate + ((2 * intermediate + hidden) if bias else 0)


def experts(count: int, hidden: int, intermediate: int, bias: bool = False) -> int:
    """`count` routed experts, each a gated MLP (gate_up_proj and down_proj tensors, biases when `bias`)."""
    return count * gated_mlp(hidden, intermediate, bias)


def standard_attention(config: Mapping[str, object], *, bias: bool = False, o_bias: bool | None = None,
                       q_norm: int = 0, k_norm: int = 0, gated_q: bool = False) -> int:
    """q/k/v/o projections (GQA via num_key_value_heads, head_dim or hidden / heads), their biases, and RMSNorm
    weights of `q_norm` and `k_norm` elements on queries and keys. `gated_q`: q_proj also yields an output gate
    (twice the query width, Qwen3-Next)."""
    hidden = hidden_size(config)
    shape = attention(config)
    q_out, kv_out = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    q_proj = q_out * (2 if gated_q else 1)
    count = hidden * q_proj + 2 * hidden * kv_out + q_out * hidden + q_norm + k_norm
    if bias:
        count += q_proj + 2 * kv_out
    if bias if o_bias is None else o_bias:
        count += hidden
    return count


def head_dim(config: Mapping[str, object]) -> int:
    return attention(config).head_dim


LEGACY_LAYER_TYPES = {"mamba": "linear_attention", "attention": "full_attention"}
"""The older layer-type names transformers 5 renames when it loads a config (configuration_utils'
_LEGACY_LAYER_TYPE_REMAP, the two that name a layer's kind)."""


def kind_counts(config: Mapping[str, object], name: str, length: int,
                default: Callable[[], dict[str, int]] | None = None) -> dict[str, int]:
    """How many of the first `length` layers a per-layer list of strings (layer_types, mlp_layer_types) gives
    each kind, legacy layer-type names renamed as transformers renames them; `default()` (counts, never a list as
    long as the layers) when the config has no list."""
    value = config.get(name)
    if value is None:
        if default is None:
            raise FieldError(f"{name} is not set")
        return default()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FieldError(f"{name} is not a list of strings")
    if len(value) < length:
        raise FieldError(f"{name} has {len(value)} entries, fewer than the {length} layers")
    counts: dict[str, int] = {}
    for kind in value[:length]:
        renamed = LEGACY_LAYER_TYPES.get(str(kind), str(kind))
        counts[renamed] = counts.get(renamed, 0) + 1
    return counts


def flag_counts(flags: object, name: str, length: int, on: str, off: str) -> dict[str, int]:
    """A per-layer list of 0/1 flags (MiniMax-M3's sparse_attention_freq, moe_layer_freq) as kind counts."""
    if not isinstance(flags, list):
        raise FieldError(f"{name} is not a list")
    if len(flags) < length:
        raise FieldError(f"{name} has {len(flags)} entries, fewer than the {length} layers")
    set_flags = sum(1 for flag in flags[:length] if flag)
    return {on: set_flags, off: length - set_flags}


def lm_head_part(config: Mapping[str, object], parts: PartList, default: bool, *, bias: bool = False) -> None:
    """The LM head: tied to the embeddings per tie_word_embeddings (else `default`); a bias, when the family has
    one, is its own parameter either way."""
    if bias:
        try:
            tied = read_bool(config, "tie_word_embeddings", default)
        except FieldError as error:
            parts.fail("lm_head", str(error))
            return
        if tied:
            parts.add("lm_head", lambda: read_int(config, "vocab_size"))
            parts.notes.append("lm_head's weight is tied to the input embeddings (tie_word_embeddings); its bias "
                               "is counted")
            return
    add_lm_head(config, parts, default,
                lambda: read_int(config, "vocab_size") * hidden_size(config) + (read_int(config, "vocab_size")
                                                                                  if bias else 0))


def token_embeddings(config: Mapping[str, object], parts: PartList) -> None:
    """The input embedding table (vocab_size x hidden_size)."""
    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden_size(config))


def rms_norms(config: Mapping[str, object], per_layer: int) -> int:
    """`per_layer` RMSNorm weights on each layer, plus the final norm."""
    return layers(config) * per_layer * hidden_size(config) + hidden_size(config)


def count_olmoe(config: Mapping[str, object], parts: PartList) -> None:
    """OLMoE: q_norm over the whole query width and k_norm over the KV width; every layer is MoE."""
    def attn() -> int:
        shape = attention(config)
        return layers(config) * standard_attention(config, bias=read_bool(config, "attention_bias", False),
                                                   q_norm=shape.heads * shape.head_dim,
                                                   k_norm=shape.kv_heads * shape.head_dim)
    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("experts", lambda: layers(config) * experts(read_int(config, "num_experts"), hidden_size(config),
                                                          read_int(config, "intermediate_size")))
    parts.add("router", lambda: layers(config) * read_int(config, "num_experts") * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_granitemoe(config: Mapping[str, object], parts: PartList) -> None:
    """Granite-MoE: a Llama attention and a router plus experts on every layer, no shared expert."""
    token_embeddings(config, parts)
    parts.add("attention", lambda: layers(config) * standard_attention(
        config, bias=read_bool(config, "attention_bias", False)))
    parts.add("experts", lambda: layers(config) * experts(read_int(config, "num_local_experts"),
                                                          hidden_size(config), read_int(config, "intermediate_size")))
    parts.add("router", lambda: layers(config) * read_int(config, "num_local_experts") * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_phimoe(config: Mapping[str, object], parts: PartList) -> None:
    """Phi-MoE: LayerNorms with biases (two per layer and a final one), experts on every layer, and an LM head
    with a bias when lm_head_bias."""
    token_embeddings(config, parts)
    parts.add("attention", lambda: layers(config) * standard_attention(
        config, bias=read_bool(config, "attention_bias", False)))
    parts.add("experts", lambda: layers(config) * experts(read_int(config, "num_local_experts"),
                                                          hidden_size(config), read_int(config, "intermediate_size")))
    parts.add("router", lambda: layers(config) * read_int(config, "num_local_experts") * hidden_size(config))
    parts.add("norms", lambda: 2 * rms_norms(config, 2))
    try:
        bias = read_bool(config, "lm_head_bias", False)
    except FieldError as error:
        parts.fail("lm_head", str(error))
        return
    lm_head_part(config, parts, False, bias=bias)


def count_afmoe(config: Mapping[str, object], parts: PartList) -> None:
    """AFMoE: gated attention (a gate_proj beside q/k/v/o, q_norm and k_norm over head_dim), four RMSNorms per
    layer, the first num_dense_layers dense and the rest MoE with shared experts and an expert_bias."""
    def attn() -> int:
        shape = attention(config)
        per_layer = standard_attention(config, bias=read_bool(config, "attention_bias", False),
                                       q_norm=shape.head_dim, k_norm=shape.head_dim)
        return layers(config) * (per_layer + hidden_size(config) * shape.heads * shape.head_dim)

    def dense_layers() -> int:
        return min(read_int(config, "num_dense_layers", minimum=0, default=1), layers(config))

    def moe_layers() -> int:
        return layers(config) - dense_layers()

    def n_experts() -> int:
        return read_int(config, "num_experts")

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("mlp", lambda: dense_layers() * gated_mlp(hidden_size(config), read_int(config, "intermediate_size")))
    parts.add("experts", lambda: moe_layers() * experts(n_experts(), hidden_size(config),
                                                        read_int(config, "moe_intermediate_size")))
    parts.add("shared_experts", lambda: moe_layers() * gated_mlp(
        hidden_size(config), read_int(config, "moe_intermediate_size")
        * read_int(config, "num_shared_experts", minimum=0, default=2)))
    parts.add("router", lambda: moe_layers() * n_experts() * (hidden_size(config) + 1))  # gate and expert_bias
    parts.add("norms", lambda: rms_norms(config, 4))
    lm_head_part(config, parts, False)


def count_ernie4_5_moe(config: Mapping[str, object], parts: PartList) -> None:
    """ERNIE 4.5 MoE: use_bias on every linear and the LM head; layer i is MoE when (i + 1) is a multiple of
    moe_layer_interval and moe_layer_start_index <= i <= moe_layer_end_index; the router has a per-expert
    e_score_correction_bias parameter; shared experts when moe_num_shared_experts > 0."""
    def bias() -> bool:
        return read_bool(config, "use_bias", False)

    def moe_layers() -> int:
        total = layers(config)
        interval = read_int(config, "moe_layer_interval", default=1)
        start = read_int(config, "moe_layer_start_index", minimum=0, default=1)
        end = read_int(config, "moe_layer_end_index", minimum=-1, default=-1)
        end = total - 1 if end == -1 else min(end, total - 1)
        # multiples of interval among i + 1 for i in [start, end]
        return max(0, (end + 1) // interval - start // interval) if end >= start else 0

    def n_experts() -> int:
        return read_int(config, "moe_num_experts", "num_experts")

    token_embeddings(config, parts)
    parts.add("attention", lambda: layers(config) * standard_attention(config, bias=bias()))
    parts.add("mlp", lambda: (layers(config) - moe_layers()) * gated_mlp(
        hidden_size(config), read_int(config, "intermediate_size"), bias()))
    parts.add("experts", lambda: moe_layers() * experts(n_experts(), hidden_size(config),
                                                        read_int(config, "moe_intermediate_size")))
    parts.add("shared_experts", lambda: moe_layers() * (gated_mlp(
        hidden_size(config), read_int(config, "moe_intermediate_size")
        * read_int(config, "moe_num_shared_experts", minimum=0, default=2), bias())
        if read_int(config, "moe_num_shared_experts", minimum=0, default=2) else 0))
    parts.add("router", lambda: moe_layers() * n_experts() * (hidden_size(config) + 1))
    parts.add("norms", lambda: rms_norms(config, 2))
    try:
        lm_bias = bias()
    except FieldError as error:
        parts.fail("lm_head", str(error))
        return
    lm_head_part(config, parts, True, bias=lm_bias)


def _routed_and_shared(config: Mapping[str, object], parts: PartList, attention: Callable[[], int],
                       dense_mlps: Callable[[], int], moe_layers: Callable[[], int]) -> None:
    """DeepSeek's MoE layout as GLM-4 MoE and the DSA models keep it: embeddings, attention, the dense layers' MLPs,
    on each MoE layer n_routed_experts experts of moe_intermediate_size, n_shared_experts shared ones (one MLP of
    their summed width) and a bias-free router, two RMSNorms a layer and an untied head by default."""
    token_embeddings(config, parts)
    parts.add("attention", attention)
    parts.add("mlp", dense_mlps)
    parts.add("experts", lambda: moe_layers() * experts(read_int(config, "n_routed_experts"), hidden_size(config),
                                                        read_int(config, "moe_intermediate_size")))
    parts.add("shared_experts", lambda: moe_layers() * gated_mlp(
        hidden_size(config), read_int(config, "moe_intermediate_size")
        * read_int(config, "n_shared_experts", minimum=0, default=1)))
    parts.add("router", lambda: moe_layers() * read_int(config, "n_routed_experts") * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_glm4_moe(config: Mapping[str, object], parts: PartList) -> None:
    """GLM-4 MoE: q/k/v biases with attention_bias (o_proj never), q_norm/k_norm over head_dim with use_qk_norm,
    the first first_k_dense_replace layers dense, the rest routed experts plus n_shared_experts shared. Without
    head_dim, the head size is hidden_size // num_attention_heads, rounded down as the attention module does."""
    def attn() -> int:
        floored = dict(config)
        if config.get("head_dim") is None:
            floored["head_dim"] = hidden_size(config) // read_int(config, "num_attention_heads")
        norm = head_dim(floored) if read_bool(config, "use_qk_norm", False) else 0
        return layers(config) * standard_attention(floored, bias=read_bool(config, "attention_bias", False),
                                                   o_bias=False, q_norm=norm, k_norm=norm)

    def dense_layers() -> int:
        return min(read_int(config, "first_k_dense_replace", minimum=0, default=1), layers(config))

    def moe_layers() -> int:
        return layers(config) - dense_layers()

    _routed_and_shared(config, parts, attn, lambda: dense_layers() * gated_mlp(
        hidden_size(config), read_int(config, "intermediate_size")), moe_layers)


def count_gpt_oss(config: Mapping[str, object], parts: PartList) -> None:
    """gpt-oss: biased attention (attention_bias) with one learned sink per head, every layer MoE with biased
    experts and a biased router."""
    def attn() -> int:
        return layers(config) * (standard_attention(config, bias=read_bool(config, "attention_bias", True))
                                 + attention(config).heads)

    def n_experts() -> int:
        return read_int(config, "num_local_experts")

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("experts", lambda: layers(config) * experts(n_experts(), hidden_size(config),
                                                          read_int(config, "intermediate_size"), bias=True))
    parts.add("router", lambda: layers(config) * n_experts() * (hidden_size(config) + 1))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def _llama4_moe_layers(config: Mapping[str, object]) -> int:
    total = layers(config)
    listed = config.get("moe_layers")
    if listed is not None:
        return len({i for i in read_int_list(config, "moe_layers") if 0 <= i < total})
    step = read_int(config, "interleave_moe_layer_step", default=1)
    return len(range(step - 1, total, step))


def count_llama4_text(config: Mapping[str, object], parts: PartList) -> None:
    """Llama 4's text model: the layers of moe_layers (else every interleave_moe_layer_step-th) hold routed
    experts and one shared expert of intermediate_size; the others a dense MLP of intermediate_size_mlp. Its
    QK norm has no weights."""
    def moe() -> int:
        return _llama4_moe_layers(config)

    token_embeddings(config, parts)
    parts.add("attention", lambda: layers(config) * standard_attention(
        config, bias=read_bool(config, "attention_bias", False)))
    parts.add("mlp", lambda: (layers(config) - moe()) * gated_mlp(
        hidden_size(config), read_int(config, "intermediate_size_mlp")) if layers(config) > moe() else 0)
    parts.add("experts", lambda: moe() * experts(read_int(config, "num_local_experts"), hidden_size(config),
                                                 read_int(config, "intermediate_size")))
    parts.add("shared_experts", lambda: moe() * gated_mlp(hidden_size(config), read_int(config, "intermediate_size")))
    parts.add("router", lambda: moe() * read_int(config, "num_local_experts") * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_minimax(config: Mapping[str, object], parts: PartList) -> None:
    """MiniMax(-Text-01): layer_types (else alternating, full attention first) picks lightning (linear) attention -- an RMSNorm over the query width, a
    fused qkv_proj, out_proj and an output_gate -- or standard attention; every layer is MoE."""
    def attn() -> int:
        total = layers(config)
        kinds = kind_counts(config, "layer_types", total, lambda: {  # the config class's default: alternating
            "full_attention": (total + 1) // 2, "linear_attention": total // 2})
        linear = kinds.get("linear_attention", 0)
        shape = attention(config)
        width, hidden = shape.heads * shape.head_dim, hidden_size(config)
        lightning = width + 3 * hidden * width + width * hidden + hidden * width
        return linear * lightning + (total - linear) * standard_attention(config)

    def n_experts() -> int:
        return read_int(config, "num_local_experts")

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("experts", lambda: layers(config) * experts(n_experts(), hidden_size(config),
                                                          read_int(config, "intermediate_size")))
    parts.add("router", lambda: layers(config) * n_experts() * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def _sparse_layers(config: Mapping[str, object], dense_default: str) -> int:
    """Layers whose mlp_layer_types entry is "sparse"; without the list, all but the first first_k_dense_replace
    (the config classes' own default)."""
    total = layers(config)

    def fallback() -> dict[str, int]:
        dense = min(read_int(config, "first_k_dense_replace", minimum=0, default=int(dense_default)), total)
        return {"dense": dense, "sparse": total - dense}

    return kind_counts(config, "mlp_layer_types", total, fallback).get("sparse", 0)


def count_minimax_m3_text(config: Mapping[str, object], parts: PartList) -> None:
    """MiniMax-M3's text model: standard attention with q_norm/k_norm over head_dim, an indexer on the
    "minimax_m3_sparse" layers of layer_types (else of sparse_attention_config's sparse_attention_freq), and per
    mlp_layer_types (else moe_layer_freq, else every layer) a routed-expert block with a shared expert of
    shared_intermediate_size, or a dense MLP of dense_intermediate_size."""
    def sparse_config() -> Mapping[str, object]:
        value = config.get("sparse_attention_config")
        return value if isinstance(value, Mapping) else {}

    def attn() -> int:
        total = layers(config)
        kinds = kind_counts(config, "layer_types", total, lambda: flag_counts(
            sparse_config().get("sparse_attention_freq"), "sparse_attention_freq", total, "minimax_m3_sparse",
            "full_attention") if "sparse_attention_freq" in sparse_config() else {"full_attention": total})
        sparse = kinds.get("minimax_m3_sparse", 0)
        norm = head_dim(config)
        count = total * standard_attention(config, q_norm=norm, k_norm=norm)
        if sparse:
            legacy = sparse_config()
            index_heads = read_int(config, "index_n_heads", default=read_int(legacy, "sparse_num_index_heads",
                                                                              default=4))
            index_dim = read_int(config, "index_head_dim", default=read_int(legacy, "sparse_index_dim",
                                                                            default=128))
            count += sparse * (hidden_size(config) * (index_heads * index_dim + index_dim) + 2 * index_dim)
        return count

    def moe() -> int:
        total = layers(config)
        kinds = kind_counts(config, "mlp_layer_types", total, lambda: flag_counts(
            config.get("moe_layer_freq"), "moe_layer_freq", total, "sparse", "dense")
            if config.get("moe_layer_freq") is not None else {"sparse": total})
        return kinds.get("sparse", 0)

    def dense() -> int:
        rest = layers(config) - moe()
        return rest * gated_mlp(hidden_size(config), read_int(config, "dense_intermediate_size")) if rest else 0

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("mlp", dense)
    parts.add("experts", lambda: moe() * experts(read_int(config, "num_local_experts"), hidden_size(config),
                                                 read_int(config, "intermediate_size")))
    parts.add("shared_experts", lambda: moe() * gated_mlp(hidden_size(config),
                                                          read_int(config, "shared_intermediate_size")))
    parts.add("router", lambda: moe() * read_int(config, "num_local_experts") * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_dsa(config: Mapping[str, object], parts: PartList) -> None:
    """DeepSeek-V3.2 and GLM-MoE-DSA: DeepSeek's multi-head latent attention plus, on every layer, the sparse
    attention indexer (wq_b from the q LoRA rank, wk, a LayerNorm with bias over index_head_dim, weights_proj);
    mlp_layer_types (else the first first_k_dense_replace layers dense) picks routed experts with
    n_shared_experts shared ones, or a dense MLP."""
    def attn() -> int:
        hidden = hidden_size(config)
        if config.get("q_lora_rank") is None:
            raise FieldError("q_lora_rank is not set (the indexer's wq_b reads from the q LoRA rank)")
        index_heads, index_dim = read_int(config, "index_n_heads"), read_int(config, "index_head_dim")
        indexer = (read_int(config, "q_lora_rank") * index_heads * index_dim + hidden * index_dim + 2 * index_dim
                   + hidden * index_heads)
        return layers(config) * (mla_attention_per_layer(config, hidden) + indexer)

    def moe() -> int:
        return _sparse_layers(config, "3")

    def dense() -> int:
        rest = layers(config) - moe()
        return rest * gated_mlp(hidden_size(config), read_int(config, "intermediate_size")) if rest else 0

    _routed_and_shared(config, parts, attn, dense, moe)


def count_qwen3_vl_moe_text(config: Mapping[str, object], parts: PartList) -> None:
    """Qwen3-VL-MoE's text model: Qwen3-MoE's layout (its config class ties the embeddings by default)."""
    count_decoder(config, "qwen3_moe", replace(FAMILIES["qwen3_moe"], tie_default=True), parts)


MOE_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "olmoe": count_olmoe,
    "granitemoe": count_granitemoe,
    "phimoe": count_phimoe,
    "afmoe": count_afmoe,
    "ernie4_5_moe": count_ernie4_5_moe,
    "glm4_moe": count_glm4_moe,
    "gpt_oss": count_gpt_oss,
    "llama4_text": count_llama4_text,
    "minimax": count_minimax,
    "minimax_m3_vl_text": count_minimax_m3_text,
    "deepseek_v32": count_dsa,
    "glm_moe_dsa": count_dsa,
    "qwen3_vl_moe_text": count_qwen3_vl_moe_text,
}
"""model_type -> its counter, for the MoE layouts of this module."""
