"""A claim says what it needs to: supported/partial name a since release; partial, unsupported and
not-listed carry a note saying why, and not-listed cites the stack's own exhaustive list; the workload and hardware
are ones the stack has."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.statement_requirements import (
    EXHAUSTIVE_LISTS,
    NOT_EXHAUSTIVE,
    STATUSES_NEEDING_NOTES,
    STATUSES_NEEDING_SINCE,
)
from neuron_compat.contract.vocabulary import Status
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key

# The statuses as the models hold them (values: use_enum_values), for one set lookup per statement
_NEEDS_SINCE = frozenset(status.value for status in STATUSES_NEEDING_SINCE)
_NEEDS_NOTE = frozenset(status.value for status in STATUSES_NEEDING_NOTES)


def check(registry: Registry) -> Iterator[Finding]:
    stacks = registry.stack_by_id
    for family in registry.families:
        key = family_key(family.id)
        for index, statement in enumerate(family.support):
            status = statement.status  # the value (use_enum_values); Status(...) only for a message
            if status in _NEEDS_SINCE and statement.since is None:
                yield Finding(key, ("support", index, "status"),
                              f"a '{Status(status).value}' statement needs a since release",
                              "add since: the first Neuron release where it holds", )
            if status in _NEEDS_NOTE and not statement.notes:
                yield Finding(key, ("support", index, "status"),
                              f"a '{Status(status).value}' statement needs a note saying why",
                              "add notes: [{text: ...}] describing what is limited or missing")
            if status == Status.NOT_LISTED:
                lists = EXHAUSTIVE_LISTS.get(statement.stack, ())
                if not any(str(s.url).startswith(prefix) for s in statement.sources for prefix, _ in lists):
                    named = "; ".join(f"{what} ({prefix}...)" for prefix, what in lists)
                    not_exhaustive = NOT_EXHAUSTIVE.get(statement.stack)
                    if named:
                        hint = f"add that list as a source: {named}; else use status unknown"
                    elif not_exhaustive:
                        hint = (f"use status unknown: {statement.stack} keeps no exhaustive list "
                                f"({not_exhaustive[0]}; {not_exhaustive[1]})")
                    else:
                        hint = (f"use status unknown: none is recorded for '{statement.stack}' "
                                "(contract EXHAUSTIVE_LISTS)")
                    yield Finding(key, ("support", index, "status"),
                                  "a 'not-listed' statement must cite the stack's own exhaustive list", hint)
            stack = stacks.get(statement.stack)
            if stack is not None and statement.workload not in stack.workloads:
                yield Finding(key, ("support", index, "workload"),
                              f"stack '{stack.id}' does not do {statement.workload}",
                              "its workloads are: " + ", ".join(stack.workloads))
            if stack is not None:
                for h_index, hardware in enumerate(statement.hardware):
                    if hardware not in stack.hardware:
                        yield Finding(key, ("support", index, "hardware", h_index),
                                      f"stack '{stack.id}' does not run on {hardware}",
                                      "its hardware in stacks.yaml: " + ", ".join(stack.hardware))


RULE = Rule(name="statement-completeness", check=check)
