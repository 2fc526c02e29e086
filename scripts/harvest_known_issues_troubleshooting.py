#!/usr/bin/env python3
"""Harvest known issues from the Neuron troubleshooting pages (runtime, NxD Inference, NxD Training, setup, PyTorch).

Reads the pages listed in ``known_issue_harvesters/troubleshooting.py`` of github.com/aws-neuron/aws-neuron-sdk at one
tag of a local mirror and writes ``registry/known-issues/troubleshooting.harvested.yaml``: one entry per section, with
the log lines it quotes as phrases. Pages the tag lacks or that do not parse are listed under ``not_recorded``.

Usage::

    python scripts/harvest_known_issues_troubleshooting.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.32.0
    python scripts/harvest_known_issues_troubleshooting.py --mirror ... --revision v2.32.0 --check   # fail if out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from known_issue_harvesters import troubleshooting
from known_issue_harvesters.common import Harvested, commit_date, files_at, run

OUTPUT = Path(__file__).resolve().parent.parent / "registry" / "known-issues" / "troubleshooting.harvested.yaml"
SCRIPT = "scripts/harvest_known_issues_troubleshooting.py"


def harvest(mirror: Path, revision: str) -> Harvested:
    result = Harvested("troubleshooting", "The Neuron troubleshooting pages at one docs tag: each section one entry, "
                       "matched on the log lines and error headings it quotes.", SCRIPT, revision)
    available = set(files_at(mirror, revision, *(page for page, _, _ in troubleshooting.PAGES)))
    troubleshooting.harvest(mirror, revision, result, commit_date(mirror, revision), available)
    return result


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, output=OUTPUT, script=SCRIPT, what="the Neuron troubleshooting pages",
               harvest=harvest)


if __name__ == "__main__":
    sys.exit(main())
