#!/usr/bin/env python3
"""Harvest known issues from the Neuron Runtime's status codes (one entry per NRT_STATUS code).

Reads ``neuron-runtime/api/nrt_status.rst`` of github.com/aws-neuron/aws-neuron-sdk at one tag of a local mirror and
writes ``registry/known-issues/runtime-status.harvested.yaml``: each code with its number and meaning, matched on the
code as a token.

Usage::

    python scripts/harvest_known_issues_runtime_status.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.32.0
    python scripts/harvest_known_issues_runtime_status.py --mirror ... --revision v2.32.0 --check   # fail if out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from known_issue_harvesters import runtime_status
from known_issue_harvesters.common import Harvested, commit_date, files_at, run

OUTPUT = Path(__file__).resolve().parent.parent / "registry" / "known-issues" / "runtime-status.harvested.yaml"
SCRIPT = "scripts/harvest_known_issues_runtime_status.py"


def harvest(mirror: Path, revision: str) -> Harvested:
    result = Harvested("runtime-status", "The Neuron Runtime's status codes (`NRT_STATUS` of `nrt_status.h`, its API "
                       "reference page) at one docs tag: each code with its number and meaning, matched on the code. "
                       "The codes for a class of failures (NRT_FAILURE, NRT_TIMEOUT, ...) only add to a match.",
                       SCRIPT, revision)
    available = set(files_at(mirror, revision, runtime_status.PAGE))
    runtime_status.harvest(mirror, revision, result, commit_date(mirror, revision), available)
    return result


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, output=OUTPUT, script=SCRIPT, what="the Neuron Runtime's status codes",
               harvest=harvest)


if __name__ == "__main__":
    sys.exit(main())
