"""For stacks with their own version line (optimum-neuron), statements name it, consistently with since/until."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.vocabulary import Status
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    for family in registry.families:
        key = family_key(family.id)
        for index, statement in enumerate(family.support):
            stack = registry.stack_by_id.get(statement.stack)
            if stack is None or not stack.versions:
                continue
            neuron_of = {v.version: v.neuron for v in stack.versions}
            claims = statement.status in (Status.SUPPORTED, Status.PARTIAL)
            if claims and statement.stack_since is None:
                yield Finding(key, ("support", index, "status"),
                              f"a '{statement.status}' {stack.id} statement needs stack_since",
                              f"name the first {stack.id} version that has it; stacks.yaml lists them")
            for own, neuron_field in (("stack_since", "since"), ("stack_until", "until")):
                own_value = getattr(statement, own)
                if own_value is None or own_value not in neuron_of:
                    continue  # unknown versions are reported by known-references
                expected = neuron_of[own_value]
                actual = getattr(statement, neuron_field)
                if actual != expected:
                    yield Finding(key, ("support", index, neuron_field),
                                  f"{neuron_field} is {'missing' if actual is None else repr(actual)} but "
                                  f"{stack.id} {own_value} targets Neuron '{expected}'",
                                  f"set {neuron_field}: \"{expected}\", as stacks.yaml maps {own_value}")


RULE = Rule(
    name="stack-version-line",
    description="Statements for a stack with its own versions (optimum-neuron) give stack_since, and since/until "
    "match the Neuron releases those versions target.",
    check=check,
)
