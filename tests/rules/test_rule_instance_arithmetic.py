"""rules/instance_arithmetic.py: instances.yaml's numbers agree with each other (chips x per-chip figures)."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import INSTANCES, rule_problems

RULE = "instance-arithmetic"


def test_memory_and_cores_that_do_not_add_up_are_located(registry: Path) -> None:
    text = INSTANCES.replace("    device_memory_gib: 32\n", "    device_memory_gib: 64\n").replace(
        "    neuron_cores: 2\n", "    neuron_cores: 4\n")
    (registry / "instances.yaml").write_text(text, encoding="utf-8")
    assert rule_problems(registry, RULE) == [
        "registry/instances.yaml:16:19: instances[0].neuron_cores: 1 chips x 2 cores per trn1 chip is 2, not 4 (fix "
        "the chip or core count)",
        "registry/instances.yaml:17:31: instances[0].logical_neuron_cores[1]: 2 logical cores x LNC 1 is 2, not the 4 "
        "neuron_cores",
        "registry/instances.yaml:18:24: instances[0].device_memory_gib: 1 chips x 32 GiB is 32 GiB, not 64 (fix the "
        "chip count or the memory)",
    ]


def test_numbers_that_agree_pass(registry: Path) -> None:
    (registry / "instances.yaml").write_text(INSTANCES, encoding="utf-8")
    assert rule_problems(registry, RULE) == []
