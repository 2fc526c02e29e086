"""`neuron-compat explain "<error text>"`: which known issues (registry/known-issues/) match a pasted log. This
command reads the log and prints; the answer is check/explain_answer.py's `explain_output`, which the site's
explain box runs too.

Exit codes: 0 one or more matched, 4 none matched, 1 bad input (an unreadable file, a registry problem)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from pathlib import Path

from neuron_compat.check.explain_answer import LogText, cut_log, explain_output, is_binary
from neuron_compat.commands.common import EXIT_PROBLEMS
from neuron_compat.safeio.bounded_read import UnreadableFile, read_tail
from neuron_compat.safeio.option_values import argparse_type, whole_number
from neuron_compat.safeio.safe_text import one_line


def _fail(message: str) -> int:
    print(f"neuron-compat explain: {one_line(message)}", file=sys.stderr)
    return EXIT_PROBLEMS


def _read_text(args: argparse.Namespace) -> LogText | None:
    from neuron_compat.check.explain import MAX_TEXT

    if args.file is None:
        return cut_log(" ".join(args.text), 0)
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
    if is_binary(log.text):
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
