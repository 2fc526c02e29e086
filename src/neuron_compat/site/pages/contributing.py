"""The schema reference of the contributing page, generated from the pydantic models.

Every field of every registry model with its type, whether it is required, its description, and for
closed vocabularies every allowed value with its description (vocabulary.py `descriptions()`). Nothing
is written twice: a new field or value appears here on the next build.
"""

from __future__ import annotations

import datetime as dt
import enum
import types
import typing
from dataclasses import dataclass

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from ...schema import Constraint, Family, Note, Parallelism, Release, Source, Stack, StackVersion, Statement
from ...vocabulary import DescribedEnum
from .common import block, heading

MODELS: list[tuple[str, type[BaseModel], str]] = [
    ("family", Family, "A file `registry/families/<id>.yaml`: one model family."),
    ("statement", Statement, "One entry of a family's `support` list."),
    ("source", Source, "One entry of a statement's `sources` list."),
    ("constraint", Constraint, "One entry of a statement's `constraints` list."),
    ("parallelism", Parallelism, "A statement's `parallelism`."),
    ("note", Note, "One entry of a statement's `notes` list."),
    ("release", Release, "One entry of `releases` in `registry/releases.yaml`."),
    ("stack", Stack, "One entry of `stacks` in `registry/stacks.yaml`."),
    ("stack-version", StackVersion, "One entry of a stack's `versions` list."),
]

_VALIDATOR_LABELS = {
    "_check_neuron_version": "Neuron release (quoted, e.g. '2.21.0')",
    "_check_slug": "slug (a-z, 0-9, - or _)",
    "_check_https": "https URL",
    "_check_markdown": "Markdown (code, *emphasis*, https links)",
    "_check_plain_text": "text (one line)",
    "_check_repo_id": "Hub repo id (owner/name)",
}

EXAMPLE_FAMILY = """\
# yaml-language-server: $schema=../schemas/family.schema.json
id: example
name: Example LM
vendor: Example Labs
description: A decoder-only model used to show every field.
model_types: [llama]
architectures: [LlamaForCausalLM]
tasks: [text-generation]
aliases: [Example 1]
examples: [example-org/Example-1B]
support:
  - stack: nxd-inference
    workload: inference
    hardware: [trn2]
    status: supported
    since: "2.21.0"
    attention: [native]
    dtypes: [bf16]
    quantization: [fp8-weight]
    parallelism:
      tensor: [8, 32]
    constraints:
      - kind: static-shapes
      - kind: max-sequence-length
        value: 8192
      - kind: flag
        name: enable_bucketing
        value: true
    notes:
      - release: "2.22.0"
        text: Faster token generation with `flash-decoding`.
    sources:
      - url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/index.html
        title: NxD Inference model support
        kind: vendor-docs
        verified: 2026-12-01
"""


# Descriptions for fields whose model gives none (the model's own description wins when it has one).
FALLBACK_DESCRIPTIONS = {
    ("Family", "name"): "Display name of the family, e.g. 'Llama'.",
    ("Family", "vendor"): "Who publishes the models, e.g. 'Meta'.",
    ("Family", "description"): "A short paragraph: what the family is and what to know on Neuron.",
    ("Family", "tasks"): "Hub pipeline tasks the family serves.",
    ("Statement", "workload"): "inference or training.",
    ("Statement", "hardware"): "Neuron hardware generations the statement covers.",
    ("Statement", "status"): "What holds over the release range.",
    ("Statement", "attention"): "Attention implementations that work, per the source.",
    ("Statement", "dtypes"): "Data types that work, per the source.",
    ("Statement", "quantization"): "Quantization schemes that work, per the source.",
    ("Statement", "parallelism"): "Parallelism the source used or requires.",
    ("Statement", "constraints"): "Requirements that hold: static shapes, flags, settings, limits.",
    ("Statement", "notes"): "Short Markdown remarks, optionally tied to the release where behaviour changed.",
    ("Source", "url"): "The page, file at a tag, or run log that says so.",
    ("Source", "title"): "A readable title for the link.",
    ("Source", "kind"): "What kind of evidence the source is.",
    ("Constraint", "kind"): "What sort of requirement this is.",
    ("Constraint", "value"): "The value the requirement needs (integer, list, text or true/false).",
    ("Constraint", "note"): "Markdown explanation.",
    ("Note", "release"): "The Neuron release the remark is about.",
    ("Note", "text"): "The remark, in Markdown.",
    ("Stack", "id"): "Short id used in family files, e.g. 'nxd-inference'.",
    ("Stack", "name"): "Display name.",
    ("Stack", "description"): "What the stack is, in Markdown.",
    ("Stack", "docs_url"): "Its documentation.",
    ("Stack", "repo_url"): "Its source repository.",
    ("Stack", "hardware"): "Hardware it runs on.",
    ("Stack", "workloads"): "Workloads it serves.",
    ("Stack", "status"): "Its lifecycle.",
    ("Stack", "status_source"): "Where the lifecycle is stated.",
    ("StackVersion", "version"): "The stack's own version, e.g. '0.4.5'.",
    ("StackVersion", "date"): "Release date of that version.",
    ("Family", "support"): "Support statements: one per stack x workload, per hardware set and release range.",
    ("Parallelism", "pipeline"): "Pipeline-parallel degrees.",
    ("Parallelism", "expert"): "Expert-parallel degrees.",
    ("Parallelism", "context"): "Context-parallel degrees.",
    ("Parallelism", "data"): "Data parallelism used or required.",
    ("Parallelism", "fsdp"): "Fully sharded data parallel used or required.",
    ("Parallelism", "sequence"): "Sequence parallelism used or required.",
}


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    required: bool
    default: str
    description: str
    vocabulary: str | None  # name of a vocabulary listed below the tables


def _flatten(metadata: list[object]) -> list[object]:
    """Field(...) inside Annotated arrives as a FieldInfo whose own metadata holds the constraints."""
    flat: list[object] = []
    for item in metadata:
        flat.append(item)
        flat.extend(_flatten(list(getattr(item, "metadata", []) or [])))
    return flat


def _label_for_metadata(metadata: list[object]) -> str | None:
    metadata = _flatten(metadata)
    for item in metadata:
        func = getattr(item, "func", None)
        name = getattr(func, "__name__", "")
        if name in _VALIDATOR_LABELS:
            return _VALIDATOR_LABELS[name]
    for item in metadata:
        pattern = getattr(item, "pattern", None)
        if pattern == r"^[0-9][0-9A-Za-z.+-]*$":
            return "version text (e.g. '0.4.5')"
        if pattern == r"^[A-Za-z0-9_.-]+$":
            return "identifier"
    return None


def type_label(annotation: object, metadata: list[object] | None = None) -> tuple[str, str | None]:
    """A readable type for a field annotation, and the vocabulary it draws from (if any)."""
    label = _label_for_metadata(list(metadata or []))
    if label:
        return label, None
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_label(args[0], list(args[1:]))
    if origin in (typing.Union, types.UnionType):
        parts = [type_label(a) for a in args if a is not type(None)]
        vocab = next((v for _, v in parts if v), None)
        return " or ".join(p for p, _ in parts), vocab
    if origin is list:
        inner, vocab = type_label(args[0])
        return f"list of {inner}", vocab
    if origin is dict:
        key, _ = type_label(args[0])
        value, vocab = type_label(args[1])
        return f"mapping of {key} to {value}", vocab
    if isinstance(annotation, type):
        if issubclass(annotation, DescribedEnum):
            return f"one of {annotation.__name__}", annotation.__name__
        if issubclass(annotation, enum.Enum):
            return annotation.__name__, None
        if issubclass(annotation, BaseModel):
            return f"{annotation.__name__} (below)", None
        if annotation is bool:
            return "true or false", None
        if annotation is int:
            return "integer", None
        if annotation is str:
            return "text", None
        if annotation is dt.date:
            return "date (YYYY-MM-DD)", None
    return str(annotation), None


def field_docs(model: type[BaseModel]) -> list[FieldDoc]:
    docs = []
    for name, info in model.model_fields.items():
        label, vocab = type_label(info.annotation, info.metadata)
        required = info.is_required()
        default = ""
        if not required:
            if info.default_factory is not None:
                default = "empty"
            elif info.default is not PydanticUndefined and info.default is not None:
                default = str(info.default).lower() if isinstance(info.default, bool) else str(info.default)
        description = info.description or FALLBACK_DESCRIPTIONS.get((model.__name__, name), "")
        docs.append(FieldDoc(name, label, required, default, description, vocab))
    return docs


def vocabularies() -> list[tuple[str, dict[str, str]]]:
    seen: dict[str, dict[str, str]] = {}
    for _, model, _ in MODELS:
        for doc in field_docs(model):
            if doc.vocabulary and doc.vocabulary not in seen:
                cls = next(c for c in DescribedEnum.__subclasses__() if c.__name__ == doc.vocabulary)
                seen[doc.vocabulary] = cls.descriptions()
    return list(seen.items())


def fragment(registry: object = None) -> str:
    parts = [block("schema_intro.html.j2", example=EXAMPLE_FAMILY)]
    for anchor, model, where in MODELS:
        parts.append(heading(3, model.__name__, f"schema-{anchor}"))
        parts.append(block("schema_model.html.j2", where=where, doc=(model.__doc__ or "").strip(),
                           fields=field_docs(model)))
    parts.append(heading(3, "Allowed values", "schema-vocabularies"))
    parts.append(block("schema_vocabularies.html.j2", vocabularies=vocabularies()))
    return "".join(parts)
