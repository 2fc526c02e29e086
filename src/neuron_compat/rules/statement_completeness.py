"""A claim says what it needs to: supported/partial name a since release, partial and unsupported explain why."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.vocabulary import Status
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    for family in registry.families:
        key = family_key(family.id)
        for index, statement in enumerate(family.support):
            status = Status(statement.status)
            if status in (Status.SUPPORTED, Status.PARTIAL) and statement.since is None:
                yield Finding(key, ("support", index, "status"), f"a '{status.value}' statement needs a since release",
                              "add since: the first Neuron release where it holds", )
            if status in (Status.PARTIAL, Status.UNSUPPORTED) and not statement.notes:
                yield Finding(key, ("support", index, "status"), f"a '{status.value}' statement needs a note saying why",
                              "add notes: [{text: ...}] describing what is limited or missing")
            stack = registry.stack_by_id.get(statement.stack)
            if stack is not None and statement.workload not in stack.workloads:
                yield Finding(key, ("support", index, "workload"),
                              f"stack '{stack.id}' does not do {statement.workload}",
                              "its workloads are: " + ", ".join(stack.workloads))


RULE = Rule(
    name="statement-completeness",
    description="supported/partial statements name a since release; partial/unsupported ones carry a note; "
    "the workload is one the stack does.",
    check=check,
)
