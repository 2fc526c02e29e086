"""Which registry `check` answers from, and opening it as a compiled registry.

In this order: `--registry` (a registry directory, a compiled .json document, or an https URL of a published
api/registry.json), then the `NEURON_COMPAT_REGISTRY` variable (the same forms), then `./registry` when the
working directory holds a registry, else the bundled registry (`bundled`: the wheel's compiled document, or
in a clone its registry/ compiled on demand). A directory is validated (YAML, schema, rules) and compiled; the
wheel's document is read as it is, since the wheel build compiled it from a registry that validated.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from neuron_compat.check.compiled_view import CompiledRegistry, document_problem, parse_document
from neuron_compat.check.registry_origin import RegistryOrigin
from neuron_compat.registry_sources.errors import RegistrySourceError

ENV_VAR = "NEURON_COMPAT_REGISTRY"
__all__ = ["ENV_VAR", "RegistryOrigin", "is_registry_directory", "open_registry"]

WORKING_DIRECTORY_REGISTRY = Path("registry")
MAX_LOCAL_DOCUMENT_BYTES = 32 * 1024 * 1024


def is_registry_directory(path: Path) -> bool:
    return path.is_dir() and (path / "releases.yaml").is_file() and (path / "stacks.yaml").is_file()


def open_registry(option: str | None, *, offline: bool = False, environ: Mapping[str, str] = os.environ,
                  ) -> tuple[CompiledRegistry, RegistryOrigin]:
    """The registry to answer from, by the order above. Raises RegistrySourceError."""
    if option is not None:
        return _open(option, "--registry", offline, environ)
    if environ.get(ENV_VAR):
        return _open(environ[ENV_VAR], ENV_VAR, offline, environ)
    if is_registry_directory(WORKING_DIRECTORY_REGISTRY):
        return _open_directory(WORKING_DIRECTORY_REGISTRY, "working directory")
    return _open_bundled()


def _open(spec: str, chosen_by: str, offline: bool, environ: Mapping[str, str]) -> tuple[CompiledRegistry, RegistryOrigin]:
    from neuron_compat.registry_sources.remote import is_url

    if is_url(spec):
        return _open_url(spec, chosen_by, offline, environ)
    path = Path(spec).expanduser()
    if path.is_dir():
        return _open_directory(path, chosen_by)
    if path.suffix.lower() == ".json" and path.exists():
        return _open_file(path, chosen_by)
    raise RegistrySourceError(f"no registry at {spec} ({chosen_by}): give a registry directory, a registry "
                              ".json document or an https URL of a published api/registry.json")


def _open_directory(path: Path, chosen_by: str) -> tuple[CompiledRegistry, RegistryOrigin]:
    """A registry directory, validated and compiled. This clone's own registry/ (named, or the working directory's)
    goes through the clone's compile cache, so an unchanged registry is answered without loading YAML or
    pydantic; any other directory is validated on each run (nothing is written outside the clone)."""
    from neuron_compat.registry_sources.bundled import CACHE_FOLDER, compiled_directory, source_checkout

    root = source_checkout()
    if root is not None and _same_directory(path, root / "registry"):
        registry = compiled_directory(path, root / CACHE_FOLDER)
        return registry, RegistryOrigin(chosen_by, "directory", str(path), registry.data_version)
    from neuron_compat.publishing.registry_document import registry_to_json
    from neuron_compat.rules.validation import validate_registry

    result = validate_registry(path)
    if result.problems:
        raise RegistrySourceError(f"the registry at {path} has {len(result.problems)} problem(s); "
                                  f"run `neuron-compat validate {path}`")
    compiled = CompiledRegistry(registry_to_json(result.registry))
    return compiled, RegistryOrigin(chosen_by, "directory", str(path), compiled.data_version)


def _same_directory(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return False


def _open_file(path: Path, chosen_by: str) -> tuple[CompiledRegistry, RegistryOrigin]:
    from neuron_compat.safeio.bounded_read import FileTooLarge, UnreadableFile, read_regular_file

    try:
        data = read_regular_file(path, MAX_LOCAL_DOCUMENT_BYTES)
    except FileTooLarge:
        raise RegistrySourceError(f"{path}: too large for a registry document (limit {MAX_LOCAL_DOCUMENT_BYTES} bytes)") from None
    except UnreadableFile as error:
        raise RegistrySourceError(f"{path}: {error}") from None
    try:
        document = parse_document(data)
    except ValueError as error:
        raise RegistrySourceError(f"{path}: {error}") from None
    problem = document_problem(document)
    if problem:
        raise RegistrySourceError(f"{path}: {problem}")
    registry = CompiledRegistry(document)
    return registry, RegistryOrigin(chosen_by, "file", str(path), registry.data_version)


def _open_url(url: str, chosen_by: str, offline: bool, environ: Mapping[str, str]) -> tuple[CompiledRegistry, RegistryOrigin]:
    from neuron_compat.registry_sources.remote import fetch_document

    fetched = fetch_document(url, offline=offline, environ=environ)  # raises RegistrySourceError
    registry = CompiledRegistry(fetched.document)
    return registry, RegistryOrigin(chosen_by, "url", url, registry.data_version, fetched.from_cache, fetched.note)


def _open_bundled() -> tuple[CompiledRegistry, RegistryOrigin]:
    from neuron_compat.registry_sources.bundled import open_bundled

    registry, location = open_bundled()  # raises RegistrySourceError (a clone's registry/ that does not validate)
    return registry, RegistryOrigin("bundled", "bundled", location, registry.data_version)
