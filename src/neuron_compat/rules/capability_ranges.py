"""Capability files name a known stack, its releases, stack versions, workloads and code paths; on a stack
with several code paths a range says which it applies to; ranges of one stack that share a workload, hardware and
scope do not overlap in releases.

Ranges of one stack that share a workload, hardware and scope (code path or model class) must not overlap in
releases (ranges of two different code paths never share a statement, which runs on one path): a statement inherits the values of every range it touches, so two ranges for the same releases would
make its values ambiguous. On a stack with two or more code paths a range without `code_paths` or `classes`
would be inherited by models another path runs, so it is refused.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from neuron_compat.contract.models import Capability, Stack
from neuron_compat.contract.release_ranges import range_bounds
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, FileKey, Finding, Rule, capabilities_key
from neuron_compat.rules.known_references import release_hint, stack_hint, stack_version_findings


def _served_classes(stack: Stack, capability: Capability) -> set[str] | None:
    """The model classes a range applies to (None: every class)."""
    paths = {str(p) for p in capability.code_paths}
    by_path: set[str] | None = None
    if paths:
        by_path = {str(c) for path in stack.code_paths if path.id in paths for c in path.classes}
    if capability.classes:
        named = {str(c) for c in capability.classes}
        return named if by_path is None else by_path & named
    return by_path


def _scope_findings(key: FileKey, where: tuple[str | int, ...], stack: Stack,
                    capability: Capability) -> Iterator[Finding]:
    known = [path.id for path in stack.code_paths]
    for p_index, path in enumerate(capability.code_paths):
        if path not in known:
            close = difflib.get_close_matches(path, known, n=1, cutoff=0.6)
            listing = ", ".join(known) if known else "none (stacks.yaml declares no code_paths for it)"
            hint = f"did you mean '{close[0]}'? " if close else ""
            yield Finding(key, (*where, "code_paths", p_index),
                          f"'{path}' is not a code path of stack '{stack.id}'", f"{hint}known code paths: {listing}")
    if len(known) >= 2 and not capability.code_paths and not capability.classes:
        yield Finding(key, where, f"stack '{stack.id}' has several code paths ({', '.join(known)}); "
                      "this range does not say which it applies to",
                      "add code_paths: [...] or classes: [...] so only the models it holds for inherit it",
                      at_key=True)


def check(registry: Registry) -> Iterator[Finding]:
    releases = registry.release_versions
    known = registry.known_releases
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
            yield from stack_version_findings(key, where, stack, capability, registry.stack_version_line[stack.id])
            if str(capability.workload) not in [str(w) for w in stack.workloads]:
                yield Finding(key, (*where, "workload"),
                              f"stack '{stack.id}' offers no {capability.workload} workload in stacks.yaml",
                              "use one of: " + ", ".join(str(w) for w in stack.workloads))
            yield from _scope_findings(key, where, stack, capability)
            start, end = range_bounds(capability.since, capability.until)
            if capability.until is not None and start >= end:
                yield Finding(key, (*where, "until"),
                              f"until '{capability.until}' must be a later release than since '{capability.since}'",
                              "until is the first release where the values no longer hold")
                continue
            for other_index, other in enumerate(capability_file.capabilities[:index]):
                shared = sorted({str(h) for h in other.hardware} & {str(h) for h in capability.hardware})
                if str(other.workload) != str(capability.workload) or not shared:
                    continue
                mine, theirs = _served_classes(stack, capability), _served_classes(stack, other)
                if mine is not None and theirs is not None and not mine & theirs:
                    continue  # disjoint scopes: no statement inherits from both
                my_paths, their_paths = {str(p) for p in capability.code_paths}, {str(p) for p in other.code_paths}
                if my_paths and their_paths and not my_paths & their_paths:
                    continue  # a statement runs on one code path, so it never inherits from both
                o_start, o_end = range_bounds(other.since, other.until)
                if start < o_end and o_start < end:
                    yield Finding(key, (*where, "since"),
                                  f"overlaps capabilities[{other_index}] ({capability.workload} on {', '.join(shared)})",
                                  f"set until on capabilities[{other_index}] to this range's since, or split the hardware")


RULE = Rule(name="capability-ranges", check=check)
