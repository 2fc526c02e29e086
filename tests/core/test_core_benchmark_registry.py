"""scripts/benchmark.py measures on a synthetic registry; a synthetic registry the rules refuse would make it
skip its check-over-a-large-registry part (as it did once capabilities arrived), so it must validate."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from neuron_compat.rules.validation import validate_registry

ROOT = Path(__file__).resolve().parents[2]


def _benchmark():
    spec = importlib.util.spec_from_file_location("benchmark", ROOT / "scripts" / "benchmark.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_synthetic_registry_validates(tmp_path) -> None:
    root = _benchmark().write_synthetic_registry(tmp_path / "registry", 40)
    result = validate_registry(root)
    assert [problem.format() for problem in result.problems] == []
    assert len(result.registry.families) == 40
