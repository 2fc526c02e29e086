"""rules/stack_version_line.py: statements of a stack with its own versions (optimum-neuron) give stack_since, and
since/until are the Neuron releases those versions target."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "stack-version-line"
BERT = "families/bert.yaml"


def test_a_since_that_is_not_the_release_its_stack_version_targets_is_located(registry: Path) -> None:
    replace_once(registry / BERT, 'since: "2.20.0"\n    stack_since', 'since: "2.21.0"\n    stack_since')
    assert rule_problems(registry, RULE) == [
        "registry/families/bert.yaml:9:12: support[0].since: since is '2.21.0' but optimum-neuron 0.0.25 targets "
        "Neuron '2.20.0' (set since: \"2.20.0\", as stacks.yaml maps 0.0.25)"]


def test_a_supported_statement_without_stack_since_is_located(registry: Path) -> None:
    replace_once(registry / BERT, '    stack_since: "0.0.25"\n', "")
    assert rule_problems(registry, RULE) == [
        "registry/families/bert.yaml:8:13: support[0].status: a 'supported' optimum-neuron statement needs "
        "stack_since (name the first optimum-neuron version that has it; stacks.yaml lists them)"]


def test_both_moved_together_pass(registry: Path) -> None:
    replace_once(registry / BERT, 'since: "2.20.0"\n    stack_since: "0.0.25"',
                 'since: "2.21.0"\n    stack_since: "0.0.27"')
    assert rule_problems(registry, RULE) == []
