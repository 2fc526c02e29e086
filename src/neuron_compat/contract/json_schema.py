"""JSON Schemas of the registry files, generated from the pydantic models (for editors and consumers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from neuron_compat.contract.models import SCHEMA_MODELS


def schema_for(kind: str) -> dict[str, Any]:
    model = SCHEMA_MODELS[kind]
    schema = model.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{kind}.schema.json", **schema}
    return schema


def schema_text(kind: str) -> str:
    return json.dumps(schema_for(kind), indent=2, sort_keys=True) + "\n"


def schema_path(directory: Path, kind: str) -> Path:
    """Where `schema --out DIRECTORY` writes the schema of `kind` (the name the files' modelines use)."""
    return directory / f"{kind}.schema.json"
