"""The command line's own arguments, escaped wherever a message echoes them: the one place argv meets output.

A revision `HEAD\\n::error::forged` or a path with an ESC in it would otherwise be printed as given inside an
error line, forging a CI workflow command or driving the terminal. `EchoEscapingStream` wraps stdout and
stderr for one run: every occurrence of an argument (or of a piece of it a message may quote: a path
component, the value of `--opt=value`) that holds a control, line separator or bidi character is written as
`safe_text.one_line` shows it. On stderr, which only people read, any other such character left (from an
OS error message, say) is escaped too; stdout keeps its bytes, since JSON output escapes its own.
Both streams write what the encoding cannot hold as backslash escapes instead of failing (an ASCII locale).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from typing import TextIO

from neuron_compat.safeio.safe_text import has_unsafe_characters, one_line


def hostile_pieces(arguments: Iterable[str]) -> list[str]:
    """The arguments, and the pieces of them a message may quote, that hold an unsafe character; longest first."""
    pieces: set[str] = set()
    for argument in arguments:
        candidates = {argument, argument.partition("=")[2], os.path.normpath(argument) if argument else ""}
        for candidate in list(candidates):
            candidates.update(candidate.split(os.sep))
        pieces.update(piece for piece in candidates if piece and has_unsafe_characters(piece))
    return sorted(pieces, key=len, reverse=True)


class EchoEscapingStream(io.TextIOBase):
    """A text stream that escapes `pieces` (and, with `escape_all`, every unsafe character but newline and tab)."""

    def __init__(self, stream: TextIO, pieces: list[str], escape_all: bool) -> None:
        super().__init__()
        self._stream = stream
        self._pieces = pieces
        self._escape_all = escape_all

    def write(self, text: str) -> int:
        shown = text
        for piece in self._pieces:
            if piece in shown:
                shown = shown.replace(piece, one_line(piece))
        if self._escape_all and has_unsafe_characters(shown):
            shown = "\n".join("\t".join(one_line(part) for part in line.split("\t")) for line in shown.split("\n"))
        self._stream.write(shown)
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._stream.encoding


def tolerate_unencodable(stream: TextIO) -> None:
    """Characters the stream's encoding cannot hold (an emoji on an ASCII stdout) become backslash escapes."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="backslashreplace")
        except (ValueError, OSError):  # a stream already written to in an incompatible way: leave it
            pass
