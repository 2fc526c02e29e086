"""Loading registry/configurations/ (tested configurations) and registry/known-issues/*.yaml.

Both are optional: a registry without them has no tested configurations and no known issues. The loader
(loader.py) calls these with its own one-file loader, so every problem is located the same way.

configurations/ holds two layouts: `<source>.yaml`, every configuration of one source in one file (harvested
files, written by their scripts), and `<source>/<id>.yaml`, one run per file (what `add-evidence configuration`
writes to `reported/`), so that two contributors' runs never touch the same file and their branches always merge.
A run file is a configurations file of that source holding one configuration, named by the configuration's id.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from neuron_compat.contract.known_issues import KnownIssuesFile
from neuron_compat.contract.models import SLUG_PATTERN
from neuron_compat.contract.tested_configurations import ConfigurationsFile
from neuron_compat.loading.loaded_registry import FileKey
from neuron_compat.loading.node_locations import Locator
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.yaml_reader import LoadedYaml, display_path
from neuron_compat.safeio.bounded_read import something_at

CONFIGURATIONS_DIR = "configurations"
KNOWN_ISSUES_DIR = "known-issues"
CURATED_KNOWN_ISSUES = "curated.yaml"
HARVESTED_SUFFIX = ".harvested.yaml"
KNOWN_ISSUES_KEY = FileKey("file", f"{KNOWN_ISSUES_DIR}/{CURATED_KNOWN_ISSUES}")
"""The hand-written known issues' key in `Registry.files`."""


def known_issues_key(name: str) -> FileKey:
    """The key of known-issues/<name> in `Registry.files`."""
    return FileKey("file", f"{KNOWN_ISSUES_DIR}/{name}")

M = TypeVar("M", bound=BaseModel)
LoadOne = Callable[[Path, type[M], list[Problem]], tuple[LoadedYaml | None, M | None]]


def configurations_key(source: str) -> FileKey:
    """The key of configurations/<source>.yaml in `Registry.files`."""
    return FileKey("file", f"{CONFIGURATIONS_DIR}/{source}.yaml")


def run_file_key(source: str, name: str) -> FileKey:
    """The key of the run file configurations/<source>/<name> in `Registry.files`."""
    return FileKey("file", f"{CONFIGURATIONS_DIR}/{source}/{name}")


def load_configurations(directory: Path, load_one: LoadOne[ConfigurationsFile], files: dict[FileKey, LoadedYaml],
                        broken: set[FileKey], problems: list[Problem]) -> list[tuple[FileKey, ConfigurationsFile]]:
    """configurations/<source>.yaml, each named by its source id, and the run files of each configurations/<source>/
    folder, sorted by path; each with its key in `files`."""
    found: list[tuple[FileKey, ConfigurationsFile]] = []
    if something_at(directory) and not directory.is_dir():
        problems.append(Problem(display_path(directory), 0, 0, "", "configurations/ must be a directory of "
                                "<source>.yaml files and <source>/ folders, found something else", rule="layout"))
        return found
    for path in sorted(directory.glob("*")) if directory.is_dir() else []:
        if path.name.startswith("."):
            continue
        if path.is_dir() and path.suffix != ".yaml":  # a *.yaml folder: an error (not a regular file)
            found.extend(_load_run_folder(path, load_one, files, broken, problems))
            continue
        if path.suffix != ".yaml":
            problems.append(Problem(display_path(path), 0, 0, "", "only .yaml files belong in configurations/",
                                    "rename it to <source>.yaml", rule="layout"))
            continue
        key = configurations_key(path.stem)
        value = _load_named(path, key, ConfigurationsFile, path.stem,
                            "rename the file to {source}.yaml or set source: " + path.stem,
                            load_one, files, broken, problems)
        if value is not None:
            found.append((key, value))
    return found


def _load_run_folder(folder: Path, load_one: LoadOne[ConfigurationsFile], files: dict[FileKey, LoadedYaml],
                     broken: set[FileKey], problems: list[Problem]) -> list[tuple[FileKey, ConfigurationsFile]]:
    """configurations/<source>/<id>.yaml: one run per file, of the folder's source, named by the run's id."""
    source = folder.name
    if re.fullmatch(SLUG_PATTERN, source) is None:
        problems.append(Problem(display_path(folder), 0, 0, "", "a folder of configurations/ is named by its source "
                                "id (a-z, 0-9, '-' or '_' between them)", "rename it, e.g. reported", rule="layout"))
        return []
    found: list[tuple[FileKey, ConfigurationsFile]] = []
    for path in sorted(folder.glob("*")):
        if path.name.startswith("."):
            continue
        if path.suffix != ".yaml":  # a *.yaml folder: the reader's error (not a regular file)
            problems.append(Problem(display_path(path), 0, 0, "", f"only <id>.yaml files belong in "
                                    f"{CONFIGURATIONS_DIR}/{source}/", "one run per file, named by its id",
                                    rule="layout"))
            continue
        key = run_file_key(source, path.name)
        value = _load_named(path, key, ConfigurationsFile, source,
                            f"move the file to {CONFIGURATIONS_DIR}/{{source}}/ or set source: {source}",
                            load_one, files, broken, problems)
        if value is not None and _one_named_run(path, files[key], value, problems):
            found.append((key, value))
    return found


def _one_named_run(path: Path, loaded: LoadedYaml, value: ConfigurationsFile, problems: list[Problem]) -> bool:
    """A run file holds exactly one configuration, whose id is the file's name (a located problem otherwise)."""
    runs = value.configurations
    if len(runs) == 1 and runs[0].id == path.stem:
        return True
    where: tuple[str | int, ...]
    if len(runs) != 1:
        where, field = ("configurations",), "configurations"
        message = f"a file of {path.parent.name}/ holds one run; this one holds {len(runs)}"
        hint = "give each run a file of its own, named by its id"
    else:
        where, field = ("configurations", 0, "id"), "configurations[0].id"
        message = f"id '{runs[0].id}' does not match the file name '{path.name}'"
        hint = f"rename the file to {runs[0].id}.yaml or set id: {path.stem}"
    line, column = Locator(loaded.text).position(where, at_key=len(runs) != 1)
    problems.append(Problem(display_path(path), line, column, field, message, hint, rule="file-name"))
    return False


def load_known_issues(directory: Path, load_one: LoadOne[KnownIssuesFile], files: dict[FileKey, LoadedYaml],
                      broken: set[FileKey], problems: list[Problem]) -> list[tuple[FileKey, KnownIssuesFile]]:
    """known-issues/curated.yaml, <source>.yaml (hand-read sources, `source` naming the file) and
    <source>.harvested.yaml (a harvester's), curated first, then by file name."""
    found: list[tuple[FileKey, KnownIssuesFile]] = []
    if something_at(directory) and not directory.is_dir():
        problems.append(Problem(display_path(directory), 0, 0, "", "known-issues/ must be a directory of .yaml files, "
                                "found something else", rule="layout"))
        return found
    paths = sorted(directory.glob("*")) if directory.is_dir() else []
    paths.sort(key=lambda path: path.name != CURATED_KNOWN_ISSUES)
    for path in paths:
        if path.name.startswith("."):
            continue
        if path.suffix != ".yaml":
            problems.append(Problem(display_path(path), 0, 0, "", "only curated.yaml, <source>.yaml (written by hand) "
                                    "and <source>.harvested.yaml belong in known-issues/", "rename it", rule="layout"))
            continue
        key = known_issues_key(path.name)
        harvested = path.name.endswith(HARVESTED_SUFFIX)
        expected = (path.name.removesuffix(HARVESTED_SUFFIX) if harvested
                    else None if path.name == CURATED_KNOWN_ISSUES else path.stem)
        issues = _load_named(path, key, KnownIssuesFile, expected,
                             "rename the file to {source}" + (HARVESTED_SUFFIX if harvested else ".yaml"),
                             load_one, files, broken, problems)
        if issues is not None:
            found.append((key, issues))
    return found


S = TypeVar("S", ConfigurationsFile, KnownIssuesFile)


def _load_named(path: Path, key: FileKey, model: type[S], expected_source: str | None, hint: str,
                load_one: LoadOne[S], files: dict[FileKey, LoadedYaml], broken: set[FileKey],
                problems: list[Problem]) -> S | None:
    """One file of a folder named by its `source`: loaded and remembered (or marked broken), then its `source`
    checked against `expected_source` (None: any; `hint` names the fix, `{source}` the one found). None when it is
    broken or misnamed (a located problem)."""
    loaded, value = load_one(path, model, problems)
    if loaded is not None:
        files[key] = loaded
    if value is None:
        broken.add(key)
        return None
    if expected_source is not None and value.source != expected_source:
        line, column = Locator(loaded.text).position(("source",)) if loaded else (0, 0)
        problems.append(Problem(display_path(path), line, column, "source",
                                f"source '{value.source}' does not match the file name '{path.name}'",
                                hint.replace("{source}", str(value.source)), rule="file-name"))
        return None
    return value


def merged_known_issues(found: list[tuple[FileKey, KnownIssuesFile]]) -> KnownIssuesFile | None:
    """Every file's issues as one file (what `explain`, the site and the JSON document read)."""
    issues = [issue for _, file in found for issue in file.issues]
    return KnownIssuesFile.model_construct(issues=issues, not_recorded=[]) if issues else None
