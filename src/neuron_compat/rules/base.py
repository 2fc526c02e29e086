"""What a rule is, and what it reports."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

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


def latest_date() -> dt.date:
    """The newest date a registry file may write: tomorrow (a contributor ahead of UTC is not refused)."""
    return dt.date.today() + dt.timedelta(days=1)


def said_and_read_findings(key: FileKey, where: tuple[str | int, ...], record: Any, said: str, verb: str
                           ) -> Iterator[Finding]:
    """A record's date it was said (its field `said`; `verb` says how: 'said', 'reported') and its `verified` (the
    day it was read): neither in the future, and not read before it was said."""
    said_on: dt.date = getattr(record, said)
    read_on: dt.date = record.verified
    for name, value in ((said, said_on), ("verified", read_on)):
        if value > latest_date():
            yield Finding(key, (*where, name), f"{name} {value.isoformat()} is in the future",
                          f"write the day it was {verb} ({said}) or read (verified)")
    if said_on > read_on:
        yield Finding(key, (*where, "verified"), f"verified {read_on.isoformat()} is before it was {verb} "
                      f"({said_on.isoformat()})", "verified is the day the thread was read, on or after that")
