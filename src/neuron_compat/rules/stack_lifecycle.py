"""A stack's ends are data the statements agree with: a statement ends at or before its stack's end_of_support,
and a ranged one at or before an `ends` entry for its workload and hardware; `ends` names only the stack's own
workloads and hardware.

- A statement of a stack with `end_of_support` ends at or before it (`until` is set), so the data never claims a
  removed stack.
- An entry of `ends` names only workloads and hardware the stack has.
- A statement with a release range (`since`) on a workload and hardware the stack has ended ends at or before
  that end. A statement without a range (an `unknown` for every release) needs no `until`: the views stop it at
  the end (views.at_release.window).
"""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.models import Stack, Statement
from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import STACKS_KEY, Finding, Rule, family_key
from neuron_compat.views.at_release import stack_end


def _end_entries(registry: Registry) -> Iterator[Finding]:
    for position, stack in enumerate(registry.stacks):
        for index, end in enumerate(stack.ends):
            for field, named, offered in (("workloads", end.workloads, stack.workloads),
                                          ("hardware", end.hardware, stack.hardware)):
                for item, value in enumerate(named):
                    if value not in offered:
                        listed = ", ".join(str(v) for v in offered)
                        yield Finding(STACKS_KEY, ("stacks", position, "ends", index, field, item),
                                      f"{stack.id} has no {field} '{value}' to end",
                                      f"use one of its {field}: {listed}")


def _ranged_end(stack: Stack, statement: Statement, ends: dict[tuple[str, str], str | None]) -> tuple[str, str] | None:
    """(hardware, end) of the earliest `ends` entry the ranged statement runs past, or None. `ends` remembers the
    stack's `ends` entry per (workload, hardware) across its statements (end_of_support is checked apart)."""
    if statement.since is None:
        return None
    for hardware in statement.hardware:
        key = (str(statement.workload), str(hardware))
        if key not in ends:
            ends[key] = stack_end(stack.model_copy(update={"end_of_support": None}), *key)
        end = ends[key]
        if end is not None and version_key(statement.since) < version_key(end) and (
                statement.until is None or version_key(statement.until) > version_key(end)):
            return str(hardware), end
    return None


def check(registry: Registry) -> Iterator[Finding]:
    yield from _end_entries(registry)
    ends: dict[str, dict[tuple[str, str], str | None]] = {}
    for family in registry.families:
        for index, statement in enumerate(family.support):
            stack = registry.stack_by_id.get(statement.stack)
            if stack is None:
                continue
            end = stack.end_of_support
            field = "until" if statement.until else "stack"
            if end is not None and (statement.until is None or version_key(statement.until) > version_key(end)):
                yield Finding(
                    family_key(family.id), ("support", index, field),
                    f"{stack.id} reached end of support in {end}, but this statement "
                    + (f"runs until {statement.until}" if statement.until else "has no until"),
                    f"set until: \"{end}\" or an earlier release",
                )
                continue
            ranged = _ranged_end(stack, statement, ends.setdefault(stack.id, {}))
            if ranged is not None:
                hardware, release = ranged
                yield Finding(
                    family_key(family.id), ("support", index, field),
                    f"{stack.id} ends {statement.workload} on {hardware} at {release} (stacks.yaml ends), but this "
                    + (f"statement runs until {statement.until}" if statement.until else "statement has no until"),
                    f"set until: \"{release}\" or an earlier release (or split the statement by hardware)",
                )


RULE = Rule(name="stack-lifecycle", check=check)
