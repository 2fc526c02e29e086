"""Popularity snapshots of the Hub (registry/upstream/hub-top-*.yaml), read for the coverage page.

These files are written by a maintainer script that may change shape, and they are optional: a missing
directory gives no snapshots, and a file that cannot be read is reported on the page instead of breaking
the build. Reading happens here (I/O); the coverage page only receives the parsed result.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neuron_compat.loading.yaml_reader import load_yaml_file

HUB_SNAPSHOT_GLOB = "upstream/hub-top-*.yaml"
_LIST_KEYS = ("models", "entries", "items", "top", "repos")
_ID_KEYS = ("id", "repo_id", "model_id", "model", "repo")
_TYPE_KEYS = ("model_type", "config_model_type")


@dataclass(frozen=True)
class HubModel:
    repo_id: str
    model_type: str | None
    downloads: int | None = None
    pipeline_class: str | None = None  # diffusers repos: model_index.json _class_name


@dataclass(frozen=True)
class HubSnapshot:
    name: str  # file stem, e.g. hub-top-text-generation
    title: str
    source: str | None
    taken: str | None
    models: tuple[HubModel, ...] = ()
    problem: str | None = None  # set when the file could not be read


def _first(entry: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if entry.get(key) not in (None, ""):
            return entry[key]
    return None


def parse_hub_snapshot(name: str, data: Any) -> HubSnapshot:
    """Accept the shapes such a snapshot plausibly has: a mapping with a list of model entries."""
    if not isinstance(data, dict):
        return HubSnapshot(name, name, None, None, problem="the top level is not a mapping")
    entries = next((data[k] for k in _LIST_KEYS if isinstance(data.get(k), list)), None)
    if entries is None:
        return HubSnapshot(name, name, None, None, problem=f"no list of models under any of {', '.join(_LIST_KEYS)}")
    models = []
    for entry in entries:
        if isinstance(entry, str):
            models.append(HubModel(entry, None))
        elif isinstance(entry, dict):
            repo_id = _first(entry, _ID_KEYS)
            model_type = _first(entry, _TYPE_KEYS)
            downloads = entry.get("downloads")
            pipeline = entry.get("pipeline_class")
            if repo_id is None:
                continue
            models.append(HubModel(str(repo_id), str(model_type) if model_type else None,
                                   downloads if isinstance(downloads, int) and not isinstance(downloads, bool) else None,
                                   str(pipeline) if pipeline else None))
    title = data.get("title") or data.get("description") or name
    taken = data.get("taken")
    source = data.get("source")
    return HubSnapshot(name, str(title), str(source) if source else None, str(taken) if taken else None, tuple(models))


_SNAPSHOT_NAME = re.compile(r"hub-top-[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
"""The file stem is the section's anchor on the coverage page: only a slug may become one."""


def load_hub_snapshots(registry_root: Path) -> list[HubSnapshot]:
    """Every snapshot file, read like a registry file (yaml_loading: regular files only, bounded, no alias
    bombs or deep nesting); one that cannot be used is listed with its problem."""
    snapshots = []
    for path in sorted(registry_root.glob(HUB_SNAPSHOT_GLOB)):
        if not _SNAPSHOT_NAME.fullmatch(path.stem):
            anchor = "hub-top-" + hashlib.sha256(path.stem.encode("utf-8", "surrogateescape")).hexdigest()[:12]
            snapshots.append(HubSnapshot(anchor, path.stem, None, None, problem="the file name must be hub-top-NAME.yaml "
                                         "with lowercase letters, digits and '-' in NAME"))
            continue
        loaded, problem = load_yaml_file(path)
        if loaded is None:  # load_yaml_file says why in its problem
            reason = problem.message if problem is not None else "unreadable"
            if problem is not None and problem.line:
                reason += f" (line {problem.line})"
            snapshots.append(HubSnapshot(path.stem, path.stem, None, None, problem=f"could not be read: {reason}"))
            continue
        snapshots.append(parse_hub_snapshot(path.stem, loaded.data))
    return snapshots
