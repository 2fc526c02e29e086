"""The compiled registry: the JSON document of `export --json` (api/registry.json) read into light views.

`check` answers from this document, never from the YAML: the package ships one (the bundled snapshot,
`neuron_compat/data/registry.json`), the site publishes one, and a registry directory is compiled into one
after validation. The views give attribute access to the JSON (`statement.since`, `stack.versions[-1]`)
so views/at_release.py and check/resolver.py read them exactly as they read the pydantic models, without building any model:
importing this module costs no pydantic.

A document's *shape* is trusted only when it comes from this package or from a validation that just ran;
documents from elsewhere (a URL, a file named by the user) go through `document_problem` first.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, ClassVar

from neuron_compat.loading.indexes import RegistryIndexes
from neuron_compat.safeio.safe_text import one_line, value_error_reason

FORMAT_VERSION = 1
"""The `format` of the document this package writes and reads; a newer one needs a newer neuron-compat."""

BUNDLED_RESOURCE = "data/registry.json"
"""Where the bundled snapshot lives inside the package (written into a wheel by its build, build_backend/neuron_compat_build.py)."""


def _plain(value: Any) -> Any:
    """A deep copy of JSON data, so callers can never change a view's document."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


class View:
    """Read-only attribute access to one JSON object of the document."""

    __slots__ = ("_data", "_read")
    _children: ClassVar[dict[str, type[View]]] = {}

    def __init__(self, data: dict[str, Any]) -> None:
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_read", {})  # name -> the value handed out: the document never changes

    def __getattr__(self, name: str) -> Any:
        read = self._read
        if name in read:
            return read[name]
        try:
            value = self._data[name]
        except KeyError:
            raise AttributeError(name) from None
        child = self._children.get(name, View)
        if isinstance(value, dict):
            value = child(value)
        elif isinstance(value, list):
            value = tuple(child(item) if isinstance(item, dict) else item for item in value)
        read[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data!r})"

    def to_json(self) -> dict[str, Any]:
        """The object as plain JSON data (a copy), as `model_dump(mode="json")` gives it for a model."""
        data: dict[str, Any] = _plain(self._data)
        return data


class StatementView(View):
    __slots__ = ()

    @property
    def anchor(self) -> str:
        """The statement's stack x workload fragment id on its family page (as schema.Statement.anchor)."""
        return f"{self._data['stack']}-{self._data['workload']}"


class FamilyView(View):
    __slots__ = ()
    _children: ClassVar[dict[str, type[View]]] = {"support": StatementView}


class CompiledRegistry(RegistryIndexes):
    """What views/at_release.py and check/resolver.py need of a registry, over a compiled document."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.releases = tuple(View(r) for r in document.get("releases", []))
        self.stacks = tuple(View(s) for s in document.get("stacks", []))
        self.families = tuple(FamilyView(f) for f in document.get("families", []))
        self.capability_files = tuple(View(c) for c in document.get("capabilities", []))

    @property
    def data_version(self) -> str | None:
        return self.document.get("data_version")

    def section(self, name: str) -> Any:
        """A top-level section of the document (None when it has none)."""
        return self.document.get(name)

    @property
    def instances(self) -> dict[str, Any] | None:
        """The document's `instances` section (plain JSON of schema.InstancesFile), or None when it has none."""
        section = self.section("instances")
        return _plain(section) if isinstance(section, dict) else None

    @property
    def configuration_files(self) -> list[dict[str, Any]]:
        """The document's `configurations` (plain JSON of tested_configurations.ConfigurationsFile, one per file)."""
        section = self.section("configurations")
        return [_plain(item) for item in section if isinstance(item, dict)] if isinstance(section, list) else []

    @property
    def known_issues(self) -> list[dict[str, Any]]:
        """The document's `known_issues` (plain JSON of known_issues.KnownIssue)."""
        section = self.section("known_issues")
        return [_plain(item) for item in section if isinstance(item, dict)] if isinstance(section, list) else []

    def probe_for(self, model_type: str | None) -> dict[str, Any] | None:
        """The portability probe result of a model type (plain JSON of contract.models.ProbeResult), when the
        document carries one. Machine evidence only: it never enters a verdict."""
        probe = self.section("probe")
        if not model_type or not isinstance(probe, dict):
            return None
        result = (probe.get("probes") or {}).get(model_type)
        return _plain(result) if isinstance(result, dict) else None


def parse_document(data: bytes | str) -> dict[str, Any]:
    """JSON text -> the document object. Raises ValueError with a one-line reason."""
    try:
        document = json.loads(data)
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.lineno}:{error.colno}: {error.msg})") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as error:  # an integer of thousands of digits
        raise ValueError(f"not JSON ({value_error_reason(error)})") from None
    if not isinstance(document, dict):
        raise ValueError("not a registry document (expected a JSON object)")  # ValueError: callers catch one kind
    return document


def document_problem(document: dict[str, Any]) -> str | None:
    """Why `document` is not a registry document this package can answer from, or None when it is.

    Checks the format, then validates releases, stacks and families against the data contract (the
    pydantic models: imported here, only for documents that did not come from this package), then the
    cross-file rules a document can break (check/document_rules.py: duplicates, since before until). The
    `check_tables` section that sites before the Pyodide check page published is left out: nothing reads it.
    """
    fmt = document.get("format")
    if isinstance(fmt, bool) or not isinstance(fmt, int):
        return "not a registry document (no 'format' number; expected the site's api/registry.json)"
    if fmt > FORMAT_VERSION:
        return f"the registry document has format {fmt}; this neuron-compat reads format {FORMAT_VERSION}: upgrade it"
    from pydantic import TypeAdapter, ValidationError

    from neuron_compat.check.document_rules import document_rule_problem
    from neuron_compat.contract.checkpoint_aliases import CheckpointAliasesFile
    from neuron_compat.contract.known_issues import KnownIssue
    from neuron_compat.contract.models import RegistryDocument
    from neuron_compat.contract.tested_configurations import ConfigurationsFile

    try:
        validated = RegistryDocument.model_validate(
            {key: value for key, value in document.items() if key != "check_tables"})
        # sections a newer layout added: checked when present, since `check` and `explain` read them
        TypeAdapter(list[ConfigurationsFile]).validate_python(document.get("configurations") or [])
        TypeAdapter(list[KnownIssue]).validate_python(document.get("known_issues") or [])
        TypeAdapter(CheckpointAliasesFile | None).validate_python(document.get("checkpoint_aliases"))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
        return f"not a valid registry document: {one_line(where[:200])}: {one_line(first['msg'][:300])}{more}"
    rule_problem = document_rule_problem(validated)  # the cross-file rules that apply to a document
    return f"not a valid registry document: {one_line(rule_problem)}" if rule_problem else None


def bundled_document_text() -> bytes:
    """The bundled snapshot's bytes. Raises FileNotFoundError when the package was built without it."""
    return resources.files("neuron_compat").joinpath(BUNDLED_RESOURCE).read_bytes()
