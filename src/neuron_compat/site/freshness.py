"""How current the data is, as the site shows it: the data version and which claims may be stale.

A design doc that links to the site should be able to name what it relied on, so every page shows the
data version of registry/registry.yaml. A claim is marked "may be stale" when nobody has re-verified it
since the date of the STALE_AFTER_RELEASES-th newest Neuron release (`staleness.StalenessPolicy`
with `releases=K` and no day limit). "Today" is the date of the newest release in the data, never the
clock, so two builds of the same registry are byte-identical.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from neuron_compat.contract.models import Release, Statement
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.stale_claims import StalenessPolicy, is_stale

STALE_AFTER_RELEASES = 6
"""A claim not re-verified since this many Neuron releases ago (about a year of releases) may be stale."""


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@dataclass(frozen=True)
class Freshness:
    """The data version and the stale-claim cutoff of one registry, with the sentence that explains it."""

    data_version: str | None
    cutoff: dt.date | None
    cutoff_release: Release | None
    releases_back: int
    release_count: int = 0

    @classmethod
    def of(cls, registry: Registry, releases_back: int = STALE_AFTER_RELEASES) -> Freshness:
        by_date = sorted(registry.releases, key=lambda r: r.date, reverse=True)
        data_version = registry.meta.data_version if registry.meta else None
        if not by_date:
            return cls(data_version, None, None, releases_back)
        policy = StalenessPolicy(today=by_date[0].date, days=None, releases=releases_back)
        cutoff = policy.cutoff(registry)
        release = next((r for r in by_date if r.date == cutoff), None)
        return cls(data_version, cutoff, release, releases_back, len(by_date))

    def is_stale(self, statement: Statement) -> bool:
        return is_stale(statement, self.cutoff)

    @property
    def cutoff_text(self) -> str:
        """'2025-05-15 (Neuron 2.23.0, the 6th newest release)', or '' when nothing can be stale."""
        if self.cutoff is None:
            return ""
        if self.cutoff_release is None:
            return self.cutoff.isoformat()
        if self.release_count < self.releases_back:
            which = f"the oldest release: the registry has fewer than {self.releases_back}"
        elif self.releases_back == 1:
            which = "the newest release"
        else:
            which = f"the {_ordinal(self.releases_back)} newest release"
        return f"{self.cutoff.isoformat()} (Neuron {self.cutoff_release.version}, {which})"

    @property
    def policy_text(self) -> str:
        """The rule in one sentence, shown on the pages that mark stale claims."""
        if self.cutoff is None:
            return "No claim is marked stale: the registry has no Neuron releases to measure age against."
        return (f"A statement may be stale when its newest source was last verified before {self.cutoff_text}: "
                "nobody has re-checked it against the releases since.")
