#!/usr/bin/env python3
"""Harvest known issues and bug fixes from the Neuron component release notes.

Reads ``release-notes/components/*.rst`` of github.com/aws-neuron/aws-neuron-sdk at one tag of a local mirror and
writes ``registry/known-issues/release-notes.harvested.yaml``: one entry per distinct known-issue or bug-fix item,
with the first and last releases that list it and the release that fixed it where the notes say so (a bug fix), or
where the next release's known issues no longer list it (marked derived). Never an invented fix release.

Usage::

    python scripts/harvest_known_issues_release_notes.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.32.0
    python scripts/harvest_known_issues_release_notes.py --mirror ... --revision v2.32.0 --check   # fail if out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from known_issue_harvesters import release_notes
from known_issue_harvesters.common import Harvested, commit_date, run

REGISTRY = Path(__file__).resolve().parent.parent / "registry"
OUTPUT = REGISTRY / "known-issues" / "release-notes.harvested.yaml"
SCRIPT = "scripts/harvest_known_issues_release_notes.py"


def registry_names() -> tuple[set[str], dict[str, str]]:
    """The releases of releases.yaml, and family names and aliases (lower case) -> family id, for linking."""
    releases = {str(r["version"]) for r in yaml.safe_load((REGISTRY / "releases.yaml").read_text("utf-8"))["releases"]}
    names: dict[str, str] = {}
    for path in sorted((REGISTRY / "families").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8")) or {}
        for name in [data.get("name"), *(data.get("aliases") or [])]:
            if isinstance(name, str) and len(name) >= 5:
                names.setdefault(name.lower(), path.stem)
    return releases, names


def harvest(mirror: Path, revision: str) -> Harvested:
    result = Harvested("release-notes", "The Neuron component release notes (`release-notes/components/`) at one docs "
                       "tag: every Known Issues and Bug Fixes item of every release, one entry per distinct item with "
                       "the releases whose notes list it. Items that quote no error text are listed, not matched.",
                       SCRIPT, revision)
    releases, names = registry_names()
    release_notes.harvest(mirror, revision, result, commit_date(mirror, revision), releases, names)
    return result


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, output=OUTPUT, script=SCRIPT, what="the Neuron component release notes",
               harvest=harvest)


if __name__ == "__main__":
    sys.exit(main())
