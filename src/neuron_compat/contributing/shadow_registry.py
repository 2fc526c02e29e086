"""Validate a registry as it would be after some edits, before anything is written.

The contributor tools never leave a file that fails `neuron-compat validate`. They build a shadow
registry in a temporary directory (links to the real files, the edited files written out) and run
the full validation there, then report problems under the real paths.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from neuron_compat.loading.loader import FAMILIES_DIR
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.tested_loader import CONFIGURATIONS_DIR
from neuron_compat.loading.yaml_reader import display_path
from neuron_compat.rules.validation import validate_registry
from neuron_compat.safeio.scratch_dir import scratch_directory

# The directories whose files the tools write: mirrored as real directories of links, so that writing an
# edited file into the shadow never writes through a link into the real registry.
_EDITED_DIRS = (FAMILIES_DIR, CONFIGURATIONS_DIR)


def _mirror(root: Path, shadow: Path) -> None:
    # Links to the entries themselves, not to what they resolve to: a symlink loop or a dangling link in the
    # registry stays one in the shadow (and is reported like `validate` reports it) instead of failing resolve().
    for entry in root.iterdir():
        if entry.name in _EDITED_DIRS and entry.is_dir():
            _mirror_folder(entry, shadow / entry.name, subfolders=True)
        else:
            os.symlink(os.path.abspath(entry), shadow / entry.name)


def _mirror_folder(folder: Path, target: Path, subfolders: bool) -> None:
    """`folder` as a real directory of links; with `subfolders`, its folders (configurations/reported/) too, one
    level down, so that a file written into one of them lands in the shadow, never in the registry."""
    target.mkdir()
    for entry in folder.iterdir():
        if subfolders and entry.is_dir() and os.access(entry, os.R_OK | os.X_OK):  # one it cannot list stays a link
            _mirror_folder(entry, target / entry.name, subfolders=False)
        else:
            os.symlink(os.path.abspath(entry), target / entry.name)


def validate_with_changes(root: Path, changes: Mapping[str, str]) -> list[Problem]:
    """Problems of `root` with each relative path in `changes` holding the given text instead."""
    root = Path(root)
    with scratch_directory("neuron-compat-check-") as tmp:
        shadow = tmp / "registry"
        shadow.mkdir()
        _mirror(root, shadow)
        for relative, text in changes.items():
            target = shadow / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink():
                target.unlink()
            target.write_text(text, encoding="utf-8")
        problems = validate_registry(shadow).problems
        shown_shadow = display_path(shadow)
        shown_root = display_path(root)
        return [_relocate(p, shown_shadow, shown_root) for p in problems]


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
