"""A statement's own attention, dtypes and quantization are among its stack's capability values for the
ranges it overlaps, unless one of the statement's notes names the exception.

The capability ranges compared are those the statement would inherit from (capabilities.covering). A value
outside them is allowed only when one of the statement's notes names it (in any letter case, in backticks
or plain), saying why the family differs from the stack.
"""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key
from neuron_compat.views.inherited_capabilities import FIELDS, capability_values, covering, scope_of


def check(registry: Registry) -> Iterator[Finding]:
    """Only statements of stacks with a capability file that state a value of their own (the others inherit)."""
    for stack_id, capabilities in registry.capabilities_by_stack.items():
        stack = registry.stack_by_id.get(stack_id)
        for family, index, statement in registry.statements_of(stack_id):
            if not any(getattr(statement, name) for name in FIELDS):
                continue
            ranges = covering(capabilities, statement, scope_of(stack, family, statement))
            if not ranges:
                continue
            key = family_key(family.id)
            notes = " ".join(note.text for note in statement.notes).lower()
            for name in FIELDS:
                allowed = capability_values(ranges, name)
                if not allowed:
                    continue
                for v_index, value in enumerate(getattr(statement, name)):
                    if str(value) in allowed or str(value).lower() in notes:
                        continue
                    yield Finding(
                        key, ("support", index, name, v_index),
                        f"'{value}' is not in the {name} of {statement.stack}'s capability for {statement.workload} "
                        f"on {', '.join(str(h) for h in statement.hardware)} ({', '.join(allowed)})",
                        f"fix the value, widen registry/capabilities/{statement.stack}.yaml with a source, "
                        f"or add a note naming '{value}' and saying why this family differs",
                    )


RULE = Rule(name="capability-subset", check=check)
