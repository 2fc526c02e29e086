"""What a rule is, and what it reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from neuron_compat.loading.loaded_registry import (
    RELEASES_KEY,
    STACKS_KEY,
    FileKey,
    Registry,
    capabilities_key,
    family_key,
)


@dataclass(frozen=True)
class Finding:
    """A rule's complaint about one place (`loc`) in one registry file (`file_key`)."""

    file_key: FileKey
    loc: tuple[str | int, ...]
    message: str
    hint: str = ""
    at_key: bool = False


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    check: Callable[[Registry], Iterable[Finding]]


__all__ = ["RELEASES_KEY", "STACKS_KEY", "FileKey", "Finding", "Rule", "capabilities_key", "family_key"]
