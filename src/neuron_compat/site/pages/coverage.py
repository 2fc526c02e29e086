"""Coverage: for each stack x workload, the share of a reference list it covers, and what is missing.

References: the transformers text-generation model types (registry/upstream snapshot, `causal_lm`) and,
when present, Hub popularity snapshots (hub-top-*.yaml). A model type counts as covered when a family
that lists it has a supported or partial statement for the stack x workload at the stack's current
release: the newest Neuron release that ships the stack and that its own newest version targets (for
optimum-neuron, whose releases trail Neuron's; otherwise every stack past its horizon would read 0%).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from neuron_compat.contract.models import Stack
from neuron_compat.contract.vocabulary import is_claim
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.support import ReleaseView, combinations, current_release
from neuron_compat.site.upstream import HubSnapshot
from neuron_compat.views.probe_reading import is_captured, workloads_for


@dataclass
class CoverageRow:
    stack_id: str
    stack_name: str
    workload: str
    total: int
    release: str | None = None
    supported: int = 0
    partial: int = 0
    missing: list[dict[str, str]] = field(default_factory=list)
    missing_static: int = 0  # missing model types whose probe captured this row's workloads (evidence, not support)
    probe_applies: bool = False  # the probe says something about this stack's workload (not Inf1-only stacks)

    @property
    def covered(self) -> int:
        return self.supported + self.partial

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.total if self.total else 0.0


@dataclass
class Reference:
    id: str
    title: str
    description: str
    unit: str  # "model types" or "models"
    total: int
    rows: list[CoverageRow]
    problem: str | None = None
    source: str | None = None
    taken: str | None = None


def status_by_model_type(registry: Registry, release: str | None) -> dict[tuple[str, str, str], str]:
    """(model_type or pipeline class, stack, workload) -> best covered status at `release`."""
    found: dict[tuple[str, str, str], str] = {}
    if release is None:
        return found
    view = ReleaseView(registry, release)
    for family in registry.families:
        for held in view.held(family):
            statement, status = held.statement, held.status
            if not is_claim(status):
                continue
            label = "partial" if status == "partial" else "supported"
            for model_type in [*family.model_types, *family.pipelines]:
                key = (model_type, statement.stack, str(statement.workload))
                if found.get(key) != "supported":
                    found[key] = label
    return found


def family_of(registry: Registry) -> dict[str, str]:
    return {t: f.id for f in registry.families for t in [*f.model_types, *f.pipelines]}


PROBE_HARDWARE_EXCLUDED = frozenset({"inf1"})
"""Stacks only on these devices get no probe column: torch-neuron (Inf1) traces with torch.jit, not XLA."""


def probe_applies(stack: Stack) -> bool:
    return not {str(h) for h in stack.hardware} <= PROBE_HARDWARE_EXCLUDED


def captured_model_types(registry: Registry, stack_workload: str) -> set[str]:
    """Model types whose probe captured every workload beside `stack_workload` rows as one graph without a
    break (CPU capture of a tiny model: machine evidence, not support)."""
    if registry.probe is None:
        return set()
    found = set()
    for model_type, result in registry.probe.probes.items():
        workloads = workloads_for(result.model_dump(mode="json"), stack_workload)
        if workloads and all(is_captured(w) for _, w in workloads):
            found.add(model_type)
    return found


def _rows(registry: Registry, items: list[tuple[str, str | None]], unit_label: str) -> list[CoverageRow]:
    """items: (label shown when missing, model_type or None)."""
    owners = family_of(registry)
    captured = {w: captured_model_types(registry, w) for w in ("inference", "training")}
    by_release: dict[str | None, dict[tuple[str, str, str], str]] = {}
    rows = []
    for stack, workload in combinations(registry):
        release = current_release(registry, stack)
        if release not in by_release:
            by_release[release] = status_by_model_type(registry, release)
        status = by_release[release]
        row = CoverageRow(stack.id, stack.name, workload, len(items), release=release,
                          probe_applies=registry.probe is not None and probe_applies(stack))
        static = captured.get(str(workload), set()) if row.probe_applies else set()
        for label, model_type in items:
            found = status.get((model_type, stack.id, workload)) if model_type else None
            if found == "supported":
                row.supported += 1
            elif found == "partial":
                row.partial += 1
            else:
                owner = owners.get(model_type or "")
                probe_static = bool(model_type) and model_type in static
                row.missing_static += probe_static
                row.missing.append({
                    "static": f"{workload} workloads captured on CPU" if probe_static else "",
                    "label": label,
                    "model_type": model_type or "",
                    "url": urls.relative_url(urls.family_url(owner), "coverage/") if owner else "",
                })
        rows.append(row)
    return rows


def references(registry: Registry, hub_snapshots: list[HubSnapshot]) -> list[Reference]:
    found = []
    snapshot = registry.transformers
    if snapshot is not None and snapshot.causal_lm:
        items: list[tuple[str, str | None]] = [(t, t) for t in sorted(snapshot.causal_lm)]
        found.append(Reference(
            "transformers-causal-lm", "transformers text-generation model types",
            f"The model types with a causal-LM class in transformers {snapshot.transformers_version} "
            f"(snapshot taken {snapshot.taken.isoformat()}).",
            "model types", len(items), _rows(registry, items, "model type"),
            source=snapshot.source, taken=snapshot.taken.isoformat(),
        ))
    for hub in hub_snapshots:
        if hub.problem:
            found.append(Reference(hub.name, hub.title, "", "models", 0, [], problem=hub.problem))
            continue
        items = [(m.repo_id, m.model_type or m.pipeline_class) for m in hub.models]
        untyped = sum(1 for _, key in items if not key)
        description = (f"{len(items)} popular Hub models; a model counts when its model_type "
                       "(or diffusers pipeline class) is covered.")
        if untyped:
            description += f" {untyped} of them have no model_type in the snapshot (config unreadable) and count as missing."
        if hub.taken:
            description += f" Snapshot taken {hub.taken}."
        found.append(Reference(hub.name, hub.title, description, "models", len(items),
                               _rows(registry, items, "model"), source=hub.source, taken=hub.taken))
    return found


def render(registry: Registry, hub_snapshots: list[HubSnapshot] | None = None) -> dict[str, str]:
    refs = references(registry, hub_snapshots or [])
    parts = [
        front_matter(title="Coverage"),
        heading(1, "Coverage"),
        block("coverage_intro.html.j2", release=registry.newest_release, references=refs,
              has_hub=bool(hub_snapshots)),
    ]
    for ref in refs:
        parts.append(heading(2, ref.title, ref.id))
        parts.append(block("coverage_reference.html.j2", ref=ref, has_probe=registry.probe is not None))
    return {"coverage.md": page(*parts)}
