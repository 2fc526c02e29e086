"""Known issues name stacks, releases, stack versions and families that exist; fixed_in comes after since."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.tested_loader import KNOWN_ISSUES_KEY
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, Finding, Rule
from neuron_compat.rules.known_references import release_hint, stack_hint
from neuron_compat.rules.tested_configurations import did_you_mean, missing_family


def check(registry: Registry) -> Iterator[Finding]:
    issues = registry.known_issues
    if issues is None:
        return
    key = KNOWN_ISSUES_KEY
    seen: set[str] = set()
    check_releases = RELEASES_KEY not in registry.broken
    for index, issue in enumerate(issues.issues):
        where: tuple[str | int, ...] = ("issues", index)
        if issue.id in seen:
            yield Finding(key, (*where, "id"), f"known issue id '{issue.id}' is used twice", "give each its own id")
        seen.add(issue.id)
        for f_index, family in enumerate(issue.families):
            if missing_family(registry, family):
                yield Finding(key, (*where, "families", f_index), f"family '{family}' is not in families/",
                              did_you_mean(family, sorted(registry.family_by_id), "family", "families"))
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


RULE = Rule("known-issues", __doc__ or "", check)
