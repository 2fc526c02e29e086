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
from neuron_compat.site.support import CurrentView, ReleaseView, combinations, current_release
from neuron_compat.site.tested_data import checkpoint_links
from neuron_compat.site.upstream import HubSnapshot
from neuron_compat.views.at_release import stack_shipped
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
    # a Hub model that has a checkpoint page links to it (that page links its family); else to its family's page
    checkpoint_urls = (checkpoint_links(registry, [label for label, _ in items], "coverage/")
                       if unit_label == "model" else {})
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
                    "url": checkpoint_urls.get(label) or (
                        urls.relative_url(urls.family_url(owner), "coverage/") if owner else ""),
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


CLASS_TASKS = (
    ("ForCausalLM", "text-generation"),
    ("ForMaskedLM", "fill-mask"),
    ("ForSequenceClassification", "text-classification"),
    ("ForTokenClassification", "token-classification"),
    ("ForQuestionAnswering", "question-answering"),
    ("ForMultipleChoice", "multiple-choice"),
    ("ForImageClassification", "image-classification"),
    ("ForObjectDetection", "object-detection"),
    ("ForSemanticSegmentation", "image-segmentation"),
    ("ForDepthEstimation", "depth-estimation"),
    ("ForCTC", "automatic-speech-recognition"),
    ("ForAudioClassification", "audio-classification"),
)
"""A transformers class name's ending and the task it serves (the naming of transformers' auto classes); a
model type is counted under a task when the snapshot lists a class of it with that ending. Endings that name no
single task (ForConditionalGeneration: text-to-text or image-text-to-text) are left out."""

ENDED_STACKS = frozenset({"end-of-support"})


@dataclass
class TodayCell:
    covered: int = 0
    ended_only: int = 0  # covered only by a stack that has ended, at its last release


@dataclass
class TodayRow:
    task: str
    total: int
    cells: dict[str, TodayCell] = field(default_factory=dict)


@dataclass
class TodayTable:
    workload: str
    hardware: list[str]
    rows: list[TodayRow]


def model_types_by_task(registry: Registry) -> dict[str, set[str]]:
    """Task -> the snapshot's model types with a class for it (causal_lm counts as text-generation too)."""
    snapshot = registry.transformers
    found: dict[str, set[str]] = {task: set() for _, task in CLASS_TASKS}
    if snapshot is None:
        return {}
    for model_type, classes in snapshot.architectures.items():
        for ending, task in CLASS_TASKS:
            if any(name.endswith(ending) for name in classes):
                found[task].add(model_type)
    found["text-generation"].update(snapshot.causal_lm)
    return {task: types for task, types in found.items() if types}


def _last_shipped(registry: Registry, stack: Stack) -> str | None:
    shipped = [v for v in registry.release_versions if stack_shipped(stack, v)]
    return shipped[-1] if shipped else None


def today_tables(registry: Registry) -> list[TodayTable]:
    """Per workload, per task of the transformers snapshot and per hardware: how many of the task's model types
    have a supported or partial path today (a family listing the model type and the task, with a claim on that
    hardware at the stack's own current release), and how many more only on an ended stack (at its last release)."""
    by_task = model_types_by_task(registry)
    if not by_task:
        return []
    today = CurrentView(registry)
    ended_views = {stack.id: ReleaseView(registry, release) for stack in registry.stacks
                   if str(stack.status) in ENDED_STACKS and (release := _last_shipped(registry, stack))}
    # (model_type, task, workload, hardware) -> "today" | "ended"
    paths: dict[tuple[str, str, str, str], str] = {}
    for family in registry.families:
        tasks = [str(t) for t in family.tasks]
        held = [(h, "today") for h in today.held(family)
                if str(registry.stack_by_id[h.statement.stack].status) not in ENDED_STACKS]
        for stack_id, view in ended_views.items():
            held += [(h, "ended") for h in view.held(family, stack_id)]
        for item, when in held:
            if not is_claim(item.status):
                continue
            for model_type in family.model_types:
                for task in tasks:
                    for on in item.statement.hardware:
                        key = (model_type, task, str(item.statement.workload), str(on))
                        if paths.get(key) != "today":
                            paths[key] = when
    hardware = sorted({str(h) for stack in registry.stacks for h in stack.hardware})
    tables = []
    for workload in ("inference", "training"):
        rows = []
        for task, types in sorted(by_task.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            row = TodayRow(task, len(types))
            for hw in hardware:
                cell = TodayCell()
                for model_type in types:
                    found = paths.get((model_type, task, workload, hw))
                    cell.covered += found == "today"
                    cell.ended_only += found == "ended"
                row.cells[hw] = cell
            rows.append(row)
        tables.append(TodayTable(workload, hardware, rows))
    return tables


def render(registry: Registry, hub_snapshots: list[HubSnapshot] | None = None) -> dict[str, str]:
    refs = references(registry, hub_snapshots or [])
    snapshot = registry.transformers
    parts = [
        front_matter(title="Coverage"),
        heading(1, "Coverage"),
        block("coverage_intro.html.j2", release=registry.newest_release, references=refs,
              has_hub=bool(hub_snapshots), snapshot=snapshot),
    ]
    tables = today_tables(registry)
    if tables:
        parts.append(heading(2, "What runs today, per hardware and task", "today"))
        parts.append(block("coverage_today.html.j2", tables=tables, snapshot=snapshot))
        parts.append(heading(2, "Per stack", "per-stack"))
    for ref in refs:
        parts.append(heading(3 if tables else 2, ref.title, ref.id))
        parts.append(block("coverage_reference.html.j2", ref=ref, has_probe=registry.probe is not None))
    return {"coverage.md": page(*parts)}
