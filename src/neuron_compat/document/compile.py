"""A registry directory compiled into its document: validate (YAML, schema, rules), then the JSON document and
its byte-span index. What the wheel build, a clone's cache and `--registry DIR` all run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from neuron_compat.loading.problems import Problem


@dataclass(frozen=True)
class Compiled:
    """A compiled registry: the document's text and its index's text (both deterministic)."""

    document: str
    index: str


def compile_registry(registry: Path) -> Compiled | list[Problem]:
    """The document `registry` compiles to, or its problems when it does not validate."""
    from neuron_compat.check.bundled_index import index_text
    from neuron_compat.publishing.registry_document import dumps, registry_to_json
    from neuron_compat.rules.validation import validate_registry

    result = validate_registry(registry)
    if result.problems:
        return list(result.problems)
    text = dumps(registry_to_json(result.registry))
    return Compiled(text, index_text(text))
