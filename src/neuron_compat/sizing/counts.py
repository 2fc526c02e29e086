"""The result types: a count per part, each either a number or 'not counted' with the reason."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from neuron_compat.sizing.fields import FieldError


@dataclass(frozen=True)
class Part:
    name: str
    count: int | None
    reason: str | None = None  # why not counted (count is None)


@dataclass(frozen=True)
class ParameterCount:
    model_type: str | None
    parts: tuple[Part, ...]
    notes: tuple[str, ...] = field(default=())  # assumptions made and things knowingly left out
    assumed_layout: bool = False  # True when the model_type was unknown and a generic layout was assumed

    @property
    def total(self) -> int:
        """Sum of the parts that were counted (a lower bound when `complete` is False)."""
        return sum(part.count for part in self.parts if part.count is not None)

    @property
    def complete(self) -> bool:
        return bool(self.parts) and all(part.count is not None for part in self.parts)

    def part(self, name: str) -> Part:
        for part in self.parts:
            if part.name == name:
                return part
        raise KeyError(name)


class PartList:
    """Collects parts; a part whose computation raises FieldError becomes 'not counted' with that reason."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.parts: list[Part] = []
        self.notes: list[str] = []
        self.assumed_layout = False

    def add(self, name: str, compute: Callable[[], int]) -> None:
        try:
            self.parts.append(Part(self.prefix + name, compute()))
        except FieldError as error:
            self.parts.append(Part(self.prefix + name, None, str(error)))

    def fail(self, name: str, reason: str) -> None:
        self.parts.append(Part(self.prefix + name, None, reason))

    def extend(self, other: PartList) -> None:
        self.parts.extend(other.parts)
        self.notes.extend(other.notes)
        self.assumed_layout = self.assumed_layout or other.assumed_layout

    def result(self, model_type: str | None) -> ParameterCount:
        return ParameterCount(model_type, tuple(self.parts), tuple(self.notes), self.assumed_layout)
