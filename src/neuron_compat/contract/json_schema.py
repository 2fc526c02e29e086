"""JSON Schemas of the registry files, generated from the pydantic models (for editors and consumers).

Two kinds:
- `schema_for(kind)`: the generic schema, exactly as pydantic writes it (the site's API page, consumers of the
  JSON, `check --json-schema`'s statement part): no catalogue, none of the editor rules.
- `editor_schema_for(kind, catalogue)`: what `neuron-compat schema` writes to registry/schemas for the YAML
  language server: the generic schema plus the single-file rules of schema_rules.py / catalogue_rules.py and,
  given the loaded registry's catalogue, its releases, stacks, stack versions and upstream model types as
  enums with descriptions (editors offer them in completion).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from neuron_compat.contract.known_issues import KnownIssuesFile
from neuron_compat.contract.models import SCHEMA_MODELS, Release, Stack, TransformersSnapshot
from neuron_compat.contract.schema_rules import ENUM_DESCRIPTIONS, Catalogue, StackTerms, Term, editor_schema
from neuron_compat.contract.tested_configurations import ConfigurationsFile
from neuron_compat.contract.vocabulary import DescribedEnum

DRAFT = "https://json-schema.org/draft/2020-12/schema"

ALL_SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    **SCHEMA_MODELS,
    "configurations": ConfigurationsFile,
    "known-issues": KnownIssuesFile,
}
"""Every registry file kind with a JSON Schema: models.SCHEMA_MODELS plus the files whose contracts live in their
own modules (configurations/<source>.yaml, known-issues/*.yaml)."""


def schema_for(kind: str) -> dict[str, Any]:
    model = ALL_SCHEMA_MODELS[kind]
    schema = model.model_json_schema()
    schema = {"$schema": DRAFT, "$id": f"{kind}.schema.json", **schema}
    return schema


def schema_text(kind: str) -> str:
    return json.dumps(schema_for(kind), indent=2, sort_keys=True, allow_nan=False) + "\n"


def catalogue_of(releases: list[Release], stacks: list[Stack], transformers: TransformersSnapshot | None) -> Catalogue:
    """What the editor schemas enumerate, from a loaded registry's releases.yaml, stacks.yaml and upstream snapshot."""
    dates = {release.version: release.date.isoformat() for release in releases}

    def stack_terms(stack: Stack) -> StackTerms:
        versions = [Term(v.version, f"{stack.name} {v.version}: targets Neuron {v.neuron}"
                         + (f", released {v.date.isoformat()}" if v.date else "")) for v in stack.versions]
        return StackTerms(id=stack.id, name=stack.name, workloads=[str(w) for w in stack.workloads],
                          hardware=[str(h) for h in stack.hardware], versions=versions,
                          neuron_of={v.version: v.neuron for v in stack.versions})

    model_types = None
    if transformers is not None:
        model_types = [Term(name, f"{config} (transformers {transformers.transformers_version})")
                       for name, config in sorted(transformers.model_types.items())]
    return Catalogue(
        releases=[Term(release.version, f"Neuron SDK {release.version}, released {dates[release.version]}")
                  for release in releases],
        stacks=[stack_terms(stack) for stack in stacks],
        model_types=model_types,
    )


def _describe_vocabularies(schema: dict[str, Any]) -> None:
    """Each closed vocabulary's `$defs` entry gets a description per value (completion shows it)."""
    vocabularies = {cls.__name__: cls for cls in DescribedEnum.__subclasses__()}
    for name, definition in schema.get("$defs", {}).items():
        vocabulary = vocabularies.get(name)
        if vocabulary is not None and definition.get("enum"):
            descriptions = vocabulary.descriptions()
            definition[ENUM_DESCRIPTIONS] = [descriptions[value] for value in definition["enum"]]


def editor_schema_for(kind: str, catalogue: Catalogue | None) -> dict[str, Any]:
    """The schema of `kind` with the editor rules, and the catalogue's values when one is given."""
    with editor_schema(catalogue):
        schema = ALL_SCHEMA_MODELS[kind].model_json_schema()
    _describe_vocabularies(schema)
    return {"$schema": DRAFT, "$id": f"{kind}.schema.json", **schema}


def editor_schema_text(kind: str, catalogue: Catalogue | None) -> str:
    return json.dumps(editor_schema_for(kind, catalogue), indent=2, sort_keys=True, allow_nan=False) + "\n"


def schema_path(directory: Path, kind: str) -> Path:
    """Where `schema --out DIRECTORY` writes the schema of `kind` (the name the files' modelines use)."""
    return directory / f"{kind}.schema.json"
