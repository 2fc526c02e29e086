"""Support data arranged for pages: statement groups per family, rows of the matrix, stable anchors.

Everything here is derived from the registry with `neuron_compat.views.at_release`, so pages agree with the
changelog and the resolver about what holds at a release.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from neuron_compat.contract.models import Family, Stack, Statement
from neuron_compat.contract.vocabulary import Workload
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site.presentation import NO_STATEMENT, STATUS_ORDER
from neuron_compat.views.at_release import (
    CellState,
    Held,
    StackStates,
    beyond_horizon,
    cell_at,
    held_at,
    stack_shipped,
    stack_states,
)
from neuron_compat.views.inherited_capabilities import Effective, effective_for

WORKLOAD_ORDER = [w.value for w in Workload]


def unique_anchor(statement: Statement) -> str:
    """An id that stays with one statement while others are added: stack-workload--hardware--since."""
    hardware = "-".join(str(h) for h in statement.hardware)
    since = (statement.since or "all").replace(".", "-")
    return f"{statement.anchor}--{hardware}--{since}"


@dataclass(frozen=True)
class SourceLink:
    url: str
    label: str  # the source's title, else the tail of its path (never the bare host: sources share hosts)


def path_label(url: str) -> str:
    """The last two segments of a URL's path, with its fragment: 'model-dev/onboarding-models.md#L125-L142'."""
    parts = urlsplit(url)
    tail = "/".join([segment for segment in parts.path.split("/") if segment][-2:]) or parts.netloc
    return f"{tail}#{parts.fragment}" if parts.fragment else tail


def capability_links(registry: Registry, stack_id: str, source_urls: Iterable[str]) -> tuple[SourceLink, ...]:
    """A statement's stack-capability sources, each once, labelled by the title its capability file gives."""
    titles: dict[str, str] = {}
    for capability in registry.capabilities_of(stack_id):
        for source in capability.sources:
            if source.title:
                titles.setdefault(str(source.url), str(source.title))
    return tuple(SourceLink(url, titles.get(url) or path_label(url)) for url in dict.fromkeys(source_urls))


@dataclass(frozen=True)
class AnchoredStatement:
    statement: Statement
    anchor: str  # unique to this statement
    index: int  # position in family.support
    effective: Effective  # its attention/dtypes/quantization, own or from its stack (views/inherited_capabilities.py)
    capability_links: tuple[SourceLink, ...] = ()  # where the values "from the stack" come from


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
        effective = effective_for(registry, family, statement)
        links = capability_links(registry, statement.stack, effective.capability_sources)
        groups[key].statements.append(AnchoredStatement(statement, unique_anchor(statement), index, effective, links))
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

    def cell(self, family: Family, stack: str, workload: str, hardware: str | None = None) -> CellState:
        """`views.cell_at` at this release (holds / not yet / ended / no statement)."""
        if self.release is None:
            return CellState("no-statement")
        return cell_at(self.registry, family, stack, workload, hardware, self.release, self._states)


def current_release(registry: Registry, stack: Stack) -> str | None:
    """A stack's current release: the newest Neuron release its own newest version targets (optimum-neuron trails
    Neuron), else the newest release. A stack no longer shipped is at the newest release too, where its
    statements have ended (cell_at says "ended at R"): its last claims are not "now"."""
    newest = registry.newest_release
    if newest is None or not stack_shipped(stack, newest):
        return newest
    usable = [v for v in registry.release_versions if stack_shipped(stack, v) and not beyond_horizon(stack, v)]
    return usable[-1] if usable else newest


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
    state: CellState

    @property
    def held(self) -> tuple[Held, ...]:
        return self.state.held

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
            rows.append(MatrixRow(family, stack, workload, view.cell(family, stack.id, workload)))
    return rows
