"""Gemma 3n's text decoder (Gemma3nForCausalLM): per-layer MLP widths, AltUp and LAuReL blocks, per-layer input
embeddings, and KV sharing (the last num_kv_shared_layers layers reuse earlier K/V and have no K/V projections).
Counts follow transformers 5.25."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import FieldError, read_bool, read_int, read_int_list
from neuron_compat.sizing.shapes import attention, hidden_size, layers

__all__ = ["GEMMA3N_COUNTERS"]


def _widths(config: Mapping[str, object]) -> list[int]:
    """intermediate_size: one width for every layer, or a list with one per layer."""
    count = layers(config)
    if isinstance(config.get("intermediate_size"), list):
        widths = read_int_list(config, "intermediate_size")
        if len(widths) != count or min(widths, default=0) < 1:
            raise FieldError(f"intermediate_size is a list without one positive width for each of {count} layers")
        return widths
    return [read_int(config, "intermediate_size")] * count


def count_gemma3n_text(config: Mapping[str, object], parts: PartList) -> None:
    def hidden() -> int:
        return hidden_size(config)

    def per_layer() -> int:
        return read_int(config, "hidden_size_per_layer_input", default=256)

    def streams() -> int:
        return read_int(config, "altup_num_inputs", default=4)

    def attention_part() -> int:
        shape = attention(config)
        h, count = hidden(), layers(config)
        shared = read_int(config, "num_kv_shared_layers", minimum=0, default=0)
        if shared > count:
            raise FieldError(f"num_kv_shared_layers ({shared}) is larger than num_hidden_layers ({count})")
        bias = read_bool(config, "attention_bias", False)
        q_out, kv_out = shape.heads * shape.head_dim, shape.kv_heads * shape.head_dim
        own = h * q_out + q_out * h + shape.head_dim + ((q_out + h) if bias else 0)
        kv = 2 * h * kv_out + shape.head_dim + (2 * kv_out if bias else 0)
        return count * own + (count - shared) * kv

    def layer_extras() -> int:
        h, n = hidden(), streams()
        altup = h + n * n + n * n * n + h * n + h
        laurel = 2 * h * read_int(config, "laurel_rank", default=64) + h
        return layers(config) * (5 * h + altup + laurel + 2 * h * per_layer())

    def model_extras() -> int:
        h, count = hidden(), layers(config)
        return read_int(config, "vocab_size_per_layer_input", default=262144) * count * per_layer() \
            + h * count * per_layer() + per_layer() + 2 * (streams() - 1) * h * h + h

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * hidden())
    parts.add("attention", attention_part)
    parts.add("mlp", lambda: sum(3 * hidden() * width for width in _widths(config)))
    parts.add("layer_norms_altup_laurel_per_layer_input", layer_extras)
    parts.add("per_layer_embeddings_and_projections", model_extras)
    parts.add("lm_head", lambda: 0 if read_bool(config, "tie_word_embeddings", True)
              else read_int(config, "vocab_size") * hidden())


GEMMA3N_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {"gemma3n_text": count_gemma3n_text}
"""model_type -> counter, for dispatch by sizing.models."""
