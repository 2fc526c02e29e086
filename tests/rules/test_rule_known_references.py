"""rules/known_references.py: every release and stack a file names exists in releases.yaml / stacks.yaml."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import append, replace_once, rule_problems

RULE = "known-references"
LLAMA = "families/llama.yaml"


def test_a_release_and_a_stack_that_do_not_exist_are_located_with_a_suggestion(registry: Path) -> None:
    replace_once(registry / LLAMA, '      - release: "2.22.0"', '      - release: "2.22.1"')
    replace_once(registry / LLAMA, "  - stack: nxd-inference", "  - stack: nxd-inferenc")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:11:12: support[0].stack: stack 'nxd-inferenc' is not in stacks.yaml (did you "
        "mean 'nxd-inference'?)",
        "registry/families/llama.yaml:24:18: support[0].notes[0].release: release '2.22.1' is not in releases.yaml "
        "(did you mean '2.22.0'? known releases: 2.20.0 to 2.22.0)",
    ]


def test_a_release_added_to_releases_yaml_in_the_same_change_passes(registry: Path) -> None:
    append(registry / "releases.yaml", '  - version: "2.23.0"\n    date: 2025-06-24\n'
           '    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/index.html\n')
    replace_once(registry / LLAMA, '      - release: "2.22.0"', '      - release: "2.23.0"')
    assert rule_problems(registry, RULE) == []
