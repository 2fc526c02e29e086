"""rules/tested_configurations.py: tested configurations name what exists; ids are unique; no run is recorded twice."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import INSTANCES, rule_problems

RULE = "tested-configurations"
RUN = """\
source: reported
description: One run.
configurations:
  - id: {id}
    family: {family}
    checkpoint: meta-llama/Llama-3.1-8B-Instruct
    stack: nxd-inference
    release: "{release}"
    instance: trn1.2xlarge
    outcome: compiled-and-ran
    validated: 2026-11-02
    source: {{url: "https://github.com/aws-neuron/aws-neuron-sdk/issues/{issue}"}}
    evidence: user-report
"""


def _run(registry: Path, id: str, family: str = "llama", release: str = "2.22.0", issue: int = 1) -> None:
    (registry / "instances.yaml").write_text(INSTANCES, encoding="utf-8")
    folder = registry / "configurations" / "reported"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{id}.yaml").write_text(RUN.format(id=id, family=family, release=release, issue=issue),
                                        encoding="utf-8")


def test_an_unknown_family_and_release_and_a_run_recorded_twice_are_located(registry: Path) -> None:
    _run(registry, "first")
    _run(registry, "second", family="lama", release="2.22.1", issue=3)
    _run(registry, "third")
    assert rule_problems(registry, RULE) == [
        "registry/configurations/reported/second.yaml:5:13: configurations[0].family: family 'lama' is not in "
        "families/ (did you mean 'llama'?)",
        "registry/configurations/reported/second.yaml:8:14: configurations[0].release: release '2.22.1' is not in "
        "releases.yaml (did you mean '2.22.0'? known releases: 2.20.0 to 2.22.0)",
        "registry/configurations/reported/third.yaml:4:5: configurations[0]: configuration 'third' is the same run as "
        "configurations/reported/first.yaml configurations[0] (first): same source, checkpoint, instance, "
        "parallelism, batch size and sequence length (merge them into one configuration with the measurements of "
        "both)",
    ]


def test_two_runs_of_their_own_pass(registry: Path) -> None:
    _run(registry, "first")
    _run(registry, "second", issue=2)
    assert rule_problems(registry, RULE) == []
