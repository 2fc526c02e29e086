""""Which stack to pick, what to watch out for": a short advice list derived from a family's statements.

Nothing here is hand-written per family: the advice is the registry's data at the newest release, ordered
by status and by the stack's own lifecycle (active before beta before maintenance ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from neuron_compat.contract.models import Family, Statement
from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import ConstraintKind, StackStatus
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site.freshness import Freshness
from neuron_compat.site.presentation import STACK_STATUS_RANK, STATUS_ORDER
from neuron_compat.site.support import WORKLOAD_ORDER, ReleaseView, current_release
from neuron_compat.views.at_release import (
    CLAIM_STATUSES,
    REQUIREMENT_KINDS,
    Held,
    constraint_value,
    display_status,
    has_requirements,
)


@dataclass(frozen=True)
class Pick:
    """A stack that works for a workload at the newest release."""

    stack_id: str
    stack_name: str
    stack_status: str
    status: str
    hardware: list[str]
    since: str | None
    anchor: str


@dataclass
class WorkloadAdvice:
    workload: str
    picks: list[Pick] = field(default_factory=list)
    partial: list[Pick] = field(default_factory=list)
    ended: list[tuple[str, str, str]] = field(default_factory=list)  # (stack name, until, anchor)
    trailing: list[tuple[Pick, str]] = field(default_factory=list)  # (pick, the stack's current release)


@dataclass
class FamilyAdvice:
    release: str | None
    workloads: list[WorkloadAdvice]
    cautions: list[str]  # Markdown (rendered through the safe path)

    @property
    def empty(self) -> bool:
        return not any(w.picks or w.partial or w.ended or w.trailing for w in self.workloads) and not self.cautions


def _pick(registry: Registry, held: Held) -> Pick:
    statement = held.statement
    stack = registry.stack_by_id[statement.stack]
    return Pick(
        stack.id, stack.name, str(stack.status), held.status,
        [str(h) for h in statement.hardware], statement.since, statement.anchor,
    )


def _pick_order(pick: Pick) -> tuple[int, int, int]:
    return (STATUS_ORDER.index(pick.status), STACK_STATUS_RANK.get(pick.stack_status, 9), -len(pick.hardware))


def _merge(picks: list[Pick]) -> list[Pick]:
    """One pick per stack: several statements (per hardware) of the same stack become one line."""
    merged: dict[str, Pick] = {}
    for pick in sorted(picks, key=_pick_order):
        if pick.stack_id in merged:
            first = merged[pick.stack_id]
            hardware = first.hardware + [h for h in pick.hardware if h not in first.hardware]
            merged[pick.stack_id] = Pick(first.stack_id, first.stack_name, first.stack_status, first.status,
                                         hardware, first.since, first.anchor)
        else:
            merged[pick.stack_id] = pick
    return list(merged.values())


def _cautions(registry: Registry, family: Family, held: list[Held], freshness: Freshness) -> list[str]:
    cautions: list[str] = []
    if family.remote_code:
        cautions.append("The checkpoints need `trust_remote_code=True`: the model type is not part of transformers.")
    for item in held:
        statement = item.statement
        stack = registry.stack_by_id[statement.stack]
        if item.reason:
            cautions.append(f"{stack.name}: {item.reason}, so its claims count as unknown here.")
            continue
        if item.status not in CLAIM_STATUSES:
            continue
        where = f"{stack.name} ({statement.workload})"
        if str(stack.status) in (StackStatus.MAINTENANCE, StackStatus.DEPRECATED, StackStatus.END_OF_SUPPORT):
            cautions.append(f"{where}: the stack is in *{stack.status}*; plan for its successor.")
        if has_requirements(statement):
            settings = ", ".join(
                f"`{c.name}={constraint_value(c.value)}`" if c.value is not None else f"`{c.name}`"
                for c in statement.constraints
                if ConstraintKind(c.kind) in REQUIREMENT_KINDS
            )
            cautions.append(f"{where}: must set {settings}.")
        kinds = {ConstraintKind(c.kind) for c in statement.constraints}
        if ConstraintKind.STATIC_SHAPES in kinds or ConstraintKind.STATIC_KV_CACHE in kinds:
            cautions.append(f"{where}: shapes are fixed at compile time (static shapes / KV cache): compile per shape.")
        if item.status == "partial":
            note = next((n.text for n in statement.notes), None)
            cautions.append(f"{where} is partial" + (f": {note}" if note else "."))
    # the same policy as the 'may be stale' marks (freshness.py), never a second one
    stale = [h.statement for h in held if freshness.is_stale(h.statement)]
    if stale:
        names = sorted({registry.stack_by_id[s.stack].name for s in stale})
        cautions.append(
            f"Sources for {', '.join(names)} were last verified before {freshness.cutoff_text}: "
            "re-check them, or report a result."
        )
    unique: dict[str, None] = {}
    for caution in cautions:
        unique.setdefault(caution, None)
    return list(unique)


def family_advice(registry: Registry, family: Family, view: ReleaseView | None = None,
                  freshness: Freshness | None = None) -> FamilyAdvice:
    release = registry.newest_release
    if release is None:
        return FamilyAdvice(None, [], [])
    current = (view or ReleaseView(registry, release)).held(family)
    workloads: list[WorkloadAdvice] = []
    for workload in WORKLOAD_ORDER:
        advice = WorkloadAdvice(workload)
        here = [h for h in current if str(h.statement.workload) == workload]
        advice.picks = _merge([_pick(registry, h) for h in here if h.status.startswith("supported")])
        picked = {p.stack_id for p in advice.picks}
        advice.partial = _merge([
            _pick(registry, h) for h in here if h.status == "partial" and h.statement.stack not in picked
        ])
        # Stacks with their own release line whose newest version trails this release: what held there.
        for stack_id in sorted({h.statement.stack for h in here if h.reason}):
            stack = registry.stack_by_id[stack_id]
            release_there = current_release(registry, stack)
            if release_there is None or release_there == release:
                continue
            there = ReleaseView(registry, release_there).held(family, stack_id, workload)
            usable = _merge([_pick(registry, h) for h in there if h.status.startswith("supported") or h.status == "partial"])
            advice.trailing.extend((pick, release_there) for pick in usable)
        current_stacks = {h.statement.stack for h in here}  # anything held now is not 'no longer'
        ended: dict[str, Statement] = {}
        for statement in family.support:
            if str(statement.workload) != workload or statement.until is None or statement.stack in current_stacks:
                continue
            if version_key(statement.until) > version_key(release):
                continue
            if not (display_status(statement).startswith("supported") or statement.status == "partial"):
                continue
            last = ended.get(statement.stack)
            if last is None or version_key(statement.until) > version_key(last.until or "0"):
                ended[statement.stack] = statement
        for statement in ended.values():
            advice.ended.append((registry.stack_by_id[statement.stack].name, statement.until or "", statement.anchor))
        if advice.picks or advice.partial or advice.ended or advice.trailing or here:
            workloads.append(advice)
    return FamilyAdvice(release, workloads, _cautions(registry, family, current, freshness or Freshness.of(registry)))
