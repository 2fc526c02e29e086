"""Lookups derived from a registry's releases, stacks, families and capability files.

Shared by the loader's `registry_model.Registry` (pydantic models) and `compiled.CompiledRegistry` (views over
the compiled JSON), so views/at_release.py, check/resolver.py and the rules read both the same way. Imports no pydantic: check's
hot path builds a CompiledRegistry.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from neuron_compat.contract.versions import version_key


class RegistryIndexes:
    """Derived, cached lookups; the class that mixes this in provides the four sequences below."""

    releases: Sequence[Any]
    stacks: Sequence[Any]
    families: Sequence[Any]
    capability_files: Sequence[Any]

    @cached_property
    def release_versions(self) -> list[str]:
        return sorted((r.version for r in self.releases), key=version_key)

    @cached_property
    def stack_by_id(self) -> dict[str, Any]:
        return {s.id: s for s in self.stacks}

    @cached_property
    def known_releases(self) -> frozenset[str]:
        """The release versions, for membership tests."""
        return frozenset(r.version for r in self.releases)

    @cached_property
    def stack_version_line(self) -> dict[str, tuple[str, ...]]:
        """Per stack id (as `stack_by_id` resolves it): the stack's own versions, oldest first (empty for most)."""
        return {stack_id: tuple(v.version for v in stack.versions) for stack_id, stack in self.stack_by_id.items()}

    @cached_property
    def stack_version_targets(self) -> dict[str, dict[str, str]]:
        """Per stack id: its own version -> the Neuron release that version targets (the last listing wins)."""
        return {stack_id: {v.version: v.neuron for v in stack.versions} for stack_id, stack in self.stack_by_id.items()}

    @cached_property
    def statements_by_stack(self) -> dict[str, tuple[tuple[Any, int, Any], ...]]:
        """Per stack id named by a statement: (family, index in family.support, statement), families in order."""
        found: dict[str, list[tuple[Any, int, Any]]] = {}
        for family in self.families:
            for index, statement in enumerate(family.support):
                found.setdefault(str(statement.stack), []).append((family, index, statement))
        return {stack_id: tuple(rows) for stack_id, rows in found.items()}

    def statements_of(self, stack_id: str) -> tuple[tuple[Any, int, Any], ...]:
        """(family, index, statement) of every statement of one stack (empty when none names it)."""
        return self.statements_by_stack.get(stack_id, ())

    @cached_property
    def family_by_id(self) -> dict[str, Any]:
        return {f.id: f for f in self.families}

    @cached_property
    def capabilities_by_stack(self) -> dict[str, tuple[Any, ...]]:
        return {c.stack: tuple(c.capabilities) for c in self.capability_files}

    def capabilities_of(self, stack_id: str) -> tuple[Any, ...]:
        """The capability ranges of a stack (empty when it has no capabilities file)."""
        return self.capabilities_by_stack.get(stack_id, ())

    @cached_property
    def memo(self) -> dict[Any, Any]:
        """Results of pure views over this registry, keyed by the view (views/answer.py's today's answers): a
        site build asks the same question of a family from several pages. A registry is not changed after
        loading, so nothing here goes stale."""
        return {}

    @property
    def newest_release(self) -> str | None:
        return self.release_versions[-1] if self.releases else None
