#!/usr/bin/env python3
"""Harvest tested configurations from the AWS Neuron documentation's performance pages.

Reads ``about-neuron/benchmarks/*/*.rst`` (or ``general/benchmarks`` at older tags) of
github.com/aws-neuron/aws-neuron-sdk at one tag of a local mirror (``--mirror``; ``fetch`` gives one), and the CSV
files each page includes, parses them with ``harvesters.neuron_performance_pages`` and writes
``registry/configurations/neuron-performance.yaml`` atomically, with the tag it read. CSVs no page includes, and
rows whose model, framework or instance the registry does not know, are listed under ``not_recorded``.

Usage::

    python scripts/harvest_neuron_performance.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.32.0
    python scripts/harvest_neuron_performance.py --mirror ... --revision v2.32.0 --check   # fail if out of date
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
from pathlib import Path
from typing import Any

import yaml
from harvesters.harvest_script import commit_date, configurations_file, git, header, run, show, tree_paths
from harvesters.neuron_performance_pages import REPOSITORY, Context, merge_runs, read_page, table_entries

REPO_ROOT = Path(__file__).resolve().parent.parent
REGISTRY = REPO_ROOT / "registry"
OUTPUT = REGISTRY / "configurations" / "neuron-performance.yaml"
SCRIPT = "scripts/harvest_neuron_performance.py"
BENCHMARK_DIRS = ("about-neuron/benchmarks", "general/benchmarks")
HEADER = header(SCRIPT, "the Neuron documentation's performance pages")
DESCRIPTION = (
    "The AWS Neuron documentation's performance pages (Inf1, Inf2 and Trn1 inference, Trn1 training) at one "
    "release tag of the docs source. Each row of a table a page includes is one configuration, measured on the "
    "Neuron release its `Neuron Version` column gives (rows of one page were measured on different releases); a row "
    "whose version names no single release keeps its values with the date its table was last changed (release "
    "not stated). A run shown in both a throughput and a latency table is one configuration. "
    "Latencies are the page's P50 and P99; encoder-decoder throughput and per-token latency count input and "
    "output tokens, as the pages say.")


def registry_context(revision: str, registry: Path = REGISTRY) -> Context:
    releases = yaml.safe_load((registry / "releases.yaml").read_text(encoding="utf-8"))["releases"]
    instances = yaml.safe_load((registry / "instances.yaml").read_text(encoding="utf-8"))["instances"]
    return Context(revision=revision, releases=frozenset(str(r["version"]) for r in releases),
                   instances=frozenset(str(i["name"]) for i in instances),
                   hardware=tuple((str(i["name"]), str(i["hardware"])) for i in instances),
                   families=frozenset(path.stem for path in (registry / "families").glob("*.yaml")))


def harvest(mirror: Path, revision: str, context: Context, today: dt.date) -> dict[str, Any]:
    git(mirror, "rev-parse", "--verify", f"{revision}^{{commit}}")
    listing = tree_paths(mirror, revision, *BENCHMARK_DIRS, recursive=True)
    pages = sorted(path for path in listing if path.endswith(".rst") and path.count("/") >= 3)
    csvs = sorted(path for path in listing if path.endswith(".csv"))
    configurations: list[dict[str, Any]] = []
    not_recorded: list[dict[str, str]] = []
    included: set[str] = set()
    for page_path in pages:
        page_text, why_not = show(mirror, revision, page_path)
        if page_text is None:
            not_recorded.append({"path": page_path, "reason": str(why_not)[:200]})
            continue
        page = read_page(page_text)
        directory = page_path.rsplit("/", 1)[0]
        for table in page.tables:
            csv_path = f"{directory}/{table.csv_name}"
            if csv_path in included:
                continue
            included.add(csv_path)
            if csv_path not in csvs:
                not_recorded.append({"path": csv_path, "reason": f"{page_path} includes it, but the tag has no such file"})
                continue
            csv_text, why_not = show(mirror, revision, csv_path)
            if csv_text is None:
                not_recorded.append({"path": csv_path, "reason": str(why_not)[:200]})
                continue
            dated = dataclasses.replace(context, published=commit_date(mirror, revision, csv_path))
            entries, reasons = table_entries(csv_path, csv_text, page, table, dated)
            configurations.extend(entries)
            not_recorded.extend({"path": csv_path, "reason": reason} for reason in reasons)
    for csv_path in csvs:
        if csv_path not in included and not csv_path.endswith("prices.csv"):
            not_recorded.append({"path": csv_path, "reason": "no performance page of this tag includes this table"})
    return configurations_file("neuron-performance", DESCRIPTION, SCRIPT, REPOSITORY, revision, today,
                               merge_runs(configurations), not_recorded)


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, mirror_help="the git directory of an aws-neuron-sdk mirror or clone (fetch's path)",
               revision_example="v2.32.0", output=OUTPUT, script=SCRIPT, file_header=HEADER,
               harvest=lambda mirror, revision, today: harvest(mirror, revision, registry_context(revision), today))


if __name__ == "__main__":
    sys.exit(main())
