"""rules/tracked_notes.py: a family's tracked notes name a known stack, and dates neither in the future nor read
before they were said."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rule_helpers import append, rule_problems

RULE = "tracked-notes"


def _tracked(registry: Path, stack: str = "optimum-neuron", date: str = "2026-05-01",
             verified: str = "2026-12-05") -> None:
    append(registry / "families" / "bert.yaml",
           f"tracked:\n  - {{stack: {stack}, quote: We are tracking BERT., by: someone, date: {date},\n"
           f"     url: \"https://github.com/huggingface/optimum-neuron/issues/1\", verified: {verified}}}\n")


def test_a_well_formed_note_passes(registry: Path) -> None:
    _tracked(registry)
    assert rule_problems(registry, RULE) == []


def test_an_unknown_stack_is_located_with_a_suggestion(registry: Path) -> None:
    _tracked(registry, stack="optimum-neuronn")
    assert rule_problems(registry, RULE) == [
        "registry/families/bert.yaml:17:13: tracked[0].stack: stack 'optimum-neuronn' is not in stacks.yaml "
        "(did you mean 'optimum-neuron'?)"]


def test_future_dates_and_a_reading_before_the_saying_are_located(registry: Path) -> None:
    later = (dt.date.today() + dt.timedelta(days=2)).isoformat()
    _tracked(registry, date=later, verified="2026-12-05")
    assert rule_problems(registry, RULE) == [
        f"registry/families/bert.yaml:17:78: tracked[0].date: date {later} is in the future (write the day it was "
        "said (date) or read (verified))",
        f"registry/families/bert.yaml:18:79: tracked[0].verified: verified 2026-12-05 is before it was said "
        f"({later}) (verified is the day the thread was read, on or after that)"]
