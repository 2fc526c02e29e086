"""The part of a pasted log that `explain` reads: its error lines, the last ones first (standard library only).

A failed job's log can be long (a compile log of several megabytes) and the error that matters is usually near its
end. The log is read whole up to MAX_LOG_CHARS (the reader says when the cap is reached); its lines are scanned from
the last one back, and each line that reads like an error (an error word of ERROR_WORDS, `ncc_` or `nrt_` among them)
is kept with one line before and two after (messages wrap), up to MAX_ERROR_LINES
error lines. A short paste (at most SHORT_PASTE_LINES lines) is read whole. Overly long lines are cut into pieces of
MAX_LINE characters, so a log without line breaks is read like any other.

Time is linear in the log: one substring search per error word over the whole log."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

MAX_LOG_CHARS = 64 * 1024 * 1024
"""The most characters of a log read; the rest is ignored, and the answer says so."""
MAX_ERROR_LINES = 400
"""The most error lines kept (the last ones of the log)."""
SHORT_PASTE_LINES = 60
"""A paste with at most this many lines is read whole, error words or not."""
MAX_LINE = 2_000
"""A longer line is read as pieces of this many characters."""
BEFORE, AFTER = 1, 2
"""Lines kept around an error line: the one before it, and the two after it (a wrapped message)."""

ERROR_WORDS = (
    "error", "fail", "exception", "fatal", "abort", "cannot", "can't", "could not", "unable", "supported", "invalid",
    "killed", "timeout", "timed out", "exceed", "mismatch", "denied", "not found", "no such", "out of memory", "oom",
    "refused", "traceback", "assert", "panic", "incompatible", "not available", "insufficient", "overflow", "leak",
    "hang", "corrupt", "uncorrectable", "in use", "busy", "too old", "requires", "please", "expected", "segfault",
    "signal", "ncc_", "nrt_", "nerr", "neuron_hw_err")
"""What makes a line an error line (case folded, as substrings): each is searched once over the whole log, which is
faster than a pattern tried at every character."""


@dataclass(frozen=True)
class Block:
    """Consecutive lines of the log around one or more error lines: where they are (1-based) and their text."""

    first: int
    last: int
    text: str


def _pieces(text: str) -> list[str]:
    lines: list[str] = []
    for line in text.splitlines():
        if len(line) <= MAX_LINE:
            lines.append(line)
        else:
            lines.extend(line[start:start + MAX_LINE] for start in range(0, len(line), MAX_LINE))
    return lines


def _error_lines(lines: list[str]) -> list[int]:
    """The indexes of the lines with an error word, in order."""
    text = "\n".join(lines).casefold()
    if len(text) != sum(len(line) + 1 for line in lines) - 1:  # case folding changed a length (e.g. "ß"): per line
        return [index for index, line in enumerate(lines) if any(word in line.casefold() for word in ERROR_WORDS)]
    starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    found: set[int] = set()
    for word in ERROR_WORDS:
        position = text.find(word)
        while position >= 0:
            line = bisect_right(starts, position) - 1
            found.add(line)
            position = text.find(word, starts[line + 1] if line + 1 < len(starts) else len(text))
    return sorted(found)


def error_blocks(text: str) -> tuple[list[Block], int]:
    """(the blocks of the log read, oldest first; the number of error lines the log has beyond those kept).
    `text` is at most MAX_LOG_CHARS (the caller cuts it)."""
    lines = _pieces(text[:MAX_LOG_CHARS])
    if len(lines) <= SHORT_PASTE_LINES:
        return ([Block(1, len(lines), "\n".join(lines))] if lines else []), 0
    errors = _error_lines(lines)
    chosen, skipped = errors[-MAX_ERROR_LINES:], max(0, len(errors) - MAX_ERROR_LINES)
    spans: list[list[int]] = []
    for index in chosen:  # oldest first, merged where they touch
        start, end = max(0, index - BEFORE), min(len(lines) - 1, index + AFTER)
        if spans and start <= spans[-1][1] + 1:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [Block(start + 1, end + 1, "\n".join(lines[start:end + 1])) for start, end in spans], skipped

