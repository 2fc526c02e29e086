"""The part of a pasted log that `explain` reads: its error lines, the last ones first (standard library only).

A failed job's log can be long (a compile log of several megabytes) and the error that matters is usually near its
end. The log is read whole up to MAX_LOG_CHARS (the reader says when the cap is reached); its lines are scanned from
the last one back, and each line that reads like an error (an error word, or a code-shaped token such as
`NCC_EOOM001` or `NRT_RESOURCE`) is kept with one line before and two after (messages wrap), up to MAX_ERROR_LINES
error lines. A short paste (at most SHORT_PASTE_LINES lines) is read whole. Overly long lines are cut into pieces of
MAX_LINE characters, so a log without line breaks is read like any other.

Time is linear in the log: one pass over its lines with fixed patterns of this module."""

from __future__ import annotations

import re
from dataclasses import dataclass

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

_ERROR_LINE = re.compile(
    r"(?i:error|fail|exception|fatal|abort|cannot|can't|could not|unable|not supported|unsupported|invalid|killed|"
    r"timeout|timed out|exceed|mismatch|denied|not found|no such|out of memory|oom|refused|traceback|assert|panic|"
    r"incompatible|not available|insufficient|overflow|leak|hang|corrupt|uncorrectable|in use|busy|too old|"
    r"requires|please (?:upgrade|install|check)|expected|segfault|signal)"
    r"|\b[A-Z][A-Z0-9]{1,15}_[A-Z0-9_]{2,}\b|\b[A-Z]{2,8}[0-9]{3,6}\b")


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


def error_blocks(text: str) -> tuple[list[Block], int]:
    """(the blocks of the log read, oldest first; the number of error lines the log has beyond those kept).
    `text` is at most MAX_LOG_CHARS (the caller cuts it)."""
    lines = _pieces(text[:MAX_LOG_CHARS])
    if len(lines) <= SHORT_PASTE_LINES:
        return ([Block(1, len(lines), "\n".join(lines))] if lines else []), 0
    chosen: list[int] = []
    skipped = 0
    for index in range(len(lines) - 1, -1, -1):
        if _ERROR_LINE.search(lines[index]):
            if len(chosen) < MAX_ERROR_LINES:
                chosen.append(index)
            else:
                skipped += 1
    spans: list[list[int]] = []
    for index in reversed(chosen):  # oldest first, merged where they touch
        start, end = max(0, index - BEFORE), min(len(lines) - 1, index + AFTER)
        if spans and start <= spans[-1][1] + 1:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return [Block(start + 1, end + 1, "\n".join(lines[start:end + 1])) for start, end in spans], skipped
