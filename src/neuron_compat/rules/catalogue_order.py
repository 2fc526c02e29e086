"""releases.yaml and stacks.yaml list each release, stack and stack version once, releases oldest first."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, Finding, Rule


def check(registry: Registry) -> Iterator[Finding]:
    seen: set[str] = set()
    previous: str | None = None
    for index, release in enumerate(registry.releases):
        if release.version in seen:
            yield Finding(RELEASES_KEY, ("releases", index, "version"), f"release '{release.version}' is listed twice")
        elif previous is not None and version_key(release.version) < version_key(previous):
            yield Finding(RELEASES_KEY, ("releases", index, "version"),
                          f"release '{release.version}' comes after '{previous}'", "keep releases oldest first")
        seen.add(release.version)
        previous = release.version
    ids: set[str] = set()
    for index, stack in enumerate(registry.stacks):
        if stack.id in ids:
            yield Finding(STACKS_KEY, ("stacks", index, "id"), f"stack '{stack.id}' is listed twice")
        ids.add(stack.id)
        own: set[str] = set()
        for v_index, version in enumerate(stack.versions):
            if version.version in own:
                yield Finding(STACKS_KEY, ("stacks", index, "versions", v_index, "version"),
                              f"{stack.id} version '{version.version}' is listed twice")
            own.add(version.version)


RULE = Rule(name="catalogue-order", check=check)
