"""instances.yaml: each generation and instance listed once, every instance's hardware has a generation, and
the numbers agree with each other: chips x cores per chip = neuron_cores, chips x memory per chip = device memory,
the instance's memory per chip is its generation's, and logical cores x LNC setting = physical cores.

A null (unknown) number takes part in no check. `derived` may only name numbers that are set.
"""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.models import HardwareGeneration, Instance
from neuron_compat.loading.loaded_registry import INSTANCES_KEY, Registry
from neuron_compat.rules.base import Finding, Rule


def check(registry: Registry) -> Iterator[Finding]:
    data = registry.instances
    if data is None:
        return
    generations: dict[str, HardwareGeneration] = {}
    for index, generation in enumerate(data.generations):
        hardware = str(generation.hardware)
        if hardware in generations:
            yield Finding(INSTANCES_KEY, ("generations", index, "hardware"), f"generation '{hardware}' is listed twice")
        generations.setdefault(hardware, generation)
        yield from _generation_findings(index, generation)
    names: set[str] = set()
    for index, instance in enumerate(data.instances):
        where = ("instances", index)
        if instance.name in names:
            yield Finding(INSTANCES_KEY, (*where, "name"), f"instance '{instance.name}' is listed twice")
        names.add(instance.name)
        found = generations.get(str(instance.hardware))
        if found is None:
            yield Finding(INSTANCES_KEY, (*where, "hardware"),
                          f"hardware '{instance.hardware}' has no entry under generations",
                          "add its generation (chip, cores and memory per chip) or use one of: "
                          + ", ".join(sorted(generations)))
            continue
        yield from _instance_findings(where, instance, found)


def _generation_findings(index: int, generation: HardwareGeneration) -> Iterator[Finding]:
    where = ("generations", index)
    settings = set(generation.lnc_settings)
    if generation.lnc_default is not None and generation.lnc_default not in settings:
        yield Finding(INSTANCES_KEY, (*where, "lnc_default"),
                      f"default LNC {generation.lnc_default} is not among lnc_settings {sorted(settings)}")
    for lnc, logical in generation.logical_cores_per_chip.items():
        if lnc not in settings:
            yield Finding(INSTANCES_KEY, (*where, "logical_cores_per_chip", lnc),
                          f"LNC {lnc} is not among lnc_settings {sorted(settings)}", at_key=True)
        elif generation.cores_per_chip is not None and logical * lnc != generation.cores_per_chip:
            yield Finding(INSTANCES_KEY, (*where, "logical_cores_per_chip", lnc),
                          f"{logical} logical cores x LNC {lnc} is {logical * lnc}, not the "
                          f"{generation.cores_per_chip} cores per chip")


def _instance_findings(where: tuple[str | int, ...], instance: Instance,
                       generation: HardwareGeneration) -> Iterator[Finding]:
    chips, cores = instance.chips, instance.neuron_cores
    if chips is not None and cores is not None and generation.cores_per_chip is not None \
            and chips * generation.cores_per_chip != cores:
        yield Finding(INSTANCES_KEY, (*where, "neuron_cores"),
                      f"{chips} chips x {generation.cores_per_chip} cores per {generation.hardware} chip is "
                      f"{chips * generation.cores_per_chip}, not {cores}", "fix the chip or core count")
    per_chip = instance.memory_per_chip_gib
    if per_chip is not None and generation.memory_per_chip_gib is not None \
            and per_chip != generation.memory_per_chip_gib:
        yield Finding(INSTANCES_KEY, (*where, "memory_per_chip_gib"),
                      f"{per_chip} GiB per chip, but the {generation.hardware} generation says "
                      f"{generation.memory_per_chip_gib} GiB")
    if chips is not None and per_chip is not None and instance.device_memory_gib is not None \
            and chips * per_chip != instance.device_memory_gib:
        yield Finding(INSTANCES_KEY, (*where, "device_memory_gib"),
                      f"{chips} chips x {per_chip} GiB is {chips * per_chip} GiB, not {instance.device_memory_gib}",
                      "fix the chip count or the memory")
    settings = set(generation.lnc_settings)
    for lnc, logical in instance.logical_neuron_cores.items():
        key = (*where, "logical_neuron_cores", lnc)
        if lnc not in settings:
            offered = ", ".join(str(s) for s in sorted(settings)) or "none documented"
            yield Finding(INSTANCES_KEY, key, f"LNC {lnc} is not a setting {generation.hardware} offers ({offered})",
                          at_key=True)
        elif cores is not None and logical * lnc != cores:
            yield Finding(INSTANCES_KEY, key,
                          f"{logical} logical cores x LNC {lnc} is {logical * lnc}, not the {cores} neuron_cores")
        elif chips is not None and lnc in generation.logical_cores_per_chip \
                and chips * generation.logical_cores_per_chip[lnc] != logical:
            yield Finding(INSTANCES_KEY, key,
                          f"{chips} chips x {generation.logical_cores_per_chip[lnc]} logical cores per chip at LNC "
                          f"{lnc} is {chips * generation.logical_cores_per_chip[lnc]}, not {logical}")
    for index, name in enumerate(instance.derived):
        value = getattr(instance, name)
        if value is None or value == {}:
            yield Finding(INSTANCES_KEY, (*where, "derived", index),
                          f"'{name}' is listed as derived but is not set", "derived names numbers that are set")


RULE = Rule(name="instance-arithmetic", check=check)
