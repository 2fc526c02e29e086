"""Read a model's config.json (or a diffusers model_index.json) into the few facts the registry can answer for.

A checkpoint's config is free-form JSON written by many versions of transformers and diffusers. This module
reduces it to `ModelConfigFacts`: the family keys (model_type, architectures, pipeline class) and the settings
that statements constrain (dtype, attention implementation, quantization, context length, remote code).

The site's check page runs this module in the browser (Pyodide) on a pasted config.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from neuron_compat.safeio.bounded_read import FileTooLarge, UnreadableFile, read_regular_file
from neuron_compat.safeio.safe_text import value_error_reason
from neuron_compat.sizing.config_keys import with_canonical_keys
from neuron_compat.sizing.fields import as_int

MAX_CONFIG_BYTES = 2 * 1024 * 1024
"""A config.json is a few kilobytes; anything past this is not one (and must not be parsed blindly)."""

# transformers writes torch dtype names; the registry uses the short names of vocabulary.Dtype.
_DTYPE_NAMES = {
    "bfloat16": "bf16", "bf16": "bf16",
    "float16": "fp16", "fp16": "fp16", "half": "fp16",
    "float32": "fp32", "fp32": "fp32", "float": "fp32",
    "float8_e4m3fn": "fp8", "float8_e5m2": "fp8", "fp8": "fp8",
    "int8": "int8", "int4": "int4", "mxfp4": "mxfp4",
}

# quantization_config.quant_method values -> vocabulary.Quantization ids.
_QUANT_METHODS = {
    "fp8": "fp8", "fbgemm_fp8": "fp8",
    "mxfp4": "mxfp4",
    "awq": "awq",
    "gptq": "gptq",
    "bitsandbytes": "bitsandbytes",
    "compressed-tensors": "compressed-tensors", "compressed_tensors": "compressed-tensors",
}

# Keys that carry the longest sequence the model was built for, in the order they are trusted.
_CONTEXT_KEYS = ("max_position_embeddings", "n_positions", "max_sequence_length", "seq_length", "n_ctx",
                 "max_seq_len", "max_target_positions")
_EXPERT_KEYS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")
_EXPERTS_PER_TOKEN_KEYS = ("num_experts_per_tok", "experts_per_token", "moe_top_k")
_SHARED_EXPERT_KEYS = ("n_shared_experts", "num_shared_experts")
_MAX_TEXT = 200


class ConfigError(ValueError):
    """The input is not a config we can read; the message is one line for a person."""


# Plain frozen dataclasses, not pydantic models: `check` builds these on every call, and importing pydantic's
# model machinery would cost more than the whole answer. `__pydantic_config__` only shapes the JSON Schema
# that `check --json-schema` derives from them.
_FORBID_EXTRA = {"extra": "forbid"}


@dataclass(frozen=True)
class RopeScaling:
    __pydantic_config__ = _FORBID_EXTRA
    type: str
    factor: float | None = None
    original_max_position_embeddings: int | None = None


@dataclass(frozen=True)
class QuantizationFacts:
    """`id` is the registry's name for the method (vocabulary.Quantization), when there is one."""

    __pydantic_config__ = _FORBID_EXTRA
    method: str
    id: str | None = None


@dataclass(frozen=True)
class MoeFacts:
    __pydantic_config__ = _FORBID_EXTRA
    experts: int
    experts_per_token: int | None = None
    shared_experts: int | None = None


@dataclass(frozen=True)
class ModelConfigFacts:
    """What a checkpoint's config says, normalised. Field names are part of `check --json`."""

    __pydantic_config__ = _FORBID_EXTRA
    kind: Literal["transformers", "diffusers"]
    model_type: str | None = None
    architectures: list[str] = field(default_factory=list)
    pipeline_class: str | None = None
    components: dict[str, str] = field(default_factory=dict)
    text_model_type: str | None = None
    dtype: str | None = None
    dtype_raw: str | None = None
    attn_implementation: str | None = None
    sliding_window: int | None = None
    rope_scaling: RopeScaling | None = None
    max_position_embeddings: int | None = None
    quantization: QuantizationFacts | None = None
    moe: MoeFacts | None = None
    remote_code: bool = False
    auto_map: dict[str, str] = field(default_factory=dict)
    transformers_version: str | None = None


def _text(value: Any) -> str | None:
    """A short single-line string, or None: config values are untrusted."""
    if isinstance(value, str) and value and len(value) <= _MAX_TEXT and "\n" not in value:
        return value
    return None


def _positive_int(value: Any) -> int | None:
    """A count above zero (sizing's integer reading), or None."""
    number = as_int(value)
    return number if number is not None and number > 0 else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits is no usable factor
        return None
    return number if math.isfinite(number) else None  # 1e400 is valid JSON that Python reads as inf


T = TypeVar("T")


def _first(sources: list[dict[str, Any]], keys: tuple[str, ...], read: Callable[[Any], T | None]) -> T | None:
    for source in sources:
        for key in keys:
            value = read(source.get(key))
            if value is not None:
                return value
    return None


def _dtype(sources: list[dict[str, Any]]) -> tuple[str | None, str | None]:
    raw = _first(sources, ("dtype", "torch_dtype"), _text)
    if raw is None:
        return None, None
    name = raw.removeprefix("torch.")
    return _DTYPE_NAMES.get(name), raw


def _rope(sources: list[dict[str, Any]]) -> RopeScaling | None:
    for source in sources:
        for key in ("rope_scaling", "rope_parameters"):
            value = source.get(key)
            if not isinstance(value, dict):
                continue
            kind = _text(value.get("rope_type")) or _text(value.get("type"))
            if kind is None or kind == "default":
                continue
            return RopeScaling(
                type=kind,
                factor=_number(value.get("factor")),
                original_max_position_embeddings=_positive_int(value.get("original_max_position_embeddings")),
            )
    return None


def _quantization(config: dict[str, Any]) -> QuantizationFacts | None:
    value = config.get("quantization_config")
    if not isinstance(value, dict):
        return None
    method = _text(value.get("quant_method"))
    if method is None and any(value.get(k) is True for k in ("load_in_4bit", "load_in_8bit", "_load_in_4bit", "_load_in_8bit")):
        method = "bitsandbytes"
    if method is None:
        method = "unknown"
    return QuantizationFacts(method=method, id=_QUANT_METHODS.get(method.lower()))


def _moe(sources: list[dict[str, Any]]) -> MoeFacts | None:
    experts = _first(sources, _EXPERT_KEYS, _positive_int)
    if experts is None or experts < 2:
        return None
    return MoeFacts(
        experts=experts,
        experts_per_token=_first(sources, _EXPERTS_PER_TOKEN_KEYS, _positive_int),
        shared_experts=_first(sources, _SHARED_EXPERT_KEYS, _positive_int),
    )


def _sliding_window(sources: list[dict[str, Any]]) -> int | None:
    for source in sources:
        if source.get("use_sliding_window") is False:
            return None
        window = _positive_int(source.get("sliding_window"))
        if window is not None:
            return window
    return None


def _string_map(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    result: dict[str, str] = {}
    for key in sorted(value):
        text, item = _text(key), value[key]
        if isinstance(item, list):  # auto_map entries may be [slow, fast] pairs (tokenizers)
            item = next((part for part in item if _text(part)), None)
        if text and _text(item):
            result[text] = item
    return result


def _diffusers_facts(config: dict[str, Any]) -> ModelConfigFacts:
    components: dict[str, str] = {}
    for name in sorted(config):
        value = config[name]
        if name.startswith("_") or not isinstance(value, list) or len(value) != 2:
            continue
        library, class_name = _text(value[0]), _text(value[1])
        if library and class_name:
            components[name] = f"{library}.{class_name}"
    return ModelConfigFacts(kind="diffusers", pipeline_class=_text(config.get("_class_name")), components=components)


MAX_ARCHITECTURES = 64
"""The most class names `architectures` may list (real configs list one to three)."""


def facts_from_config(config: Any) -> ModelConfigFacts:
    """Normalise a parsed config.json / model_index.json. Raises ConfigError for anything else."""
    if not isinstance(config, dict):
        raise ConfigError(f"expected a JSON object, found {_json_kind(config)}")
    if "model_type" not in config and "architectures" not in config:
        if "_class_name" in config:
            if _text(config.get("_class_name")) is None:
                raise ConfigError("_class_name must be a pipeline class name such as 'StableDiffusionXLPipeline'")
            return _diffusers_facts(config)
        raise ConfigError("not a transformers config.json or a diffusers model_index.json "
                          "(no model_type, architectures or _class_name)")
    config = dict(with_canonical_keys(config))  # legacy keys read as transformers reads them (n_positions ...)
    text_config = config.get("text_config") if isinstance(config.get("text_config"), dict) else None
    sources = [config] + ([text_config] if text_config else [])
    architectures = config.get("architectures")
    if isinstance(architectures, list) and len(architectures) > MAX_ARCHITECTURES:
        raise ConfigError(f"architectures lists {len(architectures)} names; a config names a few "
                          f"(limit {MAX_ARCHITECTURES})")
    dtype, dtype_raw = _dtype(sources)
    auto_map = _string_map(config.get("auto_map"))
    return ModelConfigFacts(
        kind="transformers",
        model_type=_text(config.get("model_type")),
        architectures=[a for a in architectures if _text(a)] if isinstance(architectures, list) else [],
        text_model_type=_text(text_config.get("model_type")) if text_config else None,
        dtype=dtype,
        dtype_raw=dtype_raw,
        attn_implementation=_first(sources, ("attn_implementation", "_attn_implementation"), _text),
        sliding_window=_sliding_window(sources),
        rope_scaling=_rope(sources),
        max_position_embeddings=_first(sources, _CONTEXT_KEYS, _positive_int),
        quantization=_quantization(config),
        moe=_moe(sources),
        remote_code=bool(auto_map),
        auto_map=auto_map,
        transformers_version=_text(config.get("transformers_version")),
    )


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string"


def parse_config_text(text: str | bytes, where: str) -> Any:
    """Parse JSON text with a size bound; errors name `where` and fit on one line.

    Bytes are what every reader gives (a file, the Hub, the check page, which sends the pasted text as the bytes it
    would be saved as): UTF-8 only, a byte-order mark dropped. Nesting is bounded before the parser runs: the
    parser recurses per level, and a few thousand levels exhaust the browser's stack under Pyodide (a fatal error,
    not an exception)."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{where}: {size} bytes is too large for a config (limit {MAX_CONFIG_BYTES} bytes)")
    if isinstance(text, bytes):  # decoded here, as UTF-8 only: json.loads would guess UTF-16/32 from the bytes
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"{where}: not UTF-8 text (save it as UTF-8)") from None
    else:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no UTF-8 bytes hold it
            raise ConfigError(f"{where}: not UTF-8 text (save it as UTF-8)") from None
    text = text.removeprefix("\ufeff")
    deep_at = too_deep_at(text)
    if deep_at is not None:
        line = text.count("\n", 0, deep_at) + 1
        column = deep_at - (text.rfind("\n", 0, deep_at) + 1) + 1
        raise ConfigError(f"{where}:{line}:{column}: nested more than {MAX_CONFIG_DEPTH} levels deep (objects and "
                          "arrays); a model config has a few levels")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{where}:{error.lineno}:{error.colno}: malformed JSON: {error.msg}") from None
    except RecursionError:
        raise ConfigError(f"{where}: JSON nested too deeply") from None
    except ValueError as error:  # NaN / Infinity, or an integer of thousands of digits
        raise ConfigError(f"{where}: malformed JSON: {value_error_reason(error)}") from None
    depth = nesting_depth(data)
    if depth > MAX_CONFIG_DEPTH:
        raise ConfigError(f"{where}: nested more than {MAX_CONFIG_DEPTH} levels deep (objects and arrays); "
                          "a model config has a few levels")
    if _ESCAPED_SURROGATE.search(text):
        try:
            json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except UnicodeEncodeError:  # "\ud800" alone: valid JSON syntax, but not text
            raise ConfigError(f"{where}: malformed JSON: a lone surrogate escape (\\ud800-\\udfff) is not text") from None
    return data


_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
"""A JSON string (to its end, or to the end of the text when it is not closed) or one bracket: one pass, no match
ever starts again inside a string."""


def too_deep_at(text: str) -> int | None:
    """The offset of the first bracket past MAX_CONFIG_DEPTH levels of objects and arrays, or None: read before the
    parser, brackets inside strings not counted. Linear in the text, and nothing to do when it has few brackets."""
    if text.count("[") + text.count("{") <= MAX_CONFIG_DEPTH:
        return None
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        kind = token.group()[0]
        if kind == '"':
            continue
        if kind in "[{":
            depth += 1
            if depth > MAX_CONFIG_DEPTH:
                return token.start()
        else:
            depth = max(0, depth - 1)
    return None


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")

MAX_CONFIG_DEPTH = 32
"""The deepest nesting of objects and arrays a config may have (real ones have under 8: a text_config's
rope_scaling list). Every reader of a config (a local file, the Hub, its cache) refuses more, so no code that
walks a config (the facts, the KV-cache sizing) meets a deeper one."""


def nesting_depth(value: Any) -> int:
    """How deeply objects and arrays nest in parsed JSON (a scalar is 0), without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        current, depth = pending.pop()
        if isinstance(current, dict):
            children: Any = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > MAX_CONFIG_DEPTH:
            return deepest
        pending.extend((child, depth) for child in children)
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


CONFIG_FILES = ("config.json", "model_index.json")
"""What a model folder (or a Hub repo) is read from, in this order."""


def read_local_config(path: Path) -> tuple[Any, str]:
    """Read a local config.json / model_index.json, or the one inside a model folder.

    A folder is only read from inside itself: a config.json that is a symlink pointing elsewhere is refused,
    so `check` cannot be used to read arbitrary files. Sizes are bounded before reading.
    """
    path = Path(path)
    if path.is_dir():
        folder = path.resolve()
        for name in CONFIG_FILES:
            candidate = path / name
            if candidate.is_symlink() and not candidate.exists():
                raise ConfigError(f"{candidate}: a symlink to nothing (dangling, or a loop); refusing to read it")
            if candidate.exists():
                real = candidate.resolve()
                if folder not in real.parents:
                    raise ConfigError(f"{candidate}: points outside {path} (symlink); refusing to read it")
                return read_config_file(real, str(candidate)), str(candidate)
        raise ConfigError(f"{path}: no config.json or model_index.json in this folder")
    if not path.exists():
        raise ConfigError(f"{path}: no such file or folder")
    if path.suffix.lower() != ".json":
        raise ConfigError(f"{path}: expected a .json file (config.json or model_index.json)")
    return read_config_file(path, str(path)), str(path)


def read_config_file(path: Path, where: str) -> Any:
    """The parsed JSON of the regular file `path` (at most MAX_CONFIG_BYTES, read bounded); ConfigError names `where`."""
    try:
        data = read_regular_file(path, MAX_CONFIG_BYTES)
    except FileTooLarge as error:
        more = "more than " if error.grew else ""
        raise ConfigError(f"{where}: {more}{error.size} bytes is too large for a config (limit {MAX_CONFIG_BYTES} bytes)") from None
    except UnreadableFile as error:
        raise ConfigError(f"{where}: {error}") from None
    return parse_config_text(data, where)
