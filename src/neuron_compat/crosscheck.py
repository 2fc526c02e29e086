"""Cross-check the registry's Optimum Neuron claims against what each optimum-neuron release registers.

The snapshot (registry/upstream/optimum-neuron.yaml) is extracted from the wheels on PyPI by
scripts/snapshot_optimum_neuron.py. For every version in it, the model_types the registry claims as
supported or partial for optimum-neuron (per workload) must be exactly the ones that version registers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from .registry import Registry
from .vocabulary import Status

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


def registered_model_types(entry: dict) -> dict[str, set[str]]:
    """What one snapshot version registers, as transformers model_types, per workload."""
    inference = {EXPORT_NAME_TO_MODEL_TYPE.get(name, name) for name in entry.get("export", {})}
    inference |= set(entry.get("decoder", []))
    return {"inference": inference, "training": set(entry.get("training", []))}


def claimed_model_types(registry: Registry, version: str) -> dict[str, set[str]]:
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


def load_snapshot(root: Path) -> list[dict]:
    return yaml.safe_load((root / OPTIMUM_SNAPSHOT).read_text(encoding="utf-8"))["versions"]


def optimum_neuron_mismatches(registry: Registry) -> list[Mismatch]:
    mismatches = []
    for entry in load_snapshot(registry.root):
        version = str(entry["version"])
        registered = registered_model_types(entry)
        claimed = claimed_model_types(registry, version)
        for workload in ("inference", "training"):
            missing = tuple(sorted(registered[workload] - claimed[workload]))
            extra = tuple(sorted(claimed[workload] - registered[workload]))
            if missing or extra:
                mismatches.append(Mismatch(version, workload, missing, extra))
    return mismatches
