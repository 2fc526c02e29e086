"""Statements of a stack that reached end of support end there too, so the data never claims a removed stack."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    for family in registry.families:
        for index, statement in enumerate(family.support):
            stack = registry.stack_by_id.get(statement.stack)
            if stack is None or stack.end_of_support is None:
                continue
            end = stack.end_of_support
            if statement.until is None or version_key(statement.until) > version_key(end):
                yield Finding(
                    family_key(family.id), ("support", index, "until" if statement.until else "stack"),
                    f"{stack.id} reached end of support in {end}, but this statement "
                    + (f"runs until {statement.until}" if statement.until else "has no until"),
                    f"set until: \"{end}\" or an earlier release",
                )


RULE = Rule(
    name="stack-lifecycle",
    description="A statement of a stack with an end_of_support release ends at or before it (until is set).",
    check=check,
)
