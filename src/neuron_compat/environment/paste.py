"""A pasted environment, read: the text a user copies from their terminal (`pip freeze`, `pip list`, `neuron-ls` as
a table or as JSON, a container image URI, or several of them one after the other) into packages, devices and an
image, with every line that none of the readers knows listed as not recognised.

Reading is bounded: at most `MAX_BYTES` of text (a FIFO, a device or a directory is refused before a byte is read,
by safeio.bounded_read), at most `MAX_LINES` lines, and binary input is refused, each with a one-line reason.
"""

from __future__ import annotations

import bisect
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from neuron_compat.environment.container_image import ContainerImage, read_image
from neuron_compat.environment.neuron_ls import (
    Devices,
    NeuronLsFormatError,
    devices_from_json,
    read_table_line,
)
from neuron_compat.environment.pip_text import PipLine, PipShow, read_pip_line
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.safe_text import one_line

MAX_BYTES = 2 * 1024 * 1024
"""The most text read (a `pip freeze` of 400 packages is about 12 KB; neuron-ls of 16 devices about 20 KB)."""
MAX_LINES = 50_000
MAX_JSON_ATTEMPTS = 20
"""Lines starting with '[' or '{' tried as a JSON document (neuron-ls's is one; a paste holds at most a few)."""
SHOWN_NOT_RECOGNISED = 8
"""How many not-recognised lines are quoted (all are counted)."""


BINARY = "not text (binary data); paste the output of pip freeze, pip list or neuron-ls"


class PasteError(ValueError):
    """The paste cannot be read at all: a one-line reason for a person."""


@dataclass
class Paste:
    """What the readers found in a paste."""

    packages: list[PipLine] = field(default_factory=list)
    devices: Devices | None = None
    image: ContainerImage | None = None
    formats: list[str] = field(default_factory=list)
    not_recognised: list[tuple[int, str]] = field(default_factory=list)
    show: PipShow = field(default_factory=PipShow)

    def note_format(self, name: str) -> None:
        if name not in self.formats:
            self.formats.append(name)


def read_paste_file(path: str, stdin: BinaryIO | None = None) -> Paste:
    """The paste in `path` ('-': standard input, read up to MAX_BYTES). Raises PasteError."""
    if path == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise PasteError(f"standard input has more than {MAX_BYTES // 1024 // 1024} MiB; paste the pip list and "
                             "neuron-ls output only")
        try:
            return read_paste(data)
        except PasteError as error:
            raise PasteError(f"standard input: {error}") from None
    try:
        data = read_regular_file(Path(path).expanduser(), MAX_BYTES)
    except UnreadableFile as error:
        raise PasteError(f"{path}: {error}") from None
    try:
        return read_paste(data)
    except PasteError as error:
        raise PasteError(f"{path}: {error}") from None


def decode(data: bytes) -> str:
    """The text of a paste. Raises PasteError for binary data or text that is not UTF-8 (or UTF-16 with a BOM,
    what PowerShell's `>` writes)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise PasteError("not text: the UTF-16 mark is followed by bytes that are not UTF-16") from None
    if b"\0" in data[:65536]:
        raise PasteError(BINARY)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise PasteError(f"not UTF-8 text (byte {error.start}); paste the output of pip freeze, pip list or "
                         "neuron-ls") from None


def read_paste(data: bytes | str) -> Paste:
    """Read a paste. Raises PasteError when nothing in it can be read as any of the formats."""
    text = decode(data) if isinstance(data, bytes) else data
    if "\0" in text[:65536]:  # text handed over as str (the check page) is held to what a file is
        raise PasteError(BINARY)
    kept = text.splitlines(keepends=True)
    if len(kept) > MAX_LINES:
        raise PasteError(f"{len(kept)} lines; at most {MAX_LINES} are read (paste the pip list and neuron-ls output only)")
    lines = [line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029") for line in kept]
    starts = [0]
    for line in kept:
        starts.append(starts[-1] + len(line))
    paste = Paste()
    number = 0
    attempts = 0
    while number < len(lines):
        raw = lines[number]
        stripped = raw.strip()
        if stripped.startswith(("[", "{")) and attempts < MAX_JSON_ATTEMPTS:
            attempts += 1
            consumed = _json_block(paste, text, starts, lines, number)
            if consumed:
                number += consumed
                continue
        number += 1
        _read_line(paste, raw, number)
    if not (paste.packages or paste.devices or paste.image):
        shown = "; ".join(f"line {n}: {one_line(t[:60])}" for n, t in paste.not_recognised[:2])
        raise PasteError("nothing recognised: expected pip freeze, pip list, neuron-ls (table or JSON) or a Neuron "
                         "container image URI" + (f" ({shown})" if shown else ""))
    return paste


def _json_block(paste: Paste, text: str, starts: list[int], lines: list[str], start: int) -> int:
    """Lines used by the JSON document starting on line `start` (0: none there). The document is decoded in place
    (an offset into the text, never a copy of the rest of it: a paste of many '[' lines stays linear)."""
    offset = starts[start] + (len(lines[start]) - len(lines[start].lstrip()))
    try:
        document, end = json.JSONDecoder().raw_decode(text, offset)
    except (json.JSONDecodeError, RecursionError):
        if start == 0 and text[offset:offset + 2].startswith(("[{", "{")) and not _plain_lines(lines):
            raise PasteError("JSON that does not parse; paste all of neuron-ls's output") from None
        return 0
    except ValueError:  # an integer of thousands of digits
        raise PasteError("JSON with a number too long to read") from None
    used = bisect.bisect_left(starts, end, lo=start + 1) - start  # the lines the document reaches into
    try:
        devices = devices_from_json(document)
    except NeuronLsFormatError as error:
        if start == 0 and not text[end:].strip():  # the whole paste: say why nothing is read
            raise PasteError(str(error)) from None
        paste.not_recognised.append((start + 1, f"a JSON document of {used} lines that is not neuron-ls output"))
        return used
    devices.lines = list(range(start + 1, start + used + 1))
    paste.devices = _merged(paste.devices, devices)
    paste.note_format(devices.format)
    return used


def _plain_lines(lines: list[str]) -> bool:
    return any(read_pip_line(line, 0) not in (None, True) for line in lines[:200])


def _merged(before: Devices | None, after: Devices) -> Devices:
    """Two neuron-ls outputs in one paste (the table and its JSON): the later one, with what only the earlier said."""
    if before is None:
        return after
    if after.count == 0:
        after.count, after.cores, after.memory_gib = before.count, before.cores, before.memory_gib
    after.instance_type = after.instance_type or before.instance_type
    after.lnc = after.lnc or before.lnc
    return after


def _read_line(paste: Paste, raw: str, number: int) -> None:
    table = read_table_line(raw, number, paste.devices if paste.devices and paste.devices.format == "neuron-ls" else None)
    if table is not None:
        if isinstance(table, Devices):
            paste.devices = _merged(paste.devices, table) if paste.devices is not table else table
            paste.note_format("neuron-ls")
        return
    image = read_image(raw, number)
    if image is not None:
        paste.image = image
        paste.note_format("container image")
        return
    shown = paste.show.read(raw, number)
    pip = shown if shown is not None else read_pip_line(raw, number)
    if isinstance(pip, PipLine):
        paste.packages.append(pip)
        paste.note_format(pip.kind)
    elif pip is None and not _shell_prompt(raw):
        paste.not_recognised.append((number, raw.strip()))


def _shell_prompt(text: str) -> bool:
    """A command line the user copied with its output: `$ pip list`, `(venv) user@host:~$ neuron-ls -j`."""
    stripped = text.strip()
    return stripped.startswith(("$ ", "# ", "> ", "%")) or ("$ " in stripped[:80] and any(
        word in stripped for word in ("pip", "neuron-ls", "docker", "conda")))
