"""The release-components rule reads windows from the shared index of statements by stack (issue 34: it cost 290
of the rules' 375 ms); the stacks it finds held at each release are exactly what `held_at` says holds there."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.rules import release_components
from neuron_compat.rules.validation import validate_registry
from neuron_compat.views.at_release import held_at, stack_states

ROOT = Path(__file__).resolve().parents[2]


def held_by_definition(registry, release: str) -> list[str]:
    states = stack_states(registry, release)
    held = {h.statement.stack for family in registry.families for h in held_at(family, release, states)}
    return list(dict.fromkeys(s.id for s in registry.stacks if s.id in held))


@pytest.mark.parametrize("registry_dir", [ROOT / "registry", ROOT / "tests" / "check" / "registry",
                                          ROOT / "tests" / "fixtures" / "registry"], ids=lambda p: p.parent.name)
def test_the_indexed_rule_finds_what_held_at_defines(registry_dir):
    registry = validate_registry(registry_dir).registry
    windows = release_components._windows(registry)
    versions = [r.version for r in registry.releases] + ["2.0.0", "9.99.0"]  # before and after every range
    for version in versions:
        assert release_components._held_stacks(windows, version) == held_by_definition(registry, version), version


def _fixture_copy(tmp_path: Path, releases: str) -> Path:
    import shutil
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "tests" / "fixtures" / "registry", target)
    (target / "releases.yaml").write_text(releases, encoding="utf-8")
    return target


RELEASES = """releases:
  - version: "2.20.0"
    date: 2024-09-16
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.20.0/index.html
    hardware: [inf2, trn1]
    components: {neuronx-cc: "2.15.128.0"}
  - version: "2.21.0"
    date: 2024-12-20
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.21.0/index.html
    hardware: [inf2, trn1, trn2]
    components: {torch-neuronx: "2.1.2.2.3.0"}
{not_stated}  - version: "2.22.0"
    date: 2025-04-03
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.22.0/index.html
    hardware: [inf2, trn1, trn2]
    components: {neuronx-cc: "2.17.194.0", nxd-inference: "0.2.0", torch-neuronx: "2.1.2.2.3.0"}
"""
NOT_STATED = """    not_stated:
      - component: nxd-inference
        reason: "No page read gives it."
        read: [https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.21.0/index.html]
"""


def test_a_component_the_release_says_is_not_stated_is_not_asked_for(tmp_path):
    silent = validate_registry(_fixture_copy(tmp_path / "a", RELEASES.replace("{not_stated}", "")))
    assert [w.message for w in silent.warnings if "2.21.0" in w.message and "nxd-inference" in w.message]
    said = validate_registry(_fixture_copy(tmp_path / "b", RELEASES.replace("{not_stated}", NOT_STATED)))
    assert said.problems == []
    assert not [w.message for w in said.warnings if "2.21.0" in w.message]
    assert said.registry.releases[1].not_stated[0].component == "nxd-inference"


def test_a_component_both_given_and_not_stated_is_a_located_problem(tmp_path):
    both = NOT_STATED.replace("nxd-inference", "torch-neuronx")
    result = validate_registry(_fixture_copy(tmp_path, RELEASES.replace("{not_stated}", both)))
    [problem] = [p.format() for p in result.problems]
    assert "releases.yaml:" in problem and "releases[1]" in problem
    assert "torch-neuronx: listed in both components and not_stated" in problem


def test_the_release_page_says_which_versions_are_not_stated_and_what_was_read():
    from neuron_compat.site.pages.releases import all_release_changes, release_page

    registry = validate_registry(ROOT / "registry").registry
    html = release_page(registry, "2.34.0", all_release_changes(registry)["2.34.0"])
    row = html[html.index('<th scope="row">Not stated</th>'):]
    row = row[:row.index("</tr>")]
    assert "<code>vllm-neuron</code>: No stored 2.34.0 page gives it" in row
    assert 'href="https://github.com/aws-neuron/aws-neuron-sdk/releases/tag/v2.34.0"' in row
