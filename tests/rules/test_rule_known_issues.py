"""rules/known_issues.py: known issues name stacks, releases, stack versions and families that exist; fixed_in
comes after since."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import rule_problems

RULE = "known-issues"
ISSUE = """\
issues:
  - id: hbm
    title: Out of device memory
    match: {{codes: [NCC_EOOM001]}}
    stacks: [{{stack: {stack}, since: "2.21.0", fixed_in: "{fixed_in}"}}]
    families: [{family}]
    description: The model does not fit.
    sources: [{{url: "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/compiler/error-codes/EOOM001.html", kind: vendor-docs, verified: 2026-12-03}}]
"""


def _issue(registry: Path, stack: str = "nxd-inference", fixed_in: str = "2.22.0", family: str = "llama") -> None:
    (registry / "known-issues").mkdir()
    (registry / "known-issues" / "curated.yaml").write_text(ISSUE.format(stack=stack, fixed_in=fixed_in,
                                                                           family=family), encoding="utf-8")


def test_an_unknown_stack_and_family_and_a_fix_before_the_issue_are_located(registry: Path) -> None:
    _issue(registry, stack="nxd-inferenc", fixed_in="2.20.0", family="lama")
    assert rule_problems(registry, RULE) == [
        "registry/known-issues/curated.yaml:5:22: issues[0].stacks[0].stack: stack 'nxd-inferenc' is not in "
        "stacks.yaml (did you mean 'nxd-inference'?)",
        "registry/known-issues/curated.yaml:5:63: issues[0].stacks[0].fixed_in: fixed_in 2.20.0 is not after since "
        "2.21.0 (fixed_in is the first release with the fix)",
        "registry/known-issues/curated.yaml:6:16: issues[0].families[0]: family 'lama' is not in families/ (did you "
        "mean 'llama'?)",
    ]


def test_an_issue_naming_what_exists_passes(registry: Path) -> None:
    _issue(registry)
    assert rule_problems(registry, RULE) == []
