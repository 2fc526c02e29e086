"""Tested configurations and known issues in a registry: each bad input is a located problem with a hint."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ROOT = Path(__file__).resolve().parents[2]
GOOD = """source: reported
description: Reports by users.
configurations:
  - id: llama-trn1-report
    family: llama
    checkpoint: meta-llama/Llama-3.1-8B-Instruct
    hub_id: meta-llama/Llama-3.1-8B-Instruct
    stack: optimum-neuron
    stack_version: "0.0.27"
    release: "2.21.0"
    instance: trn1.32xlarge
    parallelism: {tensor: 8}
    batch_size: 1
    sequence_length: 4096
    dtype: bf16
    outcome: compiled-and-ran
    measurements:
      - {metric: throughput, value: 41.5, unit: tokens/s, phase: token-generation}
      - {metric: accuracy, name: GSM8K, value: 78.2, unit: percent}
    validated: 2026-11-02
    source: {url: "https://github.com/aws-neuron/aws-neuron-sdk/issues/1234"}
    evidence: user-report
"""


@pytest.fixture()
def registry(tmp_path: Path) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "tests" / "check" / "registry", target)
    instances = ROOT / "registry" / "instances.yaml"
    if instances.exists():
        shutil.copy(instances, target / "instances.yaml")
    (target / "configurations").mkdir()
    return target


def _problems(registry: Path, text: str) -> list[str]:
    (registry / "configurations" / "reported.yaml").write_text(text, encoding="utf-8")
    return [problem.format() for problem in validate_registry(registry).problems]


def _line(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


@pytest.mark.skipif(not (ROOT / "registry" / "instances.yaml").exists(), reason="needs instances.yaml")
def test_a_complete_configuration_validates(registry: Path) -> None:
    assert _problems(registry, GOOD) == []


@pytest.mark.skipif(not (ROOT / "registry" / "instances.yaml").exists(), reason="needs instances.yaml")
def test_unknown_instance_is_located_with_a_suggestion(registry: Path) -> None:
    text = GOOD.replace("instance: trn1.32xlarge", "instance: trn1.16xlarge")
    problems = _problems(registry, text)
    line = _line(text, "trn1.16xlarge")
    assert any(f"reported.yaml:{line}:" in p and "configurations[0].instance: instance 'trn1.16xlarge' is not in "
               "instances.yaml" in p and "did you mean" in p for p in problems), problems


def test_unknown_release_and_stack_version_are_located(registry: Path) -> None:
    text = GOOD.replace('release: "2.21.0"', 'release: "2.21.9"').replace('"0.0.27"', '"0.0.99"')
    problems = _problems(registry, text)
    assert any(f"reported.yaml:{_line(text, '2.21.9')}:" in p and "release '2.21.9' is not in releases.yaml" in p
               and "did you mean '2.21.0'?" in p for p in problems), problems
    assert any(f"reported.yaml:{_line(text, '0.0.99')}:" in p and "'0.0.99' is not a known optimum-neuron version"
               in p for p in problems), problems


def test_throughput_without_a_unit_is_located(registry: Path) -> None:
    text = GOOD.replace("value: 41.5, unit: tokens/s, phase", "value: 41.5, phase")
    problems = _problems(registry, text)
    assert any(f"reported.yaml:{_line(text, 'metric: throughput')}:" in p
               and "measurements[0].unit: required field 'unit' is missing" in p for p in problems), problems


def test_a_unit_that_does_not_fit_the_metric_is_refused(registry: Path) -> None:
    problems = _problems(registry, GOOD.replace("unit: tokens/s", "unit: ms"))
    assert any("the unit 'ms' does not fit the metric 'throughput' (allowed: tokens/s, requests/s, samples/s)" in p
               for p in problems), problems


def test_measurements_need_a_release_or_a_date(registry: Path) -> None:
    dated = GOOD.replace('release: "2.21.0"', "release: null")
    assert not any("configurations[0]" in p for p in _problems(registry, dated))  # release not stated, date given
    text = dated.replace("validated: 2026-11-02", "validated: null")
    problems = _problems(registry, text)
    assert any(f"reported.yaml:{_line(text, '- id: llama')}:" in p and "measurements need the Neuron release" in p
               and "or validated to the date it gives" in p for p in problems), problems
    without = text.split("    measurements:")[0] + "    validated: null\n" + text.split("validated: null\n")[1]
    assert not any("configurations[0]" in p and "release" in p for p in _problems(registry, without))


@pytest.mark.parametrize("day", ["2999-01-01", "0001-01-01"])
def test_a_date_in_the_future_or_before_neuron_is_refused(registry: Path, day: str) -> None:
    problems = _problems(registry, GOOD.replace("validated: 2026-11-02", f"validated: {day}"))
    assert any("reported.yaml:" in p and ("is in the future" in p or "is before 2018" in p) for p in problems), problems


@pytest.mark.parametrize(("old", "new", "said"), [
    ("value: 41.5", "value: -41.5", "cannot be negative"),
    ("value: 41.5", "value: .nan", "finite"),
    ("hub_id: meta-llama/Llama-3.1-8B-Instruct", "hub_id: meta-llama/Llama 3.1", "hub_id"),
])
def test_bad_values_and_hub_ids_are_located(registry: Path, old: str, new: str, said: str) -> None:
    problems = _problems(registry, GOOD.replace(old, new))
    assert any("reported.yaml:" in p and said in p for p in problems), problems


def test_the_same_run_twice_is_refused_naming_both(registry: Path) -> None:
    second = GOOD.split("configurations:\n")[1].replace("id: llama-trn1-report", "id: llama-trn1-again")
    problems = _problems(registry, GOOD + second)
    assert any("configurations[1]" in p and "the same run as configurations[0] (llama-trn1-report)" in p
               for p in problems), problems
    other = second.replace("batch_size: 1", "batch_size: 2")
    assert not any("the same run" in p for p in _problems(registry, GOOD + other))


def test_accuracy_needs_its_name_and_values_are_finite(registry: Path) -> None:
    problems = _problems(registry, GOOD.replace("name: GSM8K, ", ""))
    assert any("an accuracy measurement needs the name" in p for p in problems), problems
    problems = _problems(registry, GOOD.replace("value: 41.5", "value: .inf"))
    assert any("measurements[0]" in p and "finite" in p for p in problems), problems
    problems = _problems(registry, GOOD.replace("value: 78.2", "value: 178.2"))
    assert any("a percentage must lie between 0 and 100" in p for p in problems), problems


def test_unknown_family_duplicate_ids_and_unpinned_sources(registry: Path) -> None:
    second = GOOD.split("configurations:\n")[1]
    text = GOOD + second.replace("family: llama", "family: lama")
    problems = _problems(registry, text)
    assert any("configurations[1].id: configuration id 'llama-trn1-report' is used twice" in p for p in problems)
    assert any("configurations[1].family: family 'lama' is not in families/ (did you mean 'llama'?)" in p
               for p in problems), problems
    text = GOOD.replace("https://github.com/aws-neuron/aws-neuron-sdk/issues/1234",
                        "https://github.com/aws-neuron/aws-neuron-sdk/blob/master/README.md")
    assert any("names no commit or tag" in p for p in _problems(registry, text))


def test_source_id_must_match_the_file_name(registry: Path) -> None:
    problems = _problems(registry, GOOD.replace("source: reported", "source: other"))
    assert any("source 'other' does not match the file name 'reported.yaml'" in p for p in problems), problems


KNOWN = """issues:
  - id: hbm
    title: Out of HBM
    match: {codes: [NCC_EOOM001], phrases: ["exceeds the high-bandwidth memory limit"]}
    stacks: [{stack: nxd-inference, since: "2.21.0", fixed_in: "2.22.0"}]
    families: [llama]
    description: It does not fit.
    sources: [{url: "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/compiler/error-codes/EOOM001.html", kind: vendor-docs, verified: 2026-12-03}]
"""


def _issue_problems(registry: Path, text: str) -> list[str]:
    (registry / "known-issues").mkdir(exist_ok=True)
    (registry / "known-issues" / "curated.yaml").write_text(text, encoding="utf-8")
    return [p.format() for p in validate_registry(registry).problems if "known-issues/curated.yaml" in p.file]


def test_known_issues_validate_and_refuse_bad_references(registry: Path) -> None:
    assert _issue_problems(registry, KNOWN) == []
    bad = KNOWN.replace('fixed_in: "2.22.0"', 'fixed_in: "2.20.0"').replace("[llama]", "[lama]").replace(
        "nxd-inference", "nxd-inferense")
    problems = _issue_problems(registry, bad)
    assert any("stacks[0].stack: stack 'nxd-inferense' is not in stacks.yaml (did you mean 'nxd-inference'?)" in p
               for p in problems), problems
    assert any("fixed_in 2.20.0 is not after since 2.21.0" in p for p in problems), problems
    assert any("families[0]: family 'lama' is not in families/" in p for p in problems), problems


def test_known_issue_phrases_must_be_long_enough_and_one_spaced(registry: Path) -> None:
    problems = _issue_problems(registry, KNOWN.replace('"exceeds the high-bandwidth memory limit"', '"OOM"'))
    assert any("at least 8 characters" in p for p in problems), problems
    problems = _issue_problems(registry, KNOWN.replace("the high-bandwidth", "the  high-bandwidth"))
    assert any("single spaces" in p for p in problems), problems


def test_a_hand_read_known_issue_file_is_named_by_its_source(registry: Path) -> None:
    (registry / "known-issues").mkdir(exist_ok=True)
    read = registry / "known-issues" / "release-notes-2-99.yaml"
    read.write_text("source: release-notes-2-99\n" + KNOWN, encoding="utf-8")
    result = validate_registry(registry)
    assert result.problems == []
    assert [issue.id for issue in result.registry.known_issues.issues] == ["hbm"]
    read.write_text("source: release-notes-2-98\n" + KNOWN, encoding="utf-8")
    [problem] = [p.format() for p in validate_registry(registry).problems]
    assert "release-notes-2-99.yaml:1:9: source: source 'release-notes-2-98' does not match the file name" in problem
    assert "rename the file to release-notes-2-98.yaml" in problem
    read.rename(registry / "known-issues" / "notes.txt")
    [problem] = [p.format() for p in validate_registry(registry).problems]
    assert "notes.txt" in problem and "belong in known-issues/" in problem


def _run_problems(registry: Path, files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The problems of configurations/reported/NAME files holding `files`' texts, shown from the registry's folder."""
    (registry / "configurations" / "reported").mkdir()
    for name, text in files.items():
        (registry / "configurations" / "reported" / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(registry.parent)
    return [problem.format() for problem in validate_registry("registry").problems]


@pytest.mark.skipif(not (ROOT / "registry" / "instances.yaml").exists(), reason="needs instances.yaml")
def test_a_run_file_is_one_run_named_by_its_id(registry: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """configurations/reported/<id>.yaml (one run per file, what add-evidence writes): read beside the old layout;
    its source, its one run and its name are checked at their line."""
    two = GOOD + GOOD.split("configurations:\n")[1].replace("llama-trn1-report", "second").replace("/1234", "/99")
    problems = _run_problems(registry, {
        "llama-trn1-report.yaml": GOOD,
        "misnamed.yaml": GOOD.replace("llama-trn1-report", "other-id").replace("/1234", "/5"),
        "other.yaml": GOOD.replace("source: reported", "source: other").replace("llama-trn1-report", "other"),
        "two.yaml": two.replace("id: llama-trn1-report", "id: two"),
        "notes.txt": "",
    }, monkeypatch)
    assert problems == [
        "registry/configurations/reported/misnamed.yaml:4:9: configurations[0].id: id 'other-id' does not match the "
        "file name 'misnamed.yaml' (rename the file to other-id.yaml or set id: misnamed)",
        "registry/configurations/reported/notes.txt: only <id>.yaml files belong in configurations/reported/ (one run "
        "per file, named by its id)",
        "registry/configurations/reported/other.yaml:1:9: source: source 'other' does not match the file name "
        "'other.yaml' (move the file to configurations/other/ or set source: reported)",
        "registry/configurations/reported/two.yaml:3:1: configurations: a file of reported/ holds one run; this one "
        "holds 2 (give each run a file of its own, named by its id)",
    ]


@pytest.mark.skipif(not (ROOT / "registry" / "instances.yaml").exists(), reason="needs instances.yaml")
def test_the_same_run_in_two_files_is_found(registry: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run file holds its run at configurations[0]: the same run recorded in two files is still one problem."""
    copy = GOOD.replace("llama-trn1-report", "llama-trn1-again")
    problems = _run_problems(registry, {"llama-trn1-report.yaml": GOOD, "llama-trn1-again.yaml": copy}, monkeypatch)
    assert problems == [
        "registry/configurations/reported/llama-trn1-report.yaml:4:5: configurations[0]: configuration "
        "'llama-trn1-report' is the same run as configurations/reported/llama-trn1-again.yaml configurations[0] "
        "(llama-trn1-again): same source, checkpoint, instance, parallelism, batch size and sequence length (merge "
        "them into one configuration with the measurements of both)"]


def test_a_source_folder_needs_a_source_name(registry: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (registry / "configurations" / "Bad Name").mkdir()
    monkeypatch.chdir(registry.parent)
    assert [p.format() for p in validate_registry("registry").problems] == [
        "registry/configurations/Bad Name: a folder of configurations/ is named by its source id (a-z, 0-9, '-' or '_' "
        "between them) (rename it, e.g. reported)"]


def test_a_known_issue_verified_in_the_future_or_naming_a_release_the_registry_lacks_is_refused(registry: Path) -> None:
    future = KNOWN.replace("verified: 2026-12-03", "verified: 2099-01-01")
    problems = _issue_problems(registry, future)
    assert any("verified 2099-01-01 is in the future" in p for p in problems), problems
    listed = KNOWN.replace("    families: [llama]\n", "    families: [llama]\n    kind: known-issue\n"
                           "    listed_in: {first: \"2.0.0\", last: \"2.99.0\", not_listed_from: \"2.99.1\"}\n")
    problems = _issue_problems(registry, listed)
    assert any("listed_in.last: release '2.99.0' is not in releases.yaml" in p for p in problems), problems
    assert any("listed_in.not_listed_from: release '2.99.1'" in p for p in problems), problems
    assert not any("'2.0.0'" in p for p in problems), problems  # older than the registry: the notes go back to 2.0
    derived = KNOWN.replace("    families: [llama]\n", "    families: [llama]\n    fixed_in: {release: \"2.22.0\", "
                            "derived: true}\n")
    assert any("a fix no source names is not a fix" in p for p in _issue_problems(registry, derived))
