"""The one copy of a registry file that an edit is made from, and the check that it is still what is on disk.

`add-evidence` reads the file it edits once (bytes plus identity: inode, mtime, size), validates the
registry, then reads it again: a file another program saved in between is refused instead of overwritten.
An editor saves by renaming a new file over the old one, which gives a new inode and mtime even when it
saves the same bytes; so the identity is compared as well as the bytes.
"""

from __future__ import annotations

import os
from pathlib import Path

Snapshot = tuple[bytes, tuple[int, int, int]]


class ChangedWhileRunning(Exception):
    """The file is not what it was when this run read it (an editor saved it, say)."""


def read_snapshot(path: Path) -> Snapshot | None:
    """The file's bytes as this run reads them, and its identity (inode, mtime, size) taken before.

    None when the file cannot be read (validation says why).
    """
    from neuron_compat.loading.file_caps import MAX_FILE_BYTES
    from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file

    try:
        info = os.stat(path)
        return read_regular_file(path, MAX_FILE_BYTES), (info.st_ino, info.st_mtime_ns, info.st_size)
    except (UnreadableFile, OSError):
        return None


def unchanged_text(path: Path, snapshot: Snapshot | None) -> tuple[bytes, str, str, str]:
    """The snapshot's bytes, its text with LF line endings and no BOM, and the line ending and BOM to write
    it back with; ChangedWhileRunning when the file is no longer that snapshot.

    The snapshot was read before validation and is found unchanged after it, so it is what validation
    accepted; a file that was not UTF-8 then is refused as changed rather than decoded here.
    """
    if snapshot is None or read_snapshot(path) != snapshot:
        raise ChangedWhileRunning()
    raw = snapshot[0]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ChangedWhileRunning() from None
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    line_ending = "\r\n" if "\r\n" in text else "\n"
    return raw, text.removeprefix(bom).replace("\r\n", "\n"), line_ending, bom
