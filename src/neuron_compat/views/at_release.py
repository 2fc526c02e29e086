"""Derived views of the registry: what holds at one release, and what changed between two.

Statements store ranges (since/until); the per-release grid is drawn here, at build time. The release
pages, the changelog, the PR summary and the resolver all read these views, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import ConstraintKind, Status

if TYPE_CHECKING:  # the functions read models and compiled views (compiled.py) alike, by attribute
    from neuron_compat.contract.models import Family, Stack, Statement
    from neuron_compat.loading.loaded_registry import Registry

# Constraint kinds that mean "you must set something": a statement carrying one is not drawn as plain green.
REQUIREMENT_KINDS = frozenset({ConstraintKind.FLAG, ConstraintKind.ENV, ConstraintKind.SETTING})


def covers(statement: Statement, release: str) -> bool:
    """Does `statement` hold at Neuron release `release`?"""
    key = version_key(release)
    if statement.since is not None and key < version_key(statement.since):
        return False
    return statement.until is None or key < version_key(statement.until)


def stack_shipped(stack: Stack, release: str) -> bool:
    """Is the stack part of Neuron release `release` (not before its first, not from its end of support)?"""
    key = version_key(release)
    if stack.since is not None and key < version_key(stack.since):
        return False
    return stack.end_of_support is None or key < version_key(stack.end_of_support)


def stack_horizon(stack: Stack) -> str | None:
    """For a stack with its own release schedule: the newest Neuron release one of its versions targets."""
    if not stack.separate_releases or not stack.versions:
        return None
    return max((v.neuron for v in stack.versions), key=version_key)


def beyond_horizon(stack: Stack, release: str) -> bool:
    """True when no version of a separately released stack targets `release` yet: its claims are unknown there."""
    horizon = stack_horizon(stack)
    return horizon is not None and version_key(release) > version_key(horizon)


def horizon_note(stack: Stack, release: str) -> str:
    newest = stack.versions[-1]
    return (f"no {stack.name} release targets Neuron {release} yet; its newest, {newest.version}, "
            f"targets Neuron {newest.neuron}")


def statements_at(family: Family, release: str) -> list[Statement]:
    return [s for s in family.support if covers(s, release)]


def has_requirements(statement: Statement) -> bool:
    return any(ConstraintKind(c.kind) in REQUIREMENT_KINDS for c in statement.constraints)


CLAIM_STATUSES = frozenset({"supported", "supported-with-requirements", "partial"})
"""Drawn statuses (display_status) that claim the model runs: what coverage, counts and advice count."""


def display_status(statement: Statement) -> str:
    """The status as drawn: 'supported' becomes 'supported-with-requirements' when flags must be set."""
    if statement.status == Status.SUPPORTED and has_requirements(statement):
        return "supported-with-requirements"
    return str(statement.status)


@dataclass(frozen=True, order=True)
class CellKey:
    family: str
    stack: str
    workload: str
    hardware: str


@dataclass(frozen=True)
class Cell:
    """One family x stack x workload x hardware at one release.

    `status` is the statement's, except beyond a separately released stack's horizon, where it is 'unknown'
    and `reason` says why. Stacks not shipped at the release have no cells.
    """

    key: CellKey
    status: str
    statement: Statement
    reason: str | None = None


@dataclass(frozen=True)
class Held:
    """A statement as drawn at one release: its display status, or 'unknown' past its stack's horizon."""

    statement: Statement
    status: str
    reason: str | None = None  # why a claim counts as unknown here (past a separately released stack's horizon)

    @property
    def claim_status(self) -> str:
        """The registry status at the release ('unknown' past the horizon), before display_status."""
        return str(Status.UNKNOWN) if self.reason else str(self.statement.status)


StackStates = dict[str, tuple[bool, "str | None"]]
"""Per stack id at one release: (shipped, why its claims are unknown there or None)."""


def stack_states(registry: Registry, release: str) -> StackStates:
    states: StackStates = {}
    for stack in registry.stacks:
        shipped = stack_shipped(stack, release)
        states[stack.id] = (shipped, horizon_note(stack, release) if shipped and beyond_horizon(stack, release) else None)
    return states


def held_at(family: Family, release: str, states: StackStates, stack: str | None = None,
            workload: str | None = None) -> list[Held]:
    """What holds for `family` at `release`: the one definition that the release pages, the changelog, the
    family pages, the matrix and the stacks page draw (site/support.ReleaseView caches `states` over it).

    Statements of a stack not shipped at the release are left out; past the Neuron release that a
    separately released stack's newest version targets, claims become 'unknown' (with the reason).
    `states` is `stack_states(registry, release)`; a stack missing from it counts as shipped.
    """
    found = []
    for statement in family.support:
        if stack is not None and statement.stack != stack:
            continue
        if workload is not None and str(statement.workload) != workload:
            continue
        if not covers(statement, release):
            continue
        shipped, reason = states.get(statement.stack, (True, None))
        if not shipped:
            continue
        if reason and str(statement.status) != Status.UNKNOWN:
            found.append(Held(statement, str(Status.UNKNOWN), reason))
        else:
            found.append(Held(statement, display_status(statement)))
    return found


def cells_at(registry: Registry, release: str) -> dict[CellKey, Cell]:
    """Every cell at `release`, from `held_at` (the registry status: no supported-with-requirements)."""
    cells: dict[CellKey, Cell] = {}
    states = stack_states(registry, release)
    for family in registry.families:
        for held in held_at(family, release, states):
            statement = held.statement
            for hardware in statement.hardware:
                key = CellKey(family.id, statement.stack, str(statement.workload), str(hardware))
                cells[key] = Cell(key, held.claim_status, statement, held.reason)
    return cells


@dataclass(frozen=True, order=True)
class Change:
    """A difference between two views. kind: 'added', 'removed' or 'changed'."""

    key: CellKey
    kind: str
    before: str | None
    after: str | None

    def describe(self) -> str:
        where = f"{self.key.family} / {self.key.stack} / {self.key.workload} / {self.key.hardware}"
        if self.kind == "added":
            return f"{where}: {self.after} (new)"
        if self.kind == "removed":
            return f"{where}: {self.before} -> no statement"
        return f"{where}: {self.before} -> {self.after}"


def diff_cells(before: dict[CellKey, Cell], after: dict[CellKey, Cell]) -> list[Change]:
    changes: list[Change] = []
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        if old is None and new is not None:
            changes.append(Change(key, "added", None, new.status))
        elif new is None and old is not None:
            changes.append(Change(key, "removed", old.status, None))
        elif old is not None and new is not None and old.status != new.status:
            changes.append(Change(key, "changed", old.status, new.status))
    return changes


def release_changes(registry: Registry, release: str) -> list[Change]:
    """What changed at `release` compared with the release before it (empty view before the first)."""
    versions = registry.release_versions
    index = versions.index(release)
    before = cells_at(registry, versions[index - 1]) if index > 0 else {}
    return diff_cells(before, cells_at(registry, release))


def statement_fields_changed(old: Statement, new: Statement) -> list[str]:
    """Names of fields that differ between two versions of a statement (for changelogs and PR summaries)."""
    old_data, new_data = old.model_dump(), new.model_dump()
    return sorted(name for name in new_data if old_data.get(name) != new_data.get(name))


def constraint_value(value: object) -> str:
    """A constraint's value as text: true/false, a list joined with commas, else as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(constraint_value(item) for item in value)
    return str(value)
