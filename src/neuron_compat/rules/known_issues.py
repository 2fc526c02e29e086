"""Known issues name stacks, releases, stack versions and families that exist; ids are unique across files; fixed_in
comes after since; a release list's first is not after its last, and a fix is not before the first listing. A release
the notes list (`listed_in`, `fixed_in`) from the oldest of releases.yaml on is one of releases.yaml (older ones, back
to 2.0, predate the registry)."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.known_issues import KnownIssue
from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import FileKey, Registry
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, Finding, Rule
from neuron_compat.rules.known_references import release_hint, stack_hint
from neuron_compat.rules.tested_configurations import did_you_mean, missing_family


def check(registry: Registry) -> Iterator[Finding]:
    seen: dict[str, str] = {}
    check_releases = RELEASES_KEY not in registry.broken
    for key, file in registry.known_issue_files:
        for index, issue in enumerate(file.issues):
            where: tuple[str | int, ...] = ("issues", index)
            if issue.id in seen:
                yield Finding(key, (*where, "id"), f"known issue id '{issue.id}' is used twice (also in {seen[issue.id]})",
                              "give each its own id")
            seen.setdefault(issue.id, str(key))
            for f_index, family in enumerate(issue.families):
                if missing_family(registry, family):
                    yield Finding(key, (*where, "families", f_index), f"family '{family}' is not in families/",
                                  did_you_mean(family, sorted(registry.family_by_id), "family", "families"))
            if check_releases and issue.pin_release and issue.pin_release not in registry.release_by_version:
                yield Finding(key, (*where, "pin_release"), f"release '{issue.pin_release}' is not in releases.yaml",
                              release_hint(issue.pin_release, registry.release_versions))
            if issue.listed_in and version_key(issue.listed_in.last) < version_key(issue.listed_in.first):
                yield Finding(key, (*where, "listed_in", "last"), f"last {issue.listed_in.last} is before first "
                              f"{issue.listed_in.first}", "first is the oldest release listing it")
            if (issue.listed_in and issue.fixed_in
                    and version_key(issue.fixed_in.release) < version_key(issue.listed_in.first)):
                yield Finding(key, (*where, "fixed_in", "release"), f"fixed in {issue.fixed_in.release}, before the "
                              f"first release listing it ({issue.listed_in.first})", "a fix comes after the issue")
            if check_releases:
                yield from _listed_releases(registry, key, where, issue)
            yield from _stacks(registry, key, where, issue, check_releases)


def _padded(version: str) -> tuple[int, ...]:
    """'2.21' and '2.21.0' alike (a release the notes name has two or three parts); other text sorts first."""
    parts = tuple(int(part) if part.isdigit() else -1 for part in version.split("."))
    return parts + (0,) * (3 - len(parts))


def _listed_releases(registry: Registry, key: FileKey, where: tuple[str | int, ...], issue: KnownIssue
                     ) -> Iterator[Finding]:
    known = {_padded(version) for version in registry.release_versions}
    if not known:
        return
    oldest = min(known)
    named: list[tuple[tuple[str, ...], str | None]] = []
    if issue.listed_in:
        named += [(("listed_in", "first"), issue.listed_in.first), (("listed_in", "last"), issue.listed_in.last),
                  (("listed_in", "not_listed_from"), issue.listed_in.not_listed_from)]
    if issue.fixed_in:
        named.append((("fixed_in", "release"), issue.fixed_in.release))
    for path, version in named:
        if version is not None and _padded(version) >= oldest and _padded(version) not in known:
            yield Finding(key, (*where, *path), f"release '{version}' is not in releases.yaml",
                          release_hint(version, registry.release_versions))


def _stacks(registry: Registry, key: FileKey, where: tuple[str | int, ...], issue: KnownIssue,
            check_releases: bool) -> Iterator[Finding]:
    for s_index, affected in enumerate(issue.stacks):
        at = (*where, "stacks", s_index)
        stack = registry.stack_by_id.get(affected.stack)
        if stack is None and STACKS_KEY not in registry.broken:
            yield Finding(key, (*at, "stack"), f"stack '{affected.stack}' is not in stacks.yaml",
                          stack_hint(affected.stack, sorted(registry.stack_by_id)))
        for name in ("since", "fixed_in"):
            value = getattr(affected, name)
            if check_releases and value is not None and value not in registry.release_by_version:
                yield Finding(key, (*at, name), f"release '{value}' is not in releases.yaml",
                              release_hint(value, registry.release_versions))
        if (affected.since and affected.fixed_in
                and version_key(affected.fixed_in) <= version_key(affected.since)):
            yield Finding(key, (*at, "fixed_in"), f"fixed_in {affected.fixed_in} is not after since {affected.since}",
                          "fixed_in is the first release with the fix")
        own = [v.version for v in stack.versions] if stack is not None else []
        for v_index, version in enumerate(affected.stack_versions):
            if stack is not None and version not in own:
                yield Finding(key, (*at, "stack_versions", v_index),
                              f"'{version}' is not a known {stack.id} version in stacks.yaml",
                              did_you_mean(version, own, f"{stack.id} version"))


RULE = Rule(name="known-issues", check=check)
