"""rules/source_dates.py: a source cannot have been verified in the future (one day of slack for time zones)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "source-dates"


def _verified(registry: Path, day: dt.date) -> None:
    replace_once(registry / "families" / "bert.yaml", "verified: 2026-12-02", f"verified: {day.isoformat()}")


def test_a_source_verified_two_days_from_now_is_located(registry: Path) -> None:
    later = dt.date.today() + dt.timedelta(days=2)
    _verified(registry, later)
    assert rule_problems(registry, RULE) == [
        f"registry/families/bert.yaml:14:19: support[0].sources[0].verified: verified {later.isoformat()} is in the "
        "future (write the date the source was read)"]


def test_tomorrow_passes_for_time_zones(registry: Path) -> None:
    _verified(registry, dt.date.today() + dt.timedelta(days=1))
    assert rule_problems(registry, RULE) == []
