"""Which claims are old: statements whose newest source was last verified too long ago.

A statement is stale when its newest `verified` date is older than the cutoff of a policy: N days
before "today", or the date of the K-th newest Neuron release (a claim nobody re-checked since K
releases ago), whichever is later when both are set. The CLI (`neuron-compat stale`) lists them;
the site calls `is_stale` / `stale_statements` to mark them. "today" is always passed in, so the
answer is the same on every machine and in every test.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from neuron_compat.contract.models import Family, Statement
from neuron_compat.loading.loaded_registry import Registry

DEFAULT_DAYS = 365


@dataclass(frozen=True)
class StalenessPolicy:
    """How old a claim may get. `days`: at most N days old; `releases`: verified since the K-th newest release."""

    today: dt.date
    days: int | None = DEFAULT_DAYS
    releases: int | None = None

    def cutoff(self, registry: Registry) -> dt.date | None:
        """The oldest acceptable verified date (None: nothing is stale under this policy)."""
        limits: list[dt.date] = []
        if self.days is not None:
            # a window longer than the calendar (--days 99999999999, or --today 0001-01-01) starts at its first day
            limits.append(dt.date.fromordinal(max(1, self.today.toordinal() - self.days)))
        if self.releases is not None:
            dates = sorted((r.date for r in registry.releases), reverse=True)
            if dates:
                limits.append(dates[min(self.releases, len(dates)) - 1])
        return max(limits) if limits else None


@dataclass(frozen=True)
class StaleStatement:
    family: Family
    index: int
    statement: Statement
    last_verified: dt.date
    age_days: int

    def describe(self) -> str:
        s = self.statement
        since = f" since {s.since}" if s.since else ""
        return (f"{self.family.id} / {s.stack} / {s.workload} / {', '.join(s.hardware)}{since}: {s.status}, "
                f"last verified {self.last_verified.isoformat()} ({self.age_days} days ago)")


def is_stale(statement: Statement, cutoff: dt.date | None) -> bool:
    """True when the statement's newest source was verified before `cutoff`."""
    return cutoff is not None and statement.last_verified < cutoff


def stale_statements(registry: Registry, policy: StalenessPolicy) -> list[StaleStatement]:
    """Every stale statement, oldest verification first (then by family and position)."""
    cutoff = policy.cutoff(registry)
    found = [
        StaleStatement(family, index, statement, statement.last_verified, (policy.today - statement.last_verified).days)
        for family in registry.families
        for index, statement in enumerate(family.support)
        if is_stale(statement, cutoff)
    ]
    return sorted(found, key=lambda item: (item.last_verified, item.family.id, item.index))
