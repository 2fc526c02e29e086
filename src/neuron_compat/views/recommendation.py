"""What to install: per hardware generation and workload, the best combination that works, with its pins.

One function (`recommend`) answers for `check` (a concrete config: its candidates are the resolver's rows at every
release, with their caveats), the check page (which runs this module in the browser)
and the family pages' "Which stack to pick" box (a family: `family_candidates`, the registry statuses).

A candidate is a stack x workload x hardware x Neuron release whose verdict claims the model runs (supported,
supported with settings, or partial; past a separately released stack's horizon a claim is unknown and is no
candidate). The ranking, best first:

0. a stack that has ended on that hardware for that workload (its end of support, or an `ends` entry in
   stacks.yaml, at or before the newest release considered) comes after every stack that has not: it is what to
   install only where nothing current works ("the last release that did"), whatever its status;
1. status: supported before partial;
2. the stack's lifecycle on that hardware for that workload: active, then beta or maintenance, then deprecated.
   The registry records a stack's lifecycle as it is now plus its ends, not a history, so this is the lifecycle
   read at the newest release considered;
3. the newest release.

Each stack counts once, at its best release; the first stack is the recommendation and the next ones (at most
`ALTERNATIVES`) its alternatives. A stack with its own release line (optimum-neuron) is a candidate only at the
Neuron releases its versions target, and its version there is `stack_version`. `last_worked` is the newest release
at which any candidate holds on that hardware; where it is older than the newest release considered, nothing works
there now and the line says so (the recommendation is still the best candidate, per the ranking). Where there is no candidate at all, the recommendation names no stack.

What to install is the stack version's own pins where its package states them (stacks.yaml `pins`: Optimum Neuron's
wheel metadata), else the release's component versions (releases.yaml `components`, as its notes list them): the
stack's own package and version first (or that its version at that release is not recorded, with the newest one
recorded), then the rest, leaving out the components that are other stacks not serving this
workload on this hardware at that release. A version the registry does not record is named in `not_recorded`,
never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import Hardware, StackStatus, Status
from neuron_compat.views.at_release import ENDED as ENDED_CELL
from neuron_compat.views.at_release import (
    REQUIREMENT_KINDS,
    constraint_value,
    held_at,
    stack_end,
    stack_shipped,
    stack_states,
)

if TYPE_CHECKING:  # read by attribute: pydantic models and compiled views alike
    from neuron_compat.contract.models import Family, Stack
    from neuron_compat.loading.indexes import RegistryIndexes

# The dataclasses here are plain; `__pydantic_config__` only shapes the JSON Schema of `check --json`.
_FORBID_EXTRA = {"extra": "forbid"}

ALTERNATIVES = 3
"""How many alternatives a recommendation lists after its choice."""

RECOMMENDED_STATUSES = {str(Status.SUPPORTED): 2, str(Status.PARTIAL): 1}
"""Verdicts a recommendation may pick, and their rank (higher first)."""

ENDED = ENDED_CELL
"""The lifecycle of a stack past its end on a hardware: the word of the ended cell kind (at_release.ENDED)."""
LIFECYCLE_RANK = {
    str(StackStatus.ACTIVE): 3, str(StackStatus.BETA): 2, str(StackStatus.MAINTENANCE): 2,
    str(StackStatus.DEPRECATED): 1, str(StackStatus.END_OF_SUPPORT): 0, ENDED: 0,
}
"""A stack's lifecycle on a hardware for a workload, and its rank (higher first)."""

HARDWARE_ORDER = tuple(str(h) for h in Hardware)
"""The hardware generations, in the order recommendations list them (`check --hardware` accepts these)."""

SOURCES_IN_LINE = 2
"""How many of a choice's sources its line names (its `sources` list has them all)."""

ALL_COMPONENTS = "component versions"
"""What `not_recorded` names when a release records no component versions at all."""


@dataclass(frozen=True)
class Caveat:
    """Something to know about a row or a recommendation; `limits` says it lowers a claim (check's caveats)."""

    __pydantic_config__ = _FORBID_EXTRA
    kind: str
    limits: bool
    message: str


@dataclass(frozen=True)
class Candidate:
    """A stack x workload that claims the model runs at `release`, on `hardware`, with the verdict `status`."""

    stack: str
    workload: str
    hardware: tuple[str, ...]
    release: str
    status: str
    caveats: tuple[Caveat, ...] = ()
    sources: tuple[str, ...] = ()
    anchor: str | None = None


@dataclass(frozen=True)
class Choice:
    """One combination to install: a stack at a Neuron release, with its pins."""

    __pydantic_config__ = _FORBID_EXTRA
    stack: str | None
    stack_name: str | None
    release: str | None
    stack_version: str | None
    status: str
    lifecycle: str | None
    install: list[str]
    not_recorded: list[str]
    notes_url: str | None
    caveats: list[Caveat]
    sources: list[str]
    anchor: str | None


@dataclass(frozen=True)
class Recommendation(Choice):
    """For one hardware generation and workload: the answer (views.answer) a user acts on: the choice (its fields;
    `status` is the answer's: supported, partial, ended, unsupported, not-listed or unknown, scoped to this workload
    and hardware), its alternatives, why it was chosen, and the one line that says it."""

    __pydantic_config__ = _FORBID_EXTRA
    hardware: str
    workload: str
    newest: str
    last_worked: str | None
    line: str
    alternatives: list[Choice] = field(default_factory=list)
    why: str = ""
    """Why this is the answer (views.answer): which ranking step chose it, or which statement says what."""


def requirement_caveats(constraints: Iterable[Any]) -> list[Caveat]:
    """'requires flag NAME = value' for each constraint that must be set (the resolver's `requires` caveat)."""
    found = []
    for constraint in constraints:
        kind = str(constraint.kind)
        if kind in REQUIREMENT_KINDS:
            value = "" if constraint.value is None else f" = {constraint_value(constraint.value)}"
            found.append(Caveat(kind="requires", limits=False,
                                message=f"requires {kind} {constraint.name}{value}{scope_text(constraint)}"))
    return found


def scope_text(item: Any) -> str:
    """' (only for Qwen/Qwen3-Embedding-8B, feature-extraction)' for a constraint or note scoped with `applies_to`
    (a family's answer shows the scope; `check` keeps only what applies to its config and says nothing)."""
    scope = getattr(item, "applies_to", None)
    if scope is None:
        return ""
    named = [str(c) for c in scope.checkpoints] + [str(t) for t in scope.tasks]
    return f" (only for {', '.join(named)})" if named else ""


def releases_up_to(registry: RegistryIndexes, newest: str | None) -> list[str]:
    """The releases a recommendation considers: every one up to `newest` (default: the registry's newest)."""
    versions = registry.release_versions
    if newest is None:
        return list(versions)
    return [v for v in versions if version_key(v) <= version_key(newest)]


def family_candidates(registry: RegistryIndexes, family: Family, newest: str | None = None) -> list[Candidate]:
    """A family's candidates without a config: what holds at each release with its registry status."""
    found: list[Candidate] = []
    for release in releases_up_to(registry, newest):
        for held in held_at(family, release, stack_states(registry, release)):
            status = held.claim_status
            if status not in RECOMMENDED_STATUSES:
                continue
            statement = held.statement
            found.append(Candidate(
                stack=statement.stack, workload=str(statement.workload), hardware=tuple(held.hardware),
                release=release, status=status, caveats=tuple(requirement_caveats(statement.constraints)),
                sources=tuple(s.url for s in statement.sources), anchor=statement.anchor))
    return found


def lifecycle(stack: Stack, workload: str, hardware: str, newest: str) -> str:
    """The stack's lifecycle for `workload` on `hardware`, read at `newest` ('ended' past an end)."""
    end = stack_end(stack, workload, hardware)
    if end is not None and version_key(end) <= version_key(newest):
        return ENDED
    return str(stack.status)


def _release_of(registry: RegistryIndexes, version: str) -> Any:
    return next(r for r in registry.releases if r.version == version)


def _components(release: Any) -> dict[str, str]:
    components = release.components
    data = components.to_json() if hasattr(components, "to_json") else dict(components)
    return {str(name): str(value) for name, value in data.items()}


def stack_version(stack: Stack, components: dict[str, str], release: str) -> str | None:
    """The stack's own version at `release`: the newest of its versions targeting it, else its component there."""
    targeting = [v.version for v in stack.versions if v.neuron == release]
    if targeting:
        return str(targeting[-1])
    return components.get(stack.id)


def _serves(stack: Stack, workload: str, hardware: str, release: str) -> bool:
    if workload not in [str(w) for w in stack.workloads] or hardware not in [str(h) for h in stack.hardware]:
        return False
    end = stack_end(stack, workload, hardware)
    return stack_shipped(stack, release) and (end is None or version_key(release) < version_key(end))


def stack_pins(stack: Stack, version: str | None) -> dict[str, str]:
    """The versions the stack's own package pins at `version` (stacks.yaml `pins`; empty when it records none)."""
    entry = next((v for v in stack.versions if v.version == version), None) if version is not None else None
    pins = getattr(entry, "pins", None)
    if not pins:
        return {}
    data = pins.to_json() if hasattr(pins, "to_json") else dict(pins)
    return {str(name): str(value) for name, value in data.items()}


def install_for(registry: RegistryIndexes, stack: Stack, workload: str, hardware: str,
                release: str) -> tuple[str | None, list[str], list[str]]:
    """(stack_version, install pins, not recorded) for `stack` at `release`: 'name version' per component, or the
    stack version's own pins where its package states them (stacks.yaml `pins`)."""
    components = _components(_release_of(registry, release))
    version = stack_version(stack, components, release)
    install = [f"{stack.id} {version}"] if version is not None else []
    pins = stack_pins(stack, version)
    if pins:
        return version, install + [f"{name} {value}" for name, value in pins.items()], []
    not_recorded = [] if version is not None else [stack.id]
    if not components:
        not_recorded.append(ALL_COMPONENTS)
    for name, value in components.items():
        other = registry.stack_by_id.get(name)
        if name == stack.id or (other is not None and not _serves(other, workload, hardware, release)):
            continue
        install.append(f"{name} {value}")
    return version, install, not_recorded


Rank = tuple[int, int, int, tuple[Any, ...]]


def rank(status: str, life: str, release: str) -> Rank:
    """The sort key of a candidate (higher is better): not ended, status, lifecycle, newest release."""
    return (int(life != ENDED), RECOMMENDED_STATUSES[status], LIFECYCLE_RANK.get(life, 0), version_key(release))


def _choice(registry: RegistryIndexes, candidate: Candidate, hardware: str, life: str) -> Choice:
    stack = registry.stack_by_id[candidate.stack]
    version, install, not_recorded = install_for(registry, stack, candidate.workload, hardware, candidate.release)
    return Choice(
        stack=stack.id, stack_name=stack.name, release=candidate.release, stack_version=version,
        status=candidate.status, lifecycle=life, install=install, not_recorded=not_recorded,
        notes_url=_release_of(registry, candidate.release).notes_url, caveats=list(candidate.caveats),
        sources=list(candidate.sources), anchor=candidate.anchor)


def _eligible(registry: RegistryIndexes, candidates: list[Candidate], hardware: str,
              workload: str) -> list[Candidate]:
    """The candidates for `workload` on `hardware` at a release that lists the hardware; a stack with its own
    release line only at the releases its versions target."""
    listed = {r.version: [str(h) for h in r.hardware] for r in registry.releases}
    found = []
    for candidate in candidates:
        if candidate.workload != workload or hardware not in candidate.hardware:
            continue
        if listed.get(candidate.release) and hardware not in listed[candidate.release]:
            continue
        stack = registry.stack_by_id[candidate.stack]
        if getattr(stack, "separate_releases", False) and not any(v.neuron == candidate.release for v in stack.versions):
            continue
        found.append(candidate)
    return found


def _ranked(registry: RegistryIndexes, eligible: list[Candidate], hardware: str, workload: str,
            newest: str) -> list[Choice]:
    """The best candidate per stack, best stack first."""
    best: dict[str, tuple[Rank, Candidate, str]] = {}
    for candidate in eligible:
        stack = registry.stack_by_id[candidate.stack]
        life = lifecycle(stack, workload, hardware, newest)
        key = rank(candidate.status, life, candidate.release)
        if candidate.stack not in best or key > best[candidate.stack][0]:
            best[candidate.stack] = (key, candidate, life)
    order = sorted(best.values(), key=lambda item: item[0], reverse=True)
    return [_choice(registry, candidate, hardware, life) for _, candidate, life in order]


def choice_text(choice: Choice) -> str:
    """'optimum-neuron 0.4.5 at Neuron 2.26.1 (supported)': a choice in a few words (its lifecycle unless the best)."""
    name = f"{choice.stack} {choice.stack_version}" if choice.stack_version else f"{choice.stack}"
    below_best = choice.lifecycle and LIFECYCLE_RANK.get(choice.lifecycle, 0) < max(LIFECYCLE_RANK.values())
    life = f", {choice.lifecycle} stack" if below_best else ""
    return f"{name} at Neuron {choice.release} ({choice.status}{life})"


def newest_recorded(registry: RegistryIndexes, stack_id: str, release: str) -> tuple[str, str] | None:
    """(version, release) of the newest release up to `release` whose component versions name `stack_id`."""
    found = None
    for item in registry.releases:
        if version_key(item.version) <= version_key(release) and stack_id in _components(item):
            if found is None or version_key(item.version) > version_key(found[1]):
                found = (_components(item)[stack_id], item.version)
    return found


def install_text(choice: Choice, registry: RegistryIndexes | None = None) -> str:
    """'vllm-neuron (its version at Neuron 2.34.0 is not recorded; newest recorded: 0.29.0.1.2.0 at Neuron 2.33.0),
    torchneuron 2.14.3.1, ...': the stack's own package first, with its version or that it is not recorded, then
    the other pins, then any other component not recorded."""
    pins = list(choice.install)
    others = [name for name in choice.not_recorded if name != choice.stack]
    if choice.stack is not None and choice.stack in choice.not_recorded:
        hint = newest_recorded(registry, choice.stack, choice.release or "") if registry and choice.release else None
        newest = f"; newest recorded: {hint[0]} at Neuron {hint[1]}" if hint else ""
        pins.insert(0, f"{choice.stack} (its version at Neuron {choice.release} is not recorded{newest})")
    text = ", ".join(pins) if pins else "nothing recorded"
    if others:
        text += f" ({', '.join(others)} not recorded for {choice.release})"
    return text


def recommendation_line(family_name: str, choice: Choice, newest: str, last_worked: str | None,
                        registry: RegistryIndexes | None = None) -> str:
    """The one line of a recommendation (after its hardware): what to install, at which release, with sources."""
    if choice.stack is None:
        return f"nothing claims {family_name} runs here at any release up to {newest}"
    parts = [choice_text(choice)]
    if last_worked != newest:
        parts[0] = f"no claim holds at {newest} (newest with one: {last_worked}); best: " + parts[0]
    if choice.caveats:
        parts.append("; ".join(c.message for c in choice.caveats))
    parts.append(f"install {install_text(choice, registry)}")
    parts.append(f"release notes {choice.notes_url}")
    if choice.sources:
        more = len(choice.sources) - SOURCES_IN_LINE
        parts.append(f"sources {' '.join(choice.sources[:SOURCES_IN_LINE])}" + (f" (+{more} more)" if more > 0 else ""))
    return " | ".join(parts)


def _hardware_of(family: Family, workload: str) -> list[str]:
    said = {str(h) for s in family.support if str(s.workload) == workload for h in s.hardware}
    return [h for h in HARDWARE_ORDER if h in said]


def recommend(registry: RegistryIndexes, family: Family, candidates: list[Candidate], newest: str | None = None,
              hardware: str | None = None, workloads: Iterable[str] = ("inference", "training")) -> list[Recommendation]:
    """Per workload (in `workloads` order) and hardware generation the family has statements for (or `hardware`
    alone): the best candidate with the next ones as alternatives, ranked as the module docstring says."""
    newest = newest or registry.newest_release or ""
    found: list[Recommendation] = []
    for workload in workloads:
        where = [hardware] if hardware is not None else _hardware_of(family, workload)
        if hardware is None and not where:
            continue
        for item in where:
            eligible = _eligible(registry, candidates, item, workload)
            ranked = _ranked(registry, eligible, item, workload, newest)
            last = max((c.release for c in eligible), key=version_key) if eligible else None
            choice = ranked[0] if ranked else Choice(
                stack=None, stack_name=None, release=None, stack_version=None, status=str(Status.UNKNOWN),
                lifecycle=None, install=[], not_recorded=[], notes_url=None, caveats=[], sources=[], anchor=None)
            found.append(Recommendation(
                **{part.name: getattr(choice, part.name) for part in fields(Choice)},
                hardware=item, workload=workload, newest=newest, last_worked=last,
                line=recommendation_line(family.name, choice, newest, last, registry),
                alternatives=ranked[1:1 + ALTERNATIVES]))
    return found
