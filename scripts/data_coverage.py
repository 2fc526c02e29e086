"""Print how much of the registry's supported/partial statements carry effective attention and dtypes.

Effective values are the statement's own or, when it states none, its stack's capability
(neuron_compat.views.inherited_capabilities). Also prints the `unknown` statements that carry no note saying what was
checked. Usage: python scripts/data_coverage.py [registry-dir]; exit 1 when the registry does not load.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from neuron_compat.loading.loader import load_registry
from neuron_compat.views.inherited_capabilities import effective_values

KNOWN = ("supported", "partial")


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "0/0"


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
    unknown_silent: list[str] = []
    for family in registry.families:
        for index, statement in enumerate(family.support):
            if statement.status == "unknown":
                unknown += 1
                if not statement.notes:
                    unknown_silent.append(f"{family.id} support[{index}] ({statement.stack})")
                continue
            if statement.status not in KNOWN:
                continue
            key = f"{statement.stack} {statement.workload}"
            effective = effective_values(registry.capabilities_of(statement.stack), statement)
            total[key] += 1
            attention[key] += bool(effective.attention.values)
            dtypes[key] += bool(effective.dtypes.values)
            own_attention[key] += effective.attention.origin == "family"
            own_dtypes[key] += effective.dtypes.origin == "family"
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
    print(f"unknown statements: {unknown}; without a note naming what was checked: {len(unknown_silent)}")
    for where in unknown_silent:
        print(f"  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
