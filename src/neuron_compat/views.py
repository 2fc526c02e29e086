"""Derived views of the registry: what holds at one release, and what changed between two.

Statements store ranges (since/until); the per-release grid is drawn here, at build time. The release
pages, the changelog, the PR summary and the resolver all read these views, so they agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .registry import Registry
from .schema import Family, Statement
from .versions import version_key
from .vocabulary import ConstraintKind, Status

# Constraint kinds that mean "you must set something": a statement carrying one is not drawn as plain green.
REQUIREMENT_KINDS = frozenset({ConstraintKind.FLAG, ConstraintKind.ENV, ConstraintKind.SETTING})


def covers(statement: Statement, release: str) -> bool:
    """Does `statement` hold at Neuron release `release`?"""
    key = version_key(release)
    if statement.since is not None and key < version_key(statement.since):
        return False
    return statement.until is None or key < version_key(statement.until)


def statements_at(family: Family, release: str) -> list[Statement]:
    return [s for s in family.support if covers(s, release)]


def has_requirements(statement: Statement) -> bool:
    return any(ConstraintKind(c.kind) in REQUIREMENT_KINDS for c in statement.constraints)


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
    """One family x stack x workload x hardware at one release."""

    key: CellKey
    status: str
    statement: Statement


def cells_at(registry: Registry, release: str) -> dict[CellKey, Cell]:
    cells: dict[CellKey, Cell] = {}
    for family in registry.families:
        for statement in statements_at(family, release):
            for hardware in statement.hardware:
                key = CellKey(family.id, statement.stack, str(statement.workload), str(hardware))
                cells[key] = Cell(key, str(statement.status), statement)
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


def iter_statements(registry: Registry) -> Iterator[tuple[Family, int, Statement]]:
    for family in registry.families:
        for index, statement in enumerate(family.support):
            yield family, index, statement


def newest_first(versions: Iterable[str]) -> list[str]:
    return sorted(versions, key=version_key, reverse=True)
