"""rules/catalogue_order.py: releases.yaml and stacks.yaml list each release, stack and stack version once,
releases oldest first."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import append, replace_once, rule_problems

RULE = "catalogue-order"
NEWER = '  - version: "{}"\n    date: 2025-06-24\n    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/index.html\n'


def test_a_release_out_of_order_and_a_stack_version_listed_twice_are_located(registry: Path) -> None:
    append(registry / "releases.yaml", NEWER.format("2.19.0"))
    replace_once(registry / "stacks.yaml", '      - version: "0.0.27"\n        neuron: "2.21.0"\n',
                 '      - version: "0.0.27"\n        neuron: "2.21.0"\n      - version: "0.0.27"\n        neuron: "2.21.0"\n')
    assert rule_problems(registry, RULE) == [
        "registry/releases.yaml:18:14: releases[3].version: release '2.19.0' comes after '2.22.0' (keep releases "
        "oldest first)",
        "registry/stacks.yaml:14:18: stacks[0].versions[2].version: optimum-neuron version '0.0.27' is listed twice",
    ]


def test_a_newer_release_at_the_end_passes(registry: Path) -> None:
    append(registry / "releases.yaml", NEWER.format("2.23.0"))
    assert rule_problems(registry, RULE) == []
