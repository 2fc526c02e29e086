"""A model_type (and a diffusers pipeline class) belongs to exactly one family."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    for field in ("model_types", "pipelines"):
        owner: dict[str, str] = {}
        for family in registry.families:
            for index, value in enumerate(getattr(family, field)):
                if value in owner:
                    yield Finding(family_key(family.id), (field, index),
                                  f"'{value}' already belongs to family '{owner[value]}'",
                                  f"keep it in one family only: families/{owner[value]}.yaml")
                else:
                    owner[value] = family.id


RULE = Rule(name="unique-model-types", check=check)
