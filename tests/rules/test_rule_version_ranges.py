"""rules/version_ranges.py: since < until, and statements of one stack/workload/hardware do not overlap."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "version-ranges"
LLAMA = "families/llama.yaml"
# A second optimum-neuron inference statement on inf2 (the first runs from 2.20.0 until 2.22.0).
LATER = """\
  - stack: optimum-neuron
    workload: inference
    hardware: [inf2]
    status: unknown
    since: "{since}"
    sources:
      - url: https://huggingface.co/docs/optimum-neuron/index
        kind: vendor-docs
        verified: 2026-12-02
"""


def _add_statement(registry: Path, since: str) -> None:
    text = (registry / LLAMA).read_text(encoding="utf-8")
    (registry / LLAMA).write_text(text.replace("classes: [decoder-lm]\n", LATER.format(since=since) + "classes: [decoder-lm]\n"),
                                  encoding="utf-8")


def test_overlapping_statements_and_an_until_before_since_are_located(registry: Path) -> None:
    _add_statement(registry, "2.21.0")
    replace_once(registry / LLAMA, '    since: "2.21.0"\n    dtypes', '    since: "2.21.0"\n    until: "2.20.0"\n    dtypes')
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:16:12: support[0].until: until '2.20.0' must be a later release than since "
        "'2.21.0' (until is the first release where the statement no longer holds)",
        "registry/families/llama.yaml:48:12: support[2].since: overlaps support[1] (optimum-neuron/inference on inf2) "
        "(set until on support[1] to this statement's since, or split the hardware)",
    ]


def test_a_statement_that_starts_where_the_last_ends_passes(registry: Path) -> None:
    _add_statement(registry, "2.22.0")
    assert rule_problems(registry, RULE) == []
