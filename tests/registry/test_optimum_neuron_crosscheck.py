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

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

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


def test_a_claim_before_the_version_that_registers_it_is_located_at_its_stack_since_in_the_family_file(tmp_path: Path):
    """It was reported in stacks.yaml ("claimed but not registered"), a file the contributor never touched
    (issue 23, defect 9); now at the claim, saying which versions lack it and which one first has it."""
    from neuron_compat.loading.yaml_reader import display_path

    root = _copy(tmp_path)
    smollm3 = root / "families" / "smollm3.yaml"
    text = smollm3.read_text(encoding="utf-8")
    old = '  since: "2.26.0"\n  stack_since: "0.4.0"\n'
    assert text.count(old) == 1, "registry/families/smollm3.yaml changed shape"
    smollm3.write_text(text.replace(old, '  since: "2.24.0"\n  stack_since: "0.3.0"\n'), encoding="utf-8")
    line = text.splitlines().index('  stack_since: "0.4.0"') + 1
    problems = [p for p in validate_registry(root).problems if p.rule == "optimum-neuron-registrations"]
    assert [p.format() for p in problems] == [
        f"{display_path(smollm3)}:{line}:16: support[0].stack_since: optimum-neuron 0.3.0 does not register model type "
        f"'smollm3' for inference ({display_path(root / 'upstream' / 'optimum-neuron.yaml')}, read from its wheels), "
        "but this statement claims it from stack_since 0.3.0 (claim a later stack_since ('0.4.0' is the first version "
        "that registers it) or mark the statement unknown)"]
