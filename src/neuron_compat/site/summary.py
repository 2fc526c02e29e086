""""Which stack to pick, what to watch out for": a short advice list derived from a family's statements.

Nothing here is hand-written per family: what to install per hardware is views.recommendation's answer for the
family (the ranking `check` uses), and the cautions are the registry's data at the newest release.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from neuron_compat.contract.models import Family
from neuron_compat.contract.vocabulary import ConstraintKind, StackStatus, is_claim
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site.freshness import Freshness
from neuron_compat.site.support import WORKLOAD_ORDER, ReleaseView
from neuron_compat.views.answer import family_answers
from neuron_compat.views.at_release import REQUIREMENT_KINDS, Held, constraint_value, has_requirements
from neuron_compat.views.recommendation import Recommendation, choice_text, scope_text


@dataclass(frozen=True)
class HardwareLine:
    """Hardware generations that share one recommendation (views.recommendation), and that recommendation."""

    hardware: list[str]
    recommendation: Recommendation
    alternatives: list[str]  # views.recommendation.choice_text of each alternative


@dataclass
class WorkloadAdvice:
    workload: str
    lines: list[HardwareLine] = field(default_factory=list)


@dataclass
class FamilyAdvice:
    release: str | None
    workloads: list[WorkloadAdvice]
    cautions: list[str]  # Markdown (rendered through the safe path)

    @property
    def empty(self) -> bool:
        return not any(w.lines for w in self.workloads) and not self.cautions


def _workload_advice(workload: str, recommendations: list[Recommendation]) -> WorkloadAdvice:
    """One line per recommendation, hardware with the same choice and alternatives folded into one."""
    advice = WorkloadAdvice(workload)
    for item in recommendations:
        if item.workload != workload:
            continue
        alternatives = [choice_text(choice) for choice in item.alternatives]
        same = next((line for line in advice.lines if line.recommendation.line == item.line
                     and line.alternatives == alternatives), None)
        if same is not None:
            same.hardware.append(item.hardware)
        else:
            advice.lines.append(HardwareLine([item.hardware], item, alternatives))
    return advice


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
        if not is_claim(item.status):
            continue
        where = f"{stack.name} ({statement.workload})"
        if str(stack.status) in (StackStatus.MAINTENANCE, StackStatus.DEPRECATED, StackStatus.END_OF_SUPPORT):
            cautions.append(f"{where}: the stack is in *{stack.status}*; plan for its successor.")
        if has_requirements(statement):
            settings = ", ".join(
                (f"`{c.name}={constraint_value(c.value)}`" if c.value is not None else f"`{c.name}`") + scope_text(c)
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
                  freshness: Freshness | None = None, found: list[Recommendation] | None = None) -> FamilyAdvice:
    """Per workload and hardware, what to install (views.recommendation.recommend over the family's statements at
    every release, the same function `check` and the check page answer with), and the cautions at the newest."""
    release = registry.newest_release
    if release is None:
        return FamilyAdvice(None, [], [])
    current = (view or ReleaseView(registry, release)).held(family)
    recommendations = found if found is not None else family_answers(registry, family)
    workloads = [_workload_advice(w, recommendations) for w in WORKLOAD_ORDER]
    return FamilyAdvice(release, [w for w in workloads if w.lines],
                        _cautions(registry, family, current, freshness or Freshness.of(registry)))
