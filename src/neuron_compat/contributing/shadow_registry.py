"""Validate a registry as it would be after some edits, before anything is written.

The contributor tools never leave a file that fails `neuron-compat validate`. They build a shadow
registry in a temporary directory and run the full validation there, then report problems under the real paths.
The shadow is the registry's tree of real directories whose files are hard links to the real ones (copies across
file systems), so the loader, which refuses a link that leads out of the registry it reads, reads them as its own;
a symbolic link of the registry stays one, with the same text, so it is judged as `validate` judges it. An edited
file replaces its entry in the shadow (a new inode), never the real file.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from neuron_compat.loading.problems import Problem
from neuron_compat.loading.yaml_reader import display_path
from neuron_compat.rules.validation import validate_registry
from neuron_compat.safeio.scratch_dir import scratch_directory


def _mirror(folder: Path, shadow: Path) -> None:
    """`folder`'s entries in the existing directory `shadow`: directories as directories, files as hard links (or
    copies), links as links with the same text (a relative one then resolves inside the shadow, as it did inside
    the registry). What cannot be listed or linked becomes a link to it by its absolute path: the loader then
    refuses it, as it refuses what it cannot read."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        target = shadow / entry.name
        try:
            if entry.is_symlink():
                os.symlink(os.readlink(entry.path), target)
            elif entry.is_dir(follow_symlinks=False):
                target.mkdir()
                _mirror(Path(entry.path), target)
            else:
                _link_or_copy(Path(entry.path), target)
        except OSError:
            if not (target.exists() or target.is_symlink()):
                os.symlink(os.path.abspath(entry.path), target)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        if not source.is_file():  # a FIFO or device on another file system: never opened here
            raise
        shutil.copyfile(source, target)


def validate_with_changes(root: Path, changes: Mapping[str, str]) -> list[Problem]:
    """Problems of `root` with each relative path in `changes` holding the given text instead."""
    root = Path(root)
    with scratch_directory("neuron-compat-check-") as tmp:
        shadow = tmp / "registry"
        shadow.mkdir()
        _mirror(root, shadow)
        inside = shadow.resolve()
        for relative, text in changes.items():
            target = shadow / relative
            if not _stays_inside(target.parent, inside):  # a folder of the registry that is a link out
                return [Problem(display_path(root / relative), 0, 0, "", "its folder is a link that leads out of the "
                                "registry; the registry reads only its own files", "copy the folder into the "
                                "registry instead of linking to it", rule="layout")]
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists() or target.is_symlink():
                target.unlink()  # a hard link shares the real file's inode: writing through it would edit the registry
            target.write_text(text, encoding="utf-8")
        problems = validate_registry(shadow).problems
        shown_shadow = display_path(shadow)
        shown_root = display_path(root)
        return [_relocate(p, shown_shadow, shown_root) for p in problems]


def _stays_inside(folder: Path, shadow: Path) -> bool:
    """Whether `folder` (existing or to be made) resolves inside the shadow: writing there never reaches the
    registry through a link."""
    try:
        resolved = folder.resolve()
    except (OSError, RuntimeError):
        return False
    return resolved == shadow or shadow in resolved.parents


def _relocate(problem: Problem, shadow: str, root: str) -> Problem:
    """The problem under the real paths: its location, and any registry path its message or hint quotes."""
    def real(text: str) -> str:
        return text.replace(shadow + os.sep, root + os.sep)

    file = root + problem.file[len(shadow):] if problem.file == shadow or problem.file.startswith(shadow + os.sep) else problem.file
    return replace(problem, file=file, message=real(problem.message), hint=real(problem.hint))


def problems_the_edit_adds(before: list[Problem], after: list[Problem], edited: str) -> list[Problem]:
    """The problems of `after` that the edit of the file shown as `edited` brings: all of that file's, and any
    elsewhere that `before` did not have (as often as they are new)."""
    def counts(problems: list[Problem]) -> Counter[tuple[str, str, str]]:
        return Counter((p.file, p.field, p.message) for p in problems if p.file != edited)

    grown = counts(after) - counts(before)
    return [p for p in after if p.file == edited] + [p for p in after if (p.file, p.field, p.message) in grown]
