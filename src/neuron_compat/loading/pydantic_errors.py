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
        if message.endswith(")") and " (hint: " in message:  # a contract check that carries its own hint
            message, hint = message[:-1].split(" (hint: ", 1)
            return message, hint, False
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
    if kind == "union_members":
        return f"{error['msg']}; got {_describe(value)}", "", False
    if kind == "string_pattern_mismatch":
        return f"{_describe(value)} does not have the expected form ({ctx.get('pattern')})", "", False
    return error["msg"], "", False


def problems_from_validation(
    error: ValidationError, model: type[BaseModel], display: str, locator: Locator
) -> list[Problem]:
    problems = []
    for item in _one_per_union(error.errors(include_url=False), model):
        loc = tuple(item["loc"])
        message, hint, at_key = translate_error(item, model)
        line, column = locator.position(loc, at_key=at_key)
        where = loc[:-1] if item["type"] == "invalid_key" else loc  # the mapping holding the key, not the key
        problems.append(Problem(display, line, column, field_path(where), message, hint, rule="schema"))
    return problems


def _union_tag_at(model: type[BaseModel], loc: Sequence[str | int]) -> int | None:
    """Where `loc` names a member of a union field (pydantic's tag, such as 'bool' or 'function-after[...]',
    which quotes validator reprs with memory addresses), or None. Such a tag is no field of the registry."""
    for index in range(1, len(loc)):
        field_name, part = loc[index - 1], loc[index]
        if not isinstance(part, str) or not isinstance(field_name, str):
            continue
        owner = _model_at(model, loc[: index - 1])
        field = owner.model_fields.get(field_name) if owner else None
        if field is not None and len(_unwrap(field.annotation)) > 1 and part not in _model_fields_of(field.annotation):
            return index
    return None


def _model_fields_of(annotation: Any) -> set[str]:
    return {name for t in _unwrap(annotation) if isinstance(t, type) and issubclass(t, BaseModel) for name in t.model_fields}


def _one_per_union(errors: Sequence[Mapping[str, Any]], model: type[BaseModel]) -> list[dict[str, Any]]:
    """pydantic's errors with union member tags taken out of their locations, one error per value.

    A value that fits no member of `bool | int | list[int] | PlainText` gets an error per member; what the
    contributor needs is the one our own validator gave (the value was text, and text was refused), else
    the members' messages together.
    """
    result: list[dict[str, Any]] = []
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}
    for error in errors:
        loc = tuple(error["loc"])
        tag = _union_tag_at(model, loc)
        if tag is None:
            result.append(dict(error))
            continue
        item = {**error, "loc": loc[:tag] + loc[tag + 1:]}
        key = item["loc"]
        if key not in merged:
            merged[key] = item
            result.append(item)
            continue
        kept = merged[key]
        if kept["type"] == "value_error":
            continue
        if item["type"] == "value_error":
            kept.clear()
            kept.update(item)
        else:
            kept.update(type="union_members", msg=f"{kept['msg']}; or {item['msg'][0].lower()}{item['msg'][1:]}")
    return result
