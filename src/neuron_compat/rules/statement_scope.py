"""Scopes inside a family: `applies_to` names the family's own tasks and example checkpoints, a statement's
`code_path` is one of its stack's code paths, and an attention-free family (all its classes convolutional or
state-space) states no attention implementation."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from neuron_compat.contract.models import AppliesTo, Family
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import FileKey, Finding, Rule, family_key
from neuron_compat.views.inherited_capabilities import scope_of


def _hint(value: str, known: list[str], field: str) -> str:
    close = difflib.get_close_matches(value, known, n=1, cutoff=0.6)
    listing = ", ".join(known) if known else "none"
    head = f"did you mean '{close[0]}'? " if close else ""
    return f"{head}the family's {field}: {listing} (add it there first, or fix the name)"


def _applies_to_findings(key: FileKey, where: tuple[str | int, ...], family: Family,
                         applies_to: AppliesTo | None) -> Iterator[Finding]:
    if applies_to is None:
        return
    tasks = [str(t) for t in family.tasks]
    for index, task in enumerate(applies_to.tasks):
        if str(task) not in tasks:
            yield Finding(key, (*where, "applies_to", "tasks", index),
                          f"task '{task}' is not one of family '{family.id}''s tasks", _hint(str(task), tasks, "tasks"))
    examples = list(family.examples)
    for index, checkpoint in enumerate(applies_to.checkpoints):
        if checkpoint not in examples:
            yield Finding(key, (*where, "applies_to", "checkpoints", index),
                          f"checkpoint '{checkpoint}' is not in family '{family.id}''s examples",
                          _hint(checkpoint, examples, "examples"))


def check(registry: Registry) -> Iterator[Finding]:
    for family in registry.families:
        key = family_key(family.id)
        for index, statement in enumerate(family.support):
            where: tuple[str | int, ...] = ("support", index)
            for c_index, constraint in enumerate(statement.constraints):
                yield from _applies_to_findings(key, (*where, "constraints", c_index), family, constraint.applies_to)
            for n_index, note in enumerate(statement.notes):
                yield from _applies_to_findings(key, (*where, "notes", n_index), family, note.applies_to)
            stack = registry.stack_by_id.get(statement.stack)
            paths = [str(path.id) for path in getattr(stack, "code_paths", None) or ()]
            if statement.code_path and stack is not None and str(statement.code_path) not in paths:
                yield Finding(key, (*where, "code_path"),
                              f"code path '{statement.code_path}' is not one of {stack.id}'s code paths",
                              _hint(str(statement.code_path), paths, "stack's code_paths in stacks.yaml").replace(
                                  "the family's ", "the "))
            if statement.attention and scope_of(stack, family, statement).attention_free:
                yield Finding(key, (*where, "attention"),
                              f"family '{family.id}' is {', '.join(str(c) for c in family.classes)}: it has no "
                              "attention layers, so no attention implementation applies",
                              "remove attention (pages show 'not applicable'), or fix the family's classes")


RULE = Rule(name="statement-scope", check=check)
