"""The whole check of a registry directory: load, schema, cross-file rules."""

from __future__ import annotations

from pathlib import Path

from neuron_compat.loading.loader import LoadResult, load_registry
from neuron_compat.rules import run_rules


def validate_registry(root: Path | str) -> LoadResult:
    """Load `root` and run every rule. `result.problems` holds everything a contributor must fix."""
    result = load_registry(root)
    if result.registry.releases or result.registry.stacks or result.registry.families:
        result.problems.extend(run_rules(result.registry))
    result.problems.sort()
    return result
