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

from neuron_compat.contract.models import (
    TYPE_LABEL,
    AppliesTo,
    CapabilitiesFile,
    Capability,
    CodePath,
    Constraint,
    Family,
    Note,
    Parallelism,
    Release,
    Source,
    Stack,
    StackVersion,
    Statement,
)
from neuron_compat.contract.vocabulary import DescribedEnum
from neuron_compat.site.pages.common import block, heading

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
    ("code-path", CodePath, "One entry of a stack's `code_paths` list: which modeling code runs which model classes."),
    ("applies-to", AppliesTo, "A constraint's or note's `applies_to`: the tasks or checkpoints of the family it is about."),
    ("capabilities", CapabilitiesFile, "A file `registry/capabilities/<stack-id>.yaml`: one stack's capability ranges."),
    ("capability", Capability, "One entry of a capabilities file's `capabilities` list; statements of the stack "
     "that leave attention, dtypes or quantization empty show these values, marked \"from the stack\"."),
]

EXAMPLE_FAMILY = """\
# registry/families/example.yaml (the file name is the id)
# yaml-language-server: $schema=../schemas/family.schema.json
id: example
name: Example LM
vendor: Example Labs
description: A decoder-only model used to show every field.
model_types: [example_lm]               # the config.json's model_type
architectures: [ExampleLMForCausalLM]   # its architectures
remote_code: true                       # a model type transformers does not ship (custom code on the Hub)
classes: [decoder-lm]
tasks: [text-generation]
aliases: [Example 1]
examples: [example-org/Example-1B]
support:
  - stack: nxd-inference                # an id of registry/stacks.yaml
    workload: inference
    hardware: [trn2]
    status: supported
    since: "2.21.0"                     # quoted: a release of registry/releases.yaml
    until: "2.34.0"                     # the first release it no longer holds (NxD Inference ends on trn2 there)
    stack_since: 0.1.0                  # the stack's own version paired with `since` (stacks.yaml lists them)
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
        applies_to: {tasks: [text-generation], checkpoints: [example-org/Example-1B]}
    notes:
      - release: "2.22.0"
        text: Faster token generation with `flash-decoding`.
    sources:
      - url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/index.html
        title: NxD Inference model support
        kind: vendor-docs
        verified: 2026-12-01
"""
"""A complete family file that `neuron-compat validate` accepts in the real registry (tests/site/test_site_render.py
adds it to a copy and validates): shown on the Contributing page and in the schema reference."""


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
    """The label a constrained type of the contract carries (schema.TYPE_LABEL in its json_schema_extra)."""
    for item in _flatten(metadata):
        extra = getattr(item, "json_schema_extra", None)
        if isinstance(extra, dict) and TYPE_LABEL in extra:
            return str(extra[TYPE_LABEL])
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
        label, vocab = type_label(info.annotation, [info])
        required = info.is_required()
        default = ""
        if not required:
            if info.default_factory is not None:
                default = "empty"
            elif info.default is not PydanticUndefined and info.default is not None:
                default = str(info.default).lower() if isinstance(info.default, bool) else str(info.default)
        docs.append(FieldDoc(name, label, required, default, info.description or "", vocab))
    return docs


def vocabularies() -> list[tuple[str, dict[str, str]]]:
    seen: dict[str, dict[str, str]] = {}
    for _, model, _ in MODELS:
        for doc in field_docs(model):
            if doc.vocabulary and doc.vocabulary not in seen:
                cls = next(c for c in DescribedEnum.__subclasses__() if c.__name__ == doc.vocabulary)
                seen[doc.vocabulary] = cls.descriptions()
    return list(seen.items())


def family_example() -> str:
    """The Contributing page's complete family file, to copy."""
    return block("family_example.html.j2", example=EXAMPLE_FAMILY)


def fragment(registry: object = None) -> str:
    parts = [block("schema_intro.html.j2", example=EXAMPLE_FAMILY)]
    for anchor, model, where in MODELS:
        parts.append(heading(3, model.__name__, f"schema-{anchor}"))
        parts.append(block("schema_model.html.j2", where=where, doc=(model.__doc__ or "").strip(),
                           fields=field_docs(model)))
    parts.append(heading(3, "Allowed values", "schema-vocabularies"))
    parts.append(block("schema_vocabularies.html.j2", vocabularies=vocabularies()))
    return "".join(parts)
