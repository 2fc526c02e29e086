"""rules/statement_completeness.py: supported/partial name a since; partial/unsupported/not-listed carry a note;
the workload and hardware are ones the stack has."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "statement-completeness"
LLAMA = "families/llama.yaml"


def test_a_partial_claim_without_a_note_and_hardware_the_stack_lacks_are_located(registry: Path) -> None:
    replace_once(registry / LLAMA, "    notes:\n      - text: Example partial note.\n", "")
    replace_once(registry / LLAMA, "    hardware: [trn1, trn2]", "    hardware: [trn1, trn3]")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:13:22: support[0].hardware[1]: stack 'nxd-inference' does not run on trn3 "
        "(its hardware in stacks.yaml: inf2, trn1, trn2)",
        "registry/families/llama.yaml:33:13: support[1].status: a 'partial' statement needs a note saying why (add "
        "notes: [{text: ...}] describing what is limited or missing)",
    ]


def test_an_unsupported_claim_with_its_note_passes(registry: Path) -> None:
    replace_once(registry / LLAMA, "    status: partial", "    status: unsupported")
    assert rule_problems(registry, RULE) == []
