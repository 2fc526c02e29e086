"""The release-components rule reads windows from the shared index of statements by stack (issue 34: it cost 290
of the rules' 375 ms); the stacks it finds held at each release are exactly what `held_at` says holds there."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.rules import release_components
from neuron_compat.rules.validation import validate_registry
from neuron_compat.views.at_release import held_at, stack_states

ROOT = Path(__file__).resolve().parents[2]


def held_by_definition(registry, release: str) -> list[str]:
    states = stack_states(registry, release)
    held = {h.statement.stack for family in registry.families for h in held_at(family, release, states)}
    return list(dict.fromkeys(s.id for s in registry.stacks if s.id in held))


@pytest.mark.parametrize("registry_dir", [ROOT / "registry", ROOT / "tests" / "check" / "registry",
                                          ROOT / "tests" / "fixtures" / "registry"], ids=lambda p: p.parent.name)
def test_the_indexed_rule_finds_what_held_at_defines(registry_dir):
    registry = validate_registry(registry_dir).registry
    windows = release_components._windows(registry)
    versions = [r.version for r in registry.releases] + ["2.0.0", "9.99.0"]  # before and after every range
    for version in versions:
        assert release_components._held_stacks(windows, version) == held_by_definition(registry, version), version
