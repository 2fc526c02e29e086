"""State-space and linear-attention decoders, each as transformers 5.25.0 builds it (and, for the hybrids and
Gemma 3n, which layers keep a KV cache): Mamba-2, Bamba, Falcon-H1,
Granite-4 (granitemoehybrid), Jamba (Mamba-1 mixers beside attention, MoE on alternate layers), Qwen3-Next and
Qwen3.5-MoE's text model (gated delta-net linear attention beside gated full attention), RecurrentGemma (RG-LRU
blocks beside local attention) and Zamba2 (Mamba-2 layers with shared transformer blocks).

A Mamba-2 mixer is in_proj (hidden -> 2 x intermediate + 2 x groups x state + heads), a depthwise conv1d over
intermediate + 2 x groups x state channels, dt_bias, A_log and D (one per head), a gated RMSNorm over the
intermediate width and out_proj; intermediate is expand x hidden unless the family names it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import ABSURD, FieldError, json_kind, read_bool, read_int, read_int_list
from neuron_compat.sizing.moe_layouts import (
    experts,
    gated_mlp,
    kind_counts,
    lm_head_part,
    rms_norms,
    standard_attention,
    token_embeddings,
)
from neuron_compat.sizing.shapes import attention, hidden_size, layers


def scaled_width(config: Mapping[str, object], name: str, default: float) -> int:
    """int(expand x hidden_size) for an expand field that may be a whole or fractional number."""
    value = config.get(name, default)
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise FieldError(f"{name} is {json_kind(value)}, not a positive number")
    if not value <= ABSURD:
        raise FieldError(f"{name} is above {ABSURD:.0e}: not a plausible size")
    width = int(value * hidden_size(config))
    if width < 1:
        raise FieldError(f"{name} x hidden_size is below 1")
    return width


def mamba2_mixer(hidden: int, intermediate: int, heads: int, groups: int, state: int, kernel: int, *,
                 in_bias: bool, out_bias: bool, conv_bias: bool, norm: bool = True) -> int:
    conv_dim = intermediate + 2 * groups * state
    count = hidden * (intermediate + conv_dim + heads) + (intermediate + conv_dim + heads if in_bias else 0)
    count += conv_dim * kernel + (conv_dim if conv_bias else 0)
    count += 3 * heads  # dt_bias, A_log, D
    count += intermediate if norm else 0
    count += intermediate * hidden + (hidden if out_bias else 0)
    return count


def _mamba_prefixed(config: Mapping[str, object], *, intermediate: int | None = None,
                    out_bias_field: str = "mamba_proj_bias", norm: bool = True) -> int:
    """The Mamba-2 mixer of Bamba, Falcon-H1 and Granite-4, whose fields are named mamba_*."""
    in_bias = read_bool(config, "mamba_proj_bias", False)
    return mamba2_mixer(hidden_size(config),
                        intermediate if intermediate is not None else scaled_width(config, "mamba_expand", 2),
                        read_int(config, "mamba_n_heads", default=128), read_int(config, "mamba_n_groups", default=1),
                        read_int(config, "mamba_d_state", default=256), read_int(config, "mamba_d_conv", default=4),
                        in_bias=in_bias, out_bias=read_bool(config, out_bias_field, False),
                        conv_bias=read_bool(config, "mamba_conv_bias", True), norm=norm)


def _floored(config: Mapping[str, object]) -> Mapping[str, object]:
    """The config with head_dim set to hidden_size // num_attention_heads (rounded down) when it names none, as
    these families' attention modules take it."""
    if config.get("head_dim") is not None:
        return config
    return {**config, "head_dim": hidden_size(config) // read_int(config, "num_attention_heads")}


def count_mamba2(config: Mapping[str, object], parts: PartList) -> None:
    """Mamba-2: one RMSNorm and one mixer per layer, a final norm_f; no attention, no MLP."""
    def mixers() -> int:
        return layers(config) * mamba2_mixer(
            hidden_size(config), scaled_width(config, "expand", 2), read_int(config, "num_heads", default=128),
            read_int(config, "n_groups", default=8), read_int(config, "state_size", default=128),
            read_int(config, "conv_kernel", default=4), in_bias=read_bool(config, "use_bias", False),
            out_bias=read_bool(config, "use_bias", False), conv_bias=read_bool(config, "use_conv_bias", True))

    token_embeddings(config, parts)
    parts.add("mixers", mixers)
    parts.add("norms", lambda: rms_norms(config, 1))
    lm_head_part(config, parts, False)


def _bamba_attention_layers(config: Mapping[str, object]) -> int:
    total = layers(config)
    return len({i for i in read_int_list(config, "attn_layer_indices") if 0 <= i < total})


def count_bamba(config: Mapping[str, object], parts: PartList) -> None:
    """Bamba: the layers of attn_layer_indices hold attention, the others a Mamba-2 mixer; every layer a gated
    MLP and two RMSNorms."""
    def attn() -> int:
        return _bamba_attention_layers(config) * standard_attention(
            _floored(config), bias=read_bool(config, "attention_bias", False))

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("mixers", lambda: (layers(config) - _bamba_attention_layers(config)) * _mamba_prefixed(config))
    parts.add("mlp", lambda: layers(config) * gated_mlp(hidden_size(config), read_int(config, "intermediate_size"),
                                                        read_bool(config, "mlp_bias", False)))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_falcon_h1(config: Mapping[str, object], parts: PartList) -> None:
    """Falcon-H1: every layer runs attention and a Mamba-2 mixer side by side, then a gated MLP. The mixer's width
    is mamba_d_ssm (else mamba_expand x hidden), its out_proj bias follows projectors_bias and its gated norm
    exists only with mamba_rms_norm."""
    def mixer() -> int:
        width = read_int(config, "mamba_d_ssm") if config.get("mamba_d_ssm") is not None else None
        return _mamba_prefixed(config, intermediate=width, out_bias_field="projectors_bias",
                               norm=read_bool(config, "mamba_rms_norm", False))

    token_embeddings(config, parts)
    parts.add("attention", lambda: layers(config) * standard_attention(
        _floored(config), bias=read_bool(config, "attention_bias", False)))
    parts.add("mixers", lambda: layers(config) * mixer())
    parts.add("mlp", lambda: layers(config) * gated_mlp(hidden_size(config), read_int(config, "intermediate_size"),
                                                        read_bool(config, "mlp_bias", False)))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_granitemoehybrid(config: Mapping[str, object], parts: PartList) -> None:
    """Granite-4: layer_types picks a Mamba-2 mixer ("linear_attention", also the default for every layer) or
    attention; every layer has a shared MLP (input_linear to 2 x shared_intermediate_size, output_linear) and,
    with num_local_experts > 0, a router and experts of intermediate_size."""
    def attention_layers() -> int:
        return _granite_attention_layers(config, layers(config))

    def n_experts() -> int:
        return read_int(config, "num_local_experts", minimum=0, default=8)

    token_embeddings(config, parts)
    parts.add("attention", lambda: attention_layers() * standard_attention(
        _floored(config), bias=read_bool(config, "attention_bias", False)) if attention_layers() else 0)
    parts.add("mixers", lambda: (layers(config) - attention_layers()) * _mamba_prefixed(config))
    parts.add("shared_mlp", lambda: layers(config) * 3 * hidden_size(config)
              * read_int(config, "shared_intermediate_size", default=1024))
    parts.add("experts", lambda: layers(config) * experts(n_experts(), hidden_size(config),
                                                          read_int(config, "intermediate_size"))
              if n_experts() else 0)
    parts.add("router", lambda: layers(config) * n_experts() * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def _periodic(config: Mapping[str, object], period_field: str, offset_field: str, period: int, offset: int) -> int:
    """How many layer indices i have i % period == offset."""
    total = layers(config)
    every = read_int(config, period_field, default=period)
    first = read_int(config, offset_field, minimum=0, default=offset)
    return 0 if first >= every or first >= total else (total - 1 - first) // every + 1


def count_jamba(config: Mapping[str, object], parts: PartList) -> None:
    """Jamba: attention where i % attn_layer_period == attn_layer_offset, else a Mamba-1 mixer (in_proj to
    2 x intermediate, conv1d, x_proj, dt_proj with bias, A_log of intermediate x state, D, out_proj and RMSNorms on
    dt, B and C); a router and num_experts experts where i % expert_layer_period == expert_layer_offset (when
    num_experts > 1), else a gated MLP of intermediate_size."""
    def attention_layers() -> int:
        return _periodic(config, "attn_layer_period", "attn_layer_offset", 8, 4)

    def moe_layers() -> int:
        return _periodic(config, "expert_layer_period", "expert_layer_offset", 2, 1) if n_experts() > 1 else 0

    def n_experts() -> int:
        return read_int(config, "num_experts", default=16)

    def mixer() -> int:
        hidden = hidden_size(config)
        width = scaled_width(config, "mamba_expand", 2)
        state = read_int(config, "mamba_d_state", default=16)
        rank_value = config.get("mamba_dt_rank")
        rank = -(-hidden // 16) if rank_value in (None, "auto") else read_int(config, "mamba_dt_rank")
        bias = read_bool(config, "mamba_proj_bias", False)
        kernel = read_int(config, "mamba_d_conv", default=4)
        count = hidden * 2 * width + (2 * width if bias else 0)
        count += width * kernel + (width if read_bool(config, "mamba_conv_bias", True) else 0)
        count += width * (rank + 2 * state) + rank * width + width  # x_proj, dt_proj (with bias)
        count += width * state + width  # A_log, D
        count += width * hidden + (hidden if bias else 0)
        return count + rank + 2 * state  # dt, B and C RMSNorms

    def attn() -> int:
        shape = attention(config)
        hidden = hidden_size(config)
        return attention_layers() * (2 * hidden * shape.heads * shape.head_dim
                                     + 2 * hidden * shape.kv_heads * shape.head_dim)

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("mixers", lambda: (layers(config) - attention_layers()) * mixer())
    parts.add("mlp", lambda: (layers(config) - moe_layers()) * gated_mlp(hidden_size(config),
                                                                         read_int(config, "intermediate_size")))
    parts.add("experts", lambda: moe_layers() * experts(n_experts(), hidden_size(config),
                                                        read_int(config, "intermediate_size")))
    parts.add("router", lambda: moe_layers() * n_experts() * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def _gated_delta_net(config: Mapping[str, object]) -> int:
    """Qwen3-Next / Qwen3.5 linear attention: q/k/v/z and b/a input projections, a depthwise conv1d (no bias) over
    q, k and v, dt_bias and A_log per value head, a gated RMSNorm over the value head size and out_proj."""
    hidden = hidden_size(config)
    value_heads = read_int(config, "linear_num_value_heads")
    key_dim = read_int(config, "linear_num_key_heads") * read_int(config, "linear_key_head_dim")
    value_head_dim = read_int(config, "linear_value_head_dim")
    value_dim = value_heads * value_head_dim
    conv_dim = 2 * key_dim + value_dim
    count = hidden * (2 * key_dim + 2 * value_dim + 2 * value_heads)
    count += conv_dim * read_int(config, "linear_conv_kernel_dim", default=4)
    return count + 2 * value_heads + value_head_dim + value_dim * hidden


def _granite_attention_layers(config: Mapping[str, object], total: int) -> int:
    """Granite-4's layers that are not Mamba-2 mixers (layer_types; by default every layer is one)."""
    kinds = kind_counts(config, "layer_types", total, lambda: {"linear_attention": total})
    return total - kinds.get("linear_attention", 0)


def _every_nth_full(config: Mapping[str, object], total: int) -> dict[str, int]:
    """Qwen3-Next's and Qwen3.5's layer_types, else the config classes' default: full attention on every
    full_attention_interval-th layer (4), gated delta-net on the others."""
    def default() -> dict[str, int]:
        full = total // read_int(config, "full_attention_interval", default=4)
        return {"full_attention": full, "linear_attention": total - full}

    return kind_counts(config, "layer_types", total, default)


def _linear_hybrid(config: Mapping[str, object], parts: PartList, moe_layers: Callable[[], int]) -> None:
    def attn() -> int:
        shape = attention(config)
        gated = standard_attention(config, bias=read_bool(config, "attention_bias", False), q_norm=shape.head_dim,
                                   k_norm=shape.head_dim, gated_q=True)
        kinds = _every_nth_full(config, layers(config))
        full, linear = kinds.get("full_attention", 0), kinds.get("linear_attention", 0)
        return (full * gated if full else 0) + (linear * _gated_delta_net(config) if linear else 0)

    def n_experts() -> int:
        return read_int(config, "num_experts", "num_local_experts")

    def dense() -> int:
        rest = layers(config) - moe_layers()
        return rest * gated_mlp(hidden_size(config), read_int(config, "intermediate_size")) if rest else 0

    token_embeddings(config, parts)
    parts.add("attention", attn)
    parts.add("mlp", dense)
    parts.add("experts", lambda: moe_layers() * experts(n_experts(), hidden_size(config),
                                                        read_int(config, "moe_intermediate_size")))
    parts.add("shared_experts", lambda: moe_layers() * (gated_mlp(
        hidden_size(config), read_int(config, "shared_expert_intermediate_size")) + hidden_size(config)))
    parts.add("router", lambda: moe_layers() * n_experts() * hidden_size(config))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, False)


def count_qwen3_next(config: Mapping[str, object], parts: PartList) -> None:
    """Qwen3-Next: layer_types (else full attention on every full_attention_interval-th layer) picks gated
    delta-net or gated full attention (q_proj twice the query width, q_norm/k_norm over head_dim); layer i is MoE (routed experts, a shared expert and its sigmoid gate) unless it
    is in mlp_only_layers, num_experts is 0 or (i + 1) is not a multiple of decoder_sparse_step."""
    def moe_layers() -> int:
        total = layers(config)
        if read_int(config, "num_experts", "num_local_experts", minimum=0) == 0:
            return 0
        step = read_int(config, "decoder_sparse_step", default=1)
        dense_only = set(read_int_list(config, "mlp_only_layers"))
        return total // step - sum(1 for i in dense_only if 0 <= i < total and (i + 1) % step == 0)

    _linear_hybrid(config, parts, moe_layers)


def count_qwen3_5_moe_text(config: Mapping[str, object], parts: PartList) -> None:
    """Qwen3.5-MoE's text model: Qwen3-Next's attention mix with every layer MoE."""
    _linear_hybrid(config, parts, lambda: layers(config))


def _cycled_attention(config: Mapping[str, object]) -> int:
    """How many layers RecurrentGemma's block_types pattern, repeated over the layers (transformers repeats it up
    to 100 times), makes attention layers; counted, not built (the layer count may be huge)."""
    value = config.get("block_types")
    pattern = ["recurrent", "recurrent", "attention"] if value is None else value
    if not isinstance(pattern, list) or not pattern or not all(isinstance(v, str) for v in pattern):
        raise FieldError("block_types is not a non-empty list of strings")
    total = layers(config)
    if total > 100 * len(pattern):
        raise FieldError("num_hidden_layers is more than 100 repetitions of block_types")
    cycles, rest = divmod(total, len(pattern))
    return cycles * pattern.count("attention") + pattern[:rest].count("attention")


def count_recurrent_gemma(config: Mapping[str, object], parts: PartList) -> None:
    """RecurrentGemma (Griffin): block_types, repeated, picks a recurrent block (linear_x, linear_y, linear_out,
    conv1d, all biased, and the RG-LRU's per-head gates over lru_width) or local attention (o_proj biased,
    head size hidden_size / num_attention_heads); every layer a biased gated MLP of intermediate_size // 2 and two
    RMSNorms."""
    def recurrent() -> int:
        hidden, width = hidden_size(config), read_int(config, "lru_width", default=hidden_size(config))
        heads = read_int(config, "num_attention_heads")
        block = width // heads
        rg_lru = width + 2 * heads * block * block + 2 * heads * block
        conv = width * read_int(config, "conv1d_width", default=4) + width
        return 2 * (hidden * width + width) + width * hidden + hidden + conv + rg_lru

    def attn() -> int:
        floored = {**config, "head_dim": hidden_size(config) // read_int(config, "num_attention_heads")}
        return standard_attention(floored, bias=read_bool(config, "attention_bias", False), o_bias=True)

    def temporal() -> int:
        attention_layers = _cycled_attention(config)
        recurrent_layers = layers(config) - attention_layers
        return (recurrent_layers * recurrent() if recurrent_layers else 0) + (
            attention_layers * attn() if attention_layers else 0)

    token_embeddings(config, parts)
    parts.add("temporal_blocks", temporal)
    parts.add("mlp", lambda: layers(config) * gated_mlp(hidden_size(config),
                                                        read_int(config, "intermediate_size") // 2, True))
    parts.add("norms", lambda: rms_norms(config, 2))
    lm_head_part(config, parts, True)


def _slots(total: int, every: int, slot: int) -> int:
    """How many i in range(total) have i % every == slot."""
    return 0 if slot >= total else (total - slot + every - 1) // every


def count_zamba2(config: Mapping[str, object], parts: PartList) -> None:
    """Zamba2: every layer a Mamba-2 mixer with an RMSNorm; each "hybrid" layer of layers_block_type adds a linear
    (hidden x hidden) and runs one of num_mem_blocks shared transformer blocks (attention over the concatenated
    2 x hidden input, a gated MLP, two RMSNorms), each with LoRA-style adapters (adapter_rank) for the hybrid
    layers it serves: on the MLP always, on q/k/v with use_shared_attention_adapter."""
    def hybrid() -> int:
        return _zamba_hybrid_layers(config, layers(config))

    def mixers() -> int:
        bias = read_bool(config, "add_bias_linear", False)
        mixer = mamba2_mixer(hidden_size(config), scaled_width(config, "mamba_expand", 2),
                             read_int(config, "n_mamba_heads", default=8), read_int(config, "mamba_ngroups", default=1),
                             read_int(config, "mamba_d_state", default=64), read_int(config, "mamba_d_conv", default=4),
                             in_bias=bias, out_bias=bias, conv_bias=True)
        return layers(config) * (mixer + hidden_size(config)) + hybrid() * hidden_size(config) ** 2

    def shared_blocks() -> int:
        hidden, uses = hidden_size(config), hybrid()
        if uses == 0:
            return 0
        blocks = read_int(config, "num_mem_blocks", default=1)
        heads = read_int(config, "num_attention_heads")
        kv_heads = read_int(config, "num_key_value_heads", default=heads)
        width = 2 * hidden
        head = width // heads
        intermediate = read_int(config, "intermediate_size", default=4 * hidden)
        rank = read_int(config, "adapter_rank", default=128)
        bias = read_bool(config, "add_bias_linear", False)
        qkv_adapters = read_bool(config, "use_shared_attention_adapter", False)
        block = (width * heads * head + 2 * width * kv_heads * head + heads * head * hidden
                 + hidden * 2 * intermediate + intermediate * hidden + ((2 * intermediate + hidden) if bias else 0)
                 + width + hidden)
        count = 0
        for block_id in range(min(blocks, uses)):
            served = _slots(uses, blocks, block_id)
            count += block + served * (hidden * rank + rank * 2 * intermediate)
            if qkv_adapters:
                count += served * 3 * (width * rank + rank * width)
        return count

    token_embeddings(config, parts)
    parts.add("mixers", mixers)
    parts.add("shared_blocks", shared_blocks)
    parts.add("norms", lambda: hidden_size(config))  # final_layernorm (the per-layer ones are with the mixers)
    lm_head_part(config, parts, True)


def _zamba_hybrid_layers(config: Mapping[str, object], total: int) -> int:
    value = config.get("layers_block_type", config.get("layer_types"))
    if value is None:
        raise FieldError("layers_block_type is not set")
    return kind_counts({"layers_block_type": value}, "layers_block_type", total).get("hybrid", 0)


@dataclass(frozen=True)
class CachedLayers:
    """The layers of a hybrid model that keep a growing KV cache, and the head size they cache (None: the
    config's attention head size)."""
    layers: int
    head_dim: int | None
    note: str


def cached_layers(config: Mapping[str, object], model_type: str | None) -> CachedLayers | None:
    """For a hybrid state-space / linear-attention model type, how many layers keep a KV cache (the others keep a
    fixed-size recurrent state); None for any other model type. Raises FieldError when the config cannot say."""
    total = layers(config)
    if model_type == "jamba":
        attending = _periodic(config, "attn_layer_period", "attn_layer_offset", 8, 4)
    elif model_type == "bamba":
        attending = _bamba_attention_layers(config)
    elif model_type == "granitemoehybrid":
        attending = _granite_attention_layers(config, total)
    elif model_type in ("qwen3_next", "qwen3_5_moe_text"):
        attending = _every_nth_full(config, total).get("full_attention", 0)
    elif model_type == "minimax":
        attending = kind_counts(config, "layer_types", total, lambda: {
            "full_attention": (total + 1) // 2, "linear_attention": total // 2}).get("full_attention", 0)
    elif model_type == "recurrent_gemma":
        attending = _cycled_attention(config)
    elif model_type == "zamba2":
        attending = _zamba_hybrid_layers(config, total)
        head = 2 * hidden_size(config) // read_int(config, "num_attention_heads")
        return CachedLayers(attending, head, f"only the {attending} hybrid layers' shared attention keeps a KV "
                                             "cache (over 2 x hidden_size); the Mamba-2 layers keep a fixed state")
    elif model_type == "gemma3n_text":
        shared = min(read_int(config, "num_kv_shared_layers", minimum=0, default=15), total)
        return CachedLayers(total - shared, None, f"only the first {total - shared} layers of {total} keep a KV "
                                                  f"cache; the last {shared} reuse theirs (num_kv_shared_layers)")
    else:
        return None
    return CachedLayers(attending, None, f"only the {attending} attention layers of {total} keep a KV cache; the "
                                         "others keep a fixed-size recurrent state")


STATE_SPACE_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "mamba2": count_mamba2,
    "bamba": count_bamba,
    "falcon_h1": count_falcon_h1,
    "granitemoehybrid": count_granitemoehybrid,
    "jamba": count_jamba,
    "qwen3_next": count_qwen3_next,
    "qwen3_5_moe_text": count_qwen3_5_moe_text,
    "recurrent_gemma": count_recurrent_gemma,
    "zamba2": count_zamba2,
}
"""model_type -> its counter, for the state-space and linear-attention layouts of this module."""
