"""Cross-check the registry's Optimum Neuron claims against what each optimum-neuron release registers.

The snapshot (registry/upstream/optimum-neuron.yaml) is extracted from the wheels on PyPI by
scripts/snapshot_optimum_neuron.py. For every version in it, the model_types the registry claims as
supported or partial for optimum-neuron (per workload) must be exactly the ones that version registers.
The rule rules/optimum_neuron_registrations.py reports each difference, so `validate` and pre-commit run it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neuron_compat.contract.vocabulary import Status
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.yaml_reader import load_yaml_file

OPTIMUM_SNAPSHOT = "upstream/optimum-neuron.yaml"
STACK = "optimum-neuron"

# The exporter registers some models in parts; these are the transformers model_types they belong to.
EXPORT_NAME_TO_MODEL_TYPE = {
    "t5-encoder": "t5",
    "t5-decoder": "t5",
    "whisper-encoder": "whisper",
    "whisper-decoder": "whisper",
    "mobilenet-v2": "mobilenet_v2",
}


@dataclass(frozen=True)
class Mismatch:
    version: str
    workload: str
    missing: tuple[str, ...]  # registered upstream, not claimed here
    extra: tuple[str, ...]  # claimed here, not registered upstream

    def describe(self) -> str:
        parts = []
        if self.missing:
            parts.append("registered but not claimed: " + ", ".join(self.missing))
        if self.extra:
            parts.append("claimed but not registered: " + ", ".join(self.extra))
        return f"optimum-neuron {self.version} {self.workload}: " + "; ".join(parts)


def registered_model_types(entry: dict[str, Any]) -> dict[str, set[str]]:
    """What one snapshot version registers, as transformers model_types, per workload."""
    inference = {EXPORT_NAME_TO_MODEL_TYPE.get(name, name) for name in entry.get("export", {})}
    inference |= set(entry.get("decoder", []))
    return {"inference": inference, "training": set(entry.get("training", []))}


def claimed_model_types(registry: Registry, version: str) -> dict[str, set[str]]:
    """The model_types claimed supported or partial on optimum-neuron at one of its versions (in stacks.yaml)."""
    stack = registry.stack_by_id[STACK]
    order = {v.version: i for i, v in enumerate(stack.versions)}
    position = order[version]
    claimed: dict[str, set[str]] = {"inference": set(), "training": set()}
    for family in registry.families:
        for statement in family.support:
            if statement.stack != STACK or statement.status not in (Status.SUPPORTED, Status.PARTIAL):
                continue
            start = order.get(statement.stack_since or "", -1)
            end = order.get(statement.stack_until or "", len(order))
            if start <= position < end:
                claimed[str(statement.workload)] |= set(family.model_types)
    return claimed


class SnapshotError(ValueError):
    """The snapshot cannot be read, or is not the shape scripts/snapshot_optimum_neuron.py writes."""


def load_snapshot(root: Path) -> list[dict[str, Any]]:
    """The snapshot's versions, newest first (through the registry's YAML loader and its limits)."""
    loaded, problem = load_yaml_file(root / OPTIMUM_SNAPSHOT)
    if problem is not None or loaded is None:
        raise SnapshotError(problem.format() if problem else f"{OPTIMUM_SNAPSHOT}: unreadable")
    versions = loaded.data.get("versions") if isinstance(loaded.data, dict) else None
    if not isinstance(versions, list) or not all(isinstance(e, dict) and "version" in e for e in versions):
        raise SnapshotError(f"{OPTIMUM_SNAPSHOT}: expected 'versions:' with a list of entries that name their version")
    for entry in versions:
        for key in ("export", "decoder", "training"):
            if not isinstance(entry.get(key, []), (list, dict)):
                raise SnapshotError(f"{OPTIMUM_SNAPSHOT}: {key} of {entry['version']} must be a list or mapping")
    return versions


def optimum_neuron_mismatches(registry: Registry, snapshot: list[dict[str, Any]] | None = None) -> list[Mismatch]:
    """Differences per snapshot version that stacks.yaml's optimum-neuron line also lists."""
    stack = registry.stack_by_id.get(STACK)
    known = {v.version for v in stack.versions} if stack else set()
    mismatches = []
    for entry in load_snapshot(registry.root) if snapshot is None else snapshot:
        version = str(entry["version"])
        if version not in known:
            continue
        registered = registered_model_types(entry)
        claimed = claimed_model_types(registry, version)
        for workload in ("inference", "training"):
            missing = tuple(sorted(registered[workload] - claimed[workload]))
            extra = tuple(sorted(claimed[workload] - registered[workload]))
            if missing or extra:
                mismatches.append(Mismatch(version, workload, missing, extra))
    return mismatches
