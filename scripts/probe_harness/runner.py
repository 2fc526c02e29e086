"""One workload of one model type, start to end: build, inputs, capture. Runs inside the isolated child."""

from __future__ import annotations

import inspect
import re
from typing import Any

from .capture import error_text, training_capture
from .workloads import LENGTHS, build_model, capture_at_lengths, forward_inputs, multimodal_inputs, shapes

WORKLOAD_NOTES = {
    "prefill": "context encoding: the prompt through the causal LM with a static KV cache of twice its length",
    "decode": "token generation: one token at position `length` with a static KV cache of twice that length",
    "forward": "the task head's forward on the task's inputs",
    "train": "forward + loss + backward in train mode: dynamo graphs through AOT autograd (forward and backward)",
}


def static_cache_module(model: Any, max_cache_len: int) -> Any:
    """transformers' export wrapper (static KV cache in buffers, cache_position as input)."""
    from transformers.integrations.executorch import TorchExportableModuleForDecoderOnlyLM

    model.generation_config.use_cache = True
    model.generation_config.cache_implementation = "static"
    wrapper = TorchExportableModuleForDecoderOnlyLM(model, batch_size=1, max_cache_len=max_cache_len).model
    fit_cache_layers(wrapper, model, max_cache_len)
    return wrapper


def fit_cache_layers(wrapper: Any, model: Any, max_cache_len: int) -> None:
    """The export wrapper sizes every cache layer from config.head_dim ahead of time; a model that caches something
    else (DeepSeek's multi-head latent attention caches the compressed latent and the rotary key, one head each)
    gets its layers sized as transformers' StaticCache sizes them itself on its first update in generate(): from
    one eager step, then re-registered as the wrapper's buffers."""
    import torch
    from transformers.cache_utils import StaticCache, StaticLayer

    key = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
    try:
        sized = StaticCache(max_cache_len=max_cache_len, config=model.config)
        with torch.no_grad():
            model(input_ids=decoder_inputs(model, 1, decode=False)["input_ids"], cache_position=torch.arange(1),
                  use_cache=True, **{key: sized})
    except Exception:  # noqa: BLE001 - the wrapper's own sizes stay; its run says whether they fit
        return
    for index, (ours, theirs) in enumerate(zip(wrapper.static_cache.layers, sized.layers, strict=True)):
        keys: Any = getattr(theirs, "keys", None)  # tensors once the layer is initialised (checked below)
        values: Any = getattr(theirs, "values", None)
        if not (isinstance(ours, StaticLayer) and ours.is_initialized and torch.is_tensor(keys)
                and torch.is_tensor(values) and torch.is_tensor(ours.keys) and torch.is_tensor(ours.values)):
            continue
        if ours.keys.shape[:2] + ours.keys.shape[3:] == keys.shape[:2] + keys.shape[3:] \
                and ours.values.shape[3:] == values.shape[3:]:
            continue
        fitted = StaticLayer(ours.max_cache_len)
        fitted.lazy_initialization(keys[:, :, :0], values[:, :, :0])
        wrapper.static_cache.layers[index] = fitted
        wrapper.register_buffer(f"key_cache_{index}", fitted.keys, persistent=False)
        wrapper.register_buffer(f"value_cache_{index}", fitted.values, persistent=False)
        wrapper.register_buffer(f"cumulative_length_{index}", fitted.cumulative_length, persistent=False)


def decoder_inputs(model: Any, length: int, decode: bool) -> dict[str, Any]:
    import torch

    from .workloads import text_ids

    if decode:
        return {"input_ids": text_ids(model.config, 1), "cache_position": torch.tensor([length])}
    return {"input_ids": text_ids(model.config, length), "cache_position": torch.arange(length)}


def run_workload(model_type: str, kind: str, auto_class: str, workload: str) -> dict[str, Any]:
    """The raw result of one workload (never raises for the model's own failures)."""
    import torch

    torch.set_num_threads(1)
    base = workload.removesuffix("_eager_experts")
    eager = workload.endswith("_eager_experts")
    cached = base in ("prefill", "decode")
    try:
        model, changed = build_model(model_type, auto_class, use_cache=cached, eager_experts=eager)
    except ImportError as exc:  # Gemma 3n's vision tower is a timm model: timm (with torchvision) and Pillow
        return {"workload": workload, "outcome": "not_built",
                "error": "the model needs a package the probe extra does not install: " + error_text(exc)}
    except Exception as exc:  # noqa: BLE001 - recorded as evidence
        return {"workload": workload, "outcome": "not_built", "error": error_text(exc)}
    head: dict[str, Any] = {"workload": workload, "model_class": type(model).__name__, "config": changed,
                            "parameters": sum(p.numel() for p in model.parameters())}
    if eager:
        head["experts_implementation"] = "eager"
    try:
        if base == "train":
            return {**head, **train(model, kind)}
        if cached and kind in ("decoder", "multimodal"):
            return {**head, **cached_capture(model, kind, base)}
        return {**head, **capture_at_lengths(lambda n: (model, task_inputs(model, kind, n)), LENGTHS)}
    except Exception as exc:  # noqa: BLE001 - the probe's inputs do not fit the model
        return {**head, "outcome": "not_run", "error": clean_setup(model, exc)}


_REQUIRED = re.compile(r"forward\(\) missing \d+ required positional arguments?: '(\w+)'")


def clean_setup(model: Any, exc: BaseException) -> str:
    """Why the model did not run eagerly; a forward that needs more than one step's inputs says which."""
    required = _REQUIRED.search(str(exc))
    if required:  # Sam2VideoModel: an inference session that carries the video's frames and memory across calls
        return (f"{type(model).__name__}.forward needs `{required.group(1)}`: a stateful session across calls, "
                f"not a single forward on the task's inputs ({error_text(exc)})")
    if "_forward_unimplemented" in str(exc):  # Qwen2.5-Omni: generate() runs its thinker, talker and vocoder
        return (f"{type(model).__name__} has no forward of its own: it only generates, through its sub-models, so "
                f"there is no single forward to capture ({error_text(exc)})")
    return "the model did not run eagerly on its inputs before any capture: " + error_text(exc)


def task_inputs(model: Any, kind: str, length: int) -> dict[str, Any]:
    if kind == "multimodal":
        return multimodal_inputs(model, length)
    return forward_inputs(model, kind, length)


def cached_capture(model: Any, kind: str, base: str) -> dict[str, Any]:
    """Prefill or decode through the static-cache wrapper; a model the wrapper cannot hold (no KV cache:
    Mamba, RWKV) is captured without a cache for prefill and recorded as not run for decode."""
    import torch

    decode = base == "decode"
    try:
        wrapper = static_cache_module(model, 2 * LENGTHS[0])
        with torch.no_grad():
            wrapper(**decoder_inputs(model, LENGTHS[0], decode))
    except Exception as exc:  # noqa: BLE001
        reason = no_static_cache_reason(model, exc)
        if decode:
            return {"outcome": "not_run", "error": reason}
        without_cache(model)
        captured = capture_at_lengths(lambda n: (model, task_inputs(model, kind, n)), LENGTHS)
        return {**captured, "cache": "none", "cache_note": reason}
    if kind == "multimodal" and not decode:  # the image goes in with the prompt: no wrapper for that
        without_cache(model)
        captured = capture_at_lengths(lambda n: (model, multimodal_inputs(model, n)), LENGTHS)
        return {**captured, "cache": "none"}
    captured = capture_at_lengths(lambda n: (static_cache_module(model, 2 * n), decoder_inputs(model, n, decode)),
                                  LENGTHS)
    return {**captured, "cache": "static"}


RECURRENT_SIGNS = ("LinearAttentionLayer", "no attribute 'num_attention_heads'")
"""What transformers' static cache says of a model whose layers keep a recurrent state: hybrid models' cache has
linear-attention (state-space) layers without keys; pure state-space models' configs have no attention heads."""


def no_static_cache_reason(model: Any, exc: BaseException) -> str:
    """Why the model has no static KV cache capture, in the model's terms."""
    import transformers

    text = error_text(exc)
    name = type(model).__name__
    version = f"transformers {transformers.__version__}"
    if any(sign in text for sign in RECURRENT_SIGNS):
        return (f"no static KV cache: {name} keeps a recurrent state (state-space or linear-attention layers), "
                f"not only keys and values; {version}'s static KV cache cannot hold it ({text})")
    return f"no static KV cache: {version}'s static-cache export wrapper cannot hold {name}'s cache ({text})"


def without_cache(model: Any) -> None:
    """A model built for a KV cache, set to run without one (its prefill captured as a plain forward)."""
    for config in {id(c): c for c in (model.config, model.config.get_text_config())}.values():
        config.use_cache = False
    model.generation_config.use_cache = False


def train(model: Any, kind: str) -> dict[str, Any]:
    """forward + loss + backward at the first length, in train mode."""
    import torch

    model.train()
    inputs = task_inputs(model, kind, LENGTHS[0])
    inputs.update(labels_for(model, kind, inputs))
    if needs_a_batch(model, inputs):  # BatchNorm in train mode needs more than one value per channel (LeViT)
        inputs = {k: torch.cat([v, v]) if torch.is_tensor(v) and v.dim() and v.shape[0] == 1 else v
                  for k, v in inputs.items()}
    loss_from = "the task head's loss" if "labels" in inputs else "mean of the model's first output (no task loss)"

    def loss_fn(**kwargs: Any) -> Any:
        out = model(**kwargs)
        loss = getattr(out, "loss", None)
        if loss is None:
            first = out[0] if isinstance(out, (tuple, list)) else next(v for v in out.values() if torch.is_tensor(v))
            loss = first.float().mean()
        return loss

    loss_fn(**inputs).backward()  # eager first: inputs that do not fit are the probe's problem
    model.zero_grad(set_to_none=True)
    result = training_capture(loss_fn, inputs)
    return {"lengths": [LENGTHS[0]], "inputs": shapes(inputs), "loss": loss_from,
            "nodes": {str(LENGTHS[0]): result.pop("nodes")}, "nodes_from": "AOT autograd", **result,
            "operators": sorted(set(result["forward_operators"]) | set(result["backward_operators"])),
            "operators_from": "AOT autograd"}


def needs_a_batch(model: Any, inputs: dict[str, Any]) -> bool:
    """A model whose train-mode BatchNorm sees one value per channel at batch 1 (a pooled feature)."""
    import torch

    if not any(isinstance(m, torch.nn.modules.batchnorm._BatchNorm) for m in model.modules()):
        return False
    try:
        with torch.no_grad():
            model(**inputs)
    except ValueError as exc:
        return "Expected more than 1 value per channel" in str(exc)
    return False


def labels_for(model: Any, kind: str, inputs: dict[str, Any]) -> dict[str, Any]:
    import torch

    if kind == "encoder" and "input_ids" in inputs:  # masked LM: one label per output position (Perceiver has
        with torch.no_grad():  # max_position_embeddings of them), -100 where no input token is
            positions = int(model(**inputs).logits.shape[1])
        labels = torch.full((1, positions), -100, dtype=torch.long)
        count = min(positions, inputs["input_ids"].shape[1])
        labels[:, :count] = inputs["input_ids"][:, :count]
        return {"labels": labels}
    if kind in ("seq2seq", "speech_seq2seq") and "decoder_input_ids" in inputs:
        decoder = inputs["decoder_input_ids"]
        codebooks = getattr(getattr(model.config, "decoder", None), "num_codebooks", None)
        if isinstance(codebooks, int):  # MusicGen: (batch, length, codebooks)
            return {"labels": decoder.reshape(-1, codebooks, decoder.shape[-1]).transpose(1, 2).clone()}
        return {"labels": decoder.clone()}
    if kind in ("decoder", "multimodal", "speech_seq2seq") and "input_ids" in inputs:  # and audio LLMs (Qwen3-ASR)
        return {"labels": inputs["input_ids"].clone()}
    if kind == "vision":
        return {"labels": torch.tensor([0])}
    if kind == "audio":
        return {"labels": torch.tensor([[5, 6, 7, 8]])}
    return {}
