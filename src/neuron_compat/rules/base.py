"""What a rule is, and what it reports."""

from __future__ import annotations

import sys
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
    """A rule: its name (in every problem it reports), its check, and its severity. What it checks is said once, in
    its module's docstring (`summary`), which the README's list of rules is checked against."""

    name: str
    check: Callable[[Registry], Iterable[Finding]]
    severity: str = "error"
    """'error' (validate exits 1) or 'warning' (shown in every format; the exit status stays 0)."""

    @property
    def summary(self) -> str:
        """The first paragraph of the rule module's docstring, on one line."""
        doc = sys.modules[self.check.__module__].__doc__ or ""
        return " ".join(doc.strip().split("\n\n", 1)[0].split())


__all__ = ["RELEASES_KEY", "STACKS_KEY", "FileKey", "Finding", "Rule", "capabilities_key", "family_key"]
