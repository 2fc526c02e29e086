"""Load a registry directory into validated models, collecting every problem on the way.

The loaded registry is `registry_model.Registry` (re-exported here for older imports); this module only loads.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from neuron_compat.contract.checkpoint_aliases import CheckpointAliasesFile
from neuron_compat.contract.models import (
    CapabilitiesFile,
    Family,
    InstancesFile,
    ProbeSnapshot,
    RegistryMeta,
    Release,
    ReleasesFile,
    Stack,
    StacksFile,
    TransformersSnapshot,
)
from neuron_compat.loading.loaded_registry import (
    ALIASES_KEY,
    INSTANCES_KEY,
    META_KEY,
    RELEASES_KEY,
    STACKS_KEY,
    FileKey,
    Registry,
    capabilities_key,
    family_key,
    upstream_key,
)
from neuron_compat.loading.node_locations import Locator
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.pydantic_errors import problems_from_validation
from neuron_compat.loading.tested_loader import (
    CONFIGURATIONS_DIR,
    KNOWN_ISSUES_DIR,
    load_configurations,
    load_known_issues,
    merged_known_issues,
)
from neuron_compat.loading.yaml_reader import LoadedYaml, display_path, load_yaml_file
from neuron_compat.safeio.bounded_read import something_at

RELEASES_FILE = "releases.yaml"
STACKS_FILE = "stacks.yaml"
FAMILIES_DIR = "families"
CAPABILITIES_DIR = "capabilities"
TRANSFORMERS_SNAPSHOT = "upstream/transformers-model-types.yaml"
PROBE_SNAPSHOT = "upstream/probe.yaml"
META_FILE = "registry.yaml"
INSTANCES_FILE = "instances.yaml"
ALIASES_FILE = "checkpoint-aliases.yaml"

M = TypeVar("M", bound=BaseModel)


@dataclass
class LoadResult:
    registry: Registry
    problems: list[Problem]
    warnings: list[Problem] = field(default_factory=list)
    """Findings of warning rules (`Problem.severity` 'warning'): shown by validate, never a failure."""

    @property
    def ok(self) -> bool:
        return not self.problems


def _validate(loaded: LoadedYaml, model: type[M]) -> tuple[M | None, list[Problem]]:
    if not isinstance(loaded.data, dict):
        kind = type(loaded.data).__name__
        return None, [Problem(loaded.display, 1, 1, "", f"the top level must be a mapping of keys, found a {kind}", rule="schema")]
    try:
        return model.model_validate(loaded.data), []
    except ValidationError as error:
        return None, problems_from_validation(error, model, loaded.display, Locator(loaded.text))


_REGISTRY_ROOT: ContextVar[Path | None] = ContextVar("registry_root", default=None)
"""The resolved root of the registry being loaded: a file that resolves outside it is refused, never read."""


def _outside_registry(path: Path) -> Problem | None:
    """The problem of a registry file that is (or lies under) a link to something outside the registry: validate,
    the compile, the wheel and the site never read or publish a file from elsewhere."""
    root = _REGISTRY_ROOT.get()
    if root is None:
        return None
    try:
        target = path.resolve()
    except (OSError, RuntimeError):
        return None  # a loop or a dangling link: reading it says what is wrong
    if target == root or root in target.parents:
        return None
    return Problem(display_path(path), 0, 0, "", "a link to a file outside the registry; the registry reads only its "
                   "own files", "copy the file into the registry instead of linking to it", rule="layout")


def _load_one(path: Path, model: type[M], problems: list[Problem]) -> tuple[LoadedYaml | None, M | None]:
    outside = _outside_registry(path)
    if outside is not None:
        problems.append(outside)
        return None, None
    loaded, problem = load_yaml_file(path)
    if problem:
        problems.append(problem)
        return None, None
    assert loaded is not None
    value, found = _validate(loaded, model)
    problems.extend(found)
    # The registry keeps each file's text (to locate findings), not its parsed data: the models hold that, and
    # keeping both would double the heap the load builds (measured: a third of the schema step at 1,000 families).
    return loaded.without_data(), value


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while loading.

    Nearly everything the loader allocates survives (the registry keeps it), so the collector's passes
    over the growing heap free nothing; measured on 1,000-5,000 families they cost 20-30% of the load.
    Nests: an inner pause leaves the collector as the outer one found it (validate_registry holds one over
    load and rules, whose passes over the loaded registry free nothing either).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_registry(root: Path | str) -> LoadResult:
    """Load and schema-validate every file under `root`. Cross-file rules run separately (rules.run_rules)."""
    try:
        resolved: Path | None = Path(root).resolve()
    except (OSError, RuntimeError):
        resolved = None
    token = _REGISTRY_ROOT.set(resolved)
    try:
        with collector_paused():
            return _load_registry(root)
    finally:
        _REGISTRY_ROOT.reset(token)


def _load_registry(root: Path | str) -> LoadResult:
    root = Path(root)
    problems: list[Problem] = []
    releases: list[Release] = []
    stacks: list[Stack] = []
    meta_value: RegistryMeta | None = None
    transformers: TransformersSnapshot | None = None
    probe: ProbeSnapshot | None = None
    files: dict[FileKey, LoadedYaml] = {}
    broken: set[FileKey] = set()
    if not root.is_dir():
        problems.append(Problem(display_path(root), 0, 0, "", "registry directory not found",
                                "run it in a clone's root or name the directory; `check` needs none", rule="layout"))
        return LoadResult(Registry(root=root), problems)

    for name, model, key in ((RELEASES_FILE, ReleasesFile, RELEASES_KEY), (STACKS_FILE, StacksFile, STACKS_KEY)):
        path = root / name
        if not something_at(path):
            problems.append(Problem(display_path(path), 0, 0, "", f"missing {name}", rule="layout"))
            broken.add(key)
            continue
        loaded, value = _load_one(path, model, problems)
        if loaded:
            files[key] = loaded
        if value is None:
            broken.add(key)
        if isinstance(value, ReleasesFile):
            releases = list(value.releases)
        elif isinstance(value, StacksFile):
            stacks = list(value.stacks)

    meta = root / META_FILE
    if something_at(meta):
        loaded, meta_value = _load_one(meta, RegistryMeta, problems)
        if loaded:
            files[META_KEY] = loaded

    instances = _load_instances(root / INSTANCES_FILE, files, broken, problems)
    aliases = _load_aliases(root / ALIASES_FILE, files, broken, problems)

    snapshot = root / TRANSFORMERS_SNAPSHOT
    if something_at(snapshot):
        loaded, transformers = _load_one(snapshot, TransformersSnapshot, problems)
        if loaded:
            files[upstream_key("transformers")] = loaded

    probe_path = root / PROBE_SNAPSHOT
    if something_at(probe_path):  # machine evidence beside the claims; it never changes a status
        loaded, probe = _load_one(probe_path, ProbeSnapshot, problems)
        if loaded:
            files[upstream_key("probe")] = loaded

    capability_files = _load_capabilities(root / CAPABILITIES_DIR, files, broken, problems)

    families = _load_families(root / FAMILIES_DIR, files, problems)
    configurations = load_configurations(root / CONFIGURATIONS_DIR, _load_one, files, broken, problems)
    known_issue_files = load_known_issues(root / KNOWN_ISSUES_DIR, _load_one, files, broken, problems)
    registry = Registry(root=root, releases=releases, stacks=stacks, families=families, transformers=transformers,
                        probe=probe, meta=meta_value, instances=instances, checkpoint_aliases=aliases, files=files,
                        broken=broken,
                        capability_files=capability_files,
                        configuration_files=[file for _, file in configurations],
                        configuration_keys=[key for key, _ in configurations],
                        known_issues=merged_known_issues(known_issue_files),
                        known_issue_files=known_issue_files)
    return LoadResult(registry, problems)


def load_instances(root: Path | str) -> tuple[InstancesFile | None, list[Problem]]:
    """The registry's instances.yaml alone, read and checked as `load_registry` reads it (None when it is absent or
    broken; the problems say why). The one instance-to-hardware mapping: `check` answers from the compiled copy of
    the same file, `add-evidence --instance` looks the instance up here."""
    problems: list[Problem] = []
    instances = _load_instances(Path(root) / INSTANCES_FILE, {}, set(), problems)
    return instances, problems


def _load_aliases(path: Path, files: dict[FileKey, LoadedYaml], broken: set[FileKey],
                  problems: list[Problem]) -> CheckpointAliasesFile | None:
    """checkpoint-aliases.yaml, optional: renamed checkpoints (an old Hub name and the current one, with sources)."""
    return _load_optional(path, CheckpointAliasesFile, ALIASES_KEY, files, broken, problems)


def _load_instances(path: Path, files: dict[FileKey, LoadedYaml], broken: set[FileKey],
                    problems: list[Problem]) -> InstancesFile | None:
    """instances.yaml, optional: a registry without it has no instances (and `check` no fit per instance)."""
    return _load_optional(path, InstancesFile, INSTANCES_KEY, files, broken, problems)


def _load_optional(path: Path, model: type[M], key: FileKey, files: dict[FileKey, LoadedYaml], broken: set[FileKey],
                   problems: list[Problem]) -> M | None:
    """An optional file of the registry: None when absent; when present, kept under `key` and marked broken when it
    does not validate."""
    if not something_at(path):
        return None
    loaded, value = _load_one(path, model, problems)
    if loaded:
        files[key] = loaded
    if value is None:
        broken.add(key)
    return value


def _load_families(families_dir: Path, files: dict[FileKey, LoadedYaml], problems: list[Problem]) -> list[Family]:
    """families/<id>.yaml, each named by its id, sorted by id."""
    families: list[Family] = []
    for path in _family_paths(families_dir, problems):
        if path.name.startswith("."):
            continue
        if path.suffix != ".yaml":
            if not path.is_dir():
                problems.append(Problem(display_path(path), 0, 0, "", "only .yaml files belong in families/",
                                        "rename it to <id>.yaml", rule="layout"))
            continue
        loaded, family = _load_one(path, Family, problems)
        if loaded is None or family is None:
            continue
        files[family_key(path.stem)] = loaded
        if family.id != path.stem:
            line, column = Locator(loaded.text).position(("id",))
            problems.append(
                Problem(loaded.display, line, column, "id", f"id '{family.id}' does not match the file name '{path.name}'",
                        f"rename the file to {family.id}.yaml or set id: {path.stem}", rule="file-name")
            )
            continue
        families.append(family)
    families.sort(key=lambda f: f.id)
    return families


def _load_capabilities(directory: Path, files: dict[FileKey, LoadedYaml], broken: set[FileKey],
                       problems: list[Problem]) -> list[CapabilitiesFile]:
    """capabilities/<stack-id>.yaml: one file per stack, named by its id (optional directory)."""
    found: list[CapabilitiesFile] = []
    if something_at(directory) and not directory.is_dir():  # a file, or a link to nothing: not "no capabilities"
        problems.append(Problem(display_path(directory), 0, 0, "", "capabilities/ must be a directory of "
                                "<stack-id>.yaml files, found something else (a file or a broken link)", rule="layout"))
        return found
    paths = sorted(directory.glob("*")) if directory.is_dir() else []
    for path in paths:
        if path.name.startswith(".") or (path.is_dir() and path.suffix != ".yaml"):  # a *.yaml folder: an error
            continue
        if path.suffix != ".yaml":
            problems.append(Problem(display_path(path), 0, 0, "", "only .yaml files belong in capabilities/",
                                    "rename it to <stack-id>.yaml", rule="layout"))
            continue
        loaded, value = _load_one(path, CapabilitiesFile, problems)
        if loaded is None or value is None:
            if loaded is not None:
                broken.add(capabilities_key(path.stem))
            continue
        files[capabilities_key(path.stem)] = loaded
        if value.stack != path.stem:
            line, column = Locator(loaded.text).position(("stack",))
            problems.append(Problem(loaded.display, line, column, "stack",
                                    f"stack '{value.stack}' does not match the file name '{path.name}'",
                                    f"rename the file to {value.stack}.yaml or set stack: {path.stem}", rule="file-name"))
            continue
        found.append(value)
    return found


__all__ = ["ALIASES_FILE", "FAMILIES_DIR", "INSTANCES_FILE", "META_FILE", "RELEASES_FILE", "STACKS_FILE", "TRANSFORMERS_SNAPSHOT", "LoadResult",
           "Registry", "collector_paused",
           "load_registry"]


def _family_paths(families_dir: Path, problems: list[Problem]) -> list[Path]:
    """The entries of families/, sorted; a families/ that is missing is empty, one that cannot be listed is a problem."""
    shown = display_path(families_dir)
    if not something_at(families_dir):
        return []
    if not families_dir.is_dir():
        problems.append(Problem(shown, 0, 0, "", "families/ must be a directory of <id>.yaml files, found a file",
                                rule="layout"))
        return []
    try:
        return sorted(Path(entry.path) for entry in os.scandir(families_dir))
    except OSError as error:
        problems.append(Problem(shown, 0, 0, "", f"cannot list the directory: {error.strerror or error}",
                                "check its permissions", rule="layout"))
        return []
