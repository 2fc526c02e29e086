"""`neuron-compat explain "<error text>"`: which known issues (registry/known-issues.yaml) match an error.

Exit codes: 0 one or more matched, 4 none matched, 1 bad input (an unreadable file, a registry problem)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from neuron_compat.commands.common import EXIT_PROBLEMS
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.safe_text import one_line

EXIT_NONE_MATCHED = 4


def _fail(message: str) -> int:
    print(f"neuron-compat explain: {one_line(message)}", file=sys.stderr)
    return EXIT_PROBLEMS


def _read_text(args: argparse.Namespace) -> str | None:
    from neuron_compat.check.explain import MAX_TEXT

    if args.file is not None:
        limit = MAX_TEXT * 4
        try:
            data = _read_stdin(limit) if args.file == "-" else read_regular_file(
                Path(args.file).expanduser(), limit, head_only=True)
        except UnreadableFile as error:
            _fail(f"{args.file}: {error}")
            return None
        return data.decode("utf-8", errors="replace")
    return " ".join(args.text)


def _read_stdin(limit: int) -> bytes:
    """At most `limit + 1` bytes of standard input; UnreadableFile when it is closed or cannot be read."""
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", True):
        raise UnreadableFile("standard input is closed; pipe the error text in or give --file PATH")
    try:
        data = stream.buffer.read(limit + 1)
    except (OSError, ValueError, AttributeError) as error:
        reason = getattr(error, "strerror", None) or "closed or not readable"
        raise UnreadableFile(f"standard input cannot be read: {reason}") from None
    return data if isinstance(data, bytes) else b""


def run(args: argparse.Namespace) -> int:
    from neuron_compat.check.explain import MAX_TEXT, match_issues
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry

    if not args.text and args.file is None:
        return _fail('give the error text: neuron-compat explain "<error text>" (or --file PATH, --file - for stdin)')
    text = _read_text(args)
    if text is None:
        return EXIT_PROBLEMS
    if not text.strip():
        return _fail("the error text is empty")
    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message)
    matches = match_issues(text, registry.known_issues, stack=args.stack)
    if args.json:
        document = {"matched": len(matches), "truncated": len(text) > MAX_TEXT,
                    "issues": [m.to_dict() for m in matches], "registry": origin.describe()}
        sys.stdout.write(json.dumps(document, indent=1, allow_nan=False) + "\n")
        return 0 if matches else EXIT_NONE_MATCHED
    lines: list[str] = []
    if len(text) > MAX_TEXT:
        lines.append(f"(only the first {MAX_TEXT} characters of the error text were read)")
    if not matches:
        lines.append(f"No known issue matched ({len(registry.known_issues)} known issues in {origin.describe()}).")
        lines.append("If it is a Neuron error worth knowing, add it to registry/known-issues.yaml (CONTRIBUTING.md).")
        sys.stdout.write("\n".join(one_line(line) for line in lines) + "\n")
        return EXIT_NONE_MATCHED
    for match in matches:
        issue = match.issue
        matched = ", ".join([*match.codes, *(f'"{p}"' for p in match.phrases)])
        lines.append(f"{issue.get('id')}: {issue.get('title')}")
        lines.append(f"  matched: {matched}")
        stacks = []
        for affected in issue.get("stacks") or []:
            where = affected.get("stack", "?")
            if affected.get("since"):
                where += f" from {affected['since']}"
            if affected.get("fixed_in"):
                where += f", fixed in {affected['fixed_in']}"
            stacks.append(where)
        lines.append(f"  stacks: {'; '.join(stacks)}" + (f" | hardware: {', '.join(issue['hardware'])}"
                                                        if issue.get("hardware") else ""))
        if issue.get("families"):
            lines.append(f"  families: {', '.join(issue['families'])}")
        lines.append(f"  what: {issue.get('description')}")
        if issue.get("workaround"):
            lines.append(f"  workaround: {issue['workaround']}")
        for source in issue.get("sources") or []:
            lines.append(f"  source: {source.get('url')}")
        lines.append("")
    sys.stdout.write("\n".join(one_line(line) for line in lines))
    return 0


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "explain", help="which known Neuron issues match an error message",
        description="Match error text against the registry's known issues (error codes as whole tokens, phrases as "
        "case-insensitive substrings). Exit codes: 0 matched, 4 none matched, 1 bad input.")
    parser.add_argument("text", nargs="*", help="the error text (quote it)")
    parser.add_argument("--file", metavar="PATH", help="read the error text from a file ('-' for stdin)")
    parser.add_argument("--stack", help="only issues of this stack (an id from stacks.yaml)")
    parser.add_argument("--json", action="store_true", help="print the matches as JSON")
    parser.add_argument("--registry", metavar="DIR|FILE|URL", help="answer from this registry (as for check)")
    parser.add_argument("--offline", action="store_true", help="with a registry URL: use the cached copy")
    parser.set_defaults(handler=run)
