"""rules/upstream_model_types.py: model_type values exist in the transformers snapshot, unless remote_code."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "upstream-model-types"
BERT = "families/bert.yaml"


def test_a_model_type_transformers_lacks_is_located_with_a_suggestion(registry: Path) -> None:
    replace_once(registry / BERT, "model_types: [bert]", "model_types: [bert, bertt]")
    assert rule_problems(registry, RULE) == [
        "registry/families/bert.yaml:3:21: model_types[1]: 'bertt' is not a model_type of transformers 4.57.0 as "
        "listed in upstream/transformers-model-types.yaml (did you mean 'bert'?)"]


def test_a_family_that_needs_remote_code_passes(registry: Path) -> None:
    replace_once(registry / BERT, "model_types: [bert]", "model_types: [bert, bertt]\nremote_code: true")
    assert rule_problems(registry, RULE) == []
