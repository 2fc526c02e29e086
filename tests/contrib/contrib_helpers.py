"""Helpers for the contributor-workflow tests: the real CLI as a process, and exact diffs.

A module with its own name (not conftest) so that `import contrib_helpers` cannot pick up another
directory's conftest.py when the whole suite runs.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURE_REGISTRY = REPO / "tests" / "fixtures" / "registry"


def run_cli(*args: str | Path, cwd: Path, process: bool = False) -> subprocess.CompletedProcess[str]:
    """`neuron-compat ARGS` as a contributor runs it from `cwd`: what it prints and its exit code. In this process
    (cli_in_process: the command does nothing differently in a fresh interpreter), or in a real one with
    `process` (for what only a process shows: its exit status to a shell, concurrent runs)."""
    if not process:
        from cli_in_process import run_in_process

        return run_in_process([str(arg) for arg in args], cwd)
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "neuron_compat.cli", *map(str, args)],
        check=False, cwd=cwd, capture_output=True, text=True, env=env, timeout=120,
    )


def diff_lines(before: str, after: str) -> list[str]:
    """The unified diff without context lines: hunk headers (where) and changed lines (what)."""
    return [
        line.rstrip("\n")
        for line in difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0)
        if not line.startswith(("+++", "---"))
    ]
