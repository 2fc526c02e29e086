"""Shared helpers for the contributor-workflow tests: a private copy of the fixture registry and the real CLI."""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURE_REGISTRY = REPO / "tests" / "fixtures" / "registry"


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/registry that a test may change."""
    target = tmp_path / "registry"
    shutil.copytree(FIXTURE_REGISTRY, target)
    return target


def run_cli(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`neuron-compat ARGS` as a contributor runs it (a real process, real exit code)."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "neuron_compat.cli", *map(str, args)],
        cwd=cwd, capture_output=True, text=True, env=env, timeout=120,
    )


def diff_lines(before: str, after: str) -> list[str]:
    """The unified diff without context lines: hunk headers (where) and changed lines (what)."""
    return [
        line.rstrip("\n")
        for line in difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0)
        if not line.startswith(("+++", "---"))
    ]


@pytest.fixture
def cli():
    return run_cli
