"""Fixtures of the contributor-workflow tests: a private copy of the fixture registry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from contrib_helpers import FIXTURE_REGISTRY, REPO


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/registry that a test may change, with the repository's instances.yaml (where
    `add-evidence --instance` looks the instance's hardware up)."""
    target = tmp_path / "registry"
    shutil.copytree(FIXTURE_REGISTRY, target)
    shutil.copy(REPO / "registry" / "instances.yaml", target / "instances.yaml")
    return target
