"""since < until, and statements for the same stack/workload/hardware do not overlap in time."""

from __future__ import annotations

from collections.abc import Iterator

from ..registry_model import Registry
from ..schema import Statement
from ..versions import version_key
from .base import Finding, Rule, family_key

_OPEN_END = (10**9,)


def _bounds(since: str | None, until: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (version_key(since) if since else (), version_key(until) if until else _OPEN_END)


def check(registry: Registry) -> Iterator[Finding]:
    for family in registry.families:
        key = family_key(family.id)
        seen: list[tuple[int, Statement]] = []
        for index, statement in enumerate(family.support):
            start, end = _bounds(statement.since, statement.until)
            if statement.until is not None and start >= end:
                yield Finding(key, ("support", index, "until"),
                              f"until '{statement.until}' must be a later release than since '{statement.since}'",
                              "until is the first release where the statement no longer holds")
                continue
            for other_index, other in seen:
                if (other.stack, other.workload) != (statement.stack, statement.workload):
                    continue
                shared = sorted(set(other.hardware) & set(statement.hardware))
                if not shared:
                    continue
                o_start, o_end = _bounds(other.since, other.until)
                if start < o_end and o_start < end:
                    yield Finding(
                        key, ("support", index, "since"),
                        f"overlaps support[{other_index}] ({statement.stack}/{statement.workload} on {', '.join(shared)})",
                        f"set until on support[{other_index}] to this statement's since, or split the hardware",
                    )
            seen.append((index, statement))


RULE = Rule(
    name="version-ranges",
    description="since comes before until, and statements of one stack/workload/hardware do not overlap in releases.",
    check=check,
)
