"""A warning, not an error: releases without the component versions a recommendation would pin.

`check` and the family pages recommend a stack at a Neuron release with that release's component versions
(views.recommendation). Where releases.yaml records none, or not the version of a stack some statement holds for
there, the recommendation says the pin is not recorded; this rule names those releases so someone can fill them in.
"""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, Finding, Rule
from neuron_compat.views.at_release import held_at, stack_states
from neuron_compat.views.recommendation import stack_version


def _held_stacks(registry: Registry, release: str) -> list[str]:
    """The stacks some statement holds for at `release`, in stacks.yaml order."""
    states = stack_states(registry, release)
    held = {h.statement.stack for family in registry.families for h in held_at(family, release, states)}
    return list(dict.fromkeys(s.id for s in registry.stacks if s.id in held))  # a stack listed twice counts once


def check(registry: Registry) -> Iterator[Finding]:
    for index, release in enumerate(registry.releases):
        components = {str(name): str(value) for name, value in release.components.items()}
        stacks = [registry.stack_by_id[s] for s in _held_stacks(registry, release.version)]
        missing = [s.id for s in stacks if not s.separate_releases and stack_version(s, components, release.version) is None]
        if not components:
            yield Finding(RELEASES_KEY, ("releases", index, "version"),
                          f"Neuron {release.version} records no component versions: recommendations at it say "
                          "their pins are not recorded",
                          "add `components` from the release's notes (its package versions)")
        elif missing:
            yield Finding(RELEASES_KEY, ("releases", index, "components"),
                          f"Neuron {release.version} records no version of {', '.join(missing)}, which statements "
                          "hold for there: recommendations at it say that pin is not recorded",
                          "add the version from the release's notes, if they give one")


RULE = Rule(
    name="release-components",
    description="Warns about releases without the component versions a recommendation pins (the stacks that "
    "statements hold for there).",
    check=check,
    severity="warning",
)
