"""The published JSON form of a validated registry (same field names as the YAML)."""

from __future__ import annotations

import json
from typing import Any

from neuron_compat.check.compiled_view import FORMAT_VERSION
from neuron_compat.contract.models import Family
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.at_release import HOLDS, CellState, release_spans
from neuron_compat.views.inherited_capabilities import effective_for


def family_to_json(family: Family, registry: Registry) -> dict[str, Any]:
    """The family's YAML fields; each statement also carries `effective` (inherited_capabilities.effective_for)."""
    data = family.model_dump(mode="json")
    for statement, dumped in zip(family.support, data["support"], strict=True):
        dumped["effective"] = effective_for(registry, family, statement).to_json()
    return data


def state_json(state: CellState) -> dict[str, Any]:
    """One `views.CellState` as the published tables write it (statements by their position in the family)."""
    if state.kind == HOLDS:
        return {"kind": state.kind,
                "held": [[h.index, list(h.hardware), h.reason is not None] for h in state.held]}
    data: dict[str, Any] = {"kind": state.kind}
    if state.release is not None:
        data.update(release=state.release, held_through=state.held_through, statements=list(state.statements),
                    hardware=list(state.hardware))
    return data


def release_table(registry: Registry) -> dict[str, dict[str, list[list[Any]]]]:
    """The `at_release` section: per family id, per "stack workload" it has statements for, `views.cell_at` at
    every release as spans `[first, last, state]` (indexes into the releases sorted by version, inclusive).
    The site's check page reads it instead of working out "now" itself; a pair missing here has no statement."""
    table: dict[str, dict[str, list[list[Any]]]] = {}
    for family in registry.families:
        pairs = dict.fromkeys((s.stack, str(s.workload)) for s in family.support)
        table[family.id] = {
            f"{stack} {workload}": [[span.first, span.last, state_json(span.state)]
                                    for span in release_spans(registry, family, stack, workload)]
            for stack, workload in pairs
        }
    return table


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
        "configurations": [c.model_dump(mode="json") for c in sorted(registry.configuration_files, key=lambda c: c.source)],
        "known_issues": registry.known_issues.model_dump(mode="json")["issues"] if registry.known_issues else [],
        "instances": registry.instances.model_dump(mode="json") if registry.instances else None,
        "checkpoint_aliases": (registry.checkpoint_aliases.model_dump(mode="json")
                               if registry.checkpoint_aliases else None),
        "at_release": release_table(registry),
    }


def dumps(data: Any) -> str:
    """Deterministic JSON text: stable key order from the models, UTF-8, trailing newline."""
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False, allow_nan=False) + "\n"
