#!/usr/bin/env python3
"""Harvest tested configurations from the NxD Inference contrib model READMEs.

Reads ``contrib/models/*/README.md`` of github.com/aws-neuron/neuronx-distributed-inference at one commit of a
local clone (``--mirror``, also spelled ``--git-dir``; ``fetch`` gives one), parses each with
``harvesters.nxdi_contrib_readme`` and writes ``registry/configurations/nxdi-contrib.yaml``
atomically, with the commit it read. READMEs of models the registry has no family for are listed under
``not_recorded`` with the reason (so is a README larger than the read cap). Measurements are kept with the release
the README states or, failing that, with its Validated / Profiled date ("release not stated").

Usage::

    python scripts/harvest_nxdi_contrib.py --mirror /path/to/neuronx-distributed-inference/.git --revision 4bcdc54
    python scripts/harvest_nxdi_contrib.py --mirror ... --revision 4bcdc54 --check   # fail if out of date
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

from harvesters.harvest_script import (
    configurations_file,
    git,
    header,
    read_releases,
    run,
    show,
    tree_paths,
)
from harvesters.nxdi_contrib_readme import REPOSITORY, configuration_entries

REPO_ROOT = Path(__file__).resolve().parent.parent
OUTPUT = REPO_ROOT / "registry" / "configurations" / "nxdi-contrib.yaml"
RELEASES = REPO_ROOT / "registry" / "releases.yaml"
SCRIPT = "scripts/harvest_nxdi_contrib.py"
HEADER = header(SCRIPT, "the NxD Inference contrib READMEs")
DESCRIPTION = (
    "Community-contributed model ports under `contrib/models` of the NxD Inference repository (limited testing, "
    "not official support). Each README's validation part (its `Validated:` date, configuration and test table) "
    "and its device-profiling part (`Instance: ... | Profiled:`) are one configuration each. Most READMEs do not "
    "state the Neuron release they were measured on: their measurements are recorded with the part's own date "
    "(release not stated). A token-matching check the README marks failed, low, partial or N/A qualifies the "
    "outcome.")


def harvest(git_dir: Path, revision: str, releases: list[tuple[str, dt.date]], today: dt.date) -> dict[str, Any]:
    commit = git(git_dir, "rev-parse", f"{revision}^{{commit}}").strip()
    listing = tree_paths(git_dir, commit, "contrib/models/")
    configurations: list[dict[str, Any]] = []
    not_recorded: list[dict[str, str]] = []
    for model_path in sorted(listing):
        model_dir = model_path.rsplit("/", 1)[-1]
        readme = f"{model_path}/README.md"
        text, why_not_read = show(git_dir, commit, readme)
        if text is None:
            reason = "no README.md" if "does not exist" in str(why_not_read) or "exists on disk" in str(
                why_not_read) else str(why_not_read)
            not_recorded.append({"path": readme, "reason": reason[:200]})
            continue
        entries, why_not = configuration_entries(model_dir, text, commit, releases)
        configurations.extend(entries)
        if why_not:
            not_recorded.append({"path": readme, "reason": why_not})
    return configurations_file("nxdi-contrib", DESCRIPTION, SCRIPT, REPOSITORY, commit, today, configurations,
                               not_recorded)


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, mirror_help="the git directory of a neuronx-distributed-inference mirror or clone",
               revision_example="4bcdc54", output=OUTPUT, script=SCRIPT, file_header=HEADER,
               harvest=lambda mirror, revision, today: harvest(mirror, revision, read_releases(RELEASES), today))


if __name__ == "__main__":
    sys.exit(main())
