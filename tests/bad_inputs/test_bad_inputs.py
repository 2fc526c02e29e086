"""Every case of the bad-input corpus fails `neuron-compat validate` cleanly, with its exact located lines.

Cleanly means: exit code 1, the expected `path:line:col: field: message (hint)` lines and nothing
else on stdout, a count on stderr, and no traceback anywhere. `export -o` on a bad registry keeps the
previous output file as it was.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus import Case, load_cases

CASES = load_cases()
SITE_CASES = [case for case in CASES if case.site]


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


def test_corpus_is_large_and_covers_every_area() -> None:
    assert len(CASES) >= 40
    names = {case.name for case in CASES}
    for required in ("alias-bomb", "file-20mb", "binary-file", "empty-file", "id-does-not-match-file-name",
                     "http-source", "script-in-note", "duplicate-model-type", "missing-source"):
        assert required in names


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_validate_reports_exact_located_lines(case: Case, tmp_path: Path) -> None:
    case.materialise(tmp_path / "registry")
    result = run_cli("validate", "registry", cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines() == case.expect
    assert result.stderr.strip() == f"{len(case.expect)} problem(s) in registry"


@pytest.mark.parametrize("case", SITE_CASES, ids=lambda case: case.name)
def test_failed_export_keeps_previous_output(case: Case, tmp_path: Path) -> None:
    case.materialise(tmp_path / "registry")
    previous = tmp_path / "registry.json"
    previous.write_text('{"previous": true}\n', encoding="utf-8")
    result = run_cli("export", "registry", "-o", str(previous), cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1
    assert previous.read_text(encoding="utf-8") == '{"previous": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["registry", "registry.json"]  # no temporary left over
    assert case.expect[0] in result.stderr
