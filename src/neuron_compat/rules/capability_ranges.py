"""Capability files: the stack and releases they name exist, and ranges of one stack do not overlap.

Ranges of one stack that share a workload and hardware must not overlap in releases: a statement inherits
the values of every range it touches, so two ranges for the same releases would make its values ambiguous.
"""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, Finding, Rule, capabilities_key
from neuron_compat.rules.known_references import release_hint, stack_hint, stack_version_findings


def _bounds(since: str, until: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return version_key(since), version_key(until) if until else (10**9,)


def check(registry: Registry) -> Iterator[Finding]:
    releases = registry.release_versions
    known = set(releases)
    stacks = registry.stack_by_id
    for capability_file in registry.capability_files:
        key = capabilities_key(capability_file.stack)
        stack = stacks.get(capability_file.stack)
        if stack is None:
            if STACKS_KEY not in registry.broken:
                yield Finding(key, ("stack",), f"stack '{capability_file.stack}' is not in stacks.yaml",
                              stack_hint(capability_file.stack, sorted(stacks)))
            continue
        for index, capability in enumerate(capability_file.capabilities):
            where = ("capabilities", index)
            for name in ("since", "until"):
                value = getattr(capability, name)
                if value is not None and RELEASES_KEY not in registry.broken and value not in known:
                    yield Finding(key, (*where, name), f"release '{value}' is not in releases.yaml",
                                  release_hint(value, releases))
            yield from stack_version_findings(key, where, stack, capability)
            if str(capability.workload) not in [str(w) for w in stack.workloads]:
                yield Finding(key, (*where, "workload"),
                              f"stack '{stack.id}' offers no {capability.workload} workload in stacks.yaml",
                              "use one of: " + ", ".join(str(w) for w in stack.workloads))
            start, end = _bounds(capability.since, capability.until)
            if capability.until is not None and start >= end:
                yield Finding(key, (*where, "until"),
                              f"until '{capability.until}' must be a later release than since '{capability.since}'",
                              "until is the first release where the values no longer hold")
                continue
            for other_index, other in enumerate(capability_file.capabilities[:index]):
                shared = sorted({str(h) for h in other.hardware} & {str(h) for h in capability.hardware})
                if str(other.workload) != str(capability.workload) or not shared:
                    continue
                o_start, o_end = _bounds(other.since, other.until)
                if start < o_end and o_start < end:
                    yield Finding(key, (*where, "since"),
                                  f"overlaps capabilities[{other_index}] ({capability.workload} on {', '.join(shared)})",
                                  f"set until on capabilities[{other_index}] to this range's since, or split the hardware")


RULE = Rule(
    name="capability-ranges",
    description="Capability files name a known stack, releases and stack versions, and ranges of one "
    "stack/workload/hardware do not overlap in releases.",
    check=check,
)
