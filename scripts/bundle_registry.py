#!/usr/bin/env python3
"""Compile registry/ into the snapshot the package ships: src/neuron_compat/data/registry.json.

The snapshot is the same document as the site's api/registry.json (`neuron-compat export --json`), data
version included, with its index (data/registry.index.json). `neuron-compat check` answers from it when no
other registry is named, so the installed command works from any directory. `neuron-compat new` and
`add-evidence` rebuild it when they change this checkout's registry/; after a hand edit under registry/ run
this (the pre-commit hook does); the tests fail while the committed snapshot differs from what registry/
compiles to. The code is `neuron_compat.contributing.bundled_snapshot`.

Usage::

    python scripts/bundle_registry.py            # write the snapshot (only when registry/ validates)
    python scripts/bundle_registry.py --check    # exit 1 when the committed snapshot is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.contributing.bundled_snapshot import (
    SCRIPT,
    SourceTree,
    compile_registry,
    stale_files,
    write_snapshot,
)
from neuron_compat.loading.problems import render_problems

TREE = SourceTree(Path(__file__).resolve().parents[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when out of date")
    args = parser.parse_args(argv)
    text, problems = compile_registry(TREE.registry)
    if text is None:
        print(render_problems(problems, "text"), file=sys.stderr)
        return 1
    if args.check:
        stale = stale_files(TREE, text)
        for path in stale:
            print(f"{path} is out of date; rerun {SCRIPT}", file=sys.stderr)
        if not stale:
            print(f"{TREE.snapshot} is up to date", file=sys.stderr)
        return 1 if stale else 0
    written = write_snapshot(TREE, text)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    if not written:
        print(f"{TREE.snapshot} is up to date", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
