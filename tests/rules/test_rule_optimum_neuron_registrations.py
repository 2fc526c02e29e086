"""rules/optimum_neuron_registrations.py: optimum-neuron claims equal what each optimum-neuron version registers,
per the committed snapshot registry/upstream/optimum-neuron.yaml (here a small one for the fixture's two versions)."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import rule_problems

RULE = "optimum-neuron-registrations"
SNAPSHOT = """\
source: https://pypi.org/project/optimum-neuron/
taken: "2026-12-02"
versions:
- version: "0.0.27"
  export: {{bert: [feature-extraction]}}
  decoder: [llama]
- version: "0.0.25"
  export: {{bert: [feature-extraction]}}
  decoder: [{decoder_0_0_25}]
"""


def _snapshot(registry: Path, decoder_0_0_25: str) -> None:
    (registry / "upstream" / "optimum-neuron.yaml").write_text(SNAPSHOT.format(decoder_0_0_25=decoder_0_0_25),
                                                               encoding="utf-8")


def test_a_claim_from_a_version_that_does_not_register_it_is_located_at_its_stack_since(registry: Path) -> None:
    _snapshot(registry, "")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:36:18: support[1].stack_since: optimum-neuron 0.0.25 does not register model "
        "type 'llama' for inference (registry/upstream/optimum-neuron.yaml, read from its wheels), but this statement "
        "claims it from stack_since 0.0.25 (claim a later stack_since ('0.0.27' is the first version that registers "
        "it) or mark the statement unknown)"]


def test_claims_that_match_the_snapshot_pass(registry: Path) -> None:
    _snapshot(registry, "llama")
    assert rule_problems(registry, RULE) == []
