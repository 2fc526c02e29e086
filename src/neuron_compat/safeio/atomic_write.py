"""Write a file so that readers never see half of it: a temporary file beside it, then a rename.

The rename lands on what the path names: a symlink is written through (its target is replaced, the link
stays), an existing file keeps its permission bits, and a target that is not a regular file (a directory,
a device such as /dev/full, a FIFO) or whose directory does not exist is refused with a one-line
`WriteRefused` before anything is written. Temporaries are named `.NAME.*.tmp`; ones left by a run that was
killed are removed by the next write to the same file once they are scratch_dir.STALE_SECONDS old.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from neuron_compat.safeio.scratch_dir import remove_stale


class WriteRefused(OSError):
    """The target cannot be written safely; str() is one line naming it."""


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at `path` (through symlinks) with `text` (UTF-8, newlines as given) in one rename.

    On any failure the old file stays as it was and no temporary is left behind.
    """
    target = Path(os.path.realpath(path))
    parent = target.parent
    if not parent.is_dir():
        raise WriteRefused(f"{path}: its directory does not exist (create it first)")
    mode = _mode_to_keep(path, target)
    remove_stale(parent, f".{target.name}.", ".tmp")  # what a killed run left
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode_to_keep(path: Path, target: Path) -> int:
    try:
        info = os.stat(target)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
    if stat.S_ISDIR(info.st_mode):
        raise WriteRefused(f"{path}: is a directory; name a file to write")
    if not stat.S_ISREG(info.st_mode):
        raise WriteRefused(f"{path}: not a regular file; refusing to replace it")
    return stat.S_IMODE(info.st_mode)
