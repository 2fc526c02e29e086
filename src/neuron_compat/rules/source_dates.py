"""A source cannot have been verified in the future: `verified` is at most one day after today (time zones)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    latest = dt.date.today() + dt.timedelta(days=1)
    for family in registry.families:
        key = family_key(family.id)
        for index, statement in enumerate(family.support):
            for position, source in enumerate(statement.sources):
                if source.verified > latest:
                    yield Finding(key, ("support", index, "sources", position, "verified"),
                                  f"verified {source.verified.isoformat()} is in the future",
                                  "write the date the source was read")


RULE = Rule(name="source-dates", check=check)
