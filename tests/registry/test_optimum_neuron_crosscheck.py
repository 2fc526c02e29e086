"""The bundled registry's Optimum Neuron claims match what each optimum-neuron wheel registers.

registry/upstream/optimum-neuron.yaml is extracted from the wheels on PyPI by
scripts/snapshot_optimum_neuron.py; this test reads that snapshot, not the wheels.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry
from neuron_compat.views.optimum_neuron_crosscheck import (
    load_snapshot,
    optimum_neuron_mismatches,
    registered_model_types,
)

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


def _copy(tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "registry"
    shutil.copytree(REGISTRY, target)
    return target


def test_validate_reports_a_claim_the_snapshot_contradicts(tmp_path: Path):
    # a rule over the committed snapshot: `validate` (and so pre-commit and CI) catches it, located in stacks.yaml
    root = _copy(tmp_path)
    llama = root / "families" / "llama.yaml"
    text = llama.read_text(encoding="utf-8")
    old = "- stack: optimum-neuron\n  workload: inference\n  hardware: [inf2, trn1]\n  status: supported\n"
    assert text.count(old) >= 1, "registry/families/llama.yaml changed shape"
    llama.write_text(text.replace(old, old.replace("status: supported", "status: unsupported"), 1), encoding="utf-8")
    problems = [p for p in validate_registry(root).problems if p.rule == "optimum-neuron-registrations"]
    assert problems, "the rule did not fire"
    assert all(p.file.endswith("stacks.yaml") and p.line > 0 for p in problems)
    assert any("inference: registered but not claimed: llama" in p.message for p in problems)


def test_a_malformed_snapshot_is_a_problem_not_a_crash(tmp_path: Path):
    root = _copy(tmp_path)
    (root / "upstream" / "optimum-neuron.yaml").write_text("versions: 3\n", encoding="utf-8")
    problems = [p for p in validate_registry(root).problems if p.rule == "optimum-neuron-registrations"]
    assert [p.message for p in problems] == [
        "upstream/optimum-neuron.yaml: expected 'versions:' with a list of entries that name their version"]
