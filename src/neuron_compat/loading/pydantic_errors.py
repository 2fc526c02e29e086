"""Turn pydantic validation errors into problems a contributor can act on."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from neuron_compat.loading.node_locations import Locator
from neuron_compat.loading.problems import Problem

_QUOTED = re.compile(r"'([^']*)'")


def field_path(loc: Sequence[str | int]) -> str:
    """('support', 2, 'status') -> 'support[2].status'."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete types inside Optional/Union/Annotated/list/dict annotations."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [t for arg in typing.get_args(annotation) for t in _unwrap(arg)]
    if origin in (list, tuple, set, frozenset):
        return [t for arg in typing.get_args(annotation) for t in _unwrap(arg)]
    if origin is dict:
        return _unwrap(typing.get_args(annotation)[1])
    return [annotation]


def _model_at(model: type[BaseModel], loc: Sequence[str | int]) -> type[BaseModel] | None:
    """The pydantic model class that owns the mapping at `loc` (for 'did you mean' on field names)."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return None
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part)
        if field is None:
            continue
        candidates = [t for t in _unwrap(field.annotation) if isinstance(t, type) and issubclass(t, BaseModel)]
        current = candidates[0] if candidates else None
    return current


def _closest(value: str, choices: Sequence[str]) -> str | None:
    found = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def _choice_hint(value: Any, choices: Sequence[str]) -> str:
    if isinstance(value, str):
        close = _closest(value, choices)
        if close:
            return f"did you mean '{close}'?"
    return "allowed: " + ", ".join(choices)


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _quote_hint(value: Any) -> str:
    """How to quote a value YAML read as a number, boolean or date."""
    if isinstance(value, bool):
        return "quote it: YAML reads unquoted yes/no/on/off/true/false as booleans"
    if isinstance(value, float):
        return "quote it, e.g. '2.21.0': YAML reads 2.20 as the number 2.2"
    return "quote it"


_YAML_KINDS = {bool: "a boolean", int: "an integer", float: "a number", type(None): "null",
               dt.date: "a date", dt.datetime: "a timestamp"}


def translate_error(error: Mapping[str, Any], model: type[BaseModel]) -> tuple[str, str, bool]:
    """(message, hint, at_key) for one pydantic error dict."""
    kind = error["type"]
    loc = error["loc"]
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind in ("enum", "literal_error"):
        choices = _QUOTED.findall(str(ctx.get("expected", "")))
        return f"{_describe(value)} is not one of the allowed values", _choice_hint(value, choices), False
    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        fields = sorted(owner.model_fields) if owner else []
        hint = _choice_hint(str(loc[-1]), fields) if fields else ""
        return f"unknown field '{loc[-1]}'", hint, True
    if kind == "missing":
        return f"required field '{loc[-1]}' is missing", "", True
    if kind == "invalid_key":  # loc ends with the key itself, as YAML read it
        shown = value.isoformat() if isinstance(value, dt.date) else _describe(value)
        return (f"the key {shown} is not text (YAML reads it as {_YAML_KINDS.get(type(value), 'a value')})",
                "keys are field names: quote it, or remove it", True)
    if kind == "value_error":
        message = str(ctx.get("error", error["msg"]))
        return message, _quote_hint(value) if "expected text in quotes" in message else "", False
    if kind in ("too_short",):
        return f"{error['msg'].replace('List', 'list').replace('Value', 'value')}", "add at least one entry", False
    if kind in ("too_long", "string_too_long"):
        limit, actual = ctx.get("max_length"), ctx.get("actual_length")
        if isinstance(value, str):
            return f"is {len(value)} characters long; at most {limit} are allowed", "shorten it", False
        return f"has {actual} entries; at most {limit} are allowed", "remove some", False
    if kind == "list_type":
        return f"expected a list, got {_describe(value)}", "write a list, e.g. [a, b] or one '- a' line per entry", False
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"expected a mapping of keys, got {_describe(value)}", "write 'key: value' lines indented under it", False
    if kind.endswith("_type") or kind.endswith("_parsing"):
        return f"{error['msg']}, got {_describe(value)}", "", False
    if kind == "string_pattern_mismatch":
        return f"{_describe(value)} does not have the expected form ({ctx.get('pattern')})", "", False
    return error["msg"], "", False


def problems_from_validation(
    error: ValidationError, model: type[BaseModel], display: str, locator: Locator
) -> list[Problem]:
    problems = []
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        message, hint, at_key = translate_error(item, model)
        line, column = locator.position(loc, at_key=at_key)
        where = loc[:-1] if item["type"] == "invalid_key" else loc  # the mapping holding the key, not the key
        problems.append(Problem(display, line, column, field_path(where), message, hint, rule="schema"))
    return problems
