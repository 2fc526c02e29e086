"""LayerNorm decoders with biases and (for GPT-2/OPT) learned absolute positions: GPT-2, GPTBigCode, OPT,
BLOOM, Falcon. All have plain (up/down) MLPs."""

from __future__ import annotations

from collections.abc import Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import add_lm_head
from neuron_compat.sizing.fields import FieldError, exact_div, read_bool, read_int
from neuron_compat.sizing.shapes import attention, hidden_size, layers

FALCON_HEADS = ("num_attention_heads", "n_head")
"""The config keys of Falcon's query-head count, first set wins."""


def _layer_norm(width: int) -> int:
    return 2 * width  # weight and bias


def _linear(inputs: int, outputs: int, bias: bool = True) -> int:
    return inputs * outputs + (outputs if bias else 0)


def _intermediate(config: Mapping[str, object], *names: str) -> int:
    return read_int(config, *names, default=4 * hidden_size(config))


def count_gpt2(config: Mapping[str, object], parts: PartList, multi_query_field: bool = False) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def kv_width() -> int:
        if multi_query_field and read_bool(config, "multi_query", True):
            return attention(config).head_dim  # GPTBigCode multi-query: one K and one V head
        return hidden()

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "n_positions", "max_position_embeddings") * hidden())
    parts.add("attention", lambda: layers(config) * (
        _linear(hidden(), hidden() + 2 * kv_width()) + _linear(hidden(), hidden())))
    parts.add("mlp", lambda: layers(config) * (
        _linear(hidden(), _intermediate(config, "n_inner")) + _linear(_intermediate(config, "n_inner"), hidden())))
    parts.add("norms", lambda: (2 * layers(config) + 1) * _layer_norm(hidden()))
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * hidden())


def count_opt(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def projection() -> int:
        return read_int(config, "word_embed_proj_dim", default=hidden())

    def ffn() -> int:
        return read_int(config, "ffn_dim")

    bias = config.get("enable_bias", True) is not False
    parts.add("embeddings", lambda: read_int(config, "vocab_size") * projection()
              + (2 * projection() * hidden() if projection() != hidden() else 0))
    # OPT's learned positions carry an offset of 2 rows
    parts.add("position_embeddings", lambda: (read_int(config, "max_position_embeddings") + 2) * hidden())
    parts.add("attention", lambda: layers(config) * 4 * _linear(hidden(), hidden(), bias))
    parts.add("mlp", lambda: layers(config) * (_linear(hidden(), ffn(), bias) + _linear(ffn(), hidden(), bias)))

    def norms() -> int:
        final = read_bool(config, "do_layer_norm_before", True) and not read_bool(
            config, "_remove_final_layer_norm", False)
        return (2 * layers(config) + (1 if final else 0)) * _layer_norm(hidden())

    parts.add("norms", norms)
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * projection())


def count_bloom(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden() + _layer_norm(hidden()))
    parts.add("attention", lambda: layers(config) * (_linear(hidden(), 3 * hidden()) + _linear(hidden(), hidden())))
    parts.add("mlp", lambda: layers(config) * (_linear(hidden(), 4 * hidden()) + _linear(4 * hidden(), hidden())))
    parts.add("norms", lambda: (2 * layers(config) + 1) * _layer_norm(hidden()))
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * hidden())


def count_falcon(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def kv_heads() -> int:
        new_arch = read_bool(config, "new_decoder_architecture", False)
        if new_arch:
            return read_int(config, "num_kv_heads", "num_key_value_heads")
        if read_bool(config, "multi_query", True):
            return 1
        return read_int(config, *FALCON_HEADS)

    def attention_count() -> int:
        heads = read_int(config, *FALCON_HEADS)
        if kv_heads() > heads:
            raise FieldError(f"num_kv_heads ({kv_heads()}) is larger than num_attention_heads ({heads})")
        head_dim = read_int(config, "head_dim", default=0) or hidden() // heads
        bias = read_bool(config, "bias", False)
        qkv = _linear(hidden(), (heads + 2 * kv_heads()) * head_dim, bias)
        return layers(config) * (qkv + _linear(heads * head_dim, hidden(), bias))

    def ffn() -> int:
        return _intermediate(config, "ffn_hidden_size")

    def norms() -> int:
        if read_bool(config, "new_decoder_architecture", False):
            per_layer = read_int(config, "num_ln_in_parallel_attn", default=2)
        else:
            per_layer = 1 if read_bool(config, "parallel_attn", True) else 2
        return (per_layer * layers(config) + 1) * _layer_norm(hidden())

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("attention", attention_count)
    parts.add("mlp", lambda: layers(config) * (_linear(hidden(), ffn(), read_bool(config, "bias", False))
                                               + _linear(ffn(), hidden(), read_bool(config, "bias", False))))
    parts.add("norms", norms)
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * hidden())


def count_openai_gpt(config: Mapping[str, object], parts: PartList) -> None:
    """GPT-1: GPT-2's layout with post-LayerNorm blocks and no final LayerNorm; output tied."""

    def hidden() -> int:
        return hidden_size(config)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "n_positions") * hidden())
    parts.add("attention", lambda: layers(config) * (_linear(hidden(), 3 * hidden()) + _linear(hidden(), hidden())))
    parts.add("mlp", lambda: layers(config) * (_linear(hidden(), 4 * hidden()) + _linear(4 * hidden(), hidden())))
    parts.add("norms", lambda: 2 * layers(config) * _layer_norm(hidden()))
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * hidden())


def count_gpt_neo(config: Mapping[str, object], parts: PartList) -> None:
    """GPT-Neo: learned positions, q/k/v without bias, biased out_proj and MLP, final LayerNorm; output tied."""

    def hidden() -> int:
        return hidden_size(config)

    def inner() -> int:
        return _intermediate(config, "intermediate_size")

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("position_embeddings", lambda: read_int(config, "max_position_embeddings") * hidden())
    parts.add("attention", lambda: layers(config) * (3 * hidden() * hidden() + _linear(hidden(), hidden())))
    parts.add("mlp", lambda: layers(config) * (_linear(hidden(), inner()) + _linear(inner(), hidden())))
    parts.add("norms", lambda: (2 * layers(config) + 1) * _layer_norm(hidden()))
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * hidden())


def count_gptj(config: Mapping[str, object], parts: PartList) -> None:
    """GPT-J: rotary positions, one LayerNorm per (parallel) block, unbiased attention, biased MLP, an untied
    output head with a bias."""

    def hidden() -> int:
        return hidden_size(config)

    def inner() -> int:
        return _intermediate(config, "n_inner")

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("attention", lambda: layers(config) * 4 * hidden() * hidden())
    parts.add("mlp", lambda: layers(config) * (_linear(hidden(), inner()) + _linear(inner(), hidden())))
    parts.add("norms", lambda: (layers(config) + 1) * _layer_norm(hidden()))
    add_lm_head(config, parts, False, lambda: _linear(hidden(), read_int(config, "vocab_size")))


def count_xglm(config: Mapping[str, object], parts: PartList) -> None:
    """XGLM: sinusoidal positions (a buffer), pre-LayerNorm blocks with biased linears, final LayerNorm; tied."""

    def d_model() -> int:
        return read_int(config, "d_model")

    def ffn() -> int:
        return read_int(config, "ffn_dim")

    def attention() -> int:
        exact_div(d_model(), read_int(config, "attention_heads"), "d_model / attention_heads")
        return read_int(config, "num_layers") * 4 * _linear(d_model(), d_model())

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * d_model())
    parts.add("attention", attention)
    parts.add("mlp", lambda: read_int(config, "num_layers") * (_linear(d_model(), ffn()) + _linear(ffn(), d_model())))
    parts.add("norms", lambda: (2 * read_int(config, "num_layers") + 1) * _layer_norm(d_model()))
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * d_model())


def count_mamba(config: Mapping[str, object], parts: PartList) -> None:
    """Mamba (and Falcon-Mamba, the same parameters): per layer an RMSNorm and a selective-scan mixer (in_proj to
    twice the inner width, a depthwise Conv1d, x_proj to the time-step rank and two state widths, dt_proj, A_log,
    D, out_proj); final RMSNorm; output tied by default."""

    def hidden() -> int:
        return hidden_size(config)

    def mixer() -> int:
        inner = read_int(config, "intermediate_size")
        state = read_int(config, "state_size")
        rank = read_int(config, "time_step_rank")
        kernel = read_int(config, "conv_kernel")
        bias = read_bool(config, "use_bias", False)
        conv_bias = read_bool(config, "use_conv_bias", True)
        return (_linear(hidden(), 2 * inner, bias) + inner * kernel + (inner if conv_bias else 0)
                + inner * (rank + 2 * state) + _linear(rank, inner) + inner * state + inner
                + _linear(inner, hidden(), bias))

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("mixers", lambda: layers(config) * (mixer() + hidden()))
    parts.add("norms", lambda: hidden())
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * hidden())
