"""What holds at a release has one definition (views.held_at): the site's ReleaseView and the changelog's
cells_at draw the same thing at every release of the bundled registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.support import CurrentView, ReleaseView, current_release
from neuron_compat.views.at_release import cells_at

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def test_release_view_and_cells_at_agree_at_every_release() -> None:
    registry = validate_registry(REGISTRY).registry
    unknown_past_horizon = 0
    for release in registry.release_versions:
        view = ReleaseView(registry, release)
        drawn = {(f.id, h.statement.stack, str(h.statement.workload), str(hw)): (h.claim_status, h.reason)
                 for f in registry.families for h in view.held(f) for hw in h.hardware}
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


def test_cell_at_says_ended_not_yet_and_where_a_statement_holds() -> None:
    from neuron_compat.views.at_release import ENDED, HOLDS, NO_STATEMENT, NOT_YET, cell_at

    registry = validate_registry(REGISTRY).registry
    qwen3 = registry.family_by_id["qwen3"]
    ended = cell_at(registry, qwen3, "nxd-inference", "inference", None, "2.34.0")
    assert (ended.kind, ended.release, ended.held_through) == (ENDED, "2.34.0", "2.33.1")
    assert ended.hardware == ("trn2",)  # qwen3 has no trn3 statement on NxD Inference
    on_trn1 = cell_at(registry, qwen3, "nxd-inference", "inference", "trn1", "2.34.0")
    assert (on_trn1.kind, on_trn1.release) == (ENDED, "2.29.0")  # its trn1 statement ended earlier
    assert cell_at(registry, qwen3, "nxd-inference", "inference", None, "2.33.0").kind == HOLDS
    # an unknown with no range on every hardware: the stack's end (ends: trn2/trn3 at 2.34.0) cuts it there
    cohere = registry.family_by_id["cohere"]
    unranged = [s for s in cohere.support if s.stack == "nxd-inference" and s.since is None and s.until is None]
    assert unranged and {str(h) for h in unranged[0].hardware} == {"inf2", "trn1", "trn2", "trn3"}
    now = cell_at(registry, cohere, "nxd-inference", "inference", None, "2.34.0")
    assert now.kind == HOLDS and [h.hardware for h in now.held] == [("inf2", "trn1")]
    before = cell_at(registry, cohere, "nxd-inference", "inference", None, "2.33.0")
    assert [sorted(h.hardware) for h in before.held] == [["inf2", "trn1", "trn2", "trn3"]]
    # torch-neuronx training ends at 2.30.0 (ends), held through 2.29.x
    bert = registry.family_by_id["bert"]
    training = cell_at(registry, bert, "torch-neuronx", "training", None, "2.31.0")
    assert (training.kind, training.release) == (ENDED, "2.30.0")
    # a stack not shipped yet: its statements start with it (torchneuron from 2.33.0)
    early = next(f for f in registry.families if any(s.stack == "torchneuron" for s in f.support))
    workload = next(str(s.workload) for s in early.support if s.stack == "torchneuron")
    assert cell_at(registry, early, "torchneuron", workload, None, "2.30.0").kind == NOT_YET
    assert cell_at(registry, qwen3, "no-such-stack", "inference", None, "2.34.0").kind == NO_STATEMENT


def test_the_families_index_does_not_call_an_ended_stack_current() -> None:
    registry = validate_registry(REGISTRY).registry
    today = CurrentView(registry)
    mistral = registry.family_by_id["mistral"]
    ended = {s.id for s in registry.stacks if s.end_of_support is not None}
    assert ended  # transformers-neuronx, nxd-training
    assert not [h for h in today.held(mistral) if h.statement.stack in ended]
