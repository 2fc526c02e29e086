"""The code stays lint-clean and type-clean: ruff and mypy, with the rules and versions pinned in pyproject.toml.

Run as tests so `python -m pytest` (the README's test command, and so CI) fails on any finding.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", "src", "tests", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing() -> None:
    # the files and the options are [tool.mypy] in pyproject.toml
    result = _run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
