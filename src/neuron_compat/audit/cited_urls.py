"""Find every `sources[].url` in registry files, with its file and line, through the project's YAML loader."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from neuron_compat.loading.node_locations import Locator
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.yaml_reader import load_yaml_file

REGISTRY_GLOBS = ("families/*.yaml", "capabilities/*.yaml", "releases.yaml", "stacks.yaml", "upstream/*.yaml")


@dataclass(frozen=True)
class CitedUrl:
    file: str
    line: int
    url: str


def registry_files(root: Path, only: str | None = None) -> list[Path]:
    """The registry files that may cite sources, sorted; `only` is a glob over the path relative to `root`."""
    found = {path for pattern in REGISTRY_GLOBS for path in root.glob(pattern) if path.is_file()}
    if only:
        found = {p for p in found if fnmatch(p.relative_to(root).as_posix(), only) or fnmatch(str(p), only)}
    return sorted(found)


def cited_urls(paths: list[Path]) -> tuple[list[CitedUrl], list[Problem]]:
    urls: list[CitedUrl] = []
    problems: list[Problem] = []
    for path in paths:
        loaded, problem = load_yaml_file(path)
        if loaded is None:
            if problem:
                problems.append(problem)
            continue
        locator = Locator(loaded.text)
        for loc, url in _source_urls(loaded.data, ()):
            line, _ = locator.position(loc)
            urls.append(CitedUrl(loaded.display, line, url))
    return urls, problems


def _source_urls(data: Any, loc: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "sources" and isinstance(value, list):
                for index, source in enumerate(value):
                    if isinstance(source, dict) and isinstance(source.get("url"), str):
                        yield (*loc, key, index, "url"), source["url"]
            yield from _source_urls(value, (*loc, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            yield from _source_urls(item, (*loc, index))
