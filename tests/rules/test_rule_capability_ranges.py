"""rules/capability_ranges.py: capability files name what exists, and ranges of one stack that share a workload,
hardware and scope do not overlap in releases."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "capability-ranges"
OPTIMUM = "capabilities/optimum-neuron.yaml"


def test_overlapping_ranges_and_an_unknown_release_are_located(registry: Path) -> None:
    replace_once(registry / OPTIMUM, '    until: "2.21.0"', '    until: "2.22.0"')
    replace_once(registry / "capabilities" / "nxd-inference.yaml", 'since: "2.21.0"', 'since: "2.21.1"')
    assert rule_problems(registry, RULE) == [
        "registry/capabilities/nxd-inference.yaml:6:12: capabilities[0].since: release '2.21.1' is not in "
        "releases.yaml (did you mean '2.21.0'? known releases: 2.20.0 to 2.22.0)",
        "registry/capabilities/optimum-neuron.yaml:16:12: capabilities[1].since: overlaps capabilities[0] "
        "(inference on inf2, trn1) (set until on capabilities[0] to this range's since, or split the hardware)",
    ]


def test_ranges_that_meet_without_overlapping_pass(registry: Path) -> None:
    """The fixture's two optimum-neuron ranges: the first ends (until 2.21.0) where the second starts."""
    assert "until: \"2.21.0\"" in (registry / OPTIMUM).read_text(encoding="utf-8")
    assert rule_problems(registry, RULE) == []
