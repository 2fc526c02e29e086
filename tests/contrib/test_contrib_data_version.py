"""registry/registry.yaml: the data version, loaded when present, checked like every other file, exported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from contrib_helpers import REPO, run_cli

from neuron_compat.rules.validation import validate_registry

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`


def test_the_real_registry_carries_a_data_version() -> None:
    meta = validate_registry(REPO / "registry").registry.meta
    assert meta is not None
    assert meta.data_version.count(".") == 2


def test_export_has_the_data_version_or_null(registry: Path, tmp_path: Path) -> None:
    without = run_cli("export", registry, cwd=tmp_path)
    assert without.returncode == 0, without.stderr
    assert json.loads(without.stdout)["data_version"] is None
    (registry / "registry.yaml").write_text('data_version: "2026.12.0"\n')
    exported = run_cli("export", registry, cwd=tmp_path)
    assert json.loads(exported.stdout)["data_version"] == "2026.12.0"


def test_a_bad_data_version_is_a_located_problem(registry: Path, tmp_path: Path) -> None:
    (registry / "registry.yaml").write_text("# data release\ndata_version: 2026.12\n")
    result = run_cli("validate", registry, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("registry/registry.yaml:2:15: data_version: expected text in quotes, got the float")
    (registry / "registry.yaml").write_text('data_version: "2026.13.0"\nextra: 1\n')
    lines = run_cli("validate", registry, cwd=tmp_path).stdout.splitlines()
    assert any(line.startswith("registry/registry.yaml:1:15: data_version:") for line in lines)
    assert any(line.startswith("registry/registry.yaml:2:1: extra:") for line in lines)
