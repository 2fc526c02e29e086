"""Read one regular file with a size cap enforced while reading: the only way the tools read input files.

A FIFO, a device (/dev/zero), a directory or a socket is refused before a byte is read (the file is
opened non-blocking, so opening a FIFO with no writer cannot hang), and a file that grows past the cap
while it is read is refused too: the cap does not rely on `stat()` alone.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class UnreadableFile(Exception):
    """Why a file could not be read, as a short phrase for a person (no path: the caller adds its own)."""


class FileTooLarge(UnreadableFile):
    """The file has more than `limit` bytes (`size` is what was seen: all of it, or `limit + 1` read so far)."""

    def __init__(self, size: int, limit: int, grew: bool = False) -> None:
        super().__init__(too_large(size, limit, grew))
        self.size = size
        self.limit = limit
        self.grew = grew


def read_regular_file(path: Path | str, max_bytes: int, head_only: bool = False) -> bytes:
    """The bytes of `path` (symlinks followed), or UnreadableFile if it is not a regular file or exceeds max_bytes.

    With `head_only`, a longer file is not refused: its first `max_bytes + 1` bytes are returned (the caller
    sees it was longer), and no more is read.
    """
    fd, info = _open_regular(path)
    try:
        if info.st_size > max_bytes and not head_only:
            raise FileTooLarge(info.st_size, max_bytes)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                if head_only:
                    break
                raise FileTooLarge(total, max_bytes, grew=True)
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableFile(f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(fd)


def _open_regular(path: Path | str) -> tuple[int, os.stat_result]:
    """An open descriptor of `path` and its stat, or UnreadableFile when it is not a regular file. Opened
    non-blocking, so a FIFO with no writer cannot hang the open; nothing is read here."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise UnreadableFile(f"cannot read the file: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
    except OSError as error:
        os.close(fd)
        raise UnreadableFile(f"cannot read the file: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise UnreadableFile(f"not a regular file ({_kind(info.st_mode)}); only plain files are read")
    return fd, info


def something_at(path: Path) -> bool:
    """Something is at `path` (a dangling symlink, a FIFO or a directory too: reading it then says what is wrong).

    The test for an optional input: `is_file()` would pass over a FIFO or a broken link as if nothing were there.
    """
    return path.exists() or path.is_symlink()


def too_large(size: int, max_bytes: int, grew: bool = False) -> str:
    more = "more than " if grew else ""
    return f"file is {more}{_size(size)}; the limit is {_size(max_bytes)}"


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return f"{count / 1024 / 1024:.1f} MiB"
    if count >= 1024:
        return f"{count // 1024} KiB"
    return f"{count} bytes"


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def read_tail(path: Path | str, max_bytes: int) -> tuple[bytes, int]:
    """(the last `max_bytes` bytes of `path`, its whole size): a long log's end, where its errors are. Refuses what
    `read_regular_file` refuses (a FIFO, a device, a folder) before a byte is read; never reads more than max_bytes."""
    fd, info = _open_regular(path)
    try:
        start = max(0, info.st_size - max_bytes)
        if start:
            os.lseek(fd, start, os.SEEK_SET)
        chunks: list[bytes] = []
        total = 0
        while total < max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks), max(info.st_size, start + total)
    except OSError as error:
        raise UnreadableFile(f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(fd)
