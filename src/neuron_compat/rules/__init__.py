"""Cross-file rules. One rule per module; adding a rule means adding a module and a line below."""

from __future__ import annotations

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.node_locations import Locator
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.pydantic_errors import field_path
from neuron_compat.rules import (
    capability_ranges,
    capability_subset,
    catalogue_order,
    known_references,
    optimum_neuron_registrations,
    source_dates,
    stack_lifecycle,
    stack_version_line,
    statement_completeness,
    unique_model_types,
    upstream_model_types,
    version_ranges,
)
from neuron_compat.rules.base import FileKey, Finding, Rule

RULES: tuple[Rule, ...] = (
    catalogue_order.RULE,
    known_references.RULE,
    version_ranges.RULE,
    unique_model_types.RULE,
    upstream_model_types.RULE,
    statement_completeness.RULE,
    source_dates.RULE,
    stack_version_line.RULE,
    stack_lifecycle.RULE,
    optimum_neuron_registrations.RULE,
    capability_ranges.RULE,
    capability_subset.RULE,
)

def run_rules(registry: Registry, rules: tuple[Rule, ...] = RULES) -> list[Problem]:
    """Run every rule; locate each finding in its file (re-reading only files that have findings)."""
    locators: dict[FileKey, Locator] = {}
    problems: list[Problem] = []
    for rule in rules:
        for finding in rule.check(registry):
            loaded = registry.files.get(finding.file_key)
            if loaded is None:
                problems.append(Problem(str(finding.file_key), 0, 0, "", finding.message, finding.hint, rule.name))
                continue
            locator = locators.setdefault(finding.file_key, Locator(loaded.text))
            line, column = locator.position(finding.loc, at_key=finding.at_key)

            problems.append(
                Problem(loaded.display, line, column, field_path(finding.loc), finding.message, finding.hint, rule.name)
            )
    return problems

__all__ = ["RULES", "Finding", "Rule", "run_rules"]
