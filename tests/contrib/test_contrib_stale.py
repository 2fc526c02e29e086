"""`neuron-compat stale` and the staleness functions the site uses."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from contrib_helpers import run_cli

from neuron_compat.rules.validation import validate_registry
from neuron_compat.views.stale_claims import StalenessPolicy, is_stale, stale_statements


def _age_bert(registry: Path, verified: str) -> None:
    bert = registry / "families" / "bert.yaml"
    bert.write_text(bert.read_text().replace("verified: 2026-12-02", f"verified: {verified}"))


def test_days_relative_to_today(registry: Path, tmp_path: Path) -> None:
    _age_bert(registry, "2025-01-10")
    result = run_cli("stale", registry, "--days", "365", "--today", "2026-12-02", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        ("registry/families/bert.yaml:5: bert / optimum-neuron / inference / inf2, trn1 since 2.20.0: supported, "
         "last verified 2025-01-10 (691 days ago)"),
    ]
    assert "1 of 3 statement(s) last verified before 2025-12-02" in result.stderr
    # the same data one day after the run is still fresh under a longer limit
    result = run_cli("stale", registry, "--days", "700", "--today", "2026-12-02", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")


def test_releases_limit_uses_the_kth_newest_release_date(registry: Path, tmp_path: Path) -> None:
    _age_bert(registry, "2025-01-10")  # after 2.21.0 (2024-12-20), before 2.22.0 (2025-04-03)
    newest = run_cli("stale", registry, "--releases", "1", "--today", "2026-12-02", "--format", "json", cwd=tmp_path)
    second = run_cli("stale", registry, "--releases", "2", "--today", "2026-12-02", "--format", "json", cwd=tmp_path)
    assert newest.returncode == second.returncode == 0
    assert [(s["family"], s["anchor"]) for s in json.loads(newest.stdout)["stale"]] == [("bert", "optimum-neuron-inference")]
    assert json.loads(newest.stdout)["cutoff"] == "2025-04-03"
    assert json.loads(second.stdout)["stale"] == []


def test_bad_options_exit_2(registry: Path, tmp_path: Path) -> None:
    assert run_cli("stale", registry, "--releases", "0", cwd=tmp_path).returncode == 2
    assert run_cli("stale", registry, "--today", "yesterday", cwd=tmp_path).returncode == 2


def test_site_functions_agree_with_the_report(registry: Path) -> None:
    _age_bert(registry, "2025-01-10")
    loaded = validate_registry(registry).registry
    policy = StalenessPolicy(today=dt.date(2026, 12, 2), days=365)
    cutoff = policy.cutoff(loaded)
    assert cutoff == dt.date(2025, 12, 2)
    flagged = {(family.id, index) for family in loaded.families for index, s in enumerate(family.support) if is_stale(s, cutoff)}
    assert flagged == {(item.family.id, item.index) for item in stale_statements(loaded, policy)} == {("bert", 0)}
    assert not is_stale(loaded.family_by_id["bert"].support[0], None)
