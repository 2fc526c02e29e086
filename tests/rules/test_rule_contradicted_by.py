"""rules/contradicted_by.py: a contradicting user report sits on a supported statement, names one of its hardware
and a release inside its range, links an issue thread, and has dates neither in the future nor read before reported.
The report is shown beside the statement, never changing its status."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "contradicted-by"
ANCHOR = "        verified: 2026-12-02\n"


def _report(registry: Path, hardware: str = "inf2", release: str = '"2.21.0"', reported: str = "2026-03-01",
            url: str = "https://github.com/huggingface/optimum-neuron/issues/9", status: str | None = None) -> None:
    bert = registry / "families" / "bert.yaml"
    replace_once(bert, ANCHOR, ANCHOR + f"""    contradicted_by:
      - url: "{url}"
        reported: {reported}
        stack_version: optimum-neuron 0.0.26, Neuron 2.21.0
        release: {release}
        hardware: {hardware}
        says: export fails for a BERT checkpoint
        verified: 2026-12-05
""")
    if status is not None:
        replace_once(bert, "status: supported", f"status: {status}\n    notes: [{{text: Only some tasks.}}]")


def test_a_report_that_fits_its_statement_passes_and_leaves_the_status(registry: Path) -> None:
    from neuron_compat.rules.validation import validate_registry

    _report(registry)
    assert rule_problems(registry, RULE) == []
    statement = validate_registry(registry).registry.family_by_id["bert"].support[0]
    assert str(statement.status) == "supported" and statement.contradicted_by[0].hardware == "inf2"


def test_hardware_outside_the_statement_and_a_release_outside_its_range_are_located(registry: Path) -> None:
    _report(registry, hardware="trn2", release='"2.20.0"')
    replace_once(registry / "families" / "bert.yaml", 'since: "2.20.0"', 'since: "2.21.0"')
    assert sorted(rule_problems(registry, RULE)) == [
        "registry/families/bert.yaml:19:18: support[0].contradicted_by[0].release: release 2.20.0 is outside the "
        "statement's range (2.21.0 to today) (put it on the statement whose range holds it)",
        "registry/families/bert.yaml:20:19: support[0].contradicted_by[0].hardware: the report's hardware trn2 is not "
        "one of the statement's (inf2, trn1) (put it on the statement for that hardware)"]


def test_only_a_supported_statement_carries_one_and_only_an_issue_thread_is_a_report(registry: Path) -> None:
    _report(registry, url="https://example.com/blog/post", status="partial")
    found = rule_problems(registry, RULE)
    assert len(found) == 2
    assert "a contradicting report belongs on a supported statement; this one is partial" in found[0]
    assert "url: the report must link a public issue or discussion thread" in found[1]


def test_a_future_report_and_a_reading_before_it_are_located(registry: Path) -> None:
    later = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    _report(registry, reported=later)
    found = rule_problems(registry, RULE)
    assert [line.split(": ", 2)[1] for line in found] == ["support[0].contradicted_by[0].reported",
                                                        "support[0].contradicted_by[0].verified"]
    assert f"reported {later} is in the future" in found[0]
