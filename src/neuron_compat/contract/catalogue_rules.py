"""The editor schema's if/then entries that need the registry's catalogue: per stack (its workloads, hardware,
version line and the Neuron release each version targets), release order, upstream model types.

Each entry restates a rule of rules/ for one file (statement-completeness, known-references,
stack-version-line, version-ranges' since < until, upstream-model-types) from the definitions those rules read
(statement_requirements.py); the catalogue is what `neuron-compat schema` loaded from the registry.
"""

from __future__ import annotations

from typing import Any

from neuron_compat.contract.schema_rules import Catalogue, StackTerms, enum_of, given, when
from neuron_compat.contract.statement_requirements import STATUSES_NEEDING_STACK_SINCE
from neuron_compat.contract.versions import version_key

_NULL = {"type": "null"}


def _own_version_rules(stack: StackTerms) -> list[dict[str, Any]]:
    if not stack.versions:  # no line of its own: stack_since / stack_until stay empty
        return [{"properties": {"stack_since": _NULL, "stack_until": _NULL}}]
    versions = enum_of(stack.versions)
    rules: list[dict[str, Any]] = [
        {"properties": {"stack_since": {"anyOf": [versions, _NULL]}, "stack_until": {"anyOf": [versions, _NULL]}}},
        when("status", STATUSES_NEEDING_STACK_SINCE, given("stack_since")),
    ]
    by_target: dict[str, list[str]] = {}  # one entry per Neuron release, naming every own version targeting it
    for own, neuron in stack.neuron_of.items():
        by_target.setdefault(neuron, []).append(own)
    for own_field, neuron_field in (("stack_since", "since"), ("stack_until", "until")):
        matching = [when(own_field, owns, {"required": [neuron_field], "properties": {neuron_field: {"const": neuron}}})
                    for neuron, owns in by_target.items()]
        rules.append(_only_with(own_field, matching))
    return rules


def _only_with(field_name: str, rules: list[dict[str, Any]]) -> dict[str, Any]:
    """`rules`, looked at only when `field_name` holds text (a validator then skips them for most statements)."""
    return {"if": {"required": [field_name], "properties": {field_name: {"type": "string"}}}, "then": {"allOf": rules}}


def _stack_rules(stack: StackTerms) -> dict[str, Any]:
    then: dict[str, Any] = {
        "properties": {"workload": {"enum": stack.workloads}, "hardware": {"items": {"enum": stack.hardware}}},
        "allOf": _own_version_rules(stack),
    }
    return when("stack", [stack.id], then)


def _release_order_rules(catalogue: Catalogue) -> list[dict[str, Any]]:
    """until is a later release than since."""
    ordered = sorted((term.value for term in catalogue.releases), key=version_key)
    rules = [when("since", [version], {"properties": {"until": {"enum": ordered[index + 1:]}}})
             for index, version in enumerate(ordered)]
    return [_only_with("until", rules)]


def statement_rules(catalogue: Catalogue) -> list[dict[str, Any]]:
    return [_stack_rules(stack) for stack in catalogue.stacks] + _release_order_rules(catalogue)


def family_rules(catalogue: Catalogue) -> list[dict[str, Any]]:
    if catalogue.model_types is None:
        return []
    remote_code = {"properties": {"remote_code": {"const": True}}, "required": ["remote_code"]}
    return [{"if": remote_code, "else": {"properties": {"model_types": {"items": enum_of(catalogue.model_types)}}}}]
