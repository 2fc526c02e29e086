"""Fixtures of the contributor-workflow tests: a private copy of the fixture registry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from contrib_helpers import FIXTURE_REGISTRY


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/registry that a test may change."""
    target = tmp_path / "registry"
    shutil.copytree(FIXTURE_REGISTRY, target)
    return target
