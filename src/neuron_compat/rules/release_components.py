"""A warning, not an error: releases without the component versions a recommendation would pin.

`check` and the family pages recommend a stack at a Neuron release with that release's component versions
(views.recommendation). Where releases.yaml records none, or not the version of a stack some statement holds for
there, the recommendation says the pin is not recorded; this rule names those releases so someone can fill them in.
A component the release lists under `not_stated` (someone looked, and no reachable source gives it) is not asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, Finding, Rule
from neuron_compat.views.at_release import window
from neuron_compat.views.recommendation import stack_version

Key = tuple[Any, ...]


def _windows(registry: Registry) -> dict[str, set[tuple[Key | None, Key | None]]]:
    """Per stack id (in stacks.yaml order, a stack listed twice once): the distinct release windows [start, end)
    over which one of its statements holds on one of its hardware (`views.at_release.window`, which `held_at`
    reads). A window does not depend on the release asked about, so it is worked out once per statement and
    hardware from the shared index of statements by stack, not once per release and family."""
    found: dict[str, set[tuple[Key | None, Key | None]]] = {}
    for stack in registry.stacks:
        if stack.id in found:
            continue
        owner = registry.stack_by_id[stack.id]  # the listing that held_at reads (the last)
        spans = found[stack.id] = set()
        seen: set[tuple[str | None, str | None, str, str]] = set()  # what `window` reads of a statement, besides owner
        for _, _, statement in registry.statements_of(stack.id):
            for item in statement.hardware:
                key = (statement.since, statement.until, str(statement.workload), str(item))
                if key in seen:  # most statements share their range, workload and hardware with another
                    continue
                seen.add(key)
                start, end = window(owner, statement, key[3])
                spans.add((None if start is None else version_key(start), None if end is None else version_key(end)))
    return found


def _held_stacks(windows: dict[str, set[tuple[Key | None, Key | None]]], release: str) -> list[str]:
    """The stacks some statement holds for at `release` (on some hardware), in stacks.yaml order."""
    key = version_key(release)
    return [stack_id for stack_id, spans in windows.items()
            if any((start is None or key >= start) and (end is None or key < end) for start, end in spans)]


def check(registry: Registry) -> Iterator[Finding]:
    windows = _windows(registry)
    for index, release in enumerate(registry.releases):
        components = {str(name): str(value) for name, value in release.components.items()}
        stacks = [registry.stack_by_id[s] for s in _held_stacks(windows, release.version)]
        looked_for = {str(item.component) for item in release.not_stated}
        missing = [s.id for s in stacks if not s.separate_releases and s.id not in looked_for
                   and stack_version(s, components, release.version) is None]
        if not components and not looked_for:
            yield Finding(RELEASES_KEY, ("releases", index, "version"),
                          f"Neuron {release.version} records no component versions: recommendations at it say "
                          "their pins are not recorded",
                          "add `components` from the release's notes (its package versions)")
        elif missing:
            yield Finding(RELEASES_KEY, ("releases", index, "components"),
                          f"Neuron {release.version} records no version of {', '.join(missing)}, which statements "
                          "hold for there: recommendations at it say that pin is not recorded",
                          "add the version from the release's notes, if they give one")


RULE = Rule(name="release-components", check=check, severity="warning")
