"""The "Portability probe" section of a family page: machine evidence from registry/upstream/probe.yaml.

Kept apart from the support sections on purpose: each result is one workload captured on a CPU from a tiny
random-initialised model; it says whether that workload traces into static graphs and which operators it
needs, never whether a Neuron stack supports or compiles it. Workloads are grouped under the stack workload
(inference / training rows) they stand beside. Nothing here reads or changes a support status.
"""

from __future__ import annotations

from typing import Any

from neuron_compat.contract.models import Family
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.probe_reading import (
    STOPPED,
    WORKLOAD_TITLES,
    dynamo_words,
    growth_words,
    inputs_words,
    outcome_words,
    workloads_for,
)

STACK_WORKLOADS = ("inference", "training")


def workload_row(name: str, workload: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name, "title": WORKLOAD_TITLES.get(name, name), "result": workload,
        "inputs": inputs_words(workload), "outcome": outcome_words(name, workload),
        "dynamo": dynamo_words(workload), "nodes": growth_words(workload),
        "reported": workload.get("outcome") not in STOPPED,
    }


def config_words(config: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in config.items()) or "none changed: the default config is already small"


def probe_rows(registry: Registry, family: Family) -> list[dict[str, Any]]:
    """One entry per model type of the family: its workloads by stack workload, or why it was not built."""
    snapshot = registry.probe
    if snapshot is None:
        return []
    rows = []
    for model_type in family.model_types:
        if model_type in snapshot.probes:
            result = snapshot.probes[model_type]
            plain = result.model_dump(mode="json")
            groups = [(stack_workload, [workload_row(name, w) for name, w in workloads_for(plain, stack_workload)])
                      for stack_workload in STACK_WORKLOADS]
            rows.append({"model_type": model_type, "not_built": None, "result": result,
                         "config": config_words(result.config), "groups": [g for g in groups if g[1]]})
        elif model_type in snapshot.not_built:
            rows.append({"model_type": model_type, "not_built": snapshot.not_built[model_type].reason})
        elif model_type in snapshot.not_probed:
            rows.append({"model_type": model_type, "not_built": "the probe run has not reached this model type yet"})
    return rows


def probe_findings(rows: list[dict[str, Any]]) -> dict[str, int]:
    """What the one plain sentence above the details counts: workloads run, captured whole as static graphs,
    and those needing an operator with no known torch-xla lowering (or an opaque custom op)."""
    workloads = [w for row in rows for _, group in row.get("groups", []) for w in group]
    ran = [w for w in workloads if w["reported"]]
    return {
        "model_types": len(rows),
        "not_built": sum(1 for row in rows if row["not_built"]),
        "workloads": len(workloads),
        "ran": len(ran),
        "captured": sum(1 for w in ran if w["result"].get("outcome") == "ok"),
        "unlowered": sum(1 for w in ran if w["result"].get("no_known_lowering") or w["result"].get("custom_ops")),
    }


def probe_context(registry: Registry, family: Family) -> dict[str, Any] | None:
    """What family_probe.html.j2 needs, or None when the snapshot says nothing about this family."""
    rows = probe_rows(registry, family)
    if not rows or registry.probe is None:
        return None
    return {"rows": rows, "snapshot": registry.probe, "findings": probe_findings(rows)}
