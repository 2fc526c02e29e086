"""rules/stack_lifecycle.py: statements of a stack end at or before its end_of_support (and its `ends`)."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "stack-lifecycle"


def _end_nxd_inference(registry: Path) -> None:
    replace_once(registry / "stacks.yaml", '    status: active\n    since: "2.21.0"\n',
                 '    status: active\n    since: "2.21.0"\n    end_of_support: "2.22.0"\n')


def test_a_statement_without_until_on_a_stack_that_ended_is_located(registry: Path) -> None:
    _end_nxd_inference(registry)
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:11:12: support[0].stack: nxd-inference reached end of support in 2.22.0, but "
        'this statement has no until (set until: "2.22.0" or an earlier release)']


def test_a_statement_that_ends_with_its_stack_passes(registry: Path) -> None:
    _end_nxd_inference(registry)
    replace_once(registry / "families" / "llama.yaml", '    since: "2.21.0"\n    dtypes',
                 '    since: "2.21.0"\n    until: "2.22.0"\n    dtypes')
    assert rule_problems(registry, RULE) == []
