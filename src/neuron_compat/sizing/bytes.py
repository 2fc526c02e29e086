"""Weight bytes of a parameter count at a storage dtype, and the dtype a config declares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from neuron_compat.sizing.counts import ParameterCount
from neuron_compat.sizing.fields import read_str, sub_config

DTYPE_BYTES: dict[str, Fraction] = {
    "fp32": Fraction(4), "bf16": Fraction(2), "fp16": Fraction(2),
    "fp8": Fraction(1), "int8": Fraction(1), "int4": Fraction(1, 2),
}
ALIASES = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16", "half": "fp16", "float": "fp32",
           "float8_e4m3fn": "fp8", "float8_e5m2": "fp8", "e4m3": "fp8", "e5m2": "fp8"}


@dataclass(frozen=True)
class WeightsBytes:
    dtype: str
    bytes: int | None  # None: unknown dtype or nothing counted
    complete: bool  # False: a lower bound, some parts were not counted
    reason: str | None = None


def normalise_dtype(dtype: str) -> str | None:
    name = dtype.strip().lower().removeprefix("torch.")
    name = ALIASES.get(name, name)
    return name if name in DTYPE_BYTES else None


def weights_bytes(count: ParameterCount, dtype: str) -> WeightsBytes:
    """Bytes of the counted weights at `dtype` (no quantization scales, no padding)."""
    name = normalise_dtype(dtype)
    if name is None:
        return WeightsBytes(dtype, None, False, f"unknown dtype {dtype!r}; known: {', '.join(DTYPE_BYTES)}")
    if not any(part.count is not None for part in count.parts):
        return WeightsBytes(name, None, False, "no part of the model could be counted")
    total = count.total * DTYPE_BYTES[name]
    reason = None if count.complete else "lower bound: some parts were not counted"
    return WeightsBytes(name, -(-total.numerator // total.denominator), count.complete, reason)


def declared_dtype(config: Mapping[str, object]) -> tuple[str | None, str]:
    """The weight dtype the config declares, where obvious: (dtype or None, how it was read)."""
    quant = sub_config(config, "quantization_config")
    if quant is not None:
        method = read_str(quant, "quant_method") or ""
        bits = quant.get("bits")
        if method == "fp8" or read_str(quant, "fmt") in ("e4m3", "e5m2"):
            return "fp8", f"quantization_config.quant_method={method!r}"
        if quant.get("load_in_4bit") is True or quant.get("_load_in_4bit") is True or bits == 4:
            return "int4", f"quantization_config ({method or 'bitsandbytes'}) 4-bit"
        if quant.get("load_in_8bit") is True or quant.get("_load_in_8bit") is True or bits == 8:
            return "int8", f"quantization_config ({method or 'bitsandbytes'}) 8-bit"
        return None, f"quantization_config with quant_method={method!r} is not one this reads"
    for key in ("dtype", "torch_dtype"):
        value = read_str(config, key)
        if value is not None:
            name = normalise_dtype(value)
            return name, f"{key}={value!r}" if name else f"{key}={value!r} is not a known dtype"
    return None, "the config declares no dtype"
