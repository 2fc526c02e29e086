"""Effective attention, dtypes and quantization of a statement: its own, or its stack's capability.

A stack's capability ranges (registry/capabilities/<stack>.yaml) say what the stack accepts for a workload
on some hardware over a Neuron release range, for some of its code paths or model classes. A statement that
states a field itself keeps it (origin 'family'). A statement that leaves it empty inherits, only when it is a
claim (supported or partial), the values of every capability range of its stack that shares its workload,
overlaps its hardware and its release range, and applies to its family's class or code path (origin 'stack';
a statement's own `code_path` overrides the path its family's class picks).
A family all of whose classes have no attention (convolutional, state-space) has attention 'not-applicable'.
Unknown and unsupported statements inherit nothing: the stack's values are not a fact about that model.
This module is the one place that rule lives: the pages, the matrix, the JSON API, `check` and the check page
(through the `effective` object export.py writes on each statement) all read its result.

It reads models and compiled views alike, by attribute, and imports no pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from neuron_compat.contract.release_ranges import ranges_overlap
from neuron_compat.contract.vocabulary import ATTENTION_FREE_CLASSES, is_claim

if TYPE_CHECKING:
    from neuron_compat.contract.models import Capability, Family, Stack, Statement

FIELDS = ("attention", "dtypes", "quantization")
ORIGIN_FAMILY = "family"
ORIGIN_STACK = "stack"
ORIGIN_NOT_APPLICABLE = "not-applicable"

__all__ = ["ranges_overlap"]  # re-exported: the one overlap helper lives in contract.release_ranges


@dataclass(frozen=True)
class Scope:
    """Which of a stack's capability ranges can apply to a statement: its family's classes, and the code path
    of the stack that runs them (None when the stack declares no paths, or none of them runs these classes)."""

    classes: tuple[str, ...]
    code_path: str | None
    stack_has_paths: bool

    @property
    def attention_free(self) -> bool:
        return bool(self.classes) and all(c in ATTENTION_FREE_CLASSES for c in self.classes)


def code_path_of(stack: Stack | None, classes: Iterable[str]) -> str | None:
    """The stack's code path for a family: the first path (in stacks.yaml order) that runs the family's first
    class that any path runs. A family's main class comes first, so it decides."""
    paths = list(getattr(stack, "code_paths", None) or ())
    for model_class in classes:
        for path in paths:
            if model_class in [str(c) for c in path.classes]:
                return str(path.id)
    return None


def scope_of(stack: Stack | None, family: Family, statement: Statement | None = None) -> Scope:
    """The scope of a statement of `family` on `stack`: the code path the statement names (`code_path`), else the
    one the family's class picks."""
    classes = tuple(str(c) for c in getattr(family, "classes", ()) or ())
    named = getattr(statement, "code_path", None)
    path = str(named) if named else code_path_of(stack, classes)
    return Scope(classes, path, bool(getattr(stack, "code_paths", None)))


def range_applies(capability: Capability, scope: Scope | None) -> bool:
    """Does a capability range's scope (code paths, classes) include a statement of this scope?

    No scope (None) means every range applies (the capability rules compare ranges with each other this way).
    On a stack with several paths every range is scoped (rule capability-ranges); an unscoped range of a stack
    without paths applies to every class."""
    if scope is None:
        return True
    paths = [str(p) for p in capability.code_paths]
    classes = [str(c) for c in capability.classes]
    if paths and scope.code_path not in paths:
        return False
    if classes and not set(classes) & set(scope.classes):
        return False
    return not (scope.stack_has_paths and not paths and not classes)


@dataclass(frozen=True)
class EffectiveField:
    values: tuple[str, ...]
    origin: str | None  # ORIGIN_FAMILY, ORIGIN_STACK or None (neither says)

    def to_json(self) -> dict[str, Any]:
        return {"values": list(self.values), "origin": self.origin}


@dataclass(frozen=True)
class Effective:
    attention: EffectiveField
    dtypes: EffectiveField
    quantization: EffectiveField
    capability_sources: tuple[str, ...] = ()

    def field(self, name: str) -> EffectiveField:
        value: EffectiveField = getattr(self, name)
        return value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {name: self.field(name).to_json() for name in FIELDS}
        data["capability_sources"] = list(self.capability_sources)
        return data


def covering(capabilities: Iterable[Capability], statement: Statement, scope: Scope | None = None) -> list[Capability]:
    """The capability ranges (of the statement's stack) that share its workload, hardware and releases, and
    whose scope includes the statement's (`range_applies`)."""
    hardware = {str(h) for h in statement.hardware}
    return [
        capability for capability in capabilities
        if str(capability.workload) == str(statement.workload)
        and hardware & {str(h) for h in capability.hardware}
        and ranges_overlap(capability.since, capability.until, statement.since, statement.until)
        and range_applies(capability, scope)
    ]


def capability_values(ranges: Iterable[Capability], name: str) -> tuple[str, ...]:
    """The values of field `name` over several capability ranges, in first-seen order."""
    return tuple(dict.fromkeys(str(value) for capability in ranges for value in getattr(capability, name)))


def effective_values(capabilities: Iterable[Capability], statement: Statement, scope: Scope | None = None) -> Effective:
    """The statement's effective values; `capabilities` are its stack's ranges (others are ignored).

    `scope` is the statement's (`scope_of`); without one every covering range applies (tests of the range
    logic alone). Only a claim inherits; attention of an attention-free family is 'not-applicable'."""
    ranges = covering(capabilities, statement, scope) if is_claim(str(statement.status)) else []
    fields: dict[str, EffectiveField] = {}
    used: list[Capability] = []
    for name in FIELDS:
        own = tuple(str(value) for value in getattr(statement, name))
        if name == "attention" and scope is not None and scope.attention_free:
            fields[name] = EffectiveField((), ORIGIN_NOT_APPLICABLE)
            continue
        if own:
            fields[name] = EffectiveField(own, ORIGIN_FAMILY)
            continue
        contributing = [capability for capability in ranges if getattr(capability, name)]
        if contributing:
            fields[name] = EffectiveField(capability_values(contributing, name), ORIGIN_STACK)
            used.extend(contributing)
        else:
            fields[name] = EffectiveField((), None)
    sources = tuple(dict.fromkeys(source.url for capability in used for source in capability.sources))
    return Effective(capability_sources=sources, **fields)


def effective_from_json(data: Any) -> Effective:
    """An `effective` object of the compiled document back into an `Effective`."""
    def one(name: str) -> EffectiveField:
        item = data[name]
        return EffectiveField(tuple(item["values"]), item["origin"])
    return Effective(one("attention"), one("dtypes"), one("quantization"), tuple(data.get("capability_sources", ())))


def effective_for(registry: Any, family: Family, statement: Statement) -> Effective:
    """Effective values of a statement of `family` in `registry` (a loaded Registry or a compiled one).

    A compiled statement carries them (export.py wrote them from this module); a model is computed here.
    """
    data = getattr(statement, "_data", None)
    if isinstance(data, dict) and "effective" in data:
        return effective_from_json(data["effective"])
    stack = registry.stack_by_id.get(statement.stack)
    return effective_values(registry.capabilities_of(statement.stack), statement, scope_of(stack, family, statement))


ORIGIN_LABELS = {ORIGIN_STACK: "from the stack", ORIGIN_FAMILY: "stated for this family",
                 ORIGIN_NOT_APPLICABLE: "not applicable (no attention layers)"}


def origin_label(origin: str | None) -> str:
    """How pages and `check` say where values come from."""
    return ORIGIN_LABELS.get(origin or "", "not stated")
