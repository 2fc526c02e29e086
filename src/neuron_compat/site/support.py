"""Support data arranged for pages: statement groups per family, rows of the matrix, stable anchors.

Everything here is derived from the registry with `neuron_compat.views.at_release`, so pages agree with the
changelog and the resolver about what holds at a release.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from neuron_compat.contract.models import Family, Stack, Statement
from neuron_compat.contract.vocabulary import Workload
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site.presentation import NO_STATEMENT, STATUS_ORDER
from neuron_compat.views.at_release import (
    Held,
    StackStates,
    beyond_horizon,
    held_at,
    stack_shipped,
    stack_states,
)
from neuron_compat.views.inherited_capabilities import Effective, effective_values

WORKLOAD_ORDER = [w.value for w in Workload]


def unique_anchor(statement: Statement) -> str:
    """An id that stays with one statement while others are added: stack-workload--hardware--since."""
    hardware = "-".join(str(h) for h in statement.hardware)
    since = (statement.since or "all").replace(".", "-")
    return f"{statement.anchor}--{hardware}--{since}"


@dataclass(frozen=True)
class AnchoredStatement:
    statement: Statement
    anchor: str  # unique to this statement
    index: int  # position in family.support
    effective: Effective  # its attention/dtypes/quantization, own or from its stack (capabilities.py)


@dataclass
class StatementGroup:
    """All statements of one family for one stack x workload; the group heading carries the plain anchor."""

    stack: Stack
    workload: str
    statements: list[AnchoredStatement] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"{self.stack.id}-{self.workload}"


def combinations(registry: Registry) -> list[tuple[Stack, str]]:
    """Every stack x workload the stacks offer, in stacks.yaml order then inference before training."""
    return [
        (stack, workload)
        for stack in registry.stacks
        for workload in WORKLOAD_ORDER
        if workload in [str(w) for w in stack.workloads]
    ]


def statement_groups(registry: Registry, family: Family) -> list[StatementGroup]:
    stack_rank = {stack.id: position for position, stack in enumerate(registry.stacks)}
    groups: dict[tuple[str, str], StatementGroup] = {}
    for index, statement in enumerate(family.support):
        key = (statement.stack, str(statement.workload))
        if key not in groups:
            groups[key] = StatementGroup(registry.stack_by_id[statement.stack], str(statement.workload))
        effective = effective_values(registry.capabilities_of(statement.stack), statement)
        groups[key].statements.append(AnchoredStatement(statement, unique_anchor(statement), index, effective))
    return sorted(
        groups.values(),
        key=lambda g: (stack_rank.get(g.stack.id, len(stack_rank)), WORKLOAD_ORDER.index(g.workload)),
    )


class ReleaseView:
    """What holds at one release: `views.held_at` with the stacks' states at the release worked out once."""

    def __init__(self, registry: Registry, release: str | None) -> None:
        self.registry = registry
        self.release = release
        self._states: StackStates = stack_states(registry, release) if release is not None else {}

    def held(self, family: Family, stack: str | None = None, workload: str | None = None) -> list[Held]:
        if self.release is None:
            return []
        return held_at(family, self.release, self._states, stack, workload)


def current_release(registry: Registry, stack: Stack) -> str | None:
    """A stack's current release: the newest Neuron release that ships it and that its own newest version
    targets (optimum-neuron trails Neuron), or for a stack no longer shipped its last release."""
    usable = [v for v in registry.release_versions if stack_shipped(stack, v) and not beyond_horizon(stack, v)]
    return usable[-1] if usable else registry.newest_release


class CurrentView:
    """Each stack at its own current release (see `current_release`): "what can I use today" per stack."""

    def __init__(self, registry: Registry) -> None:
        self.release_of = {stack.id: current_release(registry, stack) for stack in registry.stacks}
        self._views = {r: ReleaseView(registry, r) for r in set(self.release_of.values())}

    def held(self, family: Family) -> list[Held]:
        found = []
        for stack_id, release in self.release_of.items():
            found.extend(self._views[release].held(family, stack_id))
        return found


def best_status(held: Iterable[Held]) -> str:
    """The status to show for several statements (different hardware): the most useful one first."""
    statuses = [h.status for h in held]
    if not statuses:
        return NO_STATEMENT
    return min(statuses, key=STATUS_ORDER.index)


def search_terms(family: Family) -> list[str]:
    """Names people type to find a family: its id, name, aliases, model types, classes, checkpoints."""
    terms = [family.id, family.name, *family.aliases, *family.model_types, *family.architectures, *family.pipelines]
    for example in family.examples:
        terms.append(example)
        terms.append(example.rsplit("/", 1)[-1])
    seen: dict[str, None] = {}
    for term in terms:
        seen.setdefault(term, None)
    return list(seen)


@dataclass(frozen=True)
class MatrixRow:
    """One family x stack x workload at one release."""

    family: Family
    stack: Stack
    workload: str
    held: tuple[Held, ...]

    @property
    def status(self) -> str:
        return best_status(self.held)

    @property
    def statuses(self) -> list[str]:
        found = {h.status for h in self.held} or {NO_STATEMENT}
        return [s for s in STATUS_ORDER if s in found]

    def values(self, attribute: str) -> list[str]:
        return sorted({str(v) for h in self.held for v in getattr(h.statement, attribute)})

    @property
    def anchor(self) -> str:
        return f"{self.stack.id}-{self.workload}"


def matrix_rows(registry: Registry, view: ReleaseView) -> list[MatrixRow]:
    rows = []
    combos = combinations(registry)
    for family in registry.families:
        for stack, workload in combos:
            rows.append(MatrixRow(family, stack, workload, tuple(view.held(family, stack.id, workload))))
    return rows
