"""Validate a registry as it would be after some edits, before anything is written.

The contributor tools never leave a file that fails `neuron-compat validate`. They build a shadow
registry in a temporary directory (links to the real files, the edited files written out) and run
the full validation there, then report problems under the real paths.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from neuron_compat.loading.loader import FAMILIES_DIR
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.yaml_reader import display_path
from neuron_compat.rules.validation import validate_registry
from neuron_compat.safeio.scratch_dir import scratch_directory


def _mirror(root: Path, shadow: Path) -> None:
    # Links to the entries themselves, not to what they resolve to: a symlink loop or a dangling link in the
    # registry stays one in the shadow (and is reported like `validate` reports it) instead of failing resolve().
    for entry in root.iterdir():
        if entry.name == FAMILIES_DIR and entry.is_dir():
            (shadow / FAMILIES_DIR).mkdir()
            for family_file in entry.iterdir():
                os.symlink(os.path.abspath(family_file), shadow / FAMILIES_DIR / family_file.name)
        else:
            os.symlink(os.path.abspath(entry), shadow / entry.name)


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
    if problem.file == shadow or problem.file.startswith(shadow + os.sep):
        return replace(problem, file=root + problem.file[len(shadow):])
    return problem
