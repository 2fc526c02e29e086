"""The whole check of a registry directory: load, schema, cross-file rules."""

from __future__ import annotations

from pathlib import Path

from neuron_compat.loading.loader import LoadResult, collector_paused, load_registry
from neuron_compat.rules import run_rules


def validate_registry(root: Path | str) -> LoadResult:
    """Load `root` and run every rule. `result.problems` holds everything a contributor must fix,
    `result.warnings` what warning rules found (never a failure)."""
    with collector_paused():  # the rules' passes over the loaded registry would free nothing either
        result = load_registry(root)
        if result.registry.releases or result.registry.stacks or result.registry.families:
            found = run_rules(result.registry)
            result.problems.extend(p for p in found if not p.is_warning)
            result.warnings.extend(p for p in found if p.is_warning)
    result.problems.sort()
    result.warnings.sort()
    return result
