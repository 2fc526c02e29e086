"""Derived views of the registry: what holds at one release, and what changed between two.

Statements store ranges (since/until); the per-release grid is drawn here, at build time. The release
pages, the changelog, the PR summary and the resolver all read these views, so they agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import CLAIM_STATUSES as VOCABULARY_CLAIM_STATUSES
from neuron_compat.contract.vocabulary import ConstraintKind, Status

if TYPE_CHECKING:  # the functions read models and compiled views (check/compiled_view.py) alike, by attribute
    from neuron_compat.contract.models import Family, Stack, Statement
    from neuron_compat.loading.indexes import RegistryIndexes
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


CLAIM_STATUSES = VOCABULARY_CLAIM_STATUSES
"""Re-exported from the contract (`vocabulary.is_claim` is the test): what coverage, counts and advice count."""


WITH_REQUIREMENTS = {str(Status.SUPPORTED): "supported-with-requirements"}
"""The drawn status of a status whose statement needs a flag, variable or setting (the check page reads it)."""


def display_status(statement: Statement) -> str:
    """The status as drawn: 'supported' becomes 'supported-with-requirements' when flags must be set."""
    status = str(statement.status)
    return WITH_REQUIREMENTS.get(status, status) if has_requirements(statement) else status


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
    """A statement as drawn at one release: its display status, or 'unknown' past its stack's horizon.

    `hardware` is where it holds at the release: its own hardware less any the stack has ended on (`Stack.ends`).
    `index` is its position in `family.support` (compiled views are rebuilt on each access, so tables key on it).
    """

    statement: Statement
    status: str
    reason: str | None = None  # why a claim counts as unknown here (past a separately released stack's horizon)
    hardware: tuple[str, ...] = ()
    index: int = -1

    @property
    def claim_status(self) -> str:
        """The registry status at the release ('unknown' past the horizon), before display_status."""
        return str(Status.UNKNOWN) if self.reason else str(self.statement.status)


def stack_end(stack: Stack, workload: str, hardware: str) -> str | None:
    """The first release without `stack` for `workload` on `hardware`: the earliest of its `end_of_support` and
    the `ends` that apply there, or None while it lives on."""
    found = [stack.end_of_support] if stack.end_of_support is not None else []
    found += [end.release for end in getattr(stack, "ends", ()) if _end_applies(end, workload, hardware)]
    return min(found, key=version_key) if found else None


def _end_applies(end: Any, workload: str, hardware: str) -> bool:
    # by attribute, so compiled views (no methods of StackEnd) read the same as the model
    return (not end.workloads or workload in end.workloads) and (not end.hardware or hardware in end.hardware)


def window(stack: Stack, statement: Statement, hardware: str) -> tuple[str | None, str | None]:
    """The releases [start, end) over which `statement` holds on `hardware`: its own since/until cut to the
    stack's first release and to where the stack ends for the statement's workload on that hardware."""
    starts = [v for v in (statement.since, stack.since) if v is not None]
    ends = [v for v in (statement.until, stack_end(stack, str(statement.workload), hardware)) if v is not None]
    return (max(starts, key=version_key) if starts else None, min(ends, key=version_key) if ends else None)


def _in_window(bounds: tuple[str | None, str | None], key: tuple[Any, ...]) -> bool:
    start, end = bounds
    return (start is None or key >= version_key(start)) and (end is None or key < version_key(end))


def hardware_at(stack: Stack, statement: Statement, release: str) -> tuple[str, ...]:
    """The hardware of `statement` on which it holds at `release` (empty: it does not hold there)."""
    key = version_key(release)
    return tuple(str(h) for h in statement.hardware if _in_window(window(stack, statement, str(h)), key))


StackStates = dict[str, tuple["Stack", "str | None"]]
"""Per stack id at one release: (the stack, why its claims are unknown there or None)."""


def stack_states(registry: RegistryIndexes, release: str) -> StackStates:
    """Worked out once per registry and release (`release_spans` asks every family at every release); read only."""
    memo: dict[Any, Any] = getattr(registry, "memo", {})
    key = ("stack_states", release)
    if key not in memo:
        memo[key] = {stack.id: (stack, horizon_note(stack, release) if beyond_horizon(stack, release) else None)
                     for stack in registry.stacks}
    states: StackStates = memo[key]
    return states


def held_at(family: Family, release: str, states: StackStates, stack: str | None = None,
            workload: str | None = None, hardware: str | None = None) -> list[Held]:
    """What holds for `family` at `release`: the one definition behind `cell_at`, the release pages, the
    changelog, the family pages, the matrix and the stacks page (site/support.ReleaseView caches `states`).

    A statement holds on the hardware where `window` covers the release (its range, cut to the stack's first
    release and its ends); past the Neuron release that a separately released stack's newest version targets,
    claims become 'unknown' (with the reason). `states` is `stack_states(registry, release)`; statements of a
    stack missing from it are left out. With `hardware`, only statements holding on it, and only it.
    """
    found = []
    for index, statement in enumerate(family.support):
        if stack is not None and statement.stack != stack:
            continue
        if workload is not None and str(statement.workload) != workload:
            continue
        if not covers(statement, release) or statement.stack not in states:
            continue
        owner, reason = states[statement.stack]
        where = hardware_at(owner, statement, release)
        if hardware is not None:
            where = tuple(h for h in where if h == hardware)
        if not where:
            continue
        if reason and str(statement.status) != Status.UNKNOWN:
            found.append(Held(statement, str(Status.UNKNOWN), reason, where, index))
        else:
            found.append(Held(statement, display_status(statement), None, where, index))
    return found


HOLDS, NOT_YET, ENDED, NO_STATEMENT = "holds", "not-yet", "ended", "no-statement"
CELL_KINDS = (HOLDS, NOT_YET, ENDED, NO_STATEMENT)
"""What a family x stack x workload (x hardware) is at a release, in the order `cell_at` decides them."""


@dataclass(frozen=True)
class CellState:
    """A family x stack x workload (optionally x hardware) at one release: what every view says "now".

    - `holds`: `held` are the statements that hold (each with its status and the hardware it holds on);
    - `not-yet`: nothing holds, a statement starts later: `release` is the first start, `statements` start there;
    - `ended`: nothing holds, statements held before: `release` is where the last ended (its `until`, or the
      stack's end), `held_through` the last release it held, `statements` those that ended there;
    - `no-statement`: the family has no statement for this stack and workload (on this hardware).
    """

    kind: str
    held: tuple[Held, ...] = ()
    release: str | None = None
    held_through: str | None = None
    statements: tuple[int, ...] = ()  # positions in family.support (not-yet / ended)
    hardware: tuple[str, ...] = ()  # not-yet / ended: the hardware of that start or end

    @property
    def statuses(self) -> list[str]:
        """The drawn statuses that hold, in no particular order (empty unless `holds`)."""
        return sorted({h.status for h in self.held})

    def signature(self) -> tuple[Any, ...]:
        """What tables compare when they fold equal states of consecutive releases into one span."""
        held = tuple((h.index, h.status, h.hardware, h.reason is not None) for h in self.held)
        return (self.kind, held, self.release, self.held_through, self.statements, self.hardware)


def cell_at(registry: RegistryIndexes, family: Family, stack: str, workload: str,
            hardware: str | None, release: str, states: StackStates | None = None) -> CellState:
    """The one "now": what `family` has on `stack` x `workload` (on `hardware`, or any) at `release`.

    The families index, the matrix, family pages, coverage, the stacks page, the JSON API and `check` (and, through
    the tables `release_table` publishes, the site's JavaScript) all take "status at R", "ended at R" and "no
    statement" from here. A later start wins over an earlier end (between two ranges the answer is "not yet").
    Pass `states` (`stack_states(registry, release)`) when asking many cells at one release.
    """
    states = states if states is not None else stack_states(registry, release)
    held = held_at(family, release, states, stack, workload, hardware)
    if held:
        return CellState(HOLDS, tuple(held))
    owner = states.get(stack, (None, None))[0]
    key = version_key(release)
    starts: list[tuple[str, int, str]] = []
    ends: list[tuple[str, int, str]] = []
    for index, statement in enumerate(family.support):
        if statement.stack != stack or str(statement.workload) != workload or owner is None:
            continue
        for item in statement.hardware:
            if hardware is not None and str(item) != hardware:
                continue
            start, end = window(owner, statement, str(item))
            if start is not None and version_key(start) > key:
                starts.append((start, index, str(item)))
            elif end is not None and version_key(end) <= key and (start is None or version_key(start) < version_key(end)):
                ends.append((end, index, str(item)))
    if starts:
        first = min((s[0] for s in starts), key=version_key)
        group = [s for s in starts if s[0] == first]
        return CellState(NOT_YET, release=first, statements=_unique(s[1] for s in group),
                         hardware=_unique(s[2] for s in group))
    if ends:
        last = max((e[0] for e in ends), key=version_key)
        group = [e for e in ends if e[0] == last]
        before = [v for v in registry.release_versions if version_key(v) < version_key(last)]
        return CellState(ENDED, release=last, held_through=before[-1] if before else None,
                         statements=_unique(e[1] for e in group), hardware=_unique(e[2] for e in group))
    return CellState(NO_STATEMENT)


def _unique(values: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(values))


@dataclass(frozen=True)
class Span:
    """Releases `first` to `last` (indexes into `release_versions`, inclusive) over which a cell is `state`."""

    first: int
    last: int
    state: CellState


def release_spans(registry: RegistryIndexes, family: Family, stack: str, workload: str,
                  hardware: str | None = None) -> list[Span]:
    """`cell_at` at every release, consecutive equal states folded into one span: the precomputed table the
    site's JavaScript reads (publishing and the matrix write it) instead of working "now" out again."""
    spans: list[Span] = []
    for position, release in enumerate(registry.release_versions):
        state = cell_at(registry, family, stack, workload, hardware, release)
        if spans and spans[-1].state.signature() == state.signature():
            spans[-1] = Span(spans[-1].first, position, spans[-1].state)
        else:
            spans.append(Span(position, position, state))
    return spans


def cells_at(registry: Registry, release: str) -> dict[CellKey, Cell]:
    """Every cell at `release`, from `held_at` (the registry status: no supported-with-requirements)."""
    cells: dict[CellKey, Cell] = {}
    states = stack_states(registry, release)
    for family in registry.families:
        for held in held_at(family, release, states):
            statement = held.statement
            for hardware in held.hardware:
                key = CellKey(family.id, statement.stack, str(statement.workload), str(hardware))
                cells[key] = Cell(key, held.claim_status, statement, held.reason)
    return cells


def paired_cells_at(registry: Registry, release: str) -> dict[CellKey, Cell]:
    """`cells_at` as a user installs at `release`: a separately released stack that no version targets there yet
    is read at the release its newest version targets (its horizon), so a release page lists real changes and says
    the pairing once (`pairing_lines`), instead of one "supported -> unknown" row per family."""
    cells = {key: cell for key, cell in cells_at(registry, release).items() if cell.reason is None}
    for stack in registry.stacks:
        horizon = stack_horizon(stack)
        if horizon is None or version_key(release) <= version_key(horizon):
            continue
        for key, cell in cells_at(registry, horizon).items():
            if key.stack == stack.id and cell.reason is None:
                cells[key] = cell
    return cells


def pairing_lines(registry: RegistryIndexes, release: str) -> list[str]:
    """One line per separately released stack that no version targets at `release` yet."""
    lines = []
    for stack in registry.stacks:
        if beyond_horizon(stack, release):
            newest = stack.versions[-1]
            lines.append(f"No {stack.name} version targets Neuron {release}: its newest, {newest.version}, pairs with "
                         f"Neuron {newest.neuron}, so its claims are read there (install that pair); the family rows "
                         "below leave that pairing out.")
    return lines


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


def _cell_order(key: CellKey) -> tuple[str, str, str, str]:
    return (key.family, key.stack, key.workload, key.hardware)


def diff_cells(before: dict[CellKey, Cell], after: dict[CellKey, Cell]) -> list[Change]:
    changes: list[Change] = []
    # the field tuple is the order `CellKey` defines; a key function spares the generated __lt__ per comparison
    for key in sorted(before.keys() | after.keys(), key=_cell_order):
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
