"""rules/release_components.py (a warning): releases without the component versions a recommendation would pin."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "release-components"
COMPONENTS_2_21 = '    components:\n      nxd-inference: "0.1.0"\n'


def test_a_release_with_no_components_is_a_warning_at_its_version(registry: Path) -> None:
    replace_once(registry / "releases.yaml", COMPONENTS_2_21, "")
    assert rule_problems(registry, RULE) == [
        "registry/releases.yaml:7:14: warning: releases[1].version: Neuron 2.21.0 records no component versions: "
        "recommendations at it say their pins are not recorded (add `components` from the release's notes (its "
        "package versions))"]


def test_a_release_with_the_pins_of_the_stacks_held_there_passes(registry: Path) -> None:
    """2.21.0 records nxd-inference's version; optimum-neuron ships its own releases (separate_releases), so it
    needs none."""
    assert COMPONENTS_2_21 in (registry / "releases.yaml").read_text(encoding="utf-8")
    assert rule_problems(registry, RULE) == []
