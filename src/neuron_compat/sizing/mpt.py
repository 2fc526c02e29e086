"""MPT (MosaicML): a decoder with ALiBi (no position table), bias-free fused Wqkv and projections, a fixed 4x MLP and
bias-free LayerNorms. Counts follow transformers 5.25 (MptForCausalLM)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import exact_div, read_bool, read_int

__all__ = ["MPT_COUNTERS"]


def count_mpt(config: Mapping[str, object], parts: PartList) -> None:
    """Token embeddings, n_layers blocks (LayerNorm weight, Wqkv, out_proj, LayerNorm weight, an MLP up to
    4 x d_model and down: transformers builds 4x whatever expansion_ratio says), a final LayerNorm weight, and an
    output head tied to the embeddings unless tie_word_embeddings is false."""

    def width() -> int:
        return read_int(config, "d_model")

    def blocks() -> int:
        d = width()
        exact_div(d, read_int(config, "n_heads"), "d_model / n_heads")
        return read_int(config, "n_layers") * (3 * d * d + d * d + 2 * 4 * d * d + 2 * d)

    parts.add("embeddings", lambda: read_int(config, "vocab_size") * width())
    parts.add("blocks", blocks)
    parts.add("final_norm", width)
    parts.add("lm_head", lambda: 0 if read_bool(config, "tie_word_embeddings", True)
              else read_int(config, "vocab_size") * width())


MPT_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {"mpt": count_mpt}
"""model_type -> counter, for dispatch by sizing.models."""
