"""ESM protein language models (ESM-1b, ESM-2) as transformers 5.25.0's EsmModel builds them: a BERT-like
pre-LayerNorm encoder with biased linears, learned absolute positions or rotary ones, a final LayerNorm, a pooler
and a contact-prediction head over every layer's attention maps."""

from __future__ import annotations

from collections.abc import Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.fields import read_bool, read_int, read_str
from neuron_compat.sizing.shapes import attention, hidden_size, layers


def count_esm(config: Mapping[str, object], parts: PartList) -> None:
    """Word embeddings (and max_position_embeddings positions when position_embedding_type is "absolute", its
    default; a LayerNorm with emb_layer_norm_before), per layer q/k/v/o with biases, two LayerNorms and a biased
    up/down MLP, emb_layer_norm_after, the pooler (hidden x hidden with bias) and the contact head (one weight per
    layer and head, and a bias)."""
    def hidden() -> int:
        return hidden_size(config)

    def embeddings() -> int:
        count = read_int(config, "vocab_size") * hidden()
        if (read_str(config, "position_embedding_type") or "absolute") == "absolute":
            count += read_int(config, "max_position_embeddings", default=1026) * hidden()
        if read_bool(config, "emb_layer_norm_before", False):
            count += 2 * hidden()
        return count

    def encoder() -> int:
        attention(config)  # the heads must divide the hidden size
        width = read_int(config, "intermediate_size")
        per_layer = 4 * hidden() * hidden() + 4 * hidden() + 2 * hidden() * width + width + hidden() + 4 * hidden()
        return layers(config) * per_layer + 2 * hidden()

    if read_bool(config, "is_decoder", False) or read_bool(config, "add_cross_attention", False):
        parts.fail("model", "is_decoder / add_cross_attention: ESM with cross-attention is not modelled")
        return
    parts.add("embeddings", embeddings)
    parts.add("encoder", encoder)
    parts.add("pooler", lambda: hidden() * hidden() + hidden())
    parts.add("contact_head", lambda: layers(config) * read_int(config, "num_attention_heads") + 1)
