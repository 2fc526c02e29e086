"""Tested configurations name what exists: their family, stack, stack version, release and instance; ids are
unique across files; no run is recorded twice (same source, checkpoint, instance, parallelism, batch and sequence
length); `validated` and a harvest's `taken` lie between 2018 and today (one day of slack)."""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Iterator

from neuron_compat.contract.tested_configurations import TestedConfiguration, date_problem
from neuron_compat.loading.loaded_registry import INSTANCES_KEY, Registry
from neuron_compat.loading.tested_loader import configurations_key
from neuron_compat.rules.base import RELEASES_KEY, STACKS_KEY, FileKey, Finding, Rule
from neuron_compat.rules.known_references import release_hint, stack_hint


def did_you_mean(value: str, known: list[str], what: str, plural: str | None = None) -> str:
    close = difflib.get_close_matches(value, known, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    return f"no {what} is listed" if not known else f"known {plural or what + 's'}: " + ", ".join(known[:12]) + (
        ", ..." if len(known) > 12 else "")


def missing_family(registry: Registry, family: str) -> bool:
    """The family is not in the registry and has no file of its own that failed to load (whose problems are
    reported already: a second problem here would only repeat them)."""
    if family in registry.family_by_id:
        return False
    return not (registry.root / "families" / f"{family}.yaml").exists()


def instance_names(registry: Registry) -> list[str] | None:
    """The instance types of instances.yaml, or None when the registry has no instances file."""
    instances = getattr(registry, "instances", None)
    if instances is None:
        return None
    return [instance.name for instance in instances.instances]


def instance_hardware(registry: Registry) -> dict[str, str]:
    """Instance type -> its hardware generation, from instances.yaml (empty without one)."""
    instances = getattr(registry, "instances", None)
    return {} if instances is None else {i.name: str(i.hardware) for i in instances.instances}


def _configuration_findings(registry: Registry, key: FileKey, where: tuple[str | int, ...],
                            configuration: TestedConfiguration, instances: list[str] | None) -> Iterator[Finding]:
    if missing_family(registry, configuration.family):
        yield Finding(key, (*where, "family"), f"family '{configuration.family}' is not in families/",
                      did_you_mean(configuration.family, sorted(registry.family_by_id), "family", "families"))
    stack = registry.stack_by_id.get(configuration.stack)
    if stack is None and STACKS_KEY not in registry.broken:
        yield Finding(key, (*where, "stack"), f"stack '{configuration.stack}' is not in stacks.yaml",
                      stack_hint(configuration.stack, sorted(registry.stack_by_id)))
    if stack is not None and configuration.stack_version is not None:
        own = [v.version for v in stack.versions]
        if configuration.stack_version not in own:
            hint = did_you_mean(configuration.stack_version, own, f"{stack.id} version")
            yield Finding(key, (*where, "stack_version"),
                          f"'{configuration.stack_version}' is not a known {stack.id} version in stacks.yaml", hint)
    release = configuration.release
    if release is not None and RELEASES_KEY not in registry.broken and release not in registry.release_by_version:
        yield Finding(key, (*where, "release"), f"release '{release}' is not in releases.yaml",
                      release_hint(release, registry.release_versions))
    yield from _date_findings(key, (*where, "validated"), configuration.validated, "validated")
    if configuration.instance is not None and INSTANCES_KEY not in registry.broken:
        # an instances.yaml that failed to load has its own problems; "set instance: null" would delete good data
        if instances is None:
            yield Finding(key, (*where, "instance"), f"instance '{configuration.instance}' cannot be checked: "
                          "the registry has no instances.yaml", "add instances.yaml, or set instance: null")
        elif configuration.instance not in instances:
            yield Finding(key, (*where, "instance"), f"instance '{configuration.instance}' is not in instances.yaml",
                          did_you_mean(configuration.instance, instances, "instance"))
        else:
            own_hardware = instance_hardware(registry).get(configuration.instance)
            stated = None if configuration.hardware is None else str(configuration.hardware)
            if stated is not None and own_hardware is not None and stated != own_hardware:
                yield Finding(key, (*where, "hardware"), f"hardware '{stated}' is not the hardware of "
                              f"{configuration.instance} ({own_hardware})", "drop hardware (the instance says it) or fix one")


def _date_findings(key: FileKey, where: tuple[str | int, ...], value: dt.date | None, what: str) -> Iterator[Finding]:
    """A date a run was validated or a harvest taken lies between 2018 and today (plus a day, for time zones)."""
    problem = None if value is None else date_problem(value, dt.date.today())
    if value is not None and problem is not None:
        yield Finding(key, where, f"{what} {value.isoformat()} {problem}", "write the date the source gives")

def run_key(configuration: TestedConfiguration) -> tuple[object, ...]:
    """What makes two configurations the same run: source, checkpoint, instance, parallelism, batch, sequence length."""
    return (configuration.source.url, configuration.checkpoint.casefold(), configuration.instance,
            configuration.parallelism.model_dump_json(), configuration.batch_size, configuration.sequence_length)


def check(registry: Registry) -> Iterator[Finding]:
    instances = instance_names(registry)
    seen: dict[str, str] = {}
    runs: dict[tuple[object, ...], tuple[FileKey, int, str]] = {}  # a run -> where it is first recorded
    keys = registry.configuration_keys or [configurations_key(f.source) for f in registry.configuration_files]
    for key, configurations in zip(keys, registry.configuration_files, strict=True):
        if configurations.harvest is not None:
            yield from _date_findings(key, ("harvest", "taken"), configurations.harvest.taken, "taken")
        for index, configuration in enumerate(configurations.configurations):
            where: tuple[str | int, ...] = ("configurations", index)
            first = seen.get(configuration.id)
            if first is not None:
                yield Finding(key, (*where, "id"), f"configuration id '{configuration.id}' is used twice "
                              f"(first at {first})", "give each configuration its own id")
            else:
                seen[configuration.id] = f"{key} configurations[{index}]"
            first_key, first_index, first_id = runs.setdefault(run_key(configuration), (key, index, configuration.id))
            if (first_key, first_index) != (key, index):
                same = ("" if first_key == key else f"{first_key} ") + f"configurations[{first_index}] ({first_id})"
                yield Finding(key, where, f"configuration '{configuration.id}' is the same run as {same}: same "
                              "source, checkpoint, instance, parallelism, batch size and sequence length",
                              "merge them into one configuration with the measurements of both")
            yield from _configuration_findings(registry, key, where, configuration, instances)


RULE = Rule(name="tested-configurations", check=check)
