"""Helpers for the rule tests: a small registry to break in one place, and what `validate` then says.

A module with its own name (not conftest) so that `import rule_helpers` cannot pick up another directory's module.
Every test runs in-process on a copy of tests/fixtures/registry (two families, two stacks, three releases) made in
a temporary folder that is also the current directory, so problems are shown as `registry/...`, as a contributor
running `neuron-compat validate registry` from the clone's root sees them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from neuron_compat.rules.validation import validate_registry

REPO = Path(__file__).resolve().parents[2]
FIXTURE_REGISTRY = REPO / "tests" / "fixtures" / "registry"
REPO_INSTANCES = REPO / "registry" / "instances.yaml"


def copy_registry(folder: Path) -> Path:
    """A copy of the fixture registry at folder/registry (every rule passes on it)."""
    target = folder / "registry"
    shutil.copytree(FIXTURE_REGISTRY, target)
    return target


def replace_once(path: Path, old: str, new: str) -> None:
    """`path` with the one occurrence of `old` replaced (a test that edits a place that is not there fails)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def problems(root: Path) -> list[str]:
    """Every problem and warning `validate` reports for `root`, one line each as it prints them."""
    result = validate_registry(root.relative_to(Path.cwd()) if root.is_absolute() else root)
    return [p.format() for p in [*result.problems, *result.warnings]]


def rule_problems(root: Path, rule: str) -> list[str]:
    """What the rule named `rule` reports for `root` (problems and warnings), one line each."""
    result = validate_registry(root.relative_to(Path.cwd()) if root.is_absolute() else root)
    return [p.format() for p in [*result.problems, *result.warnings] if p.rule == rule]


SOURCE = ('{url: "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/about-neuron/arch/neuron-hardware/'
          'trainium.html", kind: vendor-docs, verified: 2026-12-03}')
INSTANCES = f"""\
generations:
  - hardware: trn1
    chip: Trainium
    core_type: NeuronCore-v2
    cores_per_chip: 2
    memory_per_chip_gib: 32
    memory_per_core_gib: 16
    lnc_settings: [1]
    lnc_default: 1
    logical_cores_per_chip: {{1: 2}}
    sources: [{SOURCE}]
instances:
  - name: trn1.2xlarge
    hardware: trn1
    chips: 1
    neuron_cores: 2
    logical_neuron_cores: {{1: 2}}
    device_memory_gib: 32
    memory_per_chip_gib: 32
    vcpus: 8
    host_memory_gib: 32
    sources: [{SOURCE}]
"""
"""A minimal instances.yaml (one generation, one instance; its numbers agree) for the rules that read one."""
