"""Effective attention, dtypes and quantization of a statement: its own, or its stack's capability.

A stack's capability ranges (registry/capabilities/<stack>.yaml) say what the stack accepts for a workload
on some hardware over a Neuron release range. A statement that states a field itself keeps it (origin
'family'); a statement that leaves it empty inherits the values of every capability range of its stack that
shares its workload, overlaps its hardware and overlaps its release range (origin 'stack'). This module is
the one place that rule lives: the pages, the matrix, the JSON API, `check` and the check page (through the
`effective` object export.py writes on each statement) all read its result.

It reads models and compiled views alike, by attribute, and imports no pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from neuron_compat.contract.versions import version_key

if TYPE_CHECKING:
    from neuron_compat.contract.models import Capability, Statement

FIELDS = ("attention", "dtypes", "quantization")
ORIGIN_FAMILY = "family"
ORIGIN_STACK = "stack"


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


def ranges_overlap(since_a: str | None, until_a: str | None, since_b: str | None, until_b: str | None) -> bool:
    """Do the half-open Neuron release ranges [since_a, until_a) and [since_b, until_b) share a release?"""
    if until_a is not None and since_b is not None and version_key(until_a) <= version_key(since_b):
        return False
    return not (until_b is not None and since_a is not None and version_key(until_b) <= version_key(since_a))


def covering(capabilities: Iterable[Capability], statement: Statement) -> list[Capability]:
    """The capability ranges (of the statement's stack) that share its workload, hardware and releases."""
    hardware = {str(h) for h in statement.hardware}
    return [
        capability for capability in capabilities
        if str(capability.workload) == str(statement.workload)
        and hardware & {str(h) for h in capability.hardware}
        and ranges_overlap(capability.since, capability.until, statement.since, statement.until)
    ]


def capability_values(ranges: Iterable[Capability], name: str) -> tuple[str, ...]:
    """The values of field `name` over several capability ranges, in first-seen order."""
    return tuple(dict.fromkeys(str(value) for capability in ranges for value in getattr(capability, name)))


def effective_values(capabilities: Iterable[Capability], statement: Statement) -> Effective:
    """The statement's effective values; `capabilities` are its stack's ranges (others are ignored)."""
    ranges = covering(capabilities, statement)
    fields: dict[str, EffectiveField] = {}
    used: list[Capability] = []
    for name in FIELDS:
        own = tuple(str(value) for value in getattr(statement, name))
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


def effective_of(registry: Any, statement: Statement) -> Effective:
    """Effective values of a statement of `registry` (a loaded Registry or a compiled one).

    A compiled statement carries them (export.py wrote them from this module); a model is computed here.
    """
    data = getattr(statement, "_data", None)
    if isinstance(data, dict) and "effective" in data:
        return effective_from_json(data["effective"])
    return effective_values(registry.capabilities_of(statement.stack), statement)


ORIGIN_LABELS = {ORIGIN_STACK: "from the stack", ORIGIN_FAMILY: "stated for this family"}


def origin_label(origin: str | None) -> str:
    """How pages and `check` say where values come from."""
    return ORIGIN_LABELS.get(origin or "", "not stated")
