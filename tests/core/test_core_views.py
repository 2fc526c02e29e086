"""What holds at a release has one definition (views.held_at): the site's ReleaseView and the changelog's
cells_at draw the same thing at every release of the bundled registry."""

from __future__ import annotations

from pathlib import Path

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.support import CurrentView, ReleaseView, current_release
from neuron_compat.views.at_release import cells_at

REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def test_release_view_and_cells_at_agree_at_every_release() -> None:
    registry = validate_registry(REGISTRY).registry
    unknown_past_horizon = 0
    for release in registry.release_versions:
        view = ReleaseView(registry, release)
        drawn = {(f.id, h.statement.stack, str(h.statement.workload), str(hw)): (h.claim_status, h.reason)
                 for f in registry.families for h in view.held(f) for hw in h.statement.hardware}
        cells = {(k.family, k.stack, k.workload, k.hardware): (c.status, c.reason) for k, c in cells_at(registry, release).items()}
        assert drawn == cells, release
        unknown_past_horizon += sum(1 for _, reason in cells.values() if reason)
    assert unknown_past_horizon > 0  # the horizon rule is exercised, not only plain ranges


def test_current_view_is_each_stack_at_its_own_current_release() -> None:
    registry = validate_registry(REGISTRY).registry
    today = CurrentView(registry)
    for family in registry.families[:20]:
        expected = [h for stack in registry.stacks
                    for h in ReleaseView(registry, current_release(registry, stack)).held(family, stack.id)]
        assert today.held(family) == expected


def test_a_loaded_registry_is_frozen() -> None:
    import dataclasses

    import pytest

    from neuron_compat.loading.loaded_registry import Registry

    registry = validate_registry(REGISTRY).registry
    assert isinstance(registry, Registry)
    with pytest.raises(dataclasses.FrozenInstanceError):
        registry.families = []  # type: ignore[misc]
