"""Statements of a stack with its own version line (optimum-neuron) give stack_since when they claim
support, and their since/until are the Neuron releases those stack versions target."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.statement_requirements import STATUSES_NEEDING_STACK_SINCE
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    """Only the statements of stacks with a version line (registry.statements_of), not every statement."""
    targets = registry.stack_version_targets
    for stack_id, stack in registry.stack_by_id.items():
        if not stack.versions:
            continue
        neuron_of = targets[stack_id]
        for family, index, statement in registry.statements_of(stack_id):
            key = family_key(family.id)
            claims = statement.status in STATUSES_NEEDING_STACK_SINCE
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


RULE = Rule(name="stack-version-line", check=check)
