"""rules/unique_architectures.py: an architecture class name belongs to exactly one family."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "unique-architectures"


def test_a_class_listed_by_a_second_family_is_located_there(registry: Path) -> None:
    replace_once(registry / "families" / "bert.yaml", "model_types: [bert]\n",
                 "model_types: [bert]\narchitectures: [BertModel, LlamaForCausalLM]\n")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:6:17: architectures[0]: architecture class 'LlamaForCausalLM' is already listed "
        "by family 'bert' (check would match a config by it to one of them without saying so) (keep it in the family "
        "whose model_types hold its model_type: families/bert.yaml or families/llama.yaml)"]


def test_classes_of_their_own_pass(registry: Path) -> None:
    replace_once(registry / "families" / "bert.yaml", "model_types: [bert]\n",
                 "model_types: [bert]\narchitectures: [BertModel, BertForMaskedLM]\n")
    assert rule_problems(registry, RULE) == []
