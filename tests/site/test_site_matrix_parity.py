"""The matrix page's port of "what holds at release R" (neuron-compat.js heldAt, run in node) draws what
views.held_at draws, at every release of the bundled registry: the statuses and hardware of every row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "check"))
from check_helpers import node_executable

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages.matrix import matrix_data
from neuron_compat.site.support import ReleaseView, matrix_rows

ROOT = Path(__file__).resolve().parents[2]


def test_matrix_js_draws_every_release_as_views_does() -> None:
    registry = validate_registry(ROOT / "registry").registry
    data = matrix_data(registry)
    result = subprocess.run([node_executable(), str(ROOT / "tests" / "site" / "run_matrix_js.js")],
                            input=json.dumps(data), capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    drawn = json.loads(result.stdout)
    assert list(drawn) == registry.release_versions
    unknown = 0
    for release in registry.release_versions:
        rows = matrix_rows(registry, ReleaseView(registry, release))
        expected = [sorted([h.status, *(str(hw) for hw in h.statement.hardware)] for h in row.held) for row in rows]
        assert [[r.family.id, r.stack.id, r.workload] for r in rows] == data["rows"]
        assert drawn[release] == expected, release
        unknown += sum(1 for row in rows for h in row.held if h.reason)
    assert unknown > 0  # the horizon rule is exercised
