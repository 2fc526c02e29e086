"""The bundled registry's Optimum Neuron claims match what each optimum-neuron wheel registers.

registry/upstream/optimum-neuron.yaml is extracted from the wheels on PyPI by
scripts/snapshot_optimum_neuron.py; this test reads that snapshot, not the wheels.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.crosscheck import load_snapshot, optimum_neuron_mismatches, registered_model_types
from neuron_compat.validation import validate_registry

REGISTRY = Path(__file__).resolve().parents[2] / "registry"


@pytest.fixture(scope="module")
def registry():
    result = validate_registry(REGISTRY)
    assert result.ok, "\n".join(p.format() for p in result.problems)
    return result.registry


def test_snapshot_covers_current_and_three_older_versions():
    versions = [entry["version"] for entry in load_snapshot(REGISTRY)]
    assert len(versions) >= 4
    assert "0.4.5" in versions


def test_every_registered_model_type_is_claimed_and_nothing_more(registry):
    mismatches = optimum_neuron_mismatches(registry)
    assert not mismatches, "\n".join(m.describe() for m in mismatches)


def test_exporter_parts_map_to_their_model_type():
    registered = registered_model_types({"export": {"t5-encoder": [], "t5-decoder": [], "bert": []}, "decoder": ["llama"]})
    assert registered["inference"] == {"t5", "bert", "llama"}
    assert registered["training"] == set()
