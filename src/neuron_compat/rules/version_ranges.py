"""since comes before until, and statements of one stack/workload/hardware do not overlap in releases."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.contract.release_ranges import range_bounds
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import Finding, Rule, family_key


def check(registry: Registry) -> Iterator[Finding]:
    """One sweep per stack/workload/hardware over the statements sorted by since: n log n, and at most one
    overlap finding per statement (every pair of a hostile 1 MB file of identical statements would be
    n*n findings, minutes of work; one per statement is enough to fix them, and the next run shows the rest)."""
    for family in registry.families:
        key = family_key(family.id)
        buckets: dict[tuple[str, str, str], list[tuple[tuple[int, ...], tuple[int, ...], int]]] = {}
        for index, statement in enumerate(family.support):
            start, end = range_bounds(statement.since, statement.until)
            if statement.until is not None and start >= end:
                yield Finding(key, ("support", index, "until"),
                              f"until '{statement.until}' must be a later release than since '{statement.since}'",
                              "until is the first release where the statement no longer holds")
                continue
            for hardware in statement.hardware:
                buckets.setdefault((str(statement.stack), str(statement.workload), str(hardware)), []).append(
                    (start, end, index))
        overlapped: dict[int, int] = {}  # a statement -> the earliest statement before it found to overlap it
        for intervals in buckets.values():
            intervals.sort()
            furthest: tuple[tuple[int, ...], int] | None = None  # (end, index) reaching furthest so far
            for start, end, index in intervals:
                if furthest is not None and start < furthest[0] and index != furthest[1]:
                    later, earlier = max(index, furthest[1]), min(index, furthest[1])
                    overlapped[later] = min(overlapped.get(later, earlier), earlier)
                if furthest is None or end > furthest[0]:
                    furthest = (end, index)
        for index in sorted(overlapped):
            statement, other_index = family.support[index], overlapped[index]
            shared = sorted(set(family.support[other_index].hardware) & set(statement.hardware))
            yield Finding(
                key, ("support", index, "since"),
                f"overlaps support[{other_index}] ({statement.stack}/{statement.workload} on {', '.join(shared)})",
                f"set until on support[{other_index}] to this statement's since, or split the hardware",
            )


RULE = Rule(name="version-ranges", check=check)
