"""Half-open Neuron release ranges [since, until): the one definition of their bounds and of overlap.

Statements (rules/version_ranges.py), capability ranges (rules/capability_ranges.py) and inheritance
(views/inherited_capabilities.py) all compare ranges with these two functions.
"""

from __future__ import annotations

from neuron_compat.contract.versions import version_key

OPEN_END = (10**9,)
"""The bound of a range without `until`: after every release."""

Bounds = tuple[tuple[int, ...], tuple[int, ...]]


def range_bounds(since: str | None, until: str | None) -> Bounds:
    """(start, end) sort keys of [since, until); no since starts before every release, no until never ends."""
    return (version_key(since) if since else (), version_key(until) if until else OPEN_END)


def ranges_overlap(since_a: str | None, until_a: str | None, since_b: str | None, until_b: str | None) -> bool:
    """Do the half-open Neuron release ranges [since_a, until_a) and [since_b, until_b) share a release?"""
    start_a, end_a = range_bounds(since_a, until_a)
    start_b, end_b = range_bounds(since_b, until_b)
    return start_a < end_b and start_b < end_a
