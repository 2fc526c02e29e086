"""The rules the editors' JSON Schemas add to the models' own: written once here, read by the pydantic
validators and by the schema generator (contract/json_schema.py).

The generic schema (`Model.model_json_schema()`, what `check --json-schema` and the site's API page use) is
left exactly as pydantic writes it: every hook below adds nothing unless an `editor_schema(...)` block is
active, which only `json_schema.editor_schema_for` opens.

- A `TextRule` in a type's `Annotated[...]` metadata is a pattern its text must not contain; its validator
  (`refuse_text`) raises the rule's message, and the editor schema gets a `pattern` saying the same (with the
  message as `patternErrorMessage`).
  Patterns stay in the part of regular expressions that Python's `re` and ECMA-262 read alike (no flags, no
  `$`: `END` is the end of the text in both).
- A `CatalogueRef` names a catalogue list (`"release"`, `"stack"`): the editor schema turns the field into an
  enum of the loaded registry's values, each with a description editors show in completion.
- A model's `schema_rules(catalogue)` classmethod returns `allOf` entries (if/then) for its own schema; the
  base model's `json_schema_extra` hook (`add_model_rules`) calls it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pydantic import GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from neuron_compat.safeio.safe_text import UNSAFE_CHARACTERS

END = r"(?![\s\S])"
"""The end of the text in Python and in ECMA-262 alike (Python's `$` also matches before a final newline)."""

PATTERN_MESSAGE = "patternErrorMessage"
"""The keyword the YAML and JSON language servers show instead of "does not match the pattern"."""
ENUM_DESCRIPTIONS = "enumDescriptions"
"""The keyword the YAML and JSON language servers read for a description per `enum` value in completion."""


def any_case(word: str) -> str:
    """`word` matched in any ASCII case without a flag: 'js' -> '[Jj][Ss]'."""
    return "".join(f"[{ch.upper()}{ch.lower()}]" if ch.isalpha() else re.escape(ch) for ch in word)


def character_class(characters: str, allowed: str = "") -> str:
    """A `[...]` class of the characters the regex class body `characters` holds, minus `allowed`, written as
    `\\uXXXX` escapes. Surrogates are left out: an editor's text never holds a lone one, and in ECMA-262 (no
    `u` flag) a surrogate range would match every emoji."""
    compiled = re.compile(f"[{characters}]")
    points = [p for p in range(0x10000) if not 0xD800 <= p <= 0xDFFF and chr(p) not in allowed
              and compiled.fullmatch(chr(p))]
    ranges: list[tuple[int, int]] = []
    for point in points:
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    body = "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)
    return f"[{body}]"


@dataclass(frozen=True)
class TextRule:
    """Text matching `refused` (searched anywhere) is an error with `message`."""

    refused: str
    message: str
    _compiled: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", re.compile(self.refused))

    @property
    def schema_pattern(self) -> str:
        """The rule as a pattern text must match: nowhere the refused pattern (a positive `pattern` costs a
        validator nothing when it holds, where `{"not": ...}` builds an error object each time)."""
        return rf"^(?![\s\S]*(?:{self.refused}))"

    def breaks(self, text: str) -> bool:
        return self._compiled.search(text) is not None

    def __get_pydantic_json_schema__(self, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core_schema)
        if _ACTIVE.get() is not None:
            schema.setdefault("allOf", []).append({"pattern": self.schema_pattern, PATTERN_MESSAGE: self.message})
        return schema


def controls_rule(allowed: str = "", message: str = "") -> TextRule:
    """The control / line separator / bidirectional mark rule (safeio.safe_text's characters) as a pattern."""
    return TextRule(character_class(UNSAFE_CHARACTERS, allowed),
                    message or "control characters and bidirectional marks are not allowed in registry text")


def refuse_text(*rules: TextRule) -> Callable[[str], str]:
    """A validator raising the first broken rule's message."""
    def check(value: str) -> str:
        for rule in rules:
            if rule.breaks(value):
                raise ValueError(rule.message)
        return value
    return check


@dataclass(frozen=True)
class Term:
    """One value of a catalogue list and what completion shows for it."""

    value: str
    description: str


@dataclass(frozen=True)
class StackTerms:
    """What the editor schema knows of one stack."""

    id: str
    name: str
    workloads: list[str]
    hardware: list[str]
    versions: list[Term] = field(default_factory=list)  # its own version line, oldest first
    neuron_of: dict[str, str] = field(default_factory=dict)  # own version -> the Neuron release it targets


@dataclass(frozen=True)
class Catalogue:
    """The registry's lists an editor schema enumerates: releases oldest first, stacks, upstream model types."""

    releases: list[Term]
    stacks: list[StackTerms]
    model_types: list[Term] | None = None  # None: no transformers snapshot, model types stay free

    def terms(self, name: str) -> list[Term]:
        if name == "release":
            return self.releases
        if name == "stack":
            return [Term(stack.id, stack.name) for stack in self.stacks]
        raise KeyError(name)


@dataclass(frozen=True)
class EditorContext:
    catalogue: Catalogue | None


_ACTIVE: ContextVar[EditorContext | None] = ContextVar("editor_schema", default=None)


@contextmanager
def editor_schema(catalogue: Catalogue | None) -> Iterator[None]:
    """While open, the models' JSON Schemas carry the rules above (and the catalogue, when one is given)."""
    token = _ACTIVE.set(EditorContext(catalogue))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def enum_of(terms: Sequence[Term]) -> dict[str, Any]:
    return {"enum": [t.value for t in terms], ENUM_DESCRIPTIONS: [t.description for t in terms]}


@dataclass(frozen=True)
class CatalogueRef:
    """The field names a value of the catalogue list `name` (a release, a stack)."""

    name: str

    def __get_pydantic_json_schema__(self, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core_schema)
        context = _ACTIVE.get()
        if context is not None and context.catalogue is not None:
            schema.update(enum_of(context.catalogue.terms(self.name)))
        return schema


def add_model_rules(schema: dict[str, Any], model: type) -> None:
    """The base model's `json_schema_extra`: the model's `schema_rules` as `allOf` entries, in an editor schema."""
    context = _ACTIVE.get()
    if context is None:
        return
    rules = getattr(model, "schema_rules", None)
    entries = rules(context.catalogue) if rules is not None else []
    if entries:
        schema.setdefault("allOf", []).extend(entries)


# --- small builders of if/then entries ---------------------------------------------------------------


def when(field_name: str, values: Sequence[object], then: dict[str, Any]) -> dict[str, Any]:
    """`then` holds where `field_name` is present and one of `values`."""
    condition = {"const": values[0]} if len(values) == 1 else {"enum": list(values)}
    return {"if": {"properties": {field_name: condition}, "required": [field_name]}, "then": then}


def given(*field_names: str) -> dict[str, Any]:
    """Present and not null."""
    return {"required": list(field_names), "properties": {name: {"not": {"type": "null"}} for name in field_names}}


def non_empty(*field_names: str) -> dict[str, Any]:
    """Present with at least one item."""
    return {"required": list(field_names), "properties": {name: {"type": "array", "minItems": 1} for name in field_names}}
