"""Both paths of `add-evidence` (a statement, a tested configuration) run one edit transaction
(contributing.edit_transaction): lock, validate, compare, replace are written once."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from neuron_compat.contributing.edit_transaction import EditRefused, EditTransaction

COMMANDS = Path(__file__).resolve().parents[2] / "src" / "neuron_compat" / "commands"
STEPS = {"read_snapshot", "unchanged_text", "validate_with_changes", "problems_the_edit_adds", "validate_registry"}


@pytest.mark.parametrize("command", ["add_evidence.py", "add_configuration.py"])
def test_each_path_uses_the_transaction_and_none_of_its_steps(command):
    names = {alias.name for node in ast.walk(ast.parse((COMMANDS / command).read_text()))
             if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert "EditTransaction" in names and "registry_locked" in names
    assert not names & STEPS, f"{command} repeats a step of the transaction: {sorted(names & STEPS)}"


def test_a_file_with_problems_is_refused_before_anything_else(registry: Path):
    family = registry / "families" / "bert.yaml"
    family.write_text(family.read_text().replace("status: supported", "status: suported", 1))
    with pytest.raises(EditRefused) as refused:
        EditTransaction(registry, "families/bert.yaml", "the evidence")
    assert refused.value.lines[-1].endswith("has problems; fix them first (neuron-compat validate), then add the evidence")
    assert "'suported'" in refused.value.lines[0]


def test_a_file_changed_since_it_was_read_is_refused(registry: Path):
    edit = EditTransaction(registry, "families/bert.yaml", "the evidence")
    family = registry / "families" / "bert.yaml"
    family.write_text(family.read_text() + "# saved by an editor\n")
    with pytest.raises(EditRefused) as refused:
        edit.text()
    assert "changed while add-evidence ran" in refused.value.lines[0]


def test_an_edit_that_adds_a_problem_is_refused(registry: Path):
    edit = EditTransaction(registry, "families/bert.yaml", "the evidence")
    text = edit.text()
    with pytest.raises(EditRefused) as refused:
        edit.propose(text.replace("status: supported", "status: suported", 1))
    assert refused.value.lines[-1].startswith("the edit would leave 1 problem(s)")
    assert edit.propose(text + "# a comment\n").endswith("# a comment\n")
