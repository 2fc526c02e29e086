"""`neuron-compat release VERSION [--from VERSION] [--json]`: what a Neuron release changed, as its site page says.

The reading is views/release_summary.py's: support added, changed and removed (per family x stack x workload, folded
by hardware), lifecycle events, the component versions and those that changed, the known issues its notes list and
those fixed, the pairing lines and the measurements that moved. The registry is chosen as `check` chooses it
(registry_sources/selection.py). An unknown release is one line with the nearest known one, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, EXIT_UNREACHABLE
from neuron_compat.safeio.safe_text import one_line

SHOWN_ISSUES = 12
"""How many known issues and fixes the text lists (the JSON has them all)."""


def _fail(message: str, code: int) -> int:
    print(f"neuron-compat release: {one_line(message)}", file=sys.stderr)
    return code


def run(args: argparse.Namespace) -> int:
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry
    from neuron_compat.views.release_summary import UnknownRelease, release_summary

    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message, EXIT_UNREACHABLE if error.unreachable else EXIT_PROBLEMS)
    try:
        summary = release_summary(registry, args.version, args.since)
    except UnknownRelease as error:
        return _fail(str(error), EXIT_PROBLEMS)
    if args.json:
        sys.stdout.write(json.dumps({**summary, "registry": origin.describe()}, indent=1, allow_nan=False) + "\n")
    else:
        sys.stdout.write("\n".join(one_line(line) for line in summary_lines(summary, origin.describe())) + "\n")
    return EXIT_OK


def _listed(title: str, rows: list[str], empty: str) -> list[str]:
    lines = [f"{title} ({len(rows)}):"]
    lines += [f"  {row}" for row in rows[:SHOWN_ISSUES]] or [f"  {empty}"]
    if len(rows) > SHOWN_ISSUES:
        lines.append(f"  ... and {len(rows) - SHOWN_ISSUES} more (--json lists them all)")
    return lines


def _change_line(change: dict[str, Any]) -> str:
    where = f"{change['family_name']} / {change['stack']} / {change['workload']} / {', '.join(change['hardware'])}"
    if change["kind"] == "added":
        return f"{where}: {change['after']}"
    if change["kind"] == "removed":
        return f"{where}: was {change['before']}, no statement now"
    return f"{where}: {change['before']} -> {change['after']}"


def _issue_line(issue: dict[str, Any], fixed: bool) -> str:
    if fixed:
        return f"{issue['title']} ({issue['component']})"
    status = f"; not listed in the notes from {issue['not_listed_from']} on" if issue["not_listed_from"] else ""
    status += f"; fixed in {issue['fixed_in']}" if issue["fixed_in"] else ""
    return f"{issue['title']} ({issue['component']}{status})"


def summary_lines(summary: dict[str, Any], registry: str) -> list[str]:
    """The terminal form of a release summary."""
    compared = f"compared with {summary['from']}" if summary["from"] else "the first catalogued release"
    lines = [f"Neuron {summary['release']} ({summary['date']}), {compared}", f"  registry: {registry}",
             f"  release notes: {summary['notes_url']}", f"  hardware: {', '.join(summary['hardware']) or '-'}"]
    if summary["summary"]:
        lines.append(f"  summary: {summary['summary']}")
    lines.append(f"  stacks shipped: {', '.join(summary['stacks_shipped']) or '-'}")
    lines += [f"  ! {line}" for line in summary["pairing"]]
    lines.append("")
    for kind, title in (("added", "Support added"), ("changed", "Support changed"), ("removed", "Support removed")):
        rows = [_change_line(c) for c in summary["changes"] if c["kind"] == kind]
        lines += [f"{title} ({len(rows)}):", *(f"  {row}" for row in rows or ["none"])]
    lines += _listed("Lifecycle", summary["lifecycle"], "no stack starts or ends here")
    changed = [f"{c['component']} {c['before'] or '(none)'} -> {c['after'] or '(none)'}" for c in summary["component_changes"]]
    lines += _listed(f"Components changed since {summary['from']}" if summary["from"] else "Components", changed
                     if summary["from"] else [f"{k} {v}" for k, v in summary["components"].items()], "no change recorded")
    lines += _listed("Known issues its notes list", [_issue_line(i, False) for i in summary["known_issues"]],
                     "none harvested")
    lines += _listed("Fixed", [_issue_line(i, True) for i in summary["fixed"]], "none harvested")
    moved = [f"{m['checkpoint']} / {m['stack']} / {m['instance']}: {m['metric']} {m['before']:g} -> {m['after']:g} "
             f"{m['unit']}" + (f" ({m['change_percent']:+.1f}%)" if m["change_percent"] is not None else "")
             for m in summary["measurements_moved"]]
    lines += _listed("Measurements that moved", moved, "no configuration measured at both releases")
    return lines


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "release", help="what a Neuron release changed (support, lifecycle, known issues, components, measurements)",
        description="What a Neuron release changed, as the site's release page says it: support added, changed and "
        "removed per family x stack x workload, stack lifecycle events, component versions, the known issues its "
        "notes list and those fixed, and tested measurements that moved. Exit 0, or 1 for an unknown release.")
    parser.add_argument("version", metavar="VERSION", help="a Neuron release the registry lists, e.g. 2.27.0")
    parser.add_argument("--from", dest="since", metavar="VERSION",
                        help="compare with this older release instead of the one before (fixes and lifecycle "
                        "events of every release in between count)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--registry", metavar="DIR|FILE|URL", help="the registry to read, as for `check --registry`")
    parser.add_argument("--offline", action="store_true", help="with a registry URL: read the cached copy")
    parser.set_defaults(handler=run)
