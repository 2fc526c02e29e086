"""Registry text made safe to print on one line: the one escaping used for every problem line and terminal output.

A newline in a YAML key would otherwise start a new line in a CI log (where `::error ...::` is a workflow
command), and an ESC would let registry text drive the terminal (set its title, clear the screen). Every
C0 and C1 control, DEL, the Unicode line and paragraph separators and the bidirectional/invisible format
marks are written as visible escapes: `\\n`, `\\t`, `\\x1b`, `\\u2028`. The backslash itself is left as it
is (a Windows path stays readable); the escapes only show what was there, they are never read back.
"""

from __future__ import annotations

import re
import sys

# Bidi embeddings, overrides, isolates and marks (LRM, RLM, ALM): they reorder the text around them.
BIDI_CHARACTERS = "".join(map(chr, [0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
# C0 controls, DEL, C1 controls; U+2028/U+2029 (line and paragraph separators); the bidi characters.
# Lone surrogates too (a str from JSON's "\\ud800" or a surrogate-escaped file name): they cannot be printed.
UNSAFE_CHARACTERS = "\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff" + BIDI_CHARACTERS
_UNSAFE = re.compile(f"[{UNSAFE_CHARACTERS}]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """`text` with every control, line separator and bidi mark shown as an escape; unchanged when there is none."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def has_unsafe_characters(text: str) -> bool:
    return _UNSAFE.search(text) is not None


def first_unsafe_character(text: str, allowed: str = "") -> str | None:
    """The first control, separator or bidi character in `text` that is not in `allowed` (None if there is none)."""
    for match in _UNSAFE.finditer(text):
        if match.group() not in allowed:
            return match.group()
    return None


def value_error_reason(error: Exception, limit: int = 100) -> str:
    """Why untrusted text (JSON, YAML) held a value that could not be built, in words for a person.

    Python refuses integers of more than sys.get_int_max_str_digits() digits with advice for programmers
    (`use sys.set_int_max_str_digits()`); that becomes 'a number with more than 4300 digits'.
    """
    text = str(error)
    if "integer string conversion" in text:
        return f"a number with more than {sys.get_int_max_str_digits()} digits"
    return text[:limit]
