"""One writer at a time per registry: an exclusive advisory lock on the registry directory itself.

`add-evidence` and `new` read a family file, validate the registry as it would be, then write; two runs at
once would each write their own edit over the other's. Holding this lock from the read to the rename makes
them take turns (the second waits, then reads what the first wrote). The lock is flock(2) on the
directory's own descriptor, so no lock file is left in the clone; it is released when the process ends,
however it ends. Where flock is not available (Windows) runs are not serialised.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


@contextmanager
def registry_locked(root: Path) -> Iterator[None]:
    """Hold the registry's write lock for the duration of the block (waits for another holder)."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
