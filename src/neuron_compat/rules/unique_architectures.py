"""An architecture class name (config `architectures`) belongs to exactly one family: `check` would match a config
by it to either family without a word.

`check` matches a config by its model_type, then by its architecture classes: a class listed by two families
would be answered from whichever comes first. Refused here, at the second listing.
"""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    owner: dict[str, str] = {}
    for family in registry.families:
        for index, name in enumerate(family.architectures):
            first = owner.setdefault(name, family.id)
            if first != family.id:
                yield Finding(family_key(family.id), ("architectures", index),
                              f"architecture class '{name}' is already listed by family '{first}' "
                              "(check would match a config by it to one of them without saying so)",
                              f"keep it in the family whose model_types hold its model_type: families/{first}.yaml "
                              f"or families/{family.id}.yaml")


RULE = Rule(name="unique-architectures", check=check)
