"""`neuron-compat explain "<error text>"`: which known issues (registry/known-issues/) match a pasted log.

Exit codes: 0 one or more matched, 4 none matched, 1 bad input (an unreadable file, a registry problem)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neuron_compat.commands.common import EXIT_PROBLEMS
from neuron_compat.safeio.bounded_read import UnreadableFile, read_tail
from neuron_compat.safeio.option_values import argparse_type, whole_number
from neuron_compat.safeio.safe_text import one_line

EXIT_NONE_MATCHED = 4


def _fail(message: str) -> int:
    print(f"neuron-compat explain: {one_line(message)}", file=sys.stderr)
    return EXIT_PROBLEMS


@dataclass(frozen=True)
class LogText:
    """The log read: its text (the last MAX_TEXT characters at most) and how many bytes before them were not read."""

    text: str
    skipped: int = 0


def _read_text(args: argparse.Namespace) -> LogText | None:
    from neuron_compat.check.explain import MAX_TEXT

    if args.file is None:
        return _cut(" ".join(args.text), 0)
    try:
        if args.file == "-":
            data, size = _read_stdin(MAX_TEXT)
        else:
            data, size = read_tail(Path(args.file).expanduser(), MAX_TEXT)
    except UnreadableFile as error:
        _fail(f"{args.file}: {error}")
        return None
    skipped = size - len(data)
    text = data.decode("utf-8", errors="replace")
    if skipped:  # the first line read is a part of a line
        text = text.split("\n", 1)[1] if "\n" in text else text
    return LogText(text, skipped)


def _cut(text: str, skipped: int) -> LogText:
    from neuron_compat.check.explain import MAX_TEXT

    if len(text) <= MAX_TEXT:
        return LogText(text, skipped)
    return LogText(text[-MAX_TEXT:], skipped + len(text[:-MAX_TEXT].encode("utf-8", errors="replace")))


def _read_stdin(limit: int) -> tuple[bytes, int]:
    """(the last `limit` bytes of standard input, how many it had), read as a stream; UnreadableFile when it is
    closed or cannot be read."""
    stream = sys.stdin
    if stream is None or getattr(stream, "closed", True):
        raise UnreadableFile("standard input is closed; pipe the error text in or give --file PATH")
    kept: deque[bytes] = deque()
    held = total = 0
    try:
        while True:
            chunk = stream.buffer.read(1 << 20)
            if not chunk or not isinstance(chunk, bytes):
                break
            kept.append(chunk)
            held += len(chunk)
            total += len(chunk)
            while held - len(kept[0]) >= limit:
                held -= len(kept.popleft())
    except (OSError, ValueError, AttributeError) as error:
        reason = getattr(error, "strerror", None) or "closed or not readable"
        raise UnreadableFile(f"standard input cannot be read: {reason}") from None
    data = b"".join(kept)
    return data[-limit:], total


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


def _known_line(issue: dict[str, Any]) -> str:
    from neuron_compat.check.explain import listing_words

    listed = issue.get("listed_in") or {}
    fixed = issue.get("fixed_in") or {}
    facts = [f"{issue.get('kind') or 'curated'}" + (f" ({issue['component']})" if issue.get("component") else "")]
    if listed:
        facts.append(f"listed in the notes of {listed.get('first')} to {listed.get('last')}")
    if listing_words(issue):
        facts.append(str(listing_words(issue)))
    if fixed and not fixed.get("derived"):
        facts.append(f"fixed in {fixed.get('release')}")
    return f"  known: {'; '.join(facts)}"


def _text_lines(match: Any, index: int) -> list[str]:
    from neuron_compat.check.explain import site_url

    issue = match.issue
    labels = []
    if match.stack_match is False:
        labels.append("other stack")
    if match.hardware_match is False:
        labels.append("other hardware")
    label = f" [{', '.join(labels)}]" if labels else ""
    lines = [f"{index}. {issue.get('id')}: {issue.get('title')}{label}",
             f"  why: {'; '.join(match.why)} ({TIER_WORDS.get(match.tier, match.tier)}, score {match.score:.1f})"]
    lines += [f"  log line {e.line}: {e.text}" for e in match.evidence[:3]]
    lines += [_stack_line(issue), _known_line(issue)]
    if match.release:
        lines.append(f"  release {match.release['release']}: {match.release['says']}")
    if issue.get("families"):
        lines.append(f"  families: {', '.join(issue['families'])}")
    if issue.get("pin_release"):
        lines.append(f"  the source recommends release {issue['pin_release']}")
    lines.append(f"  what: {issue.get('description')}")
    if issue.get("workaround"):
        lines.append(f"  workaround: {issue['workaround']}")
    lines.append(f"  site: {site_url(str(issue.get('id')))}")
    for source in issue.get("sources") or []:
        lines.append(f"  source: {source.get('url')}")
    return lines


TIER_WORDS = {"code": "an error code", "phrase": "a distinctive phrase", "words": "the words of a phrase"}


def explain_output(text: str, registry: Any, origin: str, *, stack: str | None = None,
                   hardware: str | None = None, release: str | None = None,
                   limit: int | None = None, skipped: int = 0) -> tuple[int, dict[str, Any], list[str]]:
    """What `explain` answers for an error text, once for every surface (this command, the site's explain box):
    (exit code, the `--json` document, the lines the text output prints). `origin` describes the registry; `skipped`:
    how many bytes of the log before `text` were not read (its cap). A longer `text` is cut to its last MAX_TEXT
    characters."""
    from neuron_compat.check.explain import MAX_TEXT, match_issues

    log = _cut(text, skipped)
    text, skipped = log.text, log.skipped
    matches = match_issues(text, registry.known_issues, stack=stack, hardware=hardware, release=release)
    refused = _refusal_answers(text, registry)
    code = 0 if matches or refused else EXIT_NONE_MATCHED
    browse_only = sum(1 for issue in registry.known_issues if isinstance(issue, dict) and not issue.get("match"))
    document = {"format": "neuron-compat-explain/1", "matched": len(matches), "truncated": skipped > 0,
                "skipped_bytes": skipped, "read_limit": MAX_TEXT,
                "stack": stack, "hardware": hardware, "release": release,
                "refusals": refused, "issues": [m.to_dict() for m in matches],
                "known_issues": len(registry.known_issues), "browse_only": browse_only, "registry": origin}
    lines: list[str] = []
    if skipped:
        lines.append(f"(the log is longer than the {MAX_TEXT // (1024 * 1024)} MB read: its first {skipped} bytes "
                     "were not read; its end was)")
    for refusal in refused:
        named = ", ".join(refusal["architectures"]) or str(refusal["model_type"])
        lines.append(f"{refusal['stack']} refused {named}: {refusal['summary']}")
    if code == EXIT_NONE_MATCHED:
        lines.append(f"No known issue matched ({len(registry.known_issues)} known issues in {origin}; "
                     f"{browse_only} of them quote no error text and are listed on the site only).")
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
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry

    if not args.text and args.file is None:
        return _fail('give the error text: neuron-compat explain "<error text>" (or --file PATH, --file - for stdin)')
    log = _read_text(args)
    if log is None:
        return EXIT_PROBLEMS
    if not log.text.strip():
        return _fail("the error text is empty")
    if _binary(log.text):
        return _fail("the input is binary (NUL bytes or mostly not UTF-8), not a log")
    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message)
    if args.stack is not None and args.stack not in {s.id for s in registry.stacks}:
        return _fail(f"unknown stack '{args.stack}'; known stacks: {', '.join(s.id for s in registry.stacks)}")
    if args.release is not None and args.release not in registry.release_versions:
        return _fail(f"Neuron release '{args.release}' is not in the registry")
    code, document, lines = explain_output(log.text, registry, origin.describe(), stack=args.stack,
                                           hardware=args.hardware, release=args.release, limit=args.limit,
                                           skipped=log.skipped)
    if args.json:
        sys.stdout.write(json.dumps(document, indent=1, allow_nan=False) + "\n")
    else:
        sys.stdout.write("\n".join(lines) + "\n")
    return code


SAMPLE = 200_000
"""How much of the log's start and end the binary test looks at."""


def _binary(text: str) -> bool:
    for part in (text[:SAMPLE], text[-SAMPLE:]):
        if "\x00" in part or part.count("\ufffd") * 10 > len(part):
            return True
    return False


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "explain", help="which known Neuron issues match an error message",
        description="Match a pasted log against the registry's known issues (error-code pages, troubleshooting pages, "
        "release-note known issues and bug fixes, curated runtime and host errors). The whole log is read (its last "
        "64 MB, the last error lines first); timestamps, ids, ranks, sizes, numbers, paths and hex addresses are "
        "normalised. Ranked: an error code beats a distinctive phrase beats the words of a phrase; a generic phrase "
        "alone never matches. Each answer says why (the log line), its score, the entry's site anchor and its "
        "sources. A stack's refusal of a model is answered with that model's support. "
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
