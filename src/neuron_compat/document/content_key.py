"""What a compiled document depends on, as one key: the registry's files and the package's code, by content.

The registry is walked the way the loader may read it, and read with the loader's own reader
(safeio/bounded_read.py, the loader's size caps), so the walk can never do what validate would not:
- a FIFO, a device, a socket, or a link to one, is never opened: it enters the key as its kind, and validate
  (which refuses it, located, if it reads it at all) decides whether the registry compiles;
- a link that resolves outside the registry is never followed: it enters the key as a link out (the loader
  refuses such a file with a located error);
- a file larger than the loader's cap is read to the cap plus one byte, no further;
- a folder reached through a link inside the registry is walked once (its files are what the loader reads
  through the link), and link loops end.

Reading every file on every `check` costs tens of milliseconds, so each entry's stat (size, mtime, ctime, inode)
is kept in a stamp beside the cache: when every stat is as stamped, and none of the files changed within
`RACY_NANOSECONDS` of the stamp being taken (git's "racy" rule: an edit in the same clock tick may keep the
stat), the stamped key is the key. Any other stat re-reads the contents.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from neuron_compat.loading.file_caps import MAX_SNAPSHOT_BYTES
from neuron_compat.safeio.bounded_read import FileTooLarge, UnreadableFile, read_regular_file

RACY_NANOSECONDS = 2_000_000_000
"""A file whose mtime or ctime is this close to (or after) the stamp's time is read again, whatever its stat."""
MAX_ENTRIES = 100_000
"""A registry tree with more entries than this is not walked further (it enters the key as too large)."""

Stat = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Entry:
    """One thing under a walked folder: its path (relative, posix), what it is, and its stat when it is a file."""

    path: str
    kind: str  # "file", "special", "link-out", "dangling", "too-many"
    location: Path | None = None
    stat: Stat | None = None


def _stat_tuple(info: os.stat_result) -> Stat:
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def walk(folder: Path, skip_dirs: tuple[str, ...] = ("__pycache__",)) -> Iterator[Entry]:
    """Every entry under `folder`, sorted by path, classified as above (hidden names and `skip_dirs` left out)."""
    try:
        root = folder.resolve(strict=True)
    except OSError:
        return
    seen_dirs = {root}
    count = 0
    todo: list[tuple[Path, str]] = [(folder, "")]
    while todo:
        directory, prefix = todo.pop()
        try:
            with os.scandir(directory) as listing:
                names = sorted((entry.name, entry.is_symlink()) for entry in listing)
        except OSError:
            yield Entry(prefix or ".", "special")
            continue
        subfolders: list[tuple[Path, str]] = []
        for name, is_link in names:
            if name.startswith(".") or name in skip_dirs:
                continue
            count += 1
            if count > MAX_ENTRIES:
                yield Entry(prefix + name, "too-many")
                return
            path = directory / name
            relative = prefix + name
            try:
                target = path.resolve(strict=True) if is_link else None
                info = os.stat(path)
            except (OSError, RuntimeError):  # a dangling link, or a loop of links
                yield Entry(relative, "dangling")
                continue
            if target is not None and not _inside(target, root):
                yield Entry(relative, "link-out")
                continue
            if stat.S_ISDIR(info.st_mode):
                real = target or path.resolve()
                if real not in seen_dirs:
                    seen_dirs.add(real)
                    subfolders.append((path, relative + "/"))
            elif stat.S_ISREG(info.st_mode):
                yield Entry(relative, "file", path, _stat_tuple(info))
            else:
                yield Entry(relative, "special")
        todo.extend(reversed(subfolders))


def _file_digest(path: Path) -> str:
    """The sha256 of a file read as the loader reads it: at most the largest cap plus one byte."""
    try:
        data = read_regular_file(path, MAX_SNAPSHOT_BYTES, head_only=True)
    except FileTooLarge as error:  # not reached with head_only; kept for a reader that changes
        return f"too-large:{error.size}"
    except UnreadableFile as error:
        return f"unreadable:{error}"
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Stamp:
    """A key, what it was computed from (per entry: its stat and sha256, or its kind), the salt, and when."""

    key: str
    entries: dict[str, list[int | str] | str]
    salt: str
    taken_ns: int
    files_read: int = 0
    """How many files this computation read (the others kept the sha256 `previous` recorded)."""

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "entries": self.entries, "salt": self.salt, "taken_ns": self.taken_ns}

    @classmethod
    def from_json(cls, data: object) -> Stamp | None:
        """The stamp in `data`, or None when it is not one (a corrupt or foreign file is never trusted)."""
        if not isinstance(data, dict):
            return None
        key, entries, salt, taken = data.get("key"), data.get("entries"), data.get("salt"), data.get("taken_ns")
        if not (isinstance(key, str) and isinstance(entries, dict) and isinstance(salt, str) and isinstance(taken, int)):
            return None
        return cls(key, entries, salt, taken)


def compute(folders: list[tuple[str, Path]], salt: str, previous: Stamp | None = None) -> Stamp:
    """The key of the folders' contents (each under its label) and `salt` (versions and formats). A file whose
    stat `previous` holds, and that did not change close to when `previous` was taken, keeps its recorded sha256;
    every other file is read."""
    now = time.time_ns()
    known = previous.entries if previous is not None and previous.salt == salt else {}
    trusted_before = previous.taken_ns - RACY_NANOSECONDS if previous is not None else 0
    digest = hashlib.sha256(f"{salt}\0".encode())
    files_read = 0
    entries: dict[str, list[int | str] | str] = {}
    for label, folder in folders:
        for entry in walk(folder):
            name = f"{label}/{entry.path}"
            if entry.kind == "file" and entry.location is not None and entry.stat is not None:
                recorded = known.get(name)
                racy = max(entry.stat[1], entry.stat[2]) >= trusted_before
                if isinstance(recorded, list) and recorded[:-1] == list(entry.stat) and not racy:
                    sha = str(recorded[-1])
                else:
                    sha = _file_digest(entry.location)
                    files_read += 1
                entries[name] = [*entry.stat, sha]
                digest.update(f"{name}\0file\0{sha}\0".encode())
            else:
                entries[name] = entry.kind
                digest.update(f"{name}\0{entry.kind}\0".encode())
    return Stamp(digest.hexdigest()[:32], entries, salt, now, files_read)
