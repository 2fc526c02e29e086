"""Pre-norm decoders with RMSNorm (Llama, Mistral, Qwen2/3, Gemma 1/2/3, Phi-3, DeepSeek V2/V3), dense or MoE."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, has, read_bool, read_int, read_int_list, read_str
from neuron_compat.sizing.shapes import attention, hidden_size, layers


@dataclass(frozen=True)
class Family:
    norms_per_layer: int = 2  # RMSNorm weights of `hidden` each
    qk_norm: bool = False  # RMSNorm over head_dim on q and k (Qwen3, Gemma 3)
    qkv_bias_always: bool = False  # Qwen2: q/k/v have biases whatever attention_bias says
    tie_default: bool = False  # the config class's tie_word_embeddings default
    gated_mlp: bool = True  # gate/up/down (SwiGLU/GeGLU) rather than up/down


FAMILIES: dict[str, Family] = {
    "llama": Family(),
    "mistral": Family(),
    "mixtral": Family(),
    "phi3": Family(),
    "qwen2": Family(qkv_bias_always=True),
    "qwen2_moe": Family(qkv_bias_always=True),
    "qwen3": Family(qk_norm=True),
    "qwen3_moe": Family(qk_norm=True),
    "gemma": Family(tie_default=True),
    "vaultgemma": Family(tie_default=True),  # Gemma's layout (checked against the meta-device reference)
    "gemma2": Family(norms_per_layer=4, tie_default=True),
    "gemma3_text": Family(norms_per_layer=4, qk_norm=True, tie_default=True),
    "deepseek_v2": Family(),
    "deepseek_v3": Family(),
}

EXPERT_COUNT_KEY = {"mixtral": "num_local_experts", "qwen2_moe": "num_experts", "qwen3_moe": "num_experts",
                    "deepseek_v2": "n_routed_experts", "deepseek_v3": "n_routed_experts"}
"""MoE model_type -> the config key of its routed-expert count."""
EXPERT_COUNT_KEYS: dict[str, tuple[str, ...]] = {
    **{model_type: (key,) for model_type, key in EXPERT_COUNT_KEY.items()},
    "qwen2_moe": ("num_experts", "num_local_experts"),
    "qwen3_moe": ("num_experts", "num_local_experts"),
}
"""The keys the sizing reads, first set wins: transformers 5 writes Qwen's num_experts as num_local_experts."""

GATED_ACTIVATIONS = frozenset({"silu", "swish", "swiglu"})


def _mla(config: Mapping[str, object]) -> bool:
    return has(config, "kv_lora_rank")


def _attention_per_layer(config: Mapping[str, object], family: Family) -> int:
    hidden = hidden_size(config)
    if _mla(config):
        return mla_attention_per_layer(config, hidden)
    shape = attention(config)
    q_out, kv_out = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
    count = hidden * q_out + 2 * hidden * kv_out + q_out * hidden
    if read_bool(config, "attention_bias", False):
        count += q_out + 2 * kv_out + hidden
    elif family.qkv_bias_always:
        count += q_out + 2 * kv_out
    if family.qk_norm:
        count += 2 * shape.head_dim
    return count


def mla_attention_per_layer(config: Mapping[str, object], hidden: int) -> int:
    """DeepSeek multi-head latent attention: low-rank q (optional) and a shared kv latent plus a rope key."""
    heads = read_int(config, "num_attention_heads")
    kv_rank = read_int(config, "kv_lora_rank")
    rope = read_int(config, "qk_rope_head_dim")
    nope = read_int(config, "qk_nope_head_dim")
    v_dim = read_int(config, "v_head_dim")
    q_head = nope + rope
    if config.get("q_lora_rank") is not None:
        q_rank = read_int(config, "q_lora_rank")
        count = hidden * q_rank + q_rank + q_rank * heads * q_head  # q_a_proj, q_a_layernorm, q_b_proj
    else:
        q_rank = 0
        count = hidden * heads * q_head  # q_proj
    count += hidden * (kv_rank + rope) + kv_rank  # kv_a_proj_with_mqa, kv_a_layernorm
    count += kv_rank * heads * (nope + v_dim)  # kv_b_proj
    count += heads * v_dim * hidden  # o_proj
    if read_bool(config, "attention_bias", False):
        count += (q_rank if q_rank else heads * q_head) + kv_rank + rope + hidden
    return count


def _mlp(hidden: int, intermediate: int, gated: bool, bias: bool) -> int:
    matrices = 3 if gated else 2
    count = matrices * hidden * intermediate
    if bias:
        count += (matrices - 1) * intermediate + hidden
    return count


@dataclass(frozen=True)
class MoeLayout:
    experts: int
    expert_intermediate: int
    moe_layers: int
    dense_layers: int
    shared_intermediate: int  # 0: no shared expert
    shared_gate: bool  # Qwen2-MoE's sigmoid gate on the shared expert (hidden -> 1)
    router_bias_per_expert: bool  # DeepSeek-V3's e_score_correction_bias


def moe_layout(config: Mapping[str, object], model_type: str) -> MoeLayout | None:
    """None for a dense model. Which layers are MoE follows each family's config convention."""
    total = layers(config)
    if model_type == "mixtral":
        experts = read_int(config, *EXPERT_COUNT_KEYS[model_type])
        return MoeLayout(experts, read_int(config, "intermediate_size"), total, 0, 0, False, False)
    if model_type in ("qwen2_moe", "qwen3_moe"):
        experts = read_int(config, *EXPERT_COUNT_KEYS[model_type], minimum=0)
        if experts == 0:
            return None
        step = read_int(config, "decoder_sparse_step", default=1)
        dense_only = set(read_int_list(config, "mlp_only_layers"))
        # layers i with (i + 1) % step == 0, less the listed dense ones (counted, not looped: total may be huge)
        moe = total // step - sum(1 for i in dense_only if 0 <= i < total and (i + 1) % step == 0)
        shared = read_int(config, "shared_expert_intermediate_size", minimum=0, default=0) \
            if model_type == "qwen2_moe" else 0
        return MoeLayout(experts, read_int(config, "moe_intermediate_size"), moe, total - moe, shared,
                         shared > 0, False)
    if model_type in ("deepseek_v2", "deepseek_v3"):
        if not has(config, *EXPERT_COUNT_KEYS[model_type]):
            return None
        experts = read_int(config, *EXPERT_COUNT_KEYS[model_type])
        first_dense = read_int(config, "first_k_dense_replace", minimum=0, default=0)
        freq = read_int(config, "moe_layer_freq", default=1)
        # multiples of freq in [first_dense, total), counted rather than looped
        moe = 0 if first_dense >= total else (total - 1) // freq - (first_dense + freq - 1) // freq + 1
        expert_intermediate = read_int(config, "moe_intermediate_size")
        shared = read_int(config, "n_shared_experts", minimum=0, default=0) * expert_intermediate
        corrected = model_type == "deepseek_v3" and read_str(config, "topk_method") == "noaux_tc"
        return MoeLayout(experts, expert_intermediate, moe, total - moe, shared, False, corrected)
    return None


def add_lm_head(config: Mapping[str, object], parts: PartList, tie_default: bool,
                untied: Callable[[], int]) -> None:
    try:
        tied = read_bool(config, "tie_word_embeddings", tie_default)
    except FieldError as error:
        parts.fail("lm_head", str(error))
        return
    if tied:
        parts.add("lm_head", lambda: 0)
        parts.notes.append("lm_head is tied to the input embeddings (tie_word_embeddings)")
    else:
        parts.add("lm_head", untied)


def count_decoder(config: Mapping[str, object], model_type: str, family: Family, parts: PartList) -> None:
    """Embeddings, per-layer attention / MLP / experts / norms, final norm and LM head of a RMSNorm decoder."""

    def hidden() -> int:
        return hidden_size(config)

    def vocab() -> int:
        return read_int(config, "vocab_size")

    def layout() -> MoeLayout | None:
        return moe_layout(config, model_type)

    def gated() -> bool:
        return family.gated_mlp

    parts.add("embeddings", lambda: vocab() * hidden())
    parts.add("attention", lambda: layers(config) * _attention_per_layer(config, family))

    def dense_mlp() -> int:
        moe = layout()
        dense_layers = layers(config) if moe is None else moe.dense_layers
        if dense_layers == 0:
            return 0
        return dense_layers * _mlp(hidden(), read_int(config, "intermediate_size"), gated(),
                                   read_bool(config, "mlp_bias", False))

    parts.add("mlp", dense_mlp)
    try:
        moe = layout()
    except FieldError as error:
        parts.fail("experts", str(error))
        moe = None
    if moe is not None:
        parts.add("experts", lambda: moe.moe_layers * moe.experts * _mlp(hidden(), moe.expert_intermediate,
                                                                         True, False))
        if moe.shared_intermediate:
            parts.add("shared_experts", lambda: moe.moe_layers * (
                _mlp(hidden(), moe.shared_intermediate, True, False) + (hidden() if moe.shared_gate else 0)))
        parts.add("router", lambda: moe.moe_layers * moe.experts * (
            hidden() + (1 if moe.router_bias_per_expert else 0)))
    parts.add("norms", lambda: layers(config) * family.norms_per_layer * hidden() + hidden())
    add_lm_head(config, parts, family.tie_default, lambda: vocab() * hidden())
    if config.get("num_nextn_predict_layers"):
        parts.notes.append("num_nextn_predict_layers: the multi-token-prediction module shipped in the "
                           "checkpoint is not counted (it is not part of the model's forward pass)")
