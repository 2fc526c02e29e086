"""A source cannot have been verified in the future: `verified` (families' sources, known issues' sources) and a
harvested file's `taken` are at most one day after today (time zones)."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key, latest_date


def check(registry: Registry) -> Iterator[Finding]:
    latest = latest_date()
    for family in registry.families:
        key = family_key(family.id)
        for index, statement in enumerate(family.support):
            for position, source in enumerate(statement.sources):
                if source.verified > latest:
                    yield Finding(key, ("support", index, "sources", position, "verified"),
                                  f"verified {source.verified.isoformat()} is in the future",
                                  "write the date the source was read")
    for key, file in registry.known_issue_files:
        if file.harvest is not None and file.harvest.taken > latest:
            yield Finding(key, ("harvest", "taken"), f"taken {file.harvest.taken.isoformat()} is in the future",
                          "write the day the harvest ran")
        for index, issue in enumerate(file.issues):
            for position, source in enumerate(issue.sources):
                if source.verified > latest:
                    yield Finding(key, ("issues", index, "sources", position, "verified"),
                                  f"verified {source.verified.isoformat()} is in the future",
                                  "write the date the source was read (a harvest: the commit date of the tag read)")


RULE = Rule(name="source-dates", check=check)
