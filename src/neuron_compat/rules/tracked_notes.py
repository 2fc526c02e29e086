"""A family's `tracked` notes name a stack of stacks.yaml, and were said, and read, on or before today (plus a day
for time zones) and said no later than read."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import STACKS_KEY, Finding, Rule, family_key, said_and_read_findings
from neuron_compat.rules.known_references import stack_hint


def check(registry: Registry) -> Iterator[Finding]:
    stacks = sorted(registry.stack_by_id)
    for family in registry.families:
        key = family_key(family.id)
        for index, note in enumerate(family.tracked):
            where = ("tracked", index)
            if note.stack not in registry.stack_by_id and STACKS_KEY not in registry.broken:
                yield Finding(key, (*where, "stack"), f"stack '{note.stack}' is not in stacks.yaml",
                              stack_hint(str(note.stack), stacks))
            yield from said_and_read_findings(key, where, note, "date", "said")

RULE = Rule(name="tracked-notes", check=check)
