"""Support data arranged for pages: statement groups per family, rows of the matrix, stable anchors.

Everything here is derived from the registry with `neuron_compat.views`, so pages agree with the
changelog and the resolver about what holds at a release.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..registry import Registry
from ..schema import Family, Stack, Statement
from ..views import covers, display_status
from ..vocabulary import Workload
from .presentation import NO_STATEMENT, STATUS_ORDER

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
        groups[key].statements.append(AnchoredStatement(statement, unique_anchor(statement), index))
    return sorted(
        groups.values(),
        key=lambda g: (stack_rank.get(g.stack.id, len(stack_rank)), WORKLOAD_ORDER.index(g.workload)),
    )


def statements_for(family: Family, stack: str, workload: str, release: str | None) -> list[Statement]:
    """The statements of one stack x workload that hold at `release` (all of them when release is None)."""
    return [
        s for s in family.support
        if s.stack == stack and str(s.workload) == workload and (release is None or covers(s, release))
    ]


def best_status(statements: Iterable[Statement]) -> str:
    """The status to show for several statements (different hardware): the most useful one first."""
    statuses = [display_status(s) for s in statements]
    if not statuses:
        return NO_STATEMENT
    return min(statuses, key=STATUS_ORDER.index)


def sorted_values(values: Iterable[str], vocabulary_order: list[str]) -> list[str]:
    unique = set(values)
    return [v for v in vocabulary_order if v in unique]


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
    statements: tuple[Statement, ...]

    @property
    def status(self) -> str:
        return best_status(self.statements)

    @property
    def statuses(self) -> list[str]:
        found = {display_status(s) for s in self.statements} or {NO_STATEMENT}
        return [s for s in STATUS_ORDER if s in found]

    def values(self, attribute: str) -> list[str]:
        return sorted({str(v) for s in self.statements for v in getattr(s, attribute)})

    @property
    def anchor(self) -> str:
        return f"{self.stack.id}-{self.workload}"


def matrix_rows(registry: Registry, release: str | None) -> list[MatrixRow]:
    rows = []
    combos = combinations(registry)
    for family in registry.families:
        for stack, workload in combos:
            held = statements_for(family, stack.id, workload, release) if release else []
            rows.append(MatrixRow(family, stack, workload, tuple(held)))
    return rows
