"""model_type values exist in the shipped transformers snapshot
(registry/upstream/transformers-model-types.yaml), unless the family sets `remote_code: true`."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.loader import TRANSFORMERS_SNAPSHOT
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    snapshot = registry.transformers
    if snapshot is None:
        return
    known = snapshot.model_types
    for family in registry.families:
        if family.remote_code:
            continue
        for index, model_type in enumerate(family.model_types):
            if model_type in known:
                continue
            close = difflib.get_close_matches(model_type, list(known), n=1, cutoff=0.75)
            hint = f"did you mean '{close[0]}'?" if close else "set remote_code: true if the checkpoints need trust_remote_code"
            yield Finding(family_key(family.id), ("model_types", index),
                          f"'{model_type}' is not a model_type of transformers {snapshot.transformers_version} "
                          f"as listed in {TRANSFORMERS_SNAPSHOT}", hint)


RULE = Rule(name="upstream-model-types", check=check)
