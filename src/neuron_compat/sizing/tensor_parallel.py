"""Tensor-parallel degrees a model's attention heads allow: the strict set (query and KV heads both split
evenly) and the set that also allows replicating KV heads. Each rule is one small named function."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from neuron_compat.sizing.fields import FieldError, has, read_int, sub_config
from neuron_compat.sizing.shapes import HEADS, attention


@dataclass(frozen=True)
class TensorParallelDegrees:
    strict: tuple[int, ...]
    with_kv_replication: tuple[int, ...]
    heads: int | None
    kv_heads: int | None
    reason: str | None = None  # why nothing could be worked out
    notes: tuple[str, ...] = field(default=())


def query_heads_split(heads: int, degree: int) -> bool:
    return heads % degree == 0


def kv_heads_split(kv_heads: int, degree: int) -> bool:
    return kv_heads % degree == 0


def kv_heads_replicable(kv_heads: int, degree: int) -> bool:
    """Each of the `degree` ranks holds a copy of one KV head: degree is a multiple of the KV head count."""
    return degree % kv_heads == 0


def tensor_parallel_degrees(config: Mapping[str, object], max_degree: int = 128) -> TensorParallelDegrees:
    if isinstance(max_degree, bool) or not isinstance(max_degree, int) or max_degree < 1:
        return TensorParallelDegrees((), (), None, None, f"max_degree {max_degree!r} is not a positive integer")
    if not isinstance(config, Mapping):
        return TensorParallelDegrees((), (), None, None, "config is not an object")
    text = sub_config(config, "text_config")
    source = text if text is not None and not has(config, "num_attention_heads") else config
    notes: list[str] = ["from text_config"] if source is not config else []
    try:
        if not has(source, *HEADS) and has(source, "decoder_attention_heads"):
            heads = read_int(source, "decoder_attention_heads")  # encoder-decoders (BART, Whisper): MHA
            kv_heads = heads
            if has(source, "encoder_attention_heads") and read_int(source, "encoder_attention_heads") != heads:
                notes.append("encoder and decoder head counts differ: the decoder's constrains the split here")
        elif has(source, "kv_lora_rank"):
            heads = read_int(source, "num_attention_heads")
            kv_heads = heads
            notes.append("MLA: the KV latent is shared by all heads; only the head count constrains the split")
        else:
            shape = attention(source)
            heads, kv_heads = shape.heads, shape.kv_heads
    except FieldError as error:
        return TensorParallelDegrees((), (), None, None, str(error))
    candidates = [d for d in range(1, max_degree + 1) if query_heads_split(heads, d)]
    strict = tuple(d for d in candidates if kv_heads_split(kv_heads, d))
    replicated = tuple(d for d in candidates if kv_heads_split(kv_heads, d) or kv_heads_replicable(kv_heads, d))
    notes.append("degrees are the divisors of num_attention_heads up to max_degree; each stack's own rule "
                 "(which degrees it accepts, padding of heads) is not applied here")
    return TensorParallelDegrees(strict, replicated, heads, kv_heads, None, tuple(notes))
