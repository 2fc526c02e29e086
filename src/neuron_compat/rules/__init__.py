"""Cross-file rules. One rule per module; adding a rule means adding a module and a line below.

- `base`: What a rule is, and what it reports.
- `capability_ranges`: Capability files: the stack, releases and code paths they name exist, ranges are scoped where the stack has several code paths, and ranges of one stack do not overlap.
- `capability_subset`: A statement's own attention, dtypes and quantization lie within its stack's capability.
- `catalogue_order`: releases.yaml and stacks.yaml list each entry once, releases oldest first.
- `checkpoint_page_paths`: Each checkpoint page path belongs to one Hub id: no two ids with a page differ only in case.
- `contradicted_by`: A statement's `contradicted_by` reports sit on a supported statement and fit it: the report's hardware is one of the statement's, its Neuron release (when it names one) is in releases.yaml and inside the statement's range, the link is a GitHub issue or discussion thread, and it was reported, and read, on or before today (plus a day for time zones), reported no later than read.
- `instance_arithmetic`: instances.yaml: each generation and instance listed once, every instance's hardware has a generation, and the numbers agree with each other: chips x cores per chip = neuron_cores, chips x memory per chip = device memory, the instance's memory per chip is its generation's, and logical cores x LNC setting = physical cores.
- `known_issues`: Known issues name stacks, releases, stack versions and families that exist; fixed_in comes after since.
- `known_references`: Every release and stack a file names exists in releases.yaml / stacks.yaml.
- `optimum_neuron_registrations`: optimum-neuron claims match what each of its versions registers (the committed upstream snapshot).
- `release_components`: A warning, not an error: releases without the component versions a recommendation would pin.
- `source_dates`: A source cannot have been verified in the future: `verified` is at most one day after today (time zones).
- `stack_lifecycle`: A stack's ends are data the statements agree with.
- `stack_version_line`: For stacks with their own version line (optimum-neuron), statements name it, consistently with since/until.
- `statement_completeness`: A claim says what it needs to: supported/partial name a since release, partial and unsupported explain why; the workload and hardware are ones the stack has.
- `statement_scope`: Scopes inside a family: `applies_to` names the family's own tasks and checkpoints, and an attention-free family (all its classes convolutional or state-space) states no attention implementation.
- `tracked_notes`: A family's `tracked` notes name a stack of stacks.yaml, and were said, and read, on or before today (plus a day for time zones) and said no later than read.
- `tested_configurations`: Tested configurations name what exists: their family, stack, stack version, release and instance; ids are unique.
- `unique_architectures`: An architecture class name (config `architectures`) belongs to exactly one family.
- `unique_model_types`: A model_type (and a diffusers pipeline class) belongs to exactly one family.
- `upstream_model_types`: model_type values exist in the shipped transformers snapshot, unless the family needs remote code.
- `validation`: The whole check of a registry directory: load, schema, cross-file rules.
- `version_ranges`: since < until, and statements for the same stack/workload/hardware do not overlap in time.
"""

from __future__ import annotations

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.node_locations import Locator
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.pydantic_errors import field_path
from neuron_compat.rules import (
    capability_ranges,
    capability_subset,
    catalogue_order,
    checkpoint_page_paths,
    contradicted_by,
    instance_arithmetic,
    known_issues,
    known_references,
    optimum_neuron_registrations,
    release_components,
    source_dates,
    stack_lifecycle,
    stack_version_line,
    statement_completeness,
    statement_scope,
    tested_configurations,
    tracked_notes,
    unique_architectures,
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
    unique_architectures.RULE,
    upstream_model_types.RULE,
    statement_completeness.RULE,
    source_dates.RULE,
    stack_version_line.RULE,
    stack_lifecycle.RULE,
    optimum_neuron_registrations.RULE,
    capability_ranges.RULE,
    capability_subset.RULE,
    statement_scope.RULE,
    tracked_notes.RULE,
    contradicted_by.RULE,
    tested_configurations.RULE,
    checkpoint_page_paths.RULE,
    known_issues.RULE,
    instance_arithmetic.RULE,
    release_components.RULE,
)

def run_rules(registry: Registry, rules: tuple[Rule, ...] = RULES) -> list[Problem]:
    """Run every rule; locate each finding in its file (re-reading only files that have findings)."""
    locators: dict[FileKey, Locator] = {}
    problems: list[Problem] = []
    for rule in rules:
        for finding in rule.check(registry):
            loaded = registry.files.get(finding.file_key)
            if loaded is None:
                problems.append(Problem(str(finding.file_key), 0, 0, "", finding.message, finding.hint, rule.name,
                                        rule.severity))
                continue
            locator = locators.setdefault(finding.file_key, Locator(loaded.text))
            line, column = locator.position(finding.loc, at_key=finding.at_key)

            problems.append(
                Problem(loaded.display, line, column, field_path(finding.loc), finding.message, finding.hint, rule.name,
                        rule.severity)
            )
    return problems

__all__ = ["RULES", "Finding", "Rule", "run_rules"]
