"""`neuron-compat stale`: list claims whose newest source was verified too long ago."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys

from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, add_registry_argument
from neuron_compat.safeio.option_values import argparse_type, iso_date, whole_number

_positive_or_zero = argparse_type(whole_number, minimum=0)
_at_least_one = argparse_type(whole_number, minimum=1)


def _ordinal(k: int) -> str:
    if k == 1:
        return "newest"
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix} newest"


def run(args: argparse.Namespace) -> int:
    from neuron_compat.loading.node_locations import Locator
    from neuron_compat.loading.problems import render_problems
    from neuron_compat.rules.validation import validate_registry
    from neuron_compat.views.stale_claims import DEFAULT_DAYS, StalenessPolicy, stale_statements

    result = validate_registry(args.registry)
    if result.problems:
        print(render_problems(result.problems, "text"), file=sys.stderr)
        print(f"{len(result.problems)} problem(s) in {args.registry}: fix them first", file=sys.stderr)
        return EXIT_PROBLEMS
    registry = result.registry
    if not registry.releases and args.releases is not None:
        print("error: --releases needs releases in releases.yaml", file=sys.stderr)
        return EXIT_USAGE
    days = args.days if (args.days is not None or args.releases is not None) else DEFAULT_DAYS
    policy = StalenessPolicy(today=args.today or dt.date.today(), days=days, releases=args.releases)
    cutoff = policy.cutoff(registry)
    found = stale_statements(registry, policy)

    if args.format == "json":
        print(json.dumps({
            "today": policy.today.isoformat(),
            "cutoff": cutoff.isoformat() if cutoff else None,
            "stale": [{
                "family": item.family.id, "index": item.index, "anchor": item.statement.anchor,
                "stack": item.statement.stack, "workload": item.statement.workload,
                "hardware": list(item.statement.hardware), "status": item.statement.status,
                "since": item.statement.since, "last_verified": item.last_verified.isoformat(),
                "age_days": item.age_days,
            } for item in found],
        }, indent=1, allow_nan=False))
        return EXIT_OK
    locators: dict[str, Locator] = {}
    for item in found:
        loaded = registry.family_file(item.family.id)
        where = item.family.id
        if loaded is not None:
            locator = locators.setdefault(item.family.id, Locator(loaded.text))
            line, _ = locator.position(("support", item.index))
            where = f"{loaded.display}:{line}"
        print(f"{where}: {item.describe()}")
    rule = []
    if days is not None:
        rule.append(f"{days} days")
    if args.releases is not None:
        by_date = sorted(registry.releases, key=lambda r: r.date, reverse=True)
        kth = by_date[min(args.releases, len(by_date)) - 1]
        rule.append(f"the date of the {_ordinal(args.releases)} release, Neuron {kth.version} ({kth.date})")
    total = sum(len(f.support) for f in registry.families)
    print(f"{len(found)} of {total} statement(s) last verified before {cutoff} (limit: {' or '.join(rule)}, "
          f"today {policy.today}); re-check them and record the run with `neuron-compat add-evidence`", file=sys.stderr)
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "stale", help="list statements whose newest source is older than N days or K releases",
        description="List statements whose newest source `verified` date is older than --days N before --today, "
        "or older than the date of the --releases K-th newest Neuron release (default: --days 365). "
        "A report: exits 0 whatever it finds (1 if the registry has problems, 2 for bad options).",
    )
    add_registry_argument(parser)
    parser.add_argument("--days", type=_positive_or_zero, metavar="N", help="stale when verified more than N days ago")
    parser.add_argument("--releases", type=_at_least_one, metavar="K",
                        help="stale when verified before the K-th newest Neuron release came out")
    parser.add_argument("--today", type=argparse_type(iso_date), metavar="YYYY-MM-DD", help="the reference date (default: today)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(handler=run)
