"""Fixtures of the rule tests: a private copy of the fixture registry, in a folder that is the current directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_helpers import copy_registry


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/fixtures/registry copied to tmp_path/registry, with tmp_path the current directory."""
    monkeypatch.chdir(tmp_path)
    return copy_registry(tmp_path)
