"""instances.yaml: the contract (hardware ids from the vocabulary, nulls for unknowns) and the instance-arithmetic
rule, each problem located at its line and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def registry(tmp_path: Path) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "tests" / "check" / "registry", target)
    shutil.copy(ROOT / "registry" / "instances.yaml", target / "instances.yaml")
    return target


def _problems(registry: Path) -> list[str]:
    return [problem.format() for problem in validate_registry(registry).problems]


def _edit(registry: Path, old: str, new: str, count: int = 1) -> int:
    """Replace the first `count` occurrences of `old`; return the line number of the first."""
    path = registry / "instances.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def test_the_repository_instances_validate(registry: Path) -> None:
    assert _problems(registry) == []


def test_the_real_data_keeps_unknowns_and_derived_numbers_apart() -> None:
    import yaml

    data = yaml.safe_load((ROOT / "registry" / "instances.yaml").read_text(encoding="utf-8"))
    by_name = {instance["name"]: instance for instance in data["instances"]}
    assert by_name["trn2.3xlarge"]["chips"] is None and by_name["trn2.3xlarge"]["device_memory_gib"] is None
    assert by_name["trn1n.32xlarge"]["derived"] == ["neuron_cores", "logical_neuron_cores"]
    assert "derived" not in by_name["trn2.48xlarge"]  # every number printed by a source
    assert all(source["url"].startswith("https://") for i in data["instances"] for source in i["sources"])
    assert not [i for i in data["instances"] if i["hardware"] == "trn3"]  # the docs name no Trn3 sizes


def test_an_unknown_hardware_id_is_a_located_schema_error(registry: Path) -> None:
    line = _edit(registry, "    hardware: trn1\n    chips: 1\n", "    hardware: trn9\n    chips: 1\n")
    [problem] = _problems(registry)
    assert problem.startswith(f"{registry / 'instances.yaml'}:{line}:15: instances[4].hardware: 'trn9' is not one of")


def test_chips_times_cores_per_chip_must_be_the_core_count(registry: Path) -> None:
    line = _edit(registry, "    chips: 6\n    neuron_cores: 12\n", "    chips: 6\n    neuron_cores: 14\n") + 1
    [problem] = _problems(registry)
    assert problem.startswith(f"{registry / 'instances.yaml'}:{line}:19: instances[2].neuron_cores: "
                              "6 chips x 2 cores per inf2 chip is 12, not 14")


def test_chips_times_memory_per_chip_must_be_the_device_memory(registry: Path) -> None:
    line = _edit(registry, "    device_memory_gib: 384\n", "    device_memory_gib: 380\n")
    [problem] = _problems(registry)
    assert problem.startswith(f"{registry / 'instances.yaml'}:{line}:24: instances[3].device_memory_gib: "
                              "12 chips x 32 GiB is 384 GiB, not 380")


def test_logical_cores_must_match_the_lnc_setting(registry: Path) -> None:
    line = _edit(registry, "    logical_neuron_cores: {1: 128, 2: 64}\n", "    logical_neuron_cores: {1: 128, 2: 60}\n")
    problems = _problems(registry)
    assert len(problems) == 1 and f"instances.yaml:{line}:" in problems[0]
    assert "instances[7].logical_neuron_cores[2]: 60 logical cores x LNC 2 is 120, not the 128 neuron_cores" in problems[0]
    _edit(registry, "{1: 128, 2: 60}", "{1: 128, 2: 64}")
    _edit(registry, "    logical_neuron_cores: {1: 2}\n", "    logical_neuron_cores: {1: 2, 2: 1}\n")
    [problem] = _problems(registry)
    assert "instances[4].logical_neuron_cores[2]: LNC 2 is not a setting trn1 offers (1)" in problem


def test_an_instance_needs_its_generation_and_derived_names_set_numbers(registry: Path) -> None:
    text = (registry / "instances.yaml").read_text(encoding="utf-8")
    start = text.index("  - hardware: trn2\n")
    end = text.index("  - hardware: trn3\n")
    (registry / "instances.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    problems = _problems(registry)
    assert len(problems) == 3 and all("has no entry under generations" in p for p in problems)
    shutil.copy(ROOT / "registry" / "instances.yaml", registry / "instances.yaml")
    _edit(registry, "    notes:\n      - \"The Neuron docs name this size", "    derived: [vcpus]\n    notes:\n"
          "      - \"The Neuron docs name this size")
    [problem] = _problems(registry)
    assert "instances[9].derived[0]: 'vcpus' is listed as derived but is not set" in problem


def test_a_guess_is_not_a_number_the_schema_takes(registry: Path) -> None:
    _edit(registry, "    chips: 16\n    neuron_cores: 128\n", "    chips: \"about 16\"\n    neuron_cores: 128\n")
    [problem] = _problems(registry)
    assert "instances[7].chips" in problem
