"""What a rule is, and what it reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..registry_model import Registry, family_key


@dataclass(frozen=True)
class Finding:
    """A rule's complaint about one place: `file_key` is 'releases', 'stacks' or 'family:<id>'."""

    file_key: str
    loc: tuple[str | int, ...]
    message: str
    hint: str = ""
    at_key: bool = False


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    check: Callable[[Registry], Iterable[Finding]]


__all__ = ["Finding", "Rule", "family_key"]
