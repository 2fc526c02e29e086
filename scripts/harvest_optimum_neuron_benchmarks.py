#!/usr/bin/env python3
"""Harvest tested configurations from the Optimum Neuron benchmark results.

Reads ``benchmark/vllm/{single-instance,data-parallel}/*/`` (``.env`` and ``vllm-results*.csv``) and
``docs/source/benchmarks/*.mdx`` of github.com/huggingface/optimum-neuron at one tag of a local mirror
(``--mirror``; the ``fetch`` tool gives one), parses them with
``harvesters.optimum_neuron_benchmarks`` and writes
``registry/configurations/optimum-neuron-benchmarks.yaml`` atomically, with the tag and commit it read.

Usage::

    python scripts/harvest_optimum_neuron_benchmarks.py --mirror /work/.mirror/huggingface+optimum-neuron/repo \\
        --revision v0.4.5
    python scripts/harvest_optimum_neuron_benchmarks.py --mirror ... --revision v0.4.5 --check
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

import yaml
from harvesters.harvest_script import HarvestError, configurations_file, git, header, run, tree_paths
from harvesters.optimum_neuron_benchmarks import (
    REPOSITORY,
    docs_entries,
    results_entries,
    tp_requirements,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
OUTPUT = REPO_ROOT / "registry" / "configurations" / "optimum-neuron-benchmarks.yaml"
SCRIPT = "scripts/harvest_optimum_neuron_benchmarks.py"
HEADER = header(SCRIPT, "the Optimum Neuron benchmark results")
DESCRIPTION = (
    "Benchmark runs published in the Optimum Neuron repository: the vLLM serving benchmarks under `benchmark/vllm` "
    "(a `.env` with the model and its batch size, sequence length and tensor-parallel size, and guidellm summaries "
    "with one row per load profile; each model and run date is one configuration) and the Inferentia2 benchmark "
    "pages under `docs/source/benchmarks` (one configuration per row of their batch-size table). No page states "
    "the Neuron release or the optimum-neuron version the results were measured with: a results file's values are "
    "recorded with the run's date (release not stated); the docs pages give theirs only as charts.")
LAYOUTS = ("benchmark/vllm/single-instance", "benchmark/vllm/data-parallel")
DOCS = "docs/source/benchmarks"


def _names(git_dir: Path, commit: str, folder: str) -> list[str]:
    return sorted(line.rsplit("/", 1)[-1] for line in tree_paths(git_dir, commit, f"{folder}/"))


def _show(git_dir: Path, commit: str, path: str) -> str | None:
    try:
        return git(git_dir, "show", f"{commit}:{path}")
    except HarvestError:
        return None


def harvest(git_dir: Path, revision: str, today: dt.date) -> dict[str, Any]:
    commit = git(git_dir, "rev-parse", f"{revision}^{{commit}}").strip()
    configurations: list[dict[str, Any]] = []
    not_recorded: list[dict[str, str]] = []
    readme = _show(git_dir, commit, f"{LAYOUTS[0]}/README.md") or ""
    instance_by_tp = tp_requirements(readme)
    listed = yaml.safe_load((REPO_ROOT / "registry" / "instances.yaml").read_text(encoding="utf-8"))["instances"]
    layouts = {str(i["name"]): (int(i.get("chips") or 0), int(i.get("neuron_cores") or 0), str(i["hardware"]))
               for i in listed}
    for layout in LAYOUTS:
        for directory in _names(git_dir, commit, layout):
            folder = f"{layout}/{directory}"
            files = _names(git_dir, commit, folder) if _show(git_dir, commit, f"{folder}/.env") is not None else []
            env_text = _show(git_dir, commit, f"{folder}/.env")
            if env_text is None:
                continue  # README.md, scripts
            results = [name for name in files if name.startswith("vllm-results") and name.endswith(".csv")]
            if not results:
                not_recorded.append({"path": f"{folder}/", "reason": "a configuration without a results file"})
                continue
            for name in results:
                compose_text = None
                if layout.endswith("data-parallel"):
                    suffix = name.removeprefix("vllm-results").removesuffix(".csv")
                    compose_text = _show(git_dir, commit, f"{folder}/docker-compose{suffix}.yaml")
                entries, skipped = results_entries(directory, env_text, f"{folder}/{name}",
                                                   _show(git_dir, commit, f"{folder}/{name}") or "", commit,
                                                   instance_by_tp, compose_text, layouts)
                configurations.extend(entries)
                not_recorded.extend(skipped)
    for page in _names(git_dir, commit, DOCS):
        if not page.endswith(".mdx"):
            continue
        entries, why_not = docs_entries(page, _show(git_dir, commit, f"{DOCS}/{page}") or "", commit)
        configurations.extend(entries)
        if why_not:
            not_recorded.append({"path": f"{DOCS}/{page}", "reason": why_not})
    return configurations_file("optimum-neuron-benchmarks", DESCRIPTION, SCRIPT, REPOSITORY, f"{revision} ({commit})", today, configurations,
                               not_recorded)


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, mirror_help="the git directory of an optimum-neuron mirror or clone",
               revision_example="v0.4.5", output=OUTPUT, script=SCRIPT, file_header=HEADER,
               harvest=lambda mirror, revision, today: harvest(mirror, revision, today))


if __name__ == "__main__":
    sys.exit(main())
