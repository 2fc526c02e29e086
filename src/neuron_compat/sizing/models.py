"""count_parameters: picks the counter for a config's model_type, recursing into nested text/vision configs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial

from neuron_compat.sizing.audio_lms import AUDIO_LM_COUNTERS
from neuron_compat.sizing.classic import (
    count_bloom,
    count_falcon,
    count_gpt2,
    count_gpt_neo,
    count_gptj,
    count_mamba,
    count_openai_gpt,
    count_opt,
    count_xglm,
)
from neuron_compat.sizing.config_keys import with_canonical_keys
from neuron_compat.sizing.convnets import CONVNET_COUNTERS
from neuron_compat.sizing.counts import ParameterCount, Part, PartList
from neuron_compat.sizing.decoder import FAMILIES, GATED_ACTIVATIONS, Family, count_decoder
from neuron_compat.sizing.encoders import (
    SPEECH_ENCODERS,
    count_bert,
    count_clip_text,
    count_clip_vision,
    count_deit,
    count_dinov2,
    count_distilbert,
    count_electra,
    count_mpnet,
    count_siglip_text,
    count_siglip_vision,
    count_speech_encoder,
    count_vit,
)
from neuron_compat.sizing.fields import has, read_int, read_str, sub_config
from neuron_compat.sizing.linear_attention import LINEAR_ATTENTION_COUNTERS
from neuron_compat.sizing.moe_layouts import MOE_COUNTERS
from neuron_compat.sizing.one_off_decoders import ONE_OFF_COUNTERS
from neuron_compat.sizing.protein_encoders import count_esm
from neuron_compat.sizing.segment_anything import SAM_COUNTERS
from neuron_compat.sizing.seq2seq import BART_VARIANTS, count_bart, count_t5, count_whisper
from neuron_compat.sizing.shapes import HEADS, HIDDEN, LAYERS, hidden_size
from neuron_compat.sizing.speech import SPEECH_COUNTERS
from neuron_compat.sizing.state_space import STATE_SPACE_COUNTERS
from neuron_compat.sizing.text_encoders import TEXT_ENCODER_COUNTERS
from neuron_compat.sizing.vision_towers import VISION_TOWER_COUNTERS
from neuron_compat.sizing.vlm_towers import PROJECTORS, TOP_LEVEL_TIE, VLM_TOWER_COUNTERS

ENCODERS = frozenset({"bert", "roberta", "xlm-roberta", "camembert"})
ATTENTION_FREE = frozenset({"mamba", "mamba2", "rwkv", "rwkv5", "rwkv6"})
EXPERT_FIELDS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")
GENERIC_NEEDS: tuple[tuple[str, ...], ...] = (HIDDEN, LAYERS, HEADS, ("vocab_size",), ("intermediate_size",))
MAX_NESTING = 3
GENERIC_FAMILY = Family(gated_mlp=False, tie_default=True)
"""The layout assumed for an unknown model_type (gated_mlp then follows its hidden_act)."""
MULTIMODAL_DEFAULTS: dict[str, tuple[str, str]] = {"clip": ("clip_text_model", "clip_vision_model"),
                                                   "siglip": ("siglip_text_model", "siglip_vision_model"),
                                                   "siglip2": ("siglip2_text_model", "siglip2_vision_model")}
"""model_type -> the model_type its text_config and vision_config have when they name none."""


def count_parameters(config: Mapping[str, object]) -> ParameterCount:
    """Parameter count per part of the model a transformers config.json describes (no download, no torch)."""
    if not isinstance(config, Mapping):
        return ParameterCount(None, (Part("model", None, f"config is a {type(config).__name__}, not an object"),))
    config = with_canonical_keys(config)  # legacy keys as transformers reads them (BLOOM's n_embed ...)
    model_type = read_str(config, "model_type")
    parts = PartList()
    _count(config, model_type, parts, depth=0)
    return parts.result(model_type)


Counter = Callable[[Mapping[str, object], PartList], None]
COUNTERS: dict[str, Counter] = {
    "gpt2": count_gpt2,
    "gpt_bigcode": partial(count_gpt2, multi_query_field=True),
    "opt": count_opt,
    "openai-gpt": count_openai_gpt,
    "gpt_neo": count_gpt_neo,
    "gptj": count_gptj,
    "xglm": count_xglm,
    "mamba": count_mamba,
    "falcon_mamba": count_mamba,
    "bloom": count_bloom,
    "falcon": count_falcon,
    **dict.fromkeys(ENCODERS, count_bert),
    "distilbert": count_distilbert,
    "electra": count_electra,
    "mpnet": count_mpnet,
    **{name: partial(count_speech_encoder, model_type=name) for name in SPEECH_ENCODERS},
    "vit": count_vit,
    "deit": count_deit,
    "dinov2": count_dinov2,
    "siglip_vision_model": count_siglip_vision,
    "siglip_text_model": count_siglip_text,
    "siglip2_text_model": count_siglip_text,
    "clip_vision_model": count_clip_vision,
    "clip_text_model": count_clip_text,
    "t5": count_t5,
    "mt5": count_t5,
    "umt5": partial(count_t5, bias_per_layer=True),
    **{name: partial(count_bart, model_type=name) for name in BART_VARIANTS},
    "whisper": count_whisper,
    **MOE_COUNTERS,
    **STATE_SPACE_COUNTERS,
    **ONE_OFF_COUNTERS,
    "esm": count_esm,
    **VISION_TOWER_COUNTERS,
    **VLM_TOWER_COUNTERS,
    **CONVNET_COUNTERS,
    **LINEAR_ATTENTION_COUNTERS,
    **TEXT_ENCODER_COUNTERS,
    **SPEECH_COUNTERS,
    **AUDIO_LM_COUNTERS,
    **SAM_COUNTERS,
}
"""model_type -> its counter, for the model types outside the RMSNorm decoder families."""


def _count(config: Mapping[str, object], model_type: str | None, parts: PartList, depth: int) -> None:
    if model_type in FAMILIES:
        count_decoder(config, model_type, FAMILIES[model_type], parts)
    elif model_type in COUNTERS:
        COUNTERS[model_type](config, parts)
    elif model_type in ATTENTION_FREE:
        parts.fail("model", f"model_type {model_type!r} (state-space / recurrent) is not modelled by this counter")
    elif sub_config(config, "text_config") is not None or sub_config(config, "vision_config") is not None:
        _count_multimodal(config, model_type, parts, depth)
    else:
        _count_generic(config, model_type, parts)


def _count_multimodal(config: Mapping[str, object], model_type: str | None, parts: PartList, depth: int) -> None:
    if depth >= MAX_NESTING:
        parts.fail("model", "text_config/vision_config nested too deeply")
        return
    text_default, vision_default = MULTIMODAL_DEFAULTS.get(model_type or "", (None, None))
    for key, default_type in (("text_config", text_default), ("vision_config", vision_default)):
        sub = sub_config(config, key)
        if sub is None:
            parts.fail(key.removesuffix("_config"), f"{key} is missing or not an object")
            continue
        if key == "text_config" and model_type in TOP_LEVEL_TIE:  # the outer config ties the output head
            sub = {**sub, "tie_word_embeddings": config.get("tie_word_embeddings") is True}
        sub_type = read_str(sub, "model_type") or default_type
        prefix = key.removesuffix("_config") + "."
        sub_parts = PartList(prefix)
        if sub_type is None:
            sub_parts.fail("model", f"{key} has no model_type")
        else:
            _count(sub, sub_type, sub_parts, depth + 1)
        parts.extend(sub_parts)
    text, vision = sub_config(config, "text_config"), sub_config(config, "vision_config")
    if text is None or vision is None:
        return
    if model_type in ("siglip", "siglip2"):
        parts.add("projections", lambda: 2)  # logit_scale and logit_bias
    elif model_type == "gemma3":  # mm_input_projection_weight and mm_soft_emb_norm (an RMSNorm)
        parts.add("projector", lambda: hidden_size(vision) * hidden_size(text) + hidden_size(vision))
    elif model_type == "paligemma":  # one biased linear to projection_dim
        parts.add("projector", lambda: hidden_size(vision) * read_int(config, "projection_dim")
                  + read_int(config, "projection_dim"))
    elif model_type == "clip":
        parts.add("projections", lambda: read_int(config, "projection_dim") * (hidden_size(text) + hidden_size(vision))
                  + 1)  # visual_projection, text_projection (no bias) and logit_scale
    elif model_type in ("llava", "llava_next"):  # a two-layer MLP projector; LLaVA-NeXT adds image_newline
        parts.add("projector", lambda: hidden_size(vision) * hidden_size(text) + hidden_size(text)
                  + hidden_size(text) * hidden_size(text) + hidden_size(text)
                  + (hidden_size(text) if model_type == "llava_next" else 0))
    elif model_type in PROJECTORS:
        parts.add("projector", lambda: PROJECTORS[model_type or ""](config, text, vision))
    else:
        parts.fail("projector", f"the vision-to-text connector of model_type {model_type!r} is not modelled")


PER_LAYER_INPUT_FIELDS = ("hidden_size_per_layer_input", "vocab_size_per_layer_input")
"""Fields of a decoder with per-layer input embeddings, a layout the generic count does not model."""


def _count_generic(config: Mapping[str, object], model_type: str | None, parts: PartList) -> None:
    missing = [names[0] for names in GENERIC_NEEDS if not has(config, *names)]
    label = repr(model_type) if model_type else "(none)"
    if missing:
        parts.fail("model", f"model_type {label} is not known, and a generic decoder count needs "
                            f"{', '.join(missing)}, which the config does not set")
        return
    if has(config, *EXPERT_FIELDS):
        parts.fail("model", f"model_type {label} is not known and has experts: its MoE layout is not assumed")
        return
    if has(config, *PER_LAYER_INPUT_FIELDS):  # Gemma 3n / Gemma 4: a second, per-layer embedding table and gates
        parts.fail("model", f"model_type {label} is not known and has per-layer input embeddings "
                            "(hidden_size_per_layer_input): their tables and projections are not assumed")
        return
    activation = read_str(config, "hidden_act") or read_str(config, "hidden_activation")
    gated = activation in GATED_ACTIVATIONS
    count_decoder(config, "", replace(GENERIC_FAMILY, gated_mlp=gated), parts)
    parts.assumed_layout = True
    parts.notes.append(
        f"model_type {label} is not known: assumed a generic pre-norm decoder (RMSNorm, no biases, "
        f"{'gated gate/up/down' if gated else 'plain up/down'} MLP from hidden_act={activation!r}, "
        "tied embeddings unless tie_word_embeddings is false)")
