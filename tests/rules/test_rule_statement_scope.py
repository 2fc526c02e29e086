"""rules/statement_scope.py: `applies_to` names the family's own tasks and example checkpoints; an attention-free
family states no attention."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "statement-scope"
LLAMA = "families/llama.yaml"
CONSTRAINT = "      - kind: max-sequence-length\n        value: 8192\n"


def _scope(registry: Path, applies_to: str) -> None:
    replace_once(registry / LLAMA, CONSTRAINT, CONSTRAINT + f"        applies_to: {applies_to}\n")


def test_a_task_and_a_checkpoint_the_family_does_not_have_are_located(registry: Path) -> None:
    _scope(registry, "{tasks: [text-classification], checkpoints: [meta-llama/Llama-3.1-8b]}")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:23:30: support[0].constraints[0].applies_to.tasks[0]: task "
        "'text-classification' is not one of family 'llama''s tasks (the family's tasks: text-generation (add it "
        "there first, or fix the name))",
        "registry/families/llama.yaml:23:66: support[0].constraints[0].applies_to.checkpoints[0]: checkpoint "
        "'meta-llama/Llama-3.1-8b' is not in family 'llama''s examples (did you mean 'meta-llama/Llama-3.1-8B'? the "
        "family's examples: meta-llama/Llama-3.1-8B (add it there first, or fix the name))",
    ]


def test_attention_on_a_convolutional_family_is_located(registry: Path) -> None:
    replace_once(registry / LLAMA, "classes: [decoder-lm]", "classes: [convolutional]")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:17:16: support[0].attention: family 'llama' is convolutional: it has no "
        "attention layers, so no attention implementation applies (remove attention (pages show 'not applicable'), "
        "or fix the family's classes)"]


def test_the_familys_own_task_and_checkpoint_pass(registry: Path) -> None:
    _scope(registry, "{tasks: [text-generation], checkpoints: [meta-llama/Llama-3.1-8B]}")
    assert rule_problems(registry, RULE) == []
