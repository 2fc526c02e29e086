"""A read paste against a registry: the Neuron release(s) the installed packages come from, the stacks and their
versions, the instance and LNC, and what does not fit together.

- A package's releases are those whose components (releases.yaml) list its version; a stack with its own version
  line (optimum-neuron) names the release its version pairs with (stacks.yaml `versions`); a container image tag
  names its release. The candidates are the releases every such package agrees on; when they disagree, the packages
  come from different releases (a mismatch) and the candidates are the releases most of them name.
- The release answered for is the one candidate, else the release a stack's own version pairs with when it is a
  candidate, else the newest candidate (`release_from` says which).
- The installed torch is read against the PyTorch versions a release lists (`pytorch: "2.6, 2.7, 2.8"`).
- The instance is neuron-ls's instance type, else the instances (instances.yaml) whose chip count, device memory and
  NeuronCores (physical = per-device cores x LNC) are neuron-ls's; several that fit are candidates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from neuron_compat.contract.versions import version_key
from neuron_compat.environment.packages import (
    FRAMEWORKS,
    RECORDED,
    is_neuron_name,
    is_other_neuron,
    normalise,
    plain_version,
)
from neuron_compat.environment.paste import SHOWN_NOT_RECOGNISED, Paste
from neuron_compat.safeio.safe_text import one_line


@dataclass(frozen=True)
class Package:
    """One installed Neuron package: what it is recorded as and the releases that list its version."""

    name: str
    version: str | None
    recorded_as: str | None
    releases: list[str]
    source: str


@dataclass(frozen=True)
class InstanceReading:
    """The instance: named (neuron-ls's instance type) or the registry's instances that fit the devices."""

    name: str | None
    candidates: list[str]
    hardware: str | None
    lnc: int | None
    devices: int | None
    cores_per_device: int | None
    memory_gib_per_device: float | None
    source: str


@dataclass
class Environment:
    """What `check --environment` read, as its JSON's `environment` object."""

    release: str | None
    release_candidates: list[str]
    release_from: str
    packages: list[Package]
    stack_versions: dict[str, str]
    instance: InstanceReading | None
    mismatches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    not_recognised: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def hardware(self) -> str | None:
        return self.instance.hardware if self.instance else None


def _components(release: Any) -> dict[str, list[str]]:
    data = release.components
    plain = data.to_json() if hasattr(data, "to_json") else dict(data or {})
    return {str(name): [part.strip() for part in str(value).split(",")] for name, value in plain.items()}


def releases_listing(registry: Any, component: str, version: str) -> list[str]:
    """The releases whose component `component` lists `version` (local part ignored), oldest first."""
    wanted = plain_version(version)
    found = [r.version for r in registry.releases if wanted in _components(r).get(component, [])]
    return sorted(found, key=version_key)


def _stack_pairing(registry: Any, stack_id: str, version: str) -> str | None:
    paired = registry.stack_version_targets.get(stack_id, {}).get(plain_version(version))
    return str(paired) if paired is not None else None


def _package(registry: Any, name: str, version: str | None, source: str) -> Package:
    key = normalise(name)
    recorded_as: str | None = None
    releases: list[str] = []
    for component in RECORDED.get(key, ()):
        if version is None:
            recorded_as = recorded_as or component
            continue
        pairing = _stack_pairing(registry, component, version)
        listed = sorted({*([pairing] if pairing else []), *releases_listing(registry, component, version)},
                        key=version_key)
        if listed:
            recorded_as, releases = component, listed
            break
        recorded_as = recorded_as or component
    return Package(name=key, version=version, recorded_as=recorded_as, releases=releases, source=source)


def _packages(registry: Any, paste: Paste) -> tuple[list[Package], list[str]]:
    found: dict[str, Package] = {}
    ignored = 0
    unknown: list[str] = []
    for line in paste.packages:
        key = normalise(line.name)
        if key in RECORDED or key in FRAMEWORKS or is_other_neuron(key):
            found[key] = _package(registry, key, line.version, line.kind)
        elif is_neuron_name(key):
            unknown.append(f"line {line.line}: {one_line(line.name)} {one_line(line.version or '')}: not a Neuron "
                           "package this registry knows".replace("  ", " "))
        else:
            ignored += 1
    if paste.image is not None:
        for name, version in paste.image.packages.items():
            found.setdefault(normalise(name), _package(registry, name, version, "image tag"))
    notes = [f"{ignored} other package{'s' if ignored > 1 else ''} (not Neuron's) left out"] if ignored else []
    return list(found.values()), unknown + notes


def _strong(packages: list[Package]) -> list[Package]:
    return [p for p in packages if p.recorded_as and p.version and p.releases]


def _candidates(registry: Any, packages: list[Package], image_release: str | None) -> tuple[list[str], list[str]]:
    """(candidates, mismatches) from the packages' releases and the image tag's release."""
    sets = [set(p.releases) for p in _strong(packages)]
    if image_release and image_release in registry.known_releases:
        sets.append({image_release})
    if not sets:
        return [], []
    common = set.intersection(*sets)
    if common:
        return sorted(common, key=version_key), []
    votes = Counter(release for found in sets for release in found)
    most = max(votes.values())
    chosen = sorted((r for r, n in votes.items() if n == most), key=version_key)
    said = [f"{p.name} {p.version} is {_whose(p.releases)}" for p in _strong(packages)]
    if image_release:
        said.append(f"the image tag names Neuron {image_release}")
    return chosen, [f"packages from different releases: {'; '.join(said)}"]


def _line_up(registry: Any, packages: list[Package], release: str) -> str | None:
    """'to line them up on Neuron 2.25.0, install neuronx-cc==2.20.9961.0' for the packages of other releases."""
    at = next((r for r in registry.releases if r.version == release), None)
    components = _components(at) if at is not None else {}
    fixes = []
    for package in _strong(packages):
        if release in package.releases:
            continue
        version = components.get(str(package.recorded_as))
        paired = [v for v, r in registry.stack_version_targets.get(str(package.recorded_as), {}).items() if r == release]
        if paired:
            fixes.append(f"{package.name}=={sorted(paired, key=version_key)[-1]}")
        elif version:
            fixes.append(f"{package.name}=={version[0]}")
        elif registry.stack_version_targets.get(str(package.recorded_as)):
            fixes.append(f"{package.name} (no version of it pairs with Neuron {release})")
        else:
            fixes.append(f"{package.name} (Neuron {release} records no version)")
    return f"to line them up on Neuron {release}, install {' '.join(fixes)}" if fixes else None


def _whose(releases: list[str]) -> str:
    if len(releases) == 1:
        return f"Neuron {releases[0]}'s"
    return f"from Neuron {releases[0]} to {releases[-1]}" if len(releases) > 2 else f"Neuron {' and '.join(releases)}'s"


def _chosen_release(candidates: list[str], packages: list[Package], registry: Any) -> tuple[str | None, str]:
    if not candidates:
        return None, "none"
    if len(candidates) == 1:
        return candidates[0], "packages"
    paired = [p.releases[0] for p in packages if p.recorded_as in registry.stack_version_targets
              and registry.stack_version_targets[p.recorded_as] and len(p.releases) == 1]
    for release in paired:
        if release in candidates:
            return release, "stack version"
    return candidates[-1], "newest candidate"


def _torch_problems(registry: Any, packages: list[Package], release: str | None) -> list[str]:
    torch = next((p for p in packages if p.name == "torch" and p.version), None)
    if torch is None or release is None or torch.version is None:
        return []
    listed = _components(registry.release_by_version[release]).get("pytorch") if hasattr(registry, "release_by_version") \
        else next((_components(r).get("pytorch") for r in registry.releases if r.version == release), None)
    minor = ".".join(plain_version(torch.version).split(".")[:2])
    if not listed or minor in listed:
        return []
    return [f"torch {torch.version}: Neuron {release} lists PyTorch {', '.join(listed)}, not {minor}"]


def _stack_versions(registry: Any, packages: list[Package]) -> dict[str, str]:
    stacks = {s.id for s in registry.stacks}
    found: dict[str, str] = {}
    for package in packages:
        if package.recorded_as is not None and package.recorded_as in stacks and package.version:
            found[package.recorded_as] = plain_version(package.version)
    return found


def pin_holds(pinned: str, installed: str) -> bool:
    """pip's `==` against an installed version: '2.8.0.*' holds for 2.8.0 and 2.8.0.1; local parts ignored."""
    wanted, have = plain_version(pinned), plain_version(installed)
    if wanted.endswith(".*"):
        return have == wanted[:-2] or have.startswith(wanted[:-1])
    return have == wanted


def _pin_problems(registry: Any, packages: list[Package], stack_versions: dict[str, str]) -> list[str]:
    """A stack whose own version pins Neuron packages (stacks.yaml `pins`) next to other versions of them."""
    installed = {p.name: plain_version(p.version) for p in packages if p.version}
    problems = []
    for stack_id, version in stack_versions.items():
        stack = registry.stack_by_id.get(stack_id)
        entry = next((v for v in getattr(stack, "versions", ()) if v.version == version), None)
        pins = getattr(entry, "pins", None) if entry is not None else None
        if not pins:
            continue
        plain = pins.to_json() if hasattr(pins, "to_json") else dict(pins)
        wrong = [f"{name} {pinned} (you have {installed[normalise(name)]})" for name, pinned in plain.items()
                 if normalise(name) in installed and not pin_holds(str(pinned), installed[normalise(name)])]
        if wrong:
            problems.append(f"{stack_id} {version} pins {', '.join(wrong)}: install the pinned versions")
    return problems


def _instance(registry: Any, paste: Paste) -> InstanceReading | None:
    devices = paste.devices
    if devices is None:
        return None
    listed = list((registry.instances or {}).get("instances", [])) if registry.instances else []
    by_name = {i["name"]: i for i in listed}
    cores = devices.cores[0] if devices.cores and len(set(devices.cores)) == 1 else None
    memory = devices.memory_gib[0] if devices.memory_gib and len(set(devices.memory_gib)) == 1 else None
    count = devices.count or None
    if devices.instance_type:
        named = by_name.get(devices.instance_type)
        hardware = named["hardware"] if named else None  # instances.yaml is the one name -> generation mapping
        return InstanceReading(devices.instance_type, [devices.instance_type], hardware, devices.lnc, count, cores,
                               memory, f"{devices.format} instance type")
    fits = [i for i in listed if _fits(i, count, cores, memory, devices.lnc)]
    names = [i["name"] for i in fits]
    hardware = {i["hardware"] for i in fits}
    return InstanceReading(names[0] if len(names) == 1 else None, names,
                           hardware.pop() if len(hardware) == 1 else None, devices.lnc, count, cores, memory,
                           f"{devices.format} devices x cores x memory")


def _fits(instance: dict[str, Any], count: int | None, cores: int | None, memory: float | None, lnc: int | None) -> bool:
    if count is None or instance.get("chips") != count:
        return False
    if memory is not None and instance.get("memory_per_chip_gib") not in (None, memory) \
            and abs(float(instance["memory_per_chip_gib"]) - memory) > 0.5:
        return False
    if cores is None:
        return True
    logical = {int(k): v for k, v in (instance.get("logical_neuron_cores") or {}).items()}
    totals = [instance.get("neuron_cores")] if lnc in (None, 1) else []
    totals += [logical[lnc]] if lnc in logical else list(logical.values()) if lnc is None else []
    return count * cores in [t for t in totals if t]


def _hardware_problems(registry: Any, stack_versions: dict[str, str], hardware: str | None, release: str | None) -> list[str]:
    if hardware is None:
        return []
    problems = []
    for stack_id in stack_versions:
        stack = registry.stack_by_id.get(stack_id)
        if stack is None:
            continue
        served = [str(h) for h in stack.hardware]
        if hardware not in served:
            problems.append(f"{stack_id} does not serve {hardware} (it runs on {', '.join(served)})")
            continue
        for end in getattr(stack, "ends", ()):
            if hardware in [str(h) for h in end.hardware or served] and release and version_key(release) >= version_key(end.release):
                problems.append(f"{stack_id} {', '.join(str(w) for w in end.workloads)} ended on {hardware} with "
                                f"Neuron {end.release} ({end.source})")
    return problems


def detect(registry: Any, paste: Paste) -> Environment:
    """The environment of a read paste, against `registry` (a CompiledRegistry or a loaded Registry)."""
    packages, notes = _packages(registry, paste)
    image_release = paste.image.release if paste.image else None
    candidates, mismatches = _candidates(registry, packages, image_release)
    release, release_from = _chosen_release(candidates, packages, registry)
    if mismatches and release is not None:
        release_from = "most packages"
        fix = _line_up(registry, packages, release)
        if fix:
            mismatches[-1] += f"; {fix}"
    if image_release and release == image_release and release_from == "packages" and not _strong(packages):
        release_from = "image tag"
    if image_release and image_release not in registry.known_releases:
        notes.append(f"the image tag names Neuron {image_release}, a release this registry does not record")
    for package in packages:
        if package.recorded_as and package.version and not package.releases:
            notes.append(f"{package.name} {package.version} is in no release this registry records")
    stack_versions = _stack_versions(registry, packages)
    instance = _instance(registry, paste)
    mismatches += _torch_problems(registry, packages, release)
    mismatches += _pin_problems(registry, packages, stack_versions)
    mismatches += _hardware_problems(registry, stack_versions, instance.hardware if instance else None, release)
    if instance is not None and instance.name is None and len(instance.candidates) > 1:
        notes.append(f"neuron-ls's devices fit {', '.join(instance.candidates)}; its table output names the instance type")
    if instance is not None and not instance.candidates:
        notes.append("neuron-ls's devices fit no instance this registry lists")
    shown = [f"line {n}: {one_line(text[:80])}" for n, text in paste.not_recognised[:SHOWN_NOT_RECOGNISED]]
    if len(paste.not_recognised) > SHOWN_NOT_RECOGNISED:
        shown.append(f"... and {len(paste.not_recognised) - SHOWN_NOT_RECOGNISED} more lines")
    recognised = [p for p in packages if p.recorded_as or p.name in FRAMEWORKS]
    return Environment(release=release, release_candidates=candidates, release_from=release_from,
                       packages=recognised + [p for p in packages if p not in recognised],
                       stack_versions=stack_versions, instance=instance, mismatches=mismatches, notes=notes,
                       formats=list(paste.formats), not_recognised=shown)
