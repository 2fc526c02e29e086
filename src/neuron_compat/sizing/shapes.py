"""Shapes shared by the model families: hidden size, layers, attention heads and head size."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from neuron_compat.sizing.fields import FieldError, exact_div, read_int

HIDDEN = ("hidden_size", "n_embd", "d_model")
LAYERS = ("num_hidden_layers", "n_layer", "num_layers")
HEADS = ("num_attention_heads", "n_head", "num_heads")


@dataclass(frozen=True)
class Attention:
    heads: int
    kv_heads: int
    head_dim: int


def hidden_size(config: Mapping[str, object]) -> int:
    return read_int(config, *HIDDEN)


def layers(config: Mapping[str, object]) -> int:
    return read_int(config, *LAYERS)


def attention(config: Mapping[str, object], kv_default: int | None = None) -> Attention:
    """Query heads, KV heads (GQA/MQA via num_key_value_heads) and head size (head_dim, else hidden / heads)."""
    heads = read_int(config, *HEADS)
    kv_heads = read_int(config, "num_key_value_heads", "num_kv_heads", default=kv_default or heads)
    if kv_heads > heads:
        raise FieldError(f"num_key_value_heads ({kv_heads}) is larger than num_attention_heads ({heads})")
    if heads % kv_heads:
        raise FieldError(f"num_attention_heads ({heads}) is not a multiple of num_key_value_heads ({kv_heads})")
    if config.get("head_dim") is not None:
        head_dim = read_int(config, "head_dim")
    else:
        head_dim = exact_div(hidden_size(config), heads, "hidden_size / num_attention_heads")
    return Attention(heads, kv_heads, head_dim)
