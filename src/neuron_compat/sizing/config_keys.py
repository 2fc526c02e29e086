"""A config.json read as transformers reads it: keys a configuration class still maps to its attributes are filled
in under the attribute's name, so `hidden_size` is found in a BLOOM config that names it `n_embed`.

The table (config_key_data.CONFIG_KEYS) is a snapshot of each class's `attribute_map` and legacy keyword arguments
(scripts/snapshot_transformers_config_keys.py). A key the config sets itself is never overwritten; nested configs
(text_config, vision_config ...) are read by their own model_type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from neuron_compat.sizing.config_key_data import CONFIG_KEYS, TRANSFORMERS_VERSION

MAX_DEPTH = 4
"""Nested configs deeper than this are left as they are (bounded work on any input)."""


def with_canonical_keys(config: Any, depth: int = 0) -> Any:
    """A copy of `config` with every mapped attribute set from the key the config gives it by (the config itself
    when nothing maps). Not a Mapping: returned unchanged."""
    if not isinstance(config, Mapping) or depth > MAX_DEPTH:
        return config
    changed: dict[str, Any] | None = None
    model_type = config.get("model_type")
    mapping = CONFIG_KEYS.get(model_type, {}) if isinstance(model_type, str) else {}
    for attribute, key in mapping.items():
        if config.get(attribute) is None and config.get(key) is not None:
            changed = changed if changed is not None else dict(config)
            changed[attribute] = config[key]
    for name, value in config.items():
        if isinstance(value, Mapping) and "model_type" in value:
            nested = with_canonical_keys(value, depth + 1)
            if nested is not value:
                changed = changed if changed is not None else dict(config)
                changed[name] = nested
    return changed if changed is not None else config


def mapped_keys(config: Any) -> list[str]:
    """'hidden_size <- n_embed' for each attribute `with_canonical_keys` filled in at the top level."""
    if not isinstance(config, Mapping) or not isinstance(config.get("model_type"), str):
        return []
    mapping = CONFIG_KEYS.get(config["model_type"], {})
    return [f"{attribute} <- {key}" for attribute, key in mapping.items()
            if config.get(attribute) is None and config.get(key) is not None]


__all__ = ["TRANSFORMERS_VERSION", "mapped_keys", "with_canonical_keys"]
