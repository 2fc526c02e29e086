"""Encoder-decoder models: T5 (RMS-style LayerNorm without bias, relative position buckets) and BART (learned
positions, biased linears). The decoder adds cross-attention."""

from __future__ import annotations

from collections.abc import Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import add_lm_head
from neuron_compat.sizing.fields import read_int, read_str


def count_t5(config: Mapping[str, object], parts: PartList, bias_per_layer: bool = False) -> None:
    """T5 and mT5 (one relative-position bias per stack) or UMT5 (`bias_per_layer`: one in every self-attention)."""
    def d_model() -> int:
        return read_int(config, "d_model")

    def inner() -> int:
        return read_int(config, "num_heads") * read_int(config, "d_kv")

    def attention() -> int:
        return 4 * d_model() * inner()

    def feed_forward() -> int:
        gated = (read_str(config, "feed_forward_proj") or "relu").startswith("gated")
        return (3 if gated else 2) * d_model() * read_int(config, "d_ff")

    def relative_bias() -> int:
        return read_int(config, "relative_attention_num_buckets", default=32) * read_int(config, "num_heads")

    def encoder_layers() -> int:
        return read_int(config, "num_layers")

    def decoder_layers() -> int:
        return read_int(config, "num_decoder_layers", default=encoder_layers())

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * d_model())
    def biases(stack_layers: int) -> int:
        return relative_bias() * (stack_layers if bias_per_layer else 1)

    parts.add("encoder", lambda: encoder_layers() * (attention() + feed_forward() + 2 * d_model())
              + biases(encoder_layers()) + d_model())
    parts.add("decoder", lambda: decoder_layers() * (2 * attention() + feed_forward() + 3 * d_model())
              + biases(decoder_layers()) + d_model())
    parts.notes.append("decoder includes cross-attention over the encoder output")
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * d_model())


BART_VARIANTS: dict[str, tuple[str, bool, bool]] = {
    # model_type: (position table, layernorm_embedding, a final LayerNorm per stack)
    "bart": ("learned", True, False),
    "mbart": ("learned", True, True),
    "pegasus": ("sinusoidal-parameter", False, True),
    "marian": ("sinusoidal-parameter", False, False),
    "m2m_100": ("buffer", False, True),
}
"""BART-style encoder-decoders: the position table ("learned": max_position_embeddings + 2 rows; a sinusoidal
table that transformers holds as a frozen parameter; or a buffer, not a parameter) and the extra LayerNorms."""


def count_bart(config: Mapping[str, object], parts: PartList, model_type: str = "bart") -> None:
    learned, embedding_norm, final_norm = BART_VARIANTS[model_type]
    def d_model() -> int:
        return read_int(config, "d_model")

    def attention() -> int:
        return 4 * (d_model() * d_model() + d_model())

    def ffn(name: str) -> int:
        width = read_int(config, name)
        return d_model() * width + width + width * d_model() + d_model()

    def positions() -> int:
        if learned == "buffer":
            return 0
        offset = 2 if learned == "learned" else 0  # BART's learned table has 2 extra rows
        return (read_int(config, "max_position_embeddings") + offset) * d_model()

    def extra_norms() -> int:
        return 2 * d_model() * (int(embedding_norm) + int(final_norm))

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * d_model())
    parts.add("encoder", lambda: positions() + extra_norms() + read_int(config, "encoder_layers") * (
        attention() + ffn("encoder_ffn_dim") + 2 * 2 * d_model()))
    parts.add("decoder", lambda: positions() + extra_norms() + read_int(config, "decoder_layers") * (
        2 * attention() + ffn("decoder_ffn_dim") + 3 * 2 * d_model()))
    parts.notes.append("decoder includes cross-attention over the encoder output; final_logits_bias is a buffer")
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * d_model())


def count_whisper(config: Mapping[str, object], parts: PartList) -> None:
    """Whisper: two Conv1d over the log-mel frames, position tables for both stacks (the encoder's is a frozen
    parameter), BART-style layers whose k_proj has no bias, a final LayerNorm per stack, output tied."""

    def d_model() -> int:
        return read_int(config, "d_model")

    def attention() -> int:
        return 4 * d_model() * d_model() + 3 * d_model()  # q, v, out biased; k not

    def ffn(name: str) -> int:
        width = read_int(config, name)
        return d_model() * width + width + width * d_model() + d_model()

    def convolutions() -> int:
        mels = read_int(config, "num_mel_bins")
        return mels * d_model() * 3 + d_model() + d_model() * d_model() * 3 + d_model()

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * d_model())
    parts.add("encoder", lambda: convolutions() + read_int(config, "max_source_positions") * d_model()
              + 2 * d_model() + read_int(config, "encoder_layers") * (
                  attention() + ffn("encoder_ffn_dim") + 2 * 2 * d_model()))
    parts.add("decoder", lambda: read_int(config, "max_target_positions") * d_model() + 2 * d_model()
              + read_int(config, "decoder_layers") * (2 * attention() + ffn("decoder_ffn_dim") + 3 * 2 * d_model()))
    parts.notes.append("decoder includes cross-attention over the encoder output")
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * d_model())
