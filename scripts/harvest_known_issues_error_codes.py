#!/usr/bin/env python3
"""Harvest known issues from the Neuron compiler's error-code pages (one entry per NCC_ code).

Reads ``compiler/error-codes/*.rst`` and its index of github.com/aws-neuron/aws-neuron-sdk at one tag of a local
mirror (``fetch github:aws-neuron/aws-neuron-sdk`` gives one) and writes
``registry/known-issues/error-codes.harvested.yaml``; pages that do not parse are listed under ``not_recorded``.

Usage::

    python scripts/harvest_known_issues_error_codes.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.32.0
    python scripts/harvest_known_issues_error_codes.py --mirror ... --revision v2.32.0 --check   # fail if out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from known_issue_harvesters import error_codes
from known_issue_harvesters.common import Harvested, commit_date, run, tags_between

OUTPUT = Path(__file__).resolve().parent.parent / "registry" / "known-issues" / "error-codes.harvested.yaml"
SCRIPT = "scripts/harvest_known_issues_error_codes.py"


def harvest(mirror: Path, revision: str) -> Harvested:
    result = Harvested("error-codes", "The Neuron compiler's error-code pages (`compiler/error-codes/`) and their index "
                       "at one docs tag: each code with its message (matched as phrases), explanation and fix. Every "
                       "stack on Trn/Inf2 runs the same compiler, so each code lists them all.", SCRIPT, revision)
    verified = commit_date(mirror, revision)
    error_codes.harvest(mirror, revision, result, verified, tags_between(mirror, "v2.27.0", revision))
    return result


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, output=OUTPUT, script=SCRIPT, what="the Neuron compiler's error-code pages",
               harvest=harvest)


if __name__ == "__main__":
    sys.exit(main())
