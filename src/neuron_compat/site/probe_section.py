"""The "Portability probe" section of a family page: machine evidence from registry/upstream/probe.yaml.

Kept apart from the support sections on purpose: a CPU capture of a tiny random-initialised model says
whether the architecture traces into static graphs and which ATen operators it needs, never whether a
Neuron stack supports it. Nothing here reads or changes a support status.
"""

from __future__ import annotations

from typing import Any

from neuron_compat.contract.models import Family
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.probe_reading import (
    EXPORT_OUTCOMES,
    dynamo_words,
    is_static_capture,
    operators_words,
    probe_line,
)


def probe_rows(registry: Registry, family: Family) -> list[dict[str, Any]]:
    """One row per model type of the family: its probe result, or why the probe could not build it."""
    snapshot = registry.probe
    if snapshot is None:
        return []
    rows = []
    for model_type in family.model_types:
        if model_type in snapshot.probes:
            result = snapshot.probes[model_type]
            plain = result.model_dump(mode="json")
            rows.append({
                "model_type": model_type, "not_built": None, "result": result, "line": probe_line(plain),
                "export": EXPORT_OUTCOMES.get(result.export.outcome, result.export.outcome),
                "dynamo": dynamo_words(plain), "operators": operators_words(plain),
                "static": is_static_capture(plain),
                "config": ", ".join(f"{k}={v}" for k, v in result.config.items() if not isinstance(v, dict)),
            })
        elif model_type in snapshot.not_built:
            rows.append({"model_type": model_type, "static": False,
                         "not_built": snapshot.not_built[model_type].reason})
    return rows


def probe_context(registry: Registry, family: Family) -> dict[str, Any] | None:
    """What family_probe.html.j2 needs, or None when the snapshot says nothing about this family."""
    rows = probe_rows(registry, family)
    if not rows or registry.probe is None:
        return None
    return {"rows": rows, "snapshot": registry.probe}
