"""The published JSON form of a validated registry (same field names as the YAML)."""

from __future__ import annotations

import json
from typing import Any

from neuron_compat.check.compiled_view import FORMAT_VERSION
from neuron_compat.check.tables import check_tables
from neuron_compat.contract.models import Family
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.inherited_capabilities import effective_values


def family_to_json(family: Family, registry: Registry) -> dict[str, Any]:
    """The family's YAML fields; each statement also carries `effective` (capabilities.effective_values)."""
    data = family.model_dump(mode="json")
    for statement, dumped in zip(family.support, data["support"], strict=True):
        dumped["effective"] = effective_values(registry.capabilities_of(statement.stack), statement).to_json()
    return data


def registry_to_json(registry: Registry) -> dict[str, Any]:
    snapshot = registry.transformers
    return {
        "format": FORMAT_VERSION,
        "data_version": registry.meta.data_version if registry.meta else None,
        "newest_release": registry.newest_release,
        "releases": [r.model_dump(mode="json") for r in sorted(registry.releases, key=lambda r: r.date)],
        "stacks": [s.model_dump(mode="json") for s in registry.stacks],
        "families": [family_to_json(f, registry) for f in registry.families],
        "capabilities": [c.model_dump(mode="json") for c in sorted(registry.capability_files, key=lambda c: c.stack)],
        "upstream": {
            "transformers_version": snapshot.transformers_version if snapshot else None,
        },
        "probe": registry.probe.model_dump(mode="json") if registry.probe else None,
        "check_tables": check_tables(),
    }


def dumps(data: Any) -> str:
    """Deterministic JSON text: stable key order from the models, UTF-8, trailing newline."""
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
