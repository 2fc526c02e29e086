#!/usr/bin/env python3
"""Harvest tested configurations from the vLLM Neuron model recipes.

Reads ``vllm-neuron/docs/model-recipes/*.md`` of github.com/aws-neuron/aws-neuron-sdk at one tag of a local mirror
(``--mirror``; the ``fetch`` tool gives one), parses them with ``harvesters.vllm_neuron_recipes``
and writes ``registry/configurations/vllm-neuron-recipes.yaml`` atomically, with the tag and commit it read.

Usage::

    python scripts/harvest_vllm_neuron_recipes.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo \\
        --revision v2.32.0
    python scripts/harvest_vllm_neuron_recipes.py --mirror ... --revision v2.32.0 --check
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

from harvesters.harvest_script import configurations_file, git, header, read_releases, run, tree_paths
from harvesters.vllm_neuron_recipes import RECIPES, REPOSITORY, recipe_entries

REPO_ROOT = Path(__file__).resolve().parent.parent
OUTPUT = REPO_ROOT / "registry" / "configurations" / "vllm-neuron-recipes.yaml"
RELEASES = REPO_ROOT / "registry" / "releases.yaml"
SCRIPT = "scripts/harvest_vllm_neuron_recipes.py"
HEADER = header(SCRIPT, "the vLLM Neuron model recipes")
DESCRIPTION = (
    "The vLLM Neuron model recipes in the Neuron documentation source (`vllm-neuron/docs/model-recipes`): per "
    "model, the compatible checkpoints, a feature table and an accuracy table. Each configuration of the accuracy "
    "table (a checkpoint at a precision) is one configuration; scores are recorded only where the page states "
    "the Neuron release they were measured on. The pages name hardware generations (Trn2, Trn3), never an "
    "instance type. The feature tables are not recorded.")
NOT_CONFIGURATIONS = {"index.md": "the list of recipes, no configuration"}


def harvest(git_dir: Path, revision: str, releases: list[tuple[str, dt.date]], today: dt.date) -> dict[str, Any]:
    commit = git(git_dir, "rev-parse", f"{revision}^{{commit}}").strip()
    pages = sorted(line.rsplit("/", 1)[-1] for line in tree_paths(git_dir, commit, f"{RECIPES}/"))
    configurations: list[dict[str, Any]] = []
    not_recorded: list[dict[str, str]] = []
    for page in pages:
        if not page.endswith(".md"):
            continue
        if page in NOT_CONFIGURATIONS:
            not_recorded.append({"path": f"{RECIPES}/{page}", "reason": NOT_CONFIGURATIONS[page]})
            continue
        entries, skipped = recipe_entries(page, git(git_dir, "show", f"{commit}:{RECIPES}/{page}"), commit, releases)
        configurations.extend(entries)
        not_recorded.extend(skipped)
    return configurations_file("vllm-neuron-recipes", DESCRIPTION, SCRIPT, REPOSITORY, f"{revision} ({commit})", today, configurations,
                               not_recorded)


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, mirror_help="the git directory of an aws-neuron-sdk mirror or clone",
               revision_example="v2.32.0", output=OUTPUT, script=SCRIPT, file_header=HEADER,
               harvest=lambda mirror, revision, today: harvest(mirror, revision, read_releases(RELEASES), today))


if __name__ == "__main__":
    sys.exit(main())
