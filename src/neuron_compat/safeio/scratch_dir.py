"""Temporary directories that a killed run does not leave behind for good.

`tempfile.TemporaryDirectory` removes its directory when the block ends, but not when the process is killed
(SIGKILL, an OOM kill, a closed CI job). So before making a new one, `scratch_directory` removes directories
with the same prefix in the same temporary folder that belong to this user and have not been touched for
STALE_SECONDS: what a killed run left. atomic_write uses the same age for its leftover `.tmp` files.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STALE_SECONDS = 15 * 60
"""A temporary older than this is a leftover: no run of these tools takes minutes."""


@contextmanager
def scratch_directory(prefix: str) -> Iterator[Path]:
    """A new temporary directory named `prefix...`, removed at the end; stale ones of the same prefix go first."""
    remove_stale(Path(tempfile.gettempdir()), prefix)
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        yield Path(tmp)


def remove_stale(folder: Path, prefix: str, suffix: str = "") -> None:
    """Remove this user's entries `prefix*suffix` in `folder` untouched for STALE_SECONDS (best effort, never raises)."""
    cutoff = time.time() - STALE_SECONDS
    uid = os.getuid() if hasattr(os, "getuid") else None
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(suffix)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if info.st_mtime >= cutoff or (uid is not None and info.st_uid != uid):
                continue
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(entry.path, ignore_errors=True)  # unlinks the symlinks inside, never follows them
            elif stat.S_ISREG(info.st_mode):
                os.unlink(entry.path)
        except OSError:
            continue
