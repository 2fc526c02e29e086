"""Checkpoint pages: one per Hub id a tested configuration or a family example names, with the checkpoint's own
configurations only, and the constraints scoped to it (never those scoped to another checkpoint)."""

from __future__ import annotations

from pathlib import Path

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages import checkpoints

ROOT = Path(__file__).resolve().parents[2]


def _registry():  # type: ignore[no-untyped-def]
    return validate_registry(ROOT / "registry").registry


def test_every_configuration_hub_id_and_family_example_has_a_page() -> None:
    registry = _registry()
    pages = checkpoints.checkpoints(registry)
    examples = {example for family in registry.families for example in family.examples}
    named = {c.hub_id for f in registry.configuration_files for c in f.configurations if c.hub_id}
    assert examples | named == set(pages)
    files = checkpoints.render(registry)
    assert len(files) == len(pages)
    page = files["checkpoints/meta-llama/Llama-3.1-8B-Instruct/index.md"]
    assert "../../../families/llama/" in page and "release not stated" in page and "tokens/s" in page
    assert "cfg-optimum-neuron-llama-3-1-8b-trn2" in page
    assert "cfg-optimum-neuron-llama3-1-8b-dp4" not in page  # Meta-Llama-3.1-8B-Instruct has its own page


class _Scope:
    def __init__(self, tasks: list[str], checkpoints: list[str]) -> None:
        self.tasks, self.checkpoints = tasks, checkpoints


def test_a_constraint_scoped_to_another_checkpoint_is_left_out() -> None:
    assert checkpoints.scope(None, "org/a") == "the whole family"
    assert checkpoints.scope(_Scope([], ["org/a"]), "org/a") == "this checkpoint"
    assert checkpoints.scope(_Scope([], ["org/b"]), "org/a") is None
    assert checkpoints.scope(_Scope(["feature-extraction"], ["org/b"]), "org/a") == (
        "only when served for feature-extraction")
