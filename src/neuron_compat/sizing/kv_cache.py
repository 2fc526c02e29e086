"""KV-cache bytes per token: standard/GQA/MQA attention, DeepSeek MLA latent cache, sliding windows noted."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from neuron_compat.sizing.bytes import DTYPE_BYTES, normalise_dtype
from neuron_compat.sizing.encoders import SPEECH_ENCODERS
from neuron_compat.sizing.fields import MAX_EXACT, FieldError, as_int, has, read_int, read_str, sub_config
from neuron_compat.sizing.kinds import NO_KV_CACHE
from neuron_compat.sizing.models import ATTENTION_FREE, ENCODERS
from neuron_compat.sizing.seq2seq import BART_VARIANTS
from neuron_compat.sizing.shapes import attention, layers
from neuron_compat.sizing.state_space import cached_layers

T5_LIKE = frozenset({"t5", "mt5", "umt5"})
BART_LIKE = frozenset({*BART_VARIANTS, "whisper"})
"""Encoder-decoders whose decoder self-attention cache is counted (T5's heads x d_kv, else d_model wide)."""

ENCODER_ONLY = ENCODERS | SPEECH_ENCODERS | NO_KV_CACHE | {"vit", "clip", "clip_vision_model", "clip_text_model",
                                                        "distilbert", "electra", "mpnet", "deit", "dinov2"}


@dataclass(frozen=True)
class KvCacheBytes:
    bytes_per_token: int | None
    dtype: str
    reason: str | None = None  # why None
    notes: tuple[str, ...] = field(default=())


def kv_cache_bytes_per_token(config: Mapping[str, object], dtype: str) -> KvCacheBytes:
    """Bytes of K and V cached per token across all layers, at `dtype`."""
    result = _kv_cache(config, dtype)
    if result.bytes_per_token is not None and result.bytes_per_token > MAX_EXACT:
        return KvCacheBytes(None, result.dtype, "above 2^53 bytes per token: not a plausible size")
    return result


def _kv_cache(config: Mapping[str, object], dtype: str) -> KvCacheBytes:
    name = normalise_dtype(dtype)
    if name is None:
        return KvCacheBytes(None, dtype, f"unknown dtype {dtype!r}")
    if not isinstance(config, Mapping):
        return KvCacheBytes(None, name, "config is not an object")
    model_type = read_str(config, "model_type")
    if model_type in ENCODER_ONLY:
        return KvCacheBytes(None, name, f"{model_type} is encoder-only: it keeps no KV cache between steps")
    if model_type in ATTENTION_FREE:
        return KvCacheBytes(None, name, f"{model_type} has no attention KV cache (recurrent state instead)")
    text = sub_config(config, "text_config")
    if text is not None and not has(config, "num_hidden_layers"):
        result = kv_cache_bytes_per_token(text, name)
        return KvCacheBytes(result.bytes_per_token, name, result.reason, ("from text_config", *result.notes))
    width = DTYPE_BYTES[name]
    try:
        if model_type in T5_LIKE or model_type in BART_LIKE:
            return _seq2seq(config, model_type, name, width)
        if has(config, "kv_lora_rank"):
            latent = read_int(config, "kv_lora_rank") + read_int(config, "qk_rope_head_dim")
            total = latent * layers(config) * width
            return KvCacheBytes(_whole(total), name, None,
                                ("MLA: one compressed latent (kv_lora_rank + qk_rope_head_dim) per layer",))
        kv_default = 1 if model_type == "falcon" and config.get("multi_query", True) is True \
            and config.get("new_decoder_architecture") is not True else None
        if model_type == "gpt_bigcode" and config.get("multi_query", True) is True:
            kv_default = 1
        shape = attention(config, kv_default)
        kv_heads = kv_default if kv_default and not has(config, "num_key_value_heads", "num_kv_heads") \
            else shape.kv_heads
        hybrid = cached_layers(config, model_type)  # state-space / linear-attention hybrids
        cached, head_dim = (layers(config), shape.head_dim) if hybrid is None else (
            hybrid.layers, hybrid.head_dim or shape.head_dim)
        total = 2 * cached * kv_heads * head_dim * width
    except FieldError as error:
        return KvCacheBytes(None, name, str(error))
    return KvCacheBytes(_whole(total), name, None, (*((hybrid.note,) if hybrid else ()), *_window_notes(config)))


def _seq2seq(config: Mapping[str, object], model_type: str, name: str, width: Fraction) -> KvCacheBytes:
    if model_type in T5_LIKE:
        decoder_layers = read_int(config, "num_decoder_layers", "num_layers")
        inner = read_int(config, "num_heads") * read_int(config, "d_kv")
    else:
        decoder_layers = read_int(config, "decoder_layers")
        inner = read_int(config, "d_model")
    total = 2 * decoder_layers * inner * width
    return KvCacheBytes(_whole(total), name, None, (
        "decoder self-attention per generated token; cross-attention also caches the same amount per "
        "encoder input token",))


def _window_notes(config: Mapping[str, object]) -> tuple[str, ...]:
    window = as_int(config.get("sliding_window"))
    if config.get("use_sliding_window") is False or window is None:
        return ()
    layer_types = config.get("layer_types")
    if isinstance(layer_types, list):
        return (f"sliding window of {window} tokens on the layers marked sliding in layer_types",)
    pattern = as_int(config.get("sliding_window_pattern"))
    if pattern is not None:
        return (f"sliding window of {window} tokens on all but every {pattern}th layer: beyond it those "
                "layers stop growing",)
    if read_str(config, "model_type") == "gemma2":
        return (f"sliding window of {window} tokens on every other layer: beyond it those layers stop growing",)
    return (f"sliding window of {window} tokens: the cache stops growing past it (per-token figure holds "
            "up to the window)",)


def _whole(total: Fraction | int) -> int:
    """Bytes rounded up (int4 caches can come out at half a byte)."""
    value = Fraction(total)
    return -(-value.numerator // value.denominator)
