"""Print how much of the registry's supported/partial statements carry effective attention and dtypes.

Effective values are the statement's own or, when it states none, its stack's capability
(neuron_compat.views.inherited_capabilities). Per field it counts values stated for the family, inherited from a
range scoped to the family's class or code path, and not applicable (attention of an attention-free family); then it
lists every inherited value whose range scope does not include the family's classes (expected: none). Also prints
the share of `not-listed` statements (the stack's own list leaves the model out) apart from the share of `unknown` ones (no source
answers), and the `unknown` statements that carry no note saying what was checked. Usage: python scripts/data_coverage.py [registry-dir]; exit 1 when the registry does not load.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from neuron_compat.loading.loader import load_registry
from neuron_compat.views.inherited_capabilities import FIELDS, covering, effective_for

KNOWN = ("supported", "partial")


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


def _range_classes(stack, capability) -> set[str] | None:  # type: ignore[no-untyped-def]
    """The classes a range is scoped to, read from the data directly (None: unscoped)."""
    found: set[str] | None = None
    if capability.code_paths:
        found = {str(c) for path in stack.code_paths if path.id in capability.code_paths for c in path.classes}
    if capability.classes:
        named = {str(c) for c in capability.classes}
        found = named if found is None else found & named
    return found


def _matches(stack, capability, classes) -> bool:  # type: ignore[no-untyped-def]
    """Is a range scoped to (one of) these classes? An unscoped range matches only on a stack without paths."""
    scoped = _range_classes(stack, capability)
    if scoped is None:
        return not stack.code_paths
    return bool(scoped & {str(c) for c in classes})


def _audit(registry, family, index, statement, effective, origins, mismatched) -> None:  # type: ignore[no-untyped-def]
    """Count each field's origin; record inherited values no range scoped to the family's classes holds."""
    stack = registry.stack_by_id[statement.stack]
    for name in FIELDS:
        field = effective.field(name)
        if field.origin is not None:
            origins[(name, field.origin)] += 1
        if field.origin != "stack":
            continue
        for value in field.values:
            if not any(_matches(stack, capability, family.classes) and value in
                       {str(v) for v in getattr(capability, name)}
                       for capability in covering(registry.capabilities_of(statement.stack), statement)):
                mismatched.append(f"{family.id} support[{index}] {name} '{value}': no {statement.stack} "
                                  f"range scoped to {', '.join(family.classes)} holds it")


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[1] / "registry"
    result = load_registry(root)
    if not result.ok:
        print(f"{root}: the registry does not load; run neuron-compat validate", file=sys.stderr)
        return 1
    registry = result.registry
    total: Counter[str] = Counter()
    attention: Counter[str] = Counter()
    dtypes: Counter[str] = Counter()
    own_attention: Counter[str] = Counter()
    own_dtypes: Counter[str] = Counter()
    unknown = 0
    not_listed = 0
    statements = 0
    unknown_silent: list[str] = []
    origins: Counter[tuple[str, str]] = Counter()
    mismatched: list[str] = []
    for family in registry.families:
        for index, statement in enumerate(family.support):
            statements += 1
            if statement.status == "not-listed":
                not_listed += 1
            if statement.status == "unknown":
                unknown += 1
                if not statement.notes:
                    unknown_silent.append(f"{family.id} support[{index}] ({statement.stack})")
                continue
            if statement.status not in KNOWN:
                continue
            key = f"{statement.stack} {statement.workload}"
            effective = effective_for(registry, family, statement)
            total[key] += 1
            attention[key] += bool(effective.attention.values)
            dtypes[key] += bool(effective.dtypes.values)
            own_attention[key] += effective.attention.origin == "family"
            own_dtypes[key] += effective.dtypes.origin == "family"
            _audit(registry, family, index, statement, effective, origins, mismatched)
    whole = sum(total.values())
    print(f"supported/partial statements: {whole}")
    print(f"  effective attention: {_share(sum(attention.values()), whole)}"
          f" (stated for the family: {sum(own_attention.values())})")
    print(f"  effective dtypes:    {_share(sum(dtypes.values()), whole)}"
          f" (stated for the family: {sum(own_dtypes.values())})")
    print("per stack and workload (attention, dtypes):")
    width = max((len(key) for key in total), default=0)
    for key in sorted(total):
        print(f"  {key.ljust(width)}  {_share(attention[key], total[key]):>14}  {_share(dtypes[key], total[key]):>14}")
    print("values by origin (stated for the family / inherited from a scoped range / not applicable):")
    for name in FIELDS:
        print(f"  {name}: {origins[(name, 'family')]} / {origins[(name, 'stack')]} / {origins[(name, 'not-applicable')]}")
    print(f"inherited values whose range scope does not match the family's classes: {len(mismatched)}")
    for where in mismatched:
        print(f"  {where}")
    print(f"not-listed statements (the stack's own list leaves the model out): {_share(not_listed, statements)}")
    print(f"unknown statements (no source answers): {_share(unknown, statements)}; without a note naming what was checked: {len(unknown_silent)}")
    for where in unknown_silent:
        print(f"  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
