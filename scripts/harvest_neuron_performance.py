#!/usr/bin/env python3
"""Harvest tested configurations from the AWS Neuron documentation's performance pages.

Reads ``about-neuron/benchmarks/*/*.rst`` (or ``general/benchmarks`` at older tags) of
github.com/aws-neuron/aws-neuron-sdk at one tag of a local mirror (``--mirror``; ``fetch`` gives one), and the CSV
files each page includes, parses them with ``harvesters.neuron_performance_pages`` and writes
``registry/configurations/neuron-performance.yaml`` atomically, with the tag it read (one tag). CSVs no page includes, and
rows whose model, framework or instance the registry does not know, are listed under ``not_recorded``.

With a range ``--revision vA..vB`` it reads every release tag (vMAJOR.MINOR.PATCH) from A to B that has the pages,
oldest first, and keeps one configuration per measured point (the ledger), in
``registry/configurations/neuron-performance-inf2.yaml`` and ``-trn1.yaml`` (LEDGER_FILES): a row that later tags repeat with the same
values is one configuration, cited at the first tag that shows it; where a later tag gives other values for the
same release, the later values are kept and a note names the tags that gave the earlier ones. Series (one
configuration at several releases) are derived from these points by ``neuron_compat.views.performance_series``.

Usage::

    python scripts/harvest_neuron_performance.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.9.0..v2.32.0
    python scripts/harvest_neuron_performance.py --mirror ... --revision v2.9.0..v2.32.0 --check   # fail if out of date
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml
from harvesters.harvest_script import (
    HarvestError,
    commit_date,
    configurations_file,
    git,
    header,
    render,
    run,
    show,
    summary,
    tree_paths,
)
from harvesters.neuron_performance_pages import REPOSITORY, Context, merge_runs, read_page, table_entries

from neuron_compat.contributing.upstream_snapshot import write_or_check
from neuron_compat.views.performance_series import point_label, series_key

REPO_ROOT = Path(__file__).resolve().parent.parent
REGISTRY = REPO_ROOT / "registry"
OUTPUT = REGISTRY / "configurations" / "neuron-performance.yaml"
SCRIPT = "scripts/harvest_neuron_performance.py"
BENCHMARK_DIRS = ("about-neuron/benchmarks", "general/benchmarks")
HEADER = header(SCRIPT, "the Neuron documentation's performance pages")
DESCRIPTION = (
    "The AWS Neuron documentation's performance pages (Inf1, Inf2 and Trn1 inference, Trn1 training) at every "
    "release tag of the docs source that has them. Each distinct measured point is one configuration, cited at the "
    "first tag that shows it (later tags repeat most rows unchanged); `setting` says how the row was run, so one "
    "configuration measured at several releases forms a series. Each row of a table a page includes is one configuration, measured on the "
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


_RELEASE_TAG = re.compile(r"^v([0-9]+)\.([0-9]+)\.([0-9]+)$")


def release_tags(mirror: Path, first: str, last: str) -> list[str]:
    """The release tags vMAJOR.MINOR.PATCH from `first` to `last` (inclusive, version order) that have a performance
    page; HarvestError (via git) when either end is no tag of the mirror."""
    ends = []
    for end in (first, last):
        found = _RELEASE_TAG.match(end)
        if found is None:
            raise HarvestError(f"'{end}' is not a release tag vMAJOR.MINOR.PATCH (a range is vA..vB)")
        git(mirror, "rev-parse", "--verify", f"{end}^{{commit}}")
        ends.append(tuple(int(part) for part in found.groups()))
    tags = []
    for tag in git(mirror, "tag", "--list", "v*").split():
        found = _RELEASE_TAG.match(tag)
        if found is not None and ends[0] <= tuple(int(part) for part in found.groups()) <= ends[1]:
            tags.append((tuple(int(part) for part in found.groups()), tag))
    return [tag for _, tag in sorted(tags)
            if any(path.endswith(".rst") and path.count("/") >= 3
                   for path in tree_paths(mirror, tag, *BENCHMARK_DIRS, recursive=True))]


def _point_id(entry: dict[str, Any], label: str | None, digest: str) -> str:
    model = re.sub(r"[^a-z0-9]+", "-", str(entry["checkpoint"]).lower()).strip("-")[:28].rstrip("-")
    where = re.sub(r"[^a-z0-9]+", "-", str(entry.get("instance") or entry.get("hardware") or "any")).strip("-")
    at = re.sub(r"[^0-9]+", "-", label).strip("-") if label else "undated"
    return f"nperf-{model}-{where}-{at}-{digest}"


def ledger(harvests: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Per-tag configurations (oldest tag first) -> one configuration per measured point.

    A point is a series key (views.performance_series) at one release label; a row without a release label is a
    point of its own values. Its values and source are the newest tag's; its source is the first tag that shows
    those values, with a note of the tags that show them and of any earlier tag that gave other values."""
    points: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for tag, entries in harvests:
        for entry in entries:
            label = point_label(entry)
            identity = [repr(series_key(entry)), label]
            if label is None:
                identity.append(json.dumps(entry.get("measurements"), sort_keys=True))
            digest = hashlib.sha256(json.dumps(identity).encode()).hexdigest()[:8]
            points.setdefault(digest, []).append((tag, entry))
    kept: list[dict[str, Any]] = []
    for digest, seen in points.items():
        newest = json.dumps(seen[-1][1].get("measurements"), sort_keys=True)
        same = [(tag, entry) for tag, entry in seen if json.dumps(entry.get("measurements"), sort_keys=True) == newest]
        earlier = sorted({tag for tag, entry in seen if json.dumps(entry.get("measurements"), sort_keys=True) != newest},
                         key=_tag_order)
        tag, entry = same[0]
        tags = sorted({t for t, _ in same}, key=_tag_order)
        point = json.loads(json.dumps(entry, default=str))  # no shared objects: YAML would write aliases
        if entry.get("validated") is not None:
            day = entry["validated"]
            point["validated"] = dt.date(day.year, day.month, day.day)  # a fresh object: no alias
        point["id"] = _point_id(entry, point_label(entry), digest)
        notes = list(entry.get("notes") or [])
        notes.append(f"The docs show these values at {len(tags)} tag(s), {tags[0]} to {tags[-1]}."
                     if len(tags) > 1 else f"The docs show these values at {tags[0]} only.")
        if earlier:
            notes.append(f"Earlier tags ({', '.join(earlier[:6])}{' ...' if len(earlier) > 6 else ''}) gave other "
                         "values for this configuration and release; these are the newer tags' values.")
        point["notes"] = notes
        kept.append(point)
    return kept


def _tag_order(tag: str) -> tuple[int, ...]:
    found = _RELEASE_TAG.match(tag)
    return tuple(int(part) for part in found.groups()) if found else (0,)


LEDGER_FILES: tuple[tuple[str, str], ...] = (
    ("neuron-performance-inf2", "Inf1 and Inf2 inference pages (Inf1 rows are not recorded: inf1 is no hardware of "
                                "the registry)"),
    ("neuron-performance-trn1", "Trn1 inference and training pages"),
)
"""The ledger's files (a registry file may hold at most 1 MiB): configurations measured on Inf2 go to the first,
those on Trn1 to the second; the rows not recorded go with the page they come from."""


def _ledger_file(text: str) -> str:
    return LEDGER_FILES[1][0] if "trn1" in text.lower() else LEDGER_FILES[0][0]


def harvest_range(mirror: Path, revisions: str, registry: Path, today: dt.date) -> dict[str, dict[str, Any]]:
    """Every release tag of `revisions` (vA..vB) that has the pages, read one by one and kept as a ledger, split
    into LEDGER_FILES: source id -> that file's body."""
    first, _, last = revisions.partition("..")
    harvests: list[tuple[str, list[dict[str, Any]]]] = []
    not_recorded: list[dict[str, str]] = []
    for tag in release_tags(mirror, first, last):
        body = harvest(mirror, tag, registry_context(tag, registry), today)
        harvests.append((tag, body["configurations"]))
        for item in body["not_recorded"]:
            if item not in not_recorded:
                not_recorded.append(item)
    points = ledger(harvests)
    bodies = {}
    for source, what in LEDGER_FILES:
        description = f"{what}. {DESCRIPTION}"
        mine = [p for p in points if _ledger_file(str(p.get("instance") or p.get("hardware") or p["source"]["url"]))
                == source]
        rows = [item for item in not_recorded if _ledger_file(item["path"]) == source]
        bodies[source] = configurations_file(source, description, SCRIPT, REPOSITORY, revisions, today, mine, rows)
    return bodies


def main(argv: list[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    revision = next((arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a == "--revision"), "")
    if ".." not in revision:
        return run(arguments, doc=__doc__, mirror_help="the git directory of an aws-neuron-sdk mirror or clone",
                   revision_example="v2.32.0, or a range v2.9.0..v2.32.0", output=OUTPUT, script=SCRIPT,
                   file_header=HEADER,
                   harvest=lambda mirror, revision, today: harvest(mirror, revision, registry_context(revision), today))
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mirror", "--git-dir", dest="mirror", type=Path, required=True,
                        help="the git directory of an aws-neuron-sdk mirror or clone (fetch's path)")
    parser.add_argument("--revision", required=True, help="a range of release tags, e.g. v2.9.0..v2.32.0")
    parser.add_argument("--output-dir", type=Path, default=OUTPUT.parent,
                        help="where the ledger's files go (default: registry/configurations)")
    parser.add_argument("--check", action="store_true", help="fail if an output file is not up to date")
    args = parser.parse_args(arguments)
    try:
        bodies = harvest_range(args.mirror, args.revision, REGISTRY, dt.datetime.now(dt.UTC).date())
    except (HarvestError, OSError) as error:
        print(f"{args.mirror}: revision {args.revision}: {error}", file=sys.stderr)
        return 1
    status = 0
    for source, body in bodies.items():
        print(f"{source}: {summary(body)}", file=sys.stderr)
        status |= write_or_check(args.output_dir / f"{source}.yaml", render(HEADER, body), SCRIPT, args.check)
    return status


if __name__ == "__main__":
    sys.exit(main())
