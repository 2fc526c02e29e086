"""Every release and stack a file names exists in releases.yaml / stacks.yaml: a statement's since, until,
stack_since and stack_until, its notes' and sources' releases, and a stack's since, end_of_support and versions'
Neuron releases."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from typing import TypeGuard

from neuron_compat.contract.models import Stack, Statement
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, FileKey, Finding, Rule, family_key


def release_hint(version: str, known: list[str]) -> str:
    close = difflib.get_close_matches(version, known, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'? known releases: {known[0]} to {known[-1]}"
    return f"known releases: {known[0]} to {known[-1]}; add it to releases.yaml first" if known else "releases.yaml is empty"


def stack_hint(stack: str, known: list[str]) -> str:
    close = difflib.get_close_matches(stack, known, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else "known stacks: " + ", ".join(known)


def stack_version_findings(key: FileKey, where: tuple[str | int, ...], stack: Stack,
                           holder: object, own: Sequence[str] | None = None) -> Iterator[Finding]:
    """`stack_since` / `stack_until` of a statement or capability range name versions on the stack's own line
    (`own`, the stack's versions: pass `registry.stack_version_line[stack.id]` to share the index)."""
    if holder.stack_since is None and holder.stack_until is None:  # type: ignore[attr-defined]
        return
    if own is None:
        own = [v.version for v in stack.versions]
    for name in ("stack_since", "stack_until"):
        value = getattr(holder, name)
        if value is None:
            continue
        if not own:
            yield Finding(key, (*where, name), f"stack '{stack.id}' has no version line of its own",
                          "remove this field; use since/until (Neuron releases)")
        elif value not in own:
            close = difflib.get_close_matches(value, own, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else f"known {stack.id} versions: {own[0]} to {own[-1]}"
            yield Finding(key, (*where, name), f"'{value}' is not a known {stack.id} version in stacks.yaml", hint)


def _statement_release_findings(key: FileKey, where: tuple[str | int, ...], statement: Statement,
                                known: frozenset[str], ordered: list[str]) -> Iterator[Finding]:
    """The releases a statement names (since, until, its notes' and sources' `release`) that releases.yaml
    (`known`) lacks. Called only when releases.yaml loaded: one test per statement, not one call per value."""
    for name, value in (("since", statement.since), ("until", statement.until)):
        if value is not None and value not in known:
            yield Finding(key, (*where, name), f"release '{value}' is not in releases.yaml",
                          release_hint(value, ordered))
    for n_index, note in enumerate(statement.notes):
        if note.release is not None and note.release not in known:
            yield Finding(key, (*where, "notes", n_index, "release"),
                          f"release '{note.release}' is not in releases.yaml", release_hint(note.release, ordered))
    for r_index, source in enumerate(statement.sources):
        if source.release is not None and source.release not in known:
            yield Finding(key, (*where, "sources", r_index, "release"),
                          f"release '{source.release}' is not in releases.yaml", release_hint(source.release, ordered))


def check(registry: Registry) -> Iterator[Finding]:
    releases = registry.known_releases
    version_lines = registry.stack_version_line
    ordered = registry.release_versions
    stacks = registry.stack_by_id
    stack_ids = sorted(stacks)

    releases_broken = RELEASES_KEY in registry.broken
    stacks_broken = STACKS_KEY in registry.broken

    def missing_release(value: str | None) -> TypeGuard[str]:
        return not releases_broken and value is not None and value not in releases

    for index, listed in enumerate(registry.stacks):
        for name in ("since", "end_of_support"):
            value = getattr(listed, name)
            if missing_release(value):
                yield Finding(STACKS_KEY, ("stacks", index, name), f"release '{value}' is not in releases.yaml",
                              release_hint(value, ordered))
        for v_index, version in enumerate(listed.versions):
            if missing_release(version.neuron):
                yield Finding(STACKS_KEY, ("stacks", index, "versions", v_index, "neuron"),
                              f"release '{version.neuron}' is not in releases.yaml", release_hint(version.neuron, ordered))

    check_releases = not releases_broken  # one test per statement, not one call per value
    for family in registry.families:
        key = family_key(family.id)
        for s_index, statement in enumerate(family.support):
            where = ("support", s_index)
            stack = stacks.get(statement.stack)
            if stack is None and not stacks_broken:
                yield Finding(key, (*where, "stack"), f"stack '{statement.stack}' is not in stacks.yaml",
                              stack_hint(statement.stack, stack_ids))
            if check_releases:
                yield from _statement_release_findings(key, where, statement, releases, ordered)
            if stack is not None and (statement.stack_since is not None or statement.stack_until is not None):
                yield from stack_version_findings(key, where, stack, statement, version_lines[stack.id])


RULE = Rule(name="known-references", check=check)
