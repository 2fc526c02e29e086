"""Which workloads a model type gets, and how each one is built and captured.

A workload is what a Neuron stack compiles for the model: a decoder's prefill (context encoding) and decode
(token generation) graphs with a static KV cache, an encoder / encoder-decoder / vision / audio model's task
forward with the inputs its task takes, and training (forward + loss + backward). Each workload runs at two
sequence lengths where the model has one, so a graph that grows with the length shows.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from .capture import aot_operators, dynamo_capture, export_capture
from .tiny import SUB_CONFIGS, tiny_overrides

LENGTHS = (16, 64)
"""Prompt lengths (tokens); a decoder's static cache holds twice the prompt, decode runs at position `length`."""

KINDS: tuple[tuple[str, str, str], ...] = (
    # (kind, auto mapping of the task head, auto class)
    ("multimodal", "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES", "AutoModelForImageTextToText"),
    ("speech_seq2seq", "MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES", "AutoModelForSpeechSeq2Seq"),
    ("seq2seq", "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES", "AutoModelForSeq2SeqLM"),
    ("encoder", "MODEL_FOR_MASKED_LM_MAPPING_NAMES", "AutoModelForMaskedLM"),  # BERT also has a causal LM head
    ("decoder", "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "AutoModelForCausalLM"),
    ("vision", "MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES", "AutoModelForImageClassification"),
    ("audio", "MODEL_FOR_CTC_MAPPING_NAMES", "AutoModelForCTC"),
    ("seq2seq", "MODEL_FOR_TEXT_TO_WAVEFORM_MAPPING_NAMES", "AutoModelForTextToWaveform"),  # MusicGen: text to codes
)
BASE = ("base", "MODEL_MAPPING_NAMES", "AutoModel")
EXPERT_FIELDS = ("num_local_experts", "num_experts", "n_routed_experts")


def kind_of(model_type: str) -> tuple[str, str]:
    """(kind, auto class) of a model type's task head: the first mapping that names it."""
    from transformers.models.auto import modeling_auto

    for kind, mapping, auto_class in KINDS:
        if model_type in getattr(modeling_auto, mapping, {}) and takes_its_config(model_type, mapping):
            return kind, auto_class
    return BASE[0], BASE[2]


def takes_its_config(model_type: str, mapping: str) -> bool:
    """The head class is built from the model type's whole config, not from one of its sub-configs (MusicGen's causal
    LM head takes only its decoder's config: its text-to-waveform model takes the whole one)."""
    import transformers
    from transformers import AutoConfig

    try:
        head = getattr(transformers, getattr(transformers.models.auto.modeling_auto, mapping)[model_type])
        config_class = type(AutoConfig.for_model(model_type))
    except Exception:  # noqa: BLE001 - cannot tell: the mapping's word stands
        return True
    declared = getattr(head, "config_class", None)
    return declared not in (getattr(config_class, "sub_configs", None) or {}).values()


def is_moe(config: Any) -> bool:
    try:
        text = config.get_text_config(decoder=True) if hasattr(config, "get_text_config") else config
    except ValueError:  # several text configs (MusicGen: text encoder and decoder)
        text = config
    return any(isinstance(getattr(text, f, None), int) and getattr(text, f) > 1 for f in EXPERT_FIELDS)


def workloads_of(kind: str, moe: bool) -> list[str]:
    if kind in ("decoder", "multimodal"):
        names = ["prefill", "decode", "train"]
        return names + (["prefill_eager_experts", "train_eager_experts"] if moe else [])
    return ["forward", "train"] + (["forward_eager_experts"] if moe else [])


def tiny_config(model_type: str, use_cache: bool) -> tuple[Any, dict[str, Any]]:
    """The real config class made tiny, and the fields changed (dotted keys, nested configs included)."""
    from transformers import AutoConfig

    overrides, changed = tiny_overrides(model_type)
    config = AutoConfig.for_model(model_type, **overrides)
    if getattr(config, "architectures", None) is None:
        config.architectures = []  # auto classes with several heads (DeiT) iterate it; a fresh config has None
    for sub in [config, *(getattr(config, key, None) for key in SUB_CONFIGS)]:
        if sub is not None and hasattr(sub, "use_cache"):
            sub.use_cache = use_cache  # nested text configs of multimodal models keep their own flag
    return config, changed


def build_model(model_type: str, auto_class: str, use_cache: bool, eager_experts: bool) -> tuple[Any, dict[str, Any]]:
    import torch
    import transformers

    config, changed = tiny_config(model_type, use_cache)
    torch.manual_seed(0)
    kwargs = {"experts_implementation": "eager"} if eager_experts else {}
    try:
        model = getattr(transformers, auto_class).from_config(config, **kwargs)
    except ValueError as exc:
        if auto_class == BASE[2] or "Unrecognized configuration class" not in str(exc):
            raise
        model = transformers.AutoModel.from_config(config, **kwargs)  # type: ignore[no-untyped-call, unused-ignore]  # no task head
    return model.eval(), changed


# ---------------------------------------------------------------- inputs


def _generator() -> Any:
    import torch

    return torch.Generator().manual_seed(0)


def text_ids(config: Any, length: int) -> Any:
    import torch

    try:
        text = config.get_text_config(decoder=True) if hasattr(config, "get_text_config") else config
    except ValueError:  # several text configs (MusicGen: text encoder and decoder)
        text = config
    vocab = getattr(text, "vocab_size", None) or 100
    return torch.randint(4, max(5, min(vocab, 100)), (1, length), generator=_generator())


def image_size(vision: Any) -> int:
    size = getattr(vision, "image_size", 64)
    size = size[0] if isinstance(size, (list, tuple)) else size
    if isinstance(size, dict):
        size = size.get("height", 64)
    return int(size)


def pixel_values(config: Any) -> Any:
    import torch

    vision = getattr(config, "vision_config", None) or config
    size = image_size(vision)
    return torch.rand(1, getattr(vision, "num_channels", 3), size, size, generator=_generator())


def forward_inputs(model: Any, kind: str, length: int) -> dict[str, Any]:
    """The inputs of a task forward at `length` tokens (text), or the model's fixed-size image / audio inputs."""
    import torch

    config = model.config
    name = getattr(model, "main_input_name", "input_ids")
    accepted = inspect.signature(model.forward).parameters
    if name == "input_features" or (kind == "speech_seq2seq" and name != "input_values"):
        frames = 2 * config.max_source_positions if hasattr(config, "max_source_positions") else 128
        audio = getattr(config, "audio_config", None)
        window = getattr(audio, "n_window", None)
        if isinstance(window, int) and window > 0:  # Qwen3-ASR's encoder takes whole windows of 2 * n_window frames
            frames = 2 * window * max(1, frames // (2 * window))
        stacked = getattr(config, "feature_projection_input_dim", None)
        if isinstance(stacked, int):  # w2v-BERT / SeamlessM4T: (frames, stacked filter banks), frames last but one
            features = torch.rand(1, frames, stacked, generator=_generator())
        else:  # Whisper-like: (mel bins, frames)
            bins: int = getattr(config, "num_mel_bins", None) or getattr(audio, "num_mel_bins", None) \
                or getattr(config, "feature_size", None) or 80
            features = torch.rand(1, bins, frames, generator=_generator())
        inputs = {"input_features": features}
        if hasattr(model, "get_audio_features") and isinstance(getattr(config, "audio_token_id", None), int):
            return audio_token_inputs(model, features, length)
        if getattr(config, "is_encoder_decoder", False) or "decoder_input_ids" in accepted:
            inputs["decoder_input_ids"] = text_ids(config, length)
        return inputs
    if name == "pixel_values" and "spatial_shapes" in accepted:
        return patch_inputs(config)
    if name == "pixel_values":
        return {"pixel_values": pixel_values(config)}
    if name == "input_values":
        if hasattr(config, "num_mel_bins") and hasattr(config, "max_length"):
            return {"input_values": torch.rand(1, config.max_length, config.num_mel_bins, generator=_generator())}
        inputs = {"input_values": torch.rand(1, 250 * length, generator=_generator())}  # 16 kHz audio
        if getattr(config, "is_encoder_decoder", False):  # SpeechT5: speech encoder, text decoder
            inputs["decoder_input_ids"] = text_ids(config, length)
        return inputs
    return text_inputs(model, kind, length)


def text_inputs(model: Any, kind: str, length: int) -> dict[str, Any]:
    """Token ids and mask, with what the forward also takes: decoder ids, the image of dual encoders, page boxes."""
    import torch

    config = model.config
    accepted = inspect.signature(model.forward).parameters
    ids = text_ids(config, length)
    inputs = {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
    if getattr(config, "is_encoder_decoder", False):
        inputs["decoder_input_ids"] = ids.clone()
        codebooks = getattr(getattr(config, "decoder", None), "num_codebooks", None)
        if isinstance(codebooks, int):  # MusicGen: one row of audio codes per codebook
            inputs["decoder_input_ids"] = ids.repeat(codebooks, 1)
    if getattr(config, "vision_config", None) is not None and kind != "multimodal":
        inputs["pixel_values"] = pixel_values(config)  # dual encoders (CLIP, SigLIP) take both
    if "bbox" in accepted:  # document models (LayoutLM): one box per token, 0-1000 page coordinates
        corner = torch.randint(0, 500, (1, length, 2), generator=_generator())
        inputs["bbox"] = torch.cat([corner, corner + 100], dim=-1)
    if getattr(config, "visual_embed", False) and "pixel_values" in accepted:  # LayoutLMv3: the page image too
        size = int(getattr(config, "input_size", 224))
        inputs["pixel_values"] = torch.rand(1, getattr(config, "num_channels", 3), size, size, generator=_generator())
    return inputs


def audio_token_inputs(model: Any, features: Any, length: int) -> dict[str, Any]:
    """Audio language models (Qwen3-ASR): filter banks, their mask, and as many audio tokens in the prompt as the
    audio tower makes features."""
    import torch

    config = model.config
    accepted = inspect.signature(model.forward).parameters
    mask_key = next((k for k in ("input_features_mask", "feature_attention_mask") if k in accepted), None)
    audio: dict[str, Any] = {"input_features": features}
    if mask_key:
        audio[mask_key] = torch.ones(1, features.shape[-1], dtype=torch.long)
    with torch.no_grad():
        embedded = model.get_audio_features(**audio)
    embedded = getattr(embedded, "pooler_output", embedded)
    count = int(embedded.reshape(-1, embedded.shape[-1]).shape[0])
    ids = torch.cat([torch.full((1, count), config.audio_token_id), text_ids(config, length)], dim=1)
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids), **audio}


def patch_inputs(config: Any) -> dict[str, Any]:
    """NaFlex vision towers (SigLIP 2): the image as flattened patches with their mask and grid shape."""
    import torch

    vision = getattr(config, "vision_config", None) or config
    patch = int(vision.patch_size)
    side = max(1, image_size(vision) // patch)
    channels = getattr(vision, "num_channels", 3)
    return {"pixel_values": torch.rand(1, side * side, channels * patch * patch, generator=_generator()),
            "pixel_attention_mask": torch.ones(1, side * side, dtype=torch.long),
            "spatial_shapes": torch.tensor([[side, side]])}


_FEATURES = re.compile(r"features:? (\d+)")


def multimodal_inputs(model: Any, length: int) -> dict[str, Any]:
    """An image plus `length` text tokens, with as many image tokens as the vision tower makes features, and the
    token-type ids the forward takes, as the model's processor makes them."""
    import torch

    config = model.config
    token = next((getattr(config, k) for k in ("image_token_id", "image_token_index") if
                  isinstance(getattr(config, k, None), int)), None)
    if token is None:
        raise ValueError("the config names no image token")
    if "cross_attention_mask" in inspect.signature(model.forward).parameters:
        return cross_attention_inputs(model, token, length)
    image = image_inputs(model)
    count = image_feature_count(model, image)
    ids = torch.cat([torch.full((1, count), token), text_ids(config, length)], dim=1)
    inputs = {"input_ids": ids, "attention_mask": torch.ones_like(ids), **image}
    accepted = inspect.signature(model.forward).parameters
    image_mask = (ids == token).long()
    if "mm_token_type_ids" in accepted:  # Qwen-VL: 1 on image tokens (its multimodal RoPE reads it)
        inputs["mm_token_type_ids"] = image_mask
    if "token_type_ids" in accepted:  # Gemma 3: 1 on image tokens; PaliGemma: the image is the prefix (0)
        inputs["token_type_ids"] = image_mask if hasattr(config, "mm_tokens_per_image") else 1 - image_mask
    return inputs


def cross_attention_inputs(model: Any, token: int, length: int) -> dict[str, Any]:
    """Mllama: the text attends to the image through cross-attention layers; one image token, one image of
    one tile (of max_num_tiles) with its aspect-ratio id and the cross-attention mask, as its processor makes them."""
    import torch

    config = model.config
    tiles = getattr(config.vision_config, "max_num_tiles", 1)
    pixels = pixel_values(config)
    ids = torch.cat([torch.full((1, 1), token), text_ids(config, length)], dim=1)
    valid = torch.zeros(1, 1, tiles, dtype=torch.long)
    valid[..., 0] = 1
    tiled = torch.zeros(1, 1, tiles, *pixels.shape[1:])
    tiled[:, :, 0] = pixels
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids), "pixel_values": tiled,
            "aspect_ratio_ids": torch.tensor([[1]]), "aspect_ratio_mask": valid,
            "cross_attention_mask": valid.unsqueeze(1).expand(1, ids.shape[1], 1, tiles).clone()}


def image_inputs(model: Any) -> dict[str, Any]:
    """One image the way the model's processor hands it over: flattened patches with their grid (Qwen-VL, GLM-4V:
    a vision config with temporal_patch_size), image tiles with the image size (LLaVA-NeXT: image_grid_pinpoints),
    or an image tensor, with `image_sizes` where get_image_features takes it (Pixtral-based Mistral 3)."""
    import torch

    config = model.config
    vision = getattr(config, "vision_config", None) or config
    takes = inspect.signature(model.get_image_features).parameters
    if isinstance(getattr(vision, "temporal_patch_size", None), int):
        merge = getattr(vision, "spatial_merge_size", 1) or 1
        side = 2 * merge  # a 2x2 grid of merged patches
        channels = getattr(vision, "in_channels", None) or getattr(vision, "num_channels", 3)
        width = channels * vision.temporal_patch_size * vision.patch_size**2
        return {"pixel_values": torch.rand(side * side, width, generator=_generator()),
                "image_grid_thw": torch.tensor([[1, side, side]])}
    pixels = pixel_values(config)
    size = int(pixels.shape[-1])
    image: dict[str, Any] = {"pixel_values": pixels}
    if getattr(config, "image_grid_pinpoints", None):  # the base tile plus one tile of the best resolution
        image["pixel_values"] = torch.stack([pixels[0], pixels[0]]).unsqueeze(0)
    if "image_sizes" in takes or getattr(config, "image_grid_pinpoints", None):
        image["image_sizes"] = torch.tensor([[size, size]])
    return image


def image_feature_count(model: Any, image: dict[str, Any]) -> int:
    import torch

    with torch.no_grad():
        features = model.get_image_features(**image)
    if hasattr(features, "pooler_output") and features.pooler_output is not None:
        features = features.pooler_output
    if isinstance(features, (list, tuple)):
        return sum(int(f.reshape(-1, f.shape[-1]).shape[0]) for f in features)
    return int(features.reshape(-1, features.shape[-1]).shape[0])


# ---------------------------------------------------------------- captures


def shapes(inputs: dict[str, Any]) -> dict[str, list[int]]:
    return {k: list(v.shape) for k, v in inputs.items() if hasattr(v, "shape")}


def capture_at_lengths(make: Callable[[int], tuple[Any, dict[str, Any]]], lengths: tuple[int, ...]) -> dict[str, Any]:
    """Export and dynamo at the first length (operators, graphs, breaks); node counts at every length.

    Nodes come from torch.export when it captured the first length, from dynamo's graphs otherwise, the same
    source at every length so the counts compare.
    """
    import torch

    result: dict[str, Any] = {"lengths": list(lengths), "nodes": {}}
    for index, length in enumerate(lengths):
        module, kwargs = make(length)
        with torch.no_grad():
            if index == 0:
                result["inputs"] = shapes(kwargs)
                module(**kwargs)  # an eager run first: inputs that do not fit are the probe's problem, not a capture's
                exported = export_capture(module, kwargs, decompose=True)
                dynamo = dynamo_capture(module, kwargs)
                result["outcome"] = exported["outcome"]
                if "error" in exported:
                    result["error"] = exported["error"]
                result.update({k: dynamo[k] for k in ("graphs", "graph_breaks", "breaks") if k in dynamo})
                if "error" in dynamo:
                    result["dynamo_error"] = dynamo["error"]
                if "decompose_error" in exported:
                    result["decompose_error"] = exported["decompose_error"]
                if "operators" in exported:
                    result["operators"], result["operators_from"] = exported["operators"], "export"
                else:
                    result["operators"] = sorted(aot_operators(module, kwargs))
                    result["operators_from"] = "dynamo + AOT autograd" if result["operators"] else "none"
                result["nodes_from"] = "export" if exported["outcome"] == "ok" else "dynamo"
                counted = exported if result["nodes_from"] == "export" else dynamo
            elif result["nodes_from"] == "export":
                counted = export_capture(module, kwargs, decompose=False)
            else:
                counted = dynamo_capture(module, kwargs)
            if counted.get("nodes") is not None:
                result["nodes"][str(length)] = counted["nodes"]
    return result
