#!/usr/bin/env python3
"""Compile registry/ into the snapshot the package ships: src/neuron_compat/data/registry.json.

The snapshot is the same document as the site's api/registry.json (`neuron-compat export --json`), data
version included. `neuron-compat check` answers from it when no other registry is named, so the installed
command works from any directory. Rerun this after every change under registry/; the tests fail while the
committed snapshot differs from what registry/ compiles to.

Usage::

    python scripts/bundle_registry.py            # write the snapshot (only when registry/ validates)
    python scripts/bundle_registry.py --check    # exit 1 when the committed snapshot is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.contributing.upstream_snapshot import write_or_check
from neuron_compat.loading.problems import render_problems
from neuron_compat.publishing.registry_document import dumps, registry_to_json
from neuron_compat.rules.validation import validate_registry

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "registry"
SNAPSHOT = ROOT / "src" / "neuron_compat" / "data" / "registry.json"


def compiled_text(registry: Path = REGISTRY) -> str | None:
    """The snapshot text registry/ compiles to, or None (problems printed) when it does not validate."""
    result = validate_registry(registry)
    if result.problems:
        print(render_problems(result.problems, "text"), file=sys.stderr)
        return None
    return dumps(registry_to_json(result.registry))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when out of date")
    args = parser.parse_args(argv)
    text = compiled_text()
    if text is None:
        return 1
    return write_or_check(SNAPSHOT, text, "python scripts/bundle_registry.py", args.check)


if __name__ == "__main__":
    sys.exit(main())
