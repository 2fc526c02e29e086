"""The sizing against its independent reference: registry/upstream/sizing-reference.yaml holds, per registry model
type, the parameter count transformers builds on PyTorch's meta device (scripts/sizing_reference.py) and the config
it built from. Here the analytic count is taken again from that config, so a change to neuron_compat.sizing that
moves a count away from the reference fails, with no torch needed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from neuron_compat.sizing import count_parameters

ROOT = Path(__file__).resolve().parents[2]
REPORT = yaml.safe_load((ROOT / "registry" / "upstream" / "sizing-reference.yaml").read_text(encoding="utf-8"))
TOLERANCE = REPORT["tolerance"]
MEASURED = {name: entry for name, entry in REPORT["model_types"].items() if "config_fields" in entry}


def _registry_model_types() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "registry" / "families").glob("*.yaml"):
        found.update(str(t) for t in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("model_types") or [])
    return found


def test_the_report_covers_every_registry_model_type():
    assert set(REPORT["model_types"]) == _registry_model_types()
    assert TOLERANCE == 0.005


@pytest.mark.parametrize("model_type", sorted(MEASURED))
def test_the_analytic_count_is_within_half_a_percent_where_the_reference_ran(model_type):
    """Where the reference ran, the sizing either agrees within 0.5% or refuses to count, saying why: it never
    gives a number the reference contradicts."""
    entry = MEASURED[model_type]
    count = count_parameters(entry["config_fields"])
    if not count.complete:
        assert all(part.reason for part in count.parts if part.count is None)
        assert entry["status"] == "not-counted", "the report is stale: run scripts/sizing_reference.py --recount"
        return
    deviation = abs(count.total - entry["reference"]) / entry["reference"]
    assert deviation <= TOLERANCE, (model_type, count.total, entry["reference"])
    assert entry["status"] == "agrees", "the report is stale: run scripts/sizing_reference.py --recount"


def test_the_summary_matches_the_entries():
    summary = REPORT["summary"]
    agreeing = sum(1 for entry in REPORT["model_types"].values() if entry["status"] == "agrees")
    assert summary["agrees"] == agreeing and summary["model_types"] == len(REPORT["model_types"])
    assert summary["deviates"] == 0
