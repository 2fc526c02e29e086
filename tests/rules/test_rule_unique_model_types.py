"""rules/unique_model_types.py: a model_type (and a diffusers pipeline class) belongs to exactly one family."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "unique-model-types"


def test_a_model_type_of_another_family_is_located_at_the_second_listing(registry: Path) -> None:
    replace_once(registry / "families" / "llama.yaml", "model_types: [llama]", "model_types: [llama, bert]")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:5:22: model_types[1]: 'bert' already belongs to family 'bert' (keep it in one "
        "family only: families/bert.yaml)"]


def test_a_model_type_of_its_own_passes(registry: Path) -> None:
    replace_once(registry / "families" / "llama.yaml", "model_types: [llama]", "model_types: [llama, qwen3]")
    assert rule_problems(registry, RULE) == []
