"""The registry `check` answers from when none is named: built from registry/, never committed.

An installed wheel carries `neuron_compat/data/registry.json` and its index, compiled from the clone's
registry/ when the wheel was built (`build_backend/neuron_compat_build.py`, a setuptools build_py step). A
clone (an editable install, or `PYTHONPATH=src`) has no such file: its own registry/ is validated and compiled
on demand into a cache under the clone's `build/registry-snapshot/` (document/cache.py: keyed by the content of
registry/ read as the loader reads it, of the package's code and by the package version; verified on every read),
so an edit, another branch or another version compiles afresh and a stale answer is never given. A registry/ that
does not validate is an error naming the first problem's file:line:col (exit 1 in `check`), never a fall back to
an older cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import neuron_compat
from neuron_compat.check.bundled_index import INDEX_FORMAT, open_indexed, open_indexed_bytes
from neuron_compat.check.compiled_view import (
    FORMAT_VERSION,
    CompiledRegistry,
    bundled_document_text,
    parse_document,
)
from neuron_compat.loading.problems import Problem
from neuron_compat.registry_sources.errors import RegistrySourceError

if TYPE_CHECKING:
    from neuron_compat.document.cache import CachedDocument

PACKAGE = Path(neuron_compat.__file__).resolve().parent
CACHE_FOLDER = Path("build") / "registry-snapshot"
"""The cache inside a clone (build/ is ignored by git); one document and its index, the newest key only."""
PACKAGED_LOCATION = "neuron_compat/data/registry.json"


def source_checkout(package: Path = PACKAGE) -> Path | None:
    """The clone the running package is imported from (`<clone>/src/neuron_compat` beside `<clone>/registry`)."""
    root = package.parents[1]
    is_clone = package == root / "src" / "neuron_compat" and (root / "pyproject.toml").is_file()
    return root if is_clone and (root / "registry" / "releases.yaml").is_file() else None


def compile_snapshot(registry: Path) -> tuple[str, str] | list[Problem]:
    """The document text `registry` compiles to and its index text, or its problems when it does not validate
    (what the wheel build writes into the package)."""
    from neuron_compat.document.compile import compile_registry

    compiled = compile_registry(registry)
    return compiled if isinstance(compiled, list) else (compiled.document, compiled.index)


def cache_salt() -> str:
    """What a compiled document depends on besides the files: the package version and the formats."""
    return f"{neuron_compat.__version__}\0{FORMAT_VERSION}\0{INDEX_FORMAT}"


def compile_failure(registry: Path, problems: list[Problem]) -> RegistrySourceError:
    """The error for a registry that does not compile: the first problem, located, and the count."""
    first = sorted(problems)[0].format()
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return RegistrySourceError(f"{first}{more}; the registry must validate before check can answer from "
                               f"it: run `neuron-compat validate {registry}`")


def _cached(registry: Path, cache: Path) -> CachedDocument:
    """The registry compiled through the cache at `cache`. Raises RegistrySourceError when it does not validate."""
    from neuron_compat.document.cache import CompileFailed, cached_compile

    try:
        return cached_compile(registry, cache, PACKAGE, cache_salt())
    except CompileFailed as failed:
        raise compile_failure(registry, failed.problems) from None


def compiled_directory(registry: Path, cache: Path) -> CompiledRegistry:
    """A registry directory compiled through the cache at `cache`, opened for answering (no YAML, no pydantic
    when the cache holds it): the verified bytes of a cached document are read once, through its index."""
    cached = _cached(registry, cache)
    if cached.data is not None and cached.index is not None:
        indexed = open_indexed_bytes(cached.data, cached.index)
        if indexed is not None:
            return indexed
    if cached.compiled is not None:  # compiled by this run: answered from the texts in memory
        return CompiledRegistry(parse_document(cached.compiled.document))
    assert cached.data is not None  # an entry found in the cache carries the bytes its read verified
    return CompiledRegistry(parse_document(cached.data))


def compiled_clone(root: Path) -> tuple[Path, Path] | tuple[str, str]:
    """The clone's registry/ compiled: the cached document and index paths, or their texts when they could not be
    cached (a read-only clone, or an edit made while it compiled). Raises RegistrySourceError."""
    cached = _cached(root / "registry", root / CACHE_FOLDER)
    if cached.document_path is not None and cached.index_path is not None:
        return cached.document_path, cached.index_path
    assert cached.compiled is not None
    return cached.compiled.document, cached.compiled.index


def open_bundled() -> tuple[CompiledRegistry, str]:
    """The registry and where it came from (for RegistryOrigin.location). Raises RegistrySourceError."""
    root = source_checkout()
    if root is not None:
        return compiled_directory(root / "registry", root / CACHE_FOLDER), str(root / "registry")
    packaged = open_indexed()  # the fast way, reading only what the answer needs; else the whole document
    if packaged is not None:
        return packaged, PACKAGED_LOCATION
    try:
        return CompiledRegistry(parse_document(bundled_document_text())), PACKAGED_LOCATION
    except (OSError, ValueError) as error:
        raise RegistrySourceError(f"the registry snapshot bundled with neuron-compat is missing or broken ({error}); "
                                  "reinstall neuron-compat or pass --registry") from None
