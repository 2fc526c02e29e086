"""Write a whole directory tree so that nobody sees half of it, and never over files this tool did not write.

`replace_tree` writes every file into a scratch directory beside the target (`.NAME.*.tmp`), then swaps it in
with two renames; the old tree is removed afterwards. `update_tree` rewrites only the files whose bytes
changed and removes the ones no longer listed (what a file watcher wants: an unchanged file is not
touched). Both keep a manifest (`MANIFEST`: the list of the files written) in the tree, and both refuse,
with a one-line `WriteRefused` before anything is written, a target that is not a directory (a file, a
FIFO, a device) or a non-empty directory holding a file that its manifest does not list.

The manifest is read as untrusted input: an entry that is not a plain relative path inside the tree (`..`,
an absolute path, an empty or `.` component, a control character) makes the whole tree foreign. Nothing is
followed: a symlink anywhere in the tree (to a file or a folder) is a file this command did not write, and
a sub-folder that cannot be listed makes the folder foreign, never empty. The check stops at the first such
entry, so refusing a foreign folder (a symlink to `/`) does not walk it. Every write and removal goes
through `_inside`, which refuses a path whose folders are not real directories of the tree.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

from neuron_compat.safeio.atomic_write import WriteRefused
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.safe_text import one_line
from neuron_compat.safeio.scratch_dir import remove_stale

MANIFEST = ".neuron-compat-tree.json"
"""The manifest file at the top of a written tree (a dot file: documentation engines skip it)."""
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
"""A manifest larger than this is not one this command wrote (it lists a few thousand paths)."""


def replace_tree(target: Path, files: dict[str, bytes], note: dict[str, object] | None = None) -> None:
    """Make `target` hold exactly `files` (docs-relative POSIX paths) plus the manifest, in one swap."""
    real = _checked_target(target)
    real.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(real.parent, f".{real.name}.", ".tmp")
    scratch = Path(tempfile.mkdtemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent))
    try:
        os.chmod(scratch, _directory_mode())
        for path, content in files.items():
            _write_file(scratch, path, content)
        _write_file(scratch, MANIFEST, _manifest(files, note))
        if real.is_dir():
            old = Path(tempfile.mkdtemp(prefix=f".{real.name}.", suffix=".old.tmp", dir=real.parent))
            os.rename(real, old / "tree")
            os.rename(scratch, real)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(scratch, real)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


def update_tree(target: Path, files: dict[str, bytes], note: dict[str, object] | None = None) -> list[str]:
    """Bring `target` to `files` by writing only what changed; returns the paths written or removed."""
    real = _checked_target(target)
    if not real.is_dir():
        replace_tree(target, files, note)
        return sorted(files)
    changed: list[str] = []
    listed = set(_listed(real) or ())
    for path, content in files.items():
        if _read_or_none(_inside(real, path)) != content:
            _write_file(real, path, content, atomic=True)
            changed.append(path)
    for path in sorted(listed - set(files)):
        _inside(real, path).unlink(missing_ok=True)
        changed.append(path)
    manifest = _manifest(files, note)
    if _read_or_none(real / MANIFEST) != manifest:
        _write_file(real, MANIFEST, manifest, atomic=True)
    return changed


def _checked_target(target: Path) -> Path:
    real = Path(os.path.realpath(target))
    try:
        info = os.stat(real)
    except FileNotFoundError:
        if real.parent.exists() and not real.parent.is_dir():
            raise WriteRefused(f"{target}: {real.parent} is not a directory") from None
        return real
    if not stat.S_ISDIR(info.st_mode):
        kind = "a file" if stat.S_ISREG(info.st_mode) else "not a directory (a FIFO, device or socket)"
        raise WriteRefused(f"{target}: is {kind}; name a new or empty directory, or one this command wrote")
    listed = _listed(real)
    stranger = _first_stranger(real, set(listed or ()) | {MANIFEST})
    if stranger is None:
        return real
    if listed is None:
        raise WriteRefused(f"{target}: holds files this command did not write (no {MANIFEST}; first: {stranger}); "
                           "name a new or empty directory")
    raise WriteRefused(f"{target}: holds a file this command did not write ({stranger}); "
                       "move it or name another directory")


def _first_stranger(root: Path, allowed: set[str]) -> str | None:
    """The first entry under `root` that is not an allowed regular file (None: nothing else is there).

    Symlinks are never followed (a link is a stranger wherever it points), a sub-folder that cannot be listed
    is a stranger (it may hold anything), and the walk stops at the first stranger.
    """
    pending = [""]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(root / folder if folder else root) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            return f"{folder or '.'}/ (cannot be listed: {error.strerror or error})"
        subfolders: list[str] = []
        for entry in entries:
            relative = f"{folder}/{entry.name}" if folder else entry.name
            try:
                if entry.is_symlink():
                    return one_line(f"{relative} (a symlink)")
                if entry.is_dir(follow_symlinks=False):
                    subfolders.append(relative)
                    continue
                regular = entry.is_file(follow_symlinks=False)
            except OSError as error:
                return one_line(f"{relative} (cannot be examined: {error.strerror or error})")
            if not regular or relative not in allowed:
                return one_line(relative)
        pending.extend(reversed(subfolders))
    return None


def _listed(root: Path) -> list[str] | None:
    """The manifest's file list (None: no readable manifest); WriteRefused when an entry leaves the tree."""
    manifest = root / MANIFEST
    if manifest.is_symlink() or not manifest.is_file():
        return None
    try:
        listed = json.loads(read_regular_file(manifest, MAX_MANIFEST_BYTES)).get("files")
    except (UnreadableFile, OSError, ValueError, AttributeError):
        return None
    if not isinstance(listed, list):
        return None
    for entry in listed:
        if not isinstance(entry, str) or not _is_tree_path(entry):
            raise WriteRefused(f"{manifest}: lists {one_line(repr(entry))[:120]}, not a path inside the tree; "
                               "this folder was not written by this command as it is: name another directory")
    return listed


def _is_tree_path(path: str) -> bool:
    """A plain relative POSIX path: no absolute path, no `..`, `.` or empty component, no control character."""
    if not path or path.startswith("/") or "\\" in path or one_line(path) != path:
        return False
    return all(part not in ("", ".", "..") for part in path.split("/"))


def _inside(root: Path, path: str) -> Path:
    """`root / path`, refused unless it is a tree path whose existing folders are real directories (no symlinks)."""
    if not _is_tree_path(path):
        raise WriteRefused(f"{one_line(path)}: not a path inside the tree")
    folder = root
    for part in path.split("/")[:-1]:
        folder = folder / part
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            break
        if not stat.S_ISDIR(info.st_mode):
            raise WriteRefused(f"{folder}: not a directory of the tree (a symlink or a file); nothing written there")
    return root / path


def _manifest(files: dict[str, bytes], note: dict[str, object] | None) -> bytes:
    document = {**(note or {}), "files": sorted(files)}
    return (json.dumps(document, indent=1, sort_keys=True, allow_nan=False) + "\n").encode("utf-8")


def _write_file(root: Path, path: str, content: bytes, atomic: bool = False) -> None:
    destination = _inside(root, path)
    destination.parent.mkdir(parents=True, exist_ok=True)
    if not atomic:
        destination.write_bytes(content)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(tmp, destination)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    except OSError:
        return None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _directory_mode() -> int:
    return 0o777 & ~_umask()
