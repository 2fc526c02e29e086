"""`neuron-compat explain "<error text>"`: which known issues (registry/known-issues/) match a pasted log.

Exit codes: 0 one or more matched, 4 none matched, 1 bad input (an unreadable file, a registry problem)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from neuron_compat.commands.common import EXIT_PROBLEMS
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.option_values import argparse_type, whole_number
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


def _refusal_answers(text: str, registry: object) -> list[dict[str, Any]]:
    """Each refusal of a stack, with the registry's support answer for the model it names (one resolve call)."""
    from neuron_compat.check.config_facts import facts_from_config
    from neuron_compat.check.explain import refusals
    from neuron_compat.check.resolver import ResolveError, resolve

    answers: list[dict[str, Any]] = []
    for refusal in refusals(text):
        config: dict[str, Any] = {"architectures": refusal.architectures} if refusal.architectures else {}
        if refusal.model_type:
            config["model_type"] = refusal.model_type
        entry = refusal.to_dict()
        try:
            verdict = resolve(facts_from_config(config), registry, stack=refusal.stack)  # type: ignore[arg-type]
        except (ResolveError, ValueError) as error:
            entry.update(family=None, status="unknown", summary=str(error))
        else:
            entry.update(family=verdict.family.id if verdict.family else None, status=verdict.status,
                         summary=verdict.summary)
        answers.append(entry)
    return answers


def _stack_line(issue: dict[str, Any]) -> str:
    stacks = []
    for affected in issue.get("stacks") or []:
        where = str(affected.get("stack", "?"))
        if affected.get("since"):
            where += f" from {affected['since']}"
        if affected.get("fixed_in"):
            where += f", fixed in {affected['fixed_in']}"
        stacks.append(where)
    line = f"  stacks: {'; '.join(stacks) or 'none of the registry (component ' + str(issue.get('component')) + ')'}"
    return line + (f" | hardware: {', '.join(issue['hardware'])}" if issue.get("hardware") else "")


def _text_lines(match: Any, index: int) -> list[str]:
    issue = match.issue
    labels = []
    if match.stack_match is False:
        labels.append("other stack")
    if match.hardware_match is False:
        labels.append("other hardware")
    label = f" [{', '.join(labels)}]" if labels else ""
    lines = [f"{index}. {issue.get('id')}: {issue.get('title')}{label}",
             f"  why: {'; '.join(match.why)}", _stack_line(issue)]
    kind = issue.get("kind") or "curated"
    listed = issue.get("listed_in") or {}
    fixed = issue.get("fixed_in") or {}
    facts = [f"{kind}" + (f" ({issue['component']})" if issue.get("component") else "")]
    if listed:
        facts.append(f"listed in the notes of {listed.get('first')} to {listed.get('last')}")
    if fixed:
        facts.append(f"not listed from {fixed.get('release')} (derived)" if fixed.get("derived")
                     else f"fixed in {fixed.get('release')}")
    lines.append(f"  known: {'; '.join(facts)}")
    if match.release:
        lines.append(f"  release {match.release['release']}: {match.release['says']}")
    if issue.get("families"):
        lines.append(f"  families: {', '.join(issue['families'])}")
    if issue.get("pin_release"):
        lines.append(f"  the source recommends release {issue['pin_release']}")
    lines.append(f"  what: {issue.get('description')}")
    if issue.get("workaround"):
        lines.append(f"  workaround: {issue['workaround']}")
    for source in issue.get("sources") or []:
        lines.append(f"  source: {source.get('url')}")
    return lines


def explain_output(text: str, registry: Any, origin: str, *, stack: str | None = None,
                   hardware: str | None = None, release: str | None = None,
                   limit: int | None = None) -> tuple[int, dict[str, Any], list[str]]:
    """What `explain` answers for an error text, once for every surface (this command, the site's explain box):
    (exit code, the `--json` document, the lines the text output prints). `origin` describes the registry."""
    from neuron_compat.check.explain import MAX_TEXT, match_issues

    matches = match_issues(text, registry.known_issues, stack=stack, hardware=hardware, release=release)
    refused = _refusal_answers(text, registry)
    code = 0 if matches or refused else EXIT_NONE_MATCHED
    document = {"format": "neuron-compat-explain/1", "matched": len(matches), "truncated": len(text) > MAX_TEXT,
                "stack": stack, "hardware": hardware, "release": release,
                "refusals": refused, "issues": [m.to_dict() for m in matches],
                "known_issues": len(registry.known_issues), "registry": origin}
    lines: list[str] = []
    if len(text) > MAX_TEXT:
        lines.append(f"(only the first {MAX_TEXT} characters of the error text were read)")
    for refusal in refused:
        named = ", ".join(refusal["architectures"]) or str(refusal["model_type"])
        lines.append(f"{refusal['stack']} refused {named}: {refusal['summary']}")
    if code == EXIT_NONE_MATCHED:
        lines.append(f"No known issue matched ({len(registry.known_issues)} known issues in {origin}).")
        lines.append("If it is a Neuron error worth knowing, add it to registry/known-issues/curated.yaml (CONTRIBUTING.md).")
        return code, document, [one_line(line) for line in lines]
    shown = matches if limit is None else matches[:limit]
    for index, match in enumerate(shown, start=1):
        lines.extend(_text_lines(match, index))
        lines.append("")
    if len(matches) > len(shown):
        lines.append(f"... {len(matches) - len(shown)} more (--limit, or --json for all)")
    while lines and not lines[-1]:
        lines.pop()
    return code, document, [one_line(line) for line in lines]


def run(args: argparse.Namespace) -> int:
    from neuron_compat.check.explain import MAX_TEXT
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry

    if not args.text and args.file is None:
        return _fail('give the error text: neuron-compat explain "<error text>" (or --file PATH, --file - for stdin)')
    text = _read_text(args)
    if text is None:
        return EXIT_PROBLEMS
    if not text.strip():
        return _fail("the error text is empty")
    head = text[:MAX_TEXT]
    if "\x00" in head or head.count("\ufffd") * 10 > len(head):
        return _fail("the input is binary (NUL bytes or mostly not UTF-8), not a log")
    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message)
    if args.stack is not None and args.stack not in {s.id for s in registry.stacks}:
        return _fail(f"unknown stack '{args.stack}'; known stacks: {', '.join(s.id for s in registry.stacks)}")
    if args.release is not None and args.release not in registry.release_versions:
        return _fail(f"Neuron release '{args.release}' is not in the registry")
    code, document, lines = explain_output(text, registry, origin.describe(), stack=args.stack,
                                           hardware=args.hardware, release=args.release, limit=args.limit)
    if args.json:
        sys.stdout.write(json.dumps(document, indent=1, allow_nan=False) + "\n")
    else:
        sys.stdout.write("\n".join(lines) + "\n")
    return code


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "explain", help="which known Neuron issues match an error message",
        description="Match a pasted log against the registry's known issues (error-code pages, troubleshooting pages, "
        "release-note known issues and bug fixes): timestamps, ids, numbers, paths and hex addresses are normalised, "
        "codes match as whole tokens, phrases across line breaks; best first (a code, then the longest phrase), with "
        "why. A stack's refusal of a model is answered with that model's support. "
        "Exit codes: 0 matched, 4 none matched, 1 bad input.")
    parser.add_argument("text", nargs="*", help="the error text (quote it)")
    parser.add_argument("--file", metavar="PATH", help="read the error text from a file ('-' for stdin)")
    parser.add_argument("--stack", help="rank issues of this stack first (an id from stacks.yaml); others follow, labelled")
    parser.add_argument("--hardware", choices=["inf1", "inf2", "trn1", "trn2", "trn3"],
                        help="rank issues of this hardware first; others follow, labelled")
    parser.add_argument("--release", metavar="R", help="say whether Neuron release R is affected and which release fixed it")
    parser.add_argument("--limit", type=argparse_type(whole_number, minimum=1), default=5, metavar="N", help="print the N best matches (default 5)")
    parser.add_argument("--json", action="store_true", help="print the matches as JSON")
    parser.add_argument("--registry", metavar="DIR|FILE|URL", help="answer from this registry (as for check)")
    parser.add_argument("--offline", action="store_true", help="with a registry URL: use the cached copy")
    parser.set_defaults(handler=run)
