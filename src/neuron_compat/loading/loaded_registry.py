"""The loaded registry: the validated models plus where each came from. Frozen: built once by the loader
(loading/loader.py), then only read. Rules, views, pages and commands import the type from here, not the loader."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from neuron_compat.contract.checkpoint_aliases import CheckpointAliasesFile
from neuron_compat.contract.known_issues import KnownIssuesFile
from neuron_compat.contract.models import (
    CapabilitiesFile,
    Family,
    InstancesFile,
    ProbeSnapshot,
    RegistryMeta,
    Release,
    Stack,
    TransformersSnapshot,
)
from neuron_compat.contract.tested_configurations import ConfigurationsFile
from neuron_compat.loading.indexes import RegistryIndexes

if TYPE_CHECKING:
    from neuron_compat.loading.yaml_reader import LoadedYaml


@dataclass(frozen=True, order=True)
class FileKey:
    """Which registry file a loaded text, a broken mark or a rule finding is about."""

    kind: Literal["releases", "stacks", "meta", "instances", "aliases", "family", "capabilities", "upstream", "file"]
    name: str = ""  # the family or stack id, the upstream snapshot's name, or (kind "file") a path in the registry

    def __str__(self) -> str:
        if self.kind == "file":
            return self.name
        return f"{self.kind}:{self.name}" if self.name else self.kind


RELEASES_KEY = FileKey("releases")
STACKS_KEY = FileKey("stacks")
META_KEY = FileKey("meta")
INSTANCES_KEY = FileKey("instances")
ALIASES_KEY = FileKey("aliases")


def family_key(family_id: str) -> FileKey:
    """The key of a family's file in `Registry.files` (and of a rule finding about it)."""
    return FileKey("family", family_id)


def capabilities_key(stack_id: str) -> FileKey:
    """The key of capabilities/<stack-id>.yaml."""
    return FileKey("capabilities", stack_id)


def upstream_key(name: str) -> FileKey:
    """The key of an upstream snapshot (upstream/<name>.yaml)."""
    return FileKey("upstream", name)


@dataclass(frozen=True)
class Registry(RegistryIndexes):
    """A loaded registry: the validated models plus where each came from."""

    root: Path
    releases: list[Release] = field(default_factory=list)
    stacks: list[Stack] = field(default_factory=list)
    families: list[Family] = field(default_factory=list)
    transformers: TransformersSnapshot | None = None
    probe: ProbeSnapshot | None = None  # upstream/probe.yaml: machine evidence, never a support status
    capability_files: list[CapabilitiesFile] = field(default_factory=list)  # capabilities/<stack>.yaml
    meta: RegistryMeta | None = None  # registry.yaml (data_version), when the file exists
    instances: InstancesFile | None = None  # instances.yaml (hardware generations, instance sizes), when it exists
    checkpoint_aliases: CheckpointAliasesFile | None = None  # checkpoint-aliases.yaml (renamed Hub ids), when it exists
    configuration_files: list[ConfigurationsFile] = field(default_factory=list)  # configurations/<source>.yaml, <source>/*.yaml
    configuration_keys: list[FileKey] = field(default_factory=list)  # each configuration file's key in `files`, in order
    known_issues: KnownIssuesFile | None = None  # every file of known-issues/ merged (None: no issues)
    known_issue_files: list[tuple[FileKey, KnownIssuesFile]] = field(default_factory=list)  # known-issues/*.yaml
    # RELEASES_KEY, STACKS_KEY, family_key(id), ...: each file's path, display name and text (its data is None:
    # the models above hold it)
    files: dict[FileKey, LoadedYaml] = field(default_factory=dict)
    broken: set[FileKey] = field(default_factory=set)  # files that failed to load (rules skip what depends on them)

    @cached_property
    def release_by_version(self) -> dict[str, Release]:
        return {r.version: r for r in self.releases}

    def family_file(self, family_id: str) -> LoadedYaml | None:
        return self.files.get(family_key(family_id))
