#!/usr/bin/env python3
"""Which lane of .github/workflows/check.yml a pull request takes: `data` or `full`.

`data` when every changed file is under registry/ and none is generated (marked `linguist-generated` in
.gitattributes: schemas, upstream snapshots, harvested files, which scripts and code write): `validate` and the
data tests (`python -m pytest -m data`), about two minutes. Anything else (code, tests, docs, the site, a
regenerated file, or no base to compare with) takes `full`: every test, the browser tests included.

Usage: python .ci/lane.py BASE_SHA   (prints the lane; compares BASE_SHA...HEAD)
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable


def lane(changed: Iterable[str], generated: Iterable[str]) -> str:
    paths, marked = list(changed), set(generated)
    data_only = bool(paths) and all(p.startswith("registry/") and p not in marked for p in paths)
    return "data" if data_only else "full"


def _git(*args: str) -> list[str]:
    out = subprocess.run(["git", *args], capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
    return [item for item in out.split("\0") if item]


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0]:
        print("full")  # a push, or no base: everything runs
        return 0
    changed = _git("diff", "-z", "--name-only", "--no-renames", f"{argv[0]}...HEAD")
    attributes = _git("check-attr", "-z", "linguist-generated", "--", *changed) if changed else []
    # -z output: path, attribute, value, repeated
    generated = [attributes[i] for i in range(0, len(attributes) - 2, 3) if attributes[i + 2] == "true"]
    print(lane(changed, generated))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
