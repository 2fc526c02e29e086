"""Encoder-decoder models: T5 (RMS-style LayerNorm without bias, relative position buckets) and BART (learned
positions, biased linears). The decoder adds cross-attention."""

from __future__ import annotations

from collections.abc import Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import add_lm_head
from neuron_compat.sizing.fields import read_int, read_str


def count_t5(config: Mapping[str, object], parts: PartList) -> None:
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
    parts.add("encoder", lambda: encoder_layers() * (attention() + feed_forward() + 2 * d_model())
              + relative_bias() + d_model())
    parts.add("decoder", lambda: decoder_layers() * (2 * attention() + feed_forward() + 3 * d_model())
              + relative_bias() + d_model())
    parts.notes.append("decoder includes cross-attention over the encoder output")
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * d_model())


def count_bart(config: Mapping[str, object], parts: PartList) -> None:
    def d_model() -> int:
        return read_int(config, "d_model")

    def attention() -> int:
        return 4 * (d_model() * d_model() + d_model())

    def ffn(name: str) -> int:
        width = read_int(config, name)
        return d_model() * width + width + width * d_model() + d_model()

    def positions() -> int:
        return (read_int(config, "max_position_embeddings") + 2) * d_model()  # offset of 2 rows

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * d_model())
    parts.add("encoder", lambda: positions() + 2 * d_model() + read_int(config, "encoder_layers") * (
        attention() + ffn("encoder_ffn_dim") + 2 * 2 * d_model()))
    parts.add("decoder", lambda: positions() + 2 * d_model() + read_int(config, "decoder_layers") * (
        2 * attention() + ffn("decoder_ffn_dim") + 3 * 2 * d_model()))
    parts.notes.append("decoder includes cross-attention over the encoder output; final_logits_bias is a buffer")
    add_lm_head(config, parts, True, lambda: read_int(config, "vocab_size") * d_model())
