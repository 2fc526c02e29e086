"""The registry `check` answers from when none is named: built from registry/, never committed.

An installed wheel carries `neuron_compat/data/registry.json` and its index, compiled from the clone's
registry/ when the wheel was built (`build_backend/neuron_compat_build.py`, a setuptools build_py step). A
clone (an editable install, or `PYTHONPATH=src`) has no such file: its own registry/ is validated and compiled
on demand into a cache under the clone's `build/registry-snapshot/`, keyed by the content of registry/, of the
package's code and by the package version, so an edit, another branch or another version compiles afresh and a
stale answer is never given. A registry/ that does not validate is an error naming the first problem's
file:line:col (exit 1 in `check`), never a fall back to an older cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import neuron_compat
from neuron_compat.check.bundled_index import INDEX_FORMAT, IndexedRegistry, index_text, open_indexed
from neuron_compat.check.compiled_view import (
    FORMAT_VERSION,
    CompiledRegistry,
    bundled_document_text,
    parse_document,
)
from neuron_compat.loading.problems import Problem
from neuron_compat.registry_sources.errors import RegistrySourceError

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
    """The document text `registry` compiles to and its index text, or its problems when it does not validate."""
    from neuron_compat.publishing.registry_document import dumps, registry_to_json
    from neuron_compat.rules.validation import validate_registry

    result = validate_registry(registry)
    if result.problems:
        return list(result.problems)
    text = dumps(registry_to_json(result.registry))
    return text, index_text(text)


def _files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for directory, subdirectories, names in os.walk(folder):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__" and not d.startswith("."))
        found.extend(Path(directory) / name for name in names if name.endswith(suffixes))
    return sorted(found)


def content_key(registry: Path, package: Path = PACKAGE) -> str:
    """What the compiled document depends on: the package version and formats, every file under registry/ and
    the package's Python code (a clone's code changes too), by path and content."""
    digest = hashlib.sha256(f"{neuron_compat.__version__}\0{FORMAT_VERSION}\0{INDEX_FORMAT}\0".encode())
    for folder, files in ((registry, _files(registry, ("",))), (package, _files(package, (".py",)))):
        for path in files:
            data = path.read_bytes()
            digest.update(f"{path.relative_to(folder).as_posix()}\0{len(data)}\0".encode())
            digest.update(data)
    return digest.hexdigest()[:32]


def compile_failure(registry: Path, problems: list[Problem]) -> RegistrySourceError:
    """The error for a clone whose registry/ does not compile: the first problem, located, and the count."""
    first = sorted(problems)[0].format()
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return RegistrySourceError(f"{first}{more}; this clone's registry/ must validate before check can answer from "
                               f"it: run `neuron-compat validate {registry}`")


def compiled_clone(root: Path) -> tuple[Path, Path] | tuple[str, str]:
    """The clone's registry/ compiled: the cached document and index paths, or their texts when the cache cannot
    be written (a read-only clone). Raises RegistrySourceError when registry/ does not validate."""
    from neuron_compat.safeio.atomic_write import write_atomically

    registry = root / "registry"
    key = content_key(registry)
    cache = root / CACHE_FOLDER
    document, index = cache / f"registry-{key}.json", cache / f"registry-{key}.index.json"
    if document.is_file() and index.is_file():
        return document, index
    compiled = compile_snapshot(registry)
    if isinstance(compiled, list):
        raise compile_failure(registry, compiled)
    text, index_body = compiled
    try:
        cache.mkdir(parents=True, exist_ok=True)
        write_atomically(index, index_body)
        write_atomically(document, text)  # the document last: its presence says the pair is complete
    except OSError:
        return compiled
    for old in cache.glob("registry-*.json"):
        if key not in old.name:
            old.unlink(missing_ok=True)
    return document, index


def open_bundled() -> tuple[CompiledRegistry, str]:
    """The registry and where it came from (for RegistryOrigin.location). Raises RegistrySourceError."""
    root = source_checkout()
    if root is not None:
        compiled = compiled_clone(root)
        if isinstance(compiled[0], Path):
            document, index = compiled
            assert isinstance(index, Path)
            indexed: IndexedRegistry | None = open_indexed(document, index)
            if indexed is not None:
                return indexed, str(root / "registry")
            data = document.read_bytes()
        else:
            data = compiled[0].encode("utf-8")
        return CompiledRegistry(parse_document(data)), str(root / "registry")
    packaged = open_indexed()  # the fast way, reading only what the answer needs; else the whole document
    if packaged is not None:
        return packaged, PACKAGED_LOCATION
    try:
        return CompiledRegistry(parse_document(bundled_document_text())), PACKAGED_LOCATION
    except (OSError, ValueError) as error:
        raise RegistrySourceError(f"the registry snapshot bundled with neuron-compat is missing or broken ({error}); "
                                  "reinstall neuron-compat or pass --registry") from None
