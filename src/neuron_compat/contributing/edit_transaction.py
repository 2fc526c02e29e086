"""One registry edit as one transaction, shared by both paths of `add-evidence` (a statement, a configuration).

Under the registry's lock (the caller holds it): read the file once (bytes and identity), validate the registry
and refuse a file that already has problems, hand out the text validation read (refused when the file changed
since), validate the registry as it would be after the edit and refuse an edit that adds problems, and give the
bytes to write, compared once more just before the rename (`commands.common.write_registry_edit`). Every refusal
is an `EditRefused` holding the lines to print; nothing is written before the last step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from neuron_compat.contributing.file_snapshot import (
    ChangedWhileRunning,
    Snapshot,
    read_snapshot,
    unchanged_text,
)
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.problems import Problem, render_problems


class EditRefused(Exception):
    """The edit cannot be made; `lines` say why (printed to stderr; exit 1)."""

    def __init__(self, *lines: str) -> None:
        super().__init__(lines[-1] if lines else "")
        self.lines = tuple(line for line in lines if line)


@dataclass
class EditTransaction:
    """`relative`: the edited file inside the registry (`families/x.yaml`); `purpose`: what is being added, for
    the refusal that asks to fix the file first ("the evidence", "the configuration")."""

    root: Path
    relative: str
    purpose: str
    path: Path = field(init=False)
    shown: str = field(init=False)
    existed: bool = field(init=False)
    registry: Registry = field(init=False)
    problems: list[Problem] = field(init=False)
    _snapshot: Snapshot | None = field(init=False)
    _raw: bytes | None = field(init=False, default=None)
    _line_ending: str = field(init=False, default="\n")
    _bom: str = field(init=False, default="")

    def __post_init__(self) -> None:
        from neuron_compat.loading.yaml_reader import display_path
        from neuron_compat.rules.validation import validate_registry

        self.path = self.root / self.relative
        self.shown = display_path(self.path)
        self.existed = self.path.exists() or self.path.is_symlink()
        self._snapshot = read_snapshot(self.path) if self.existed else None  # the one copy the edit is made from
        before = validate_registry(self.root)
        self.registry, self.problems = before.registry, list(before.problems)
        own = [p for p in self.problems if p.file == self.shown]
        if own:
            raise EditRefused(render_problems(own, "text"),
                              f"{self.shown} has problems; fix them first (neuron-compat validate), then add {self.purpose}")

    @property
    def changed(self) -> str:
        return (f"error: {self.shown} changed while add-evidence ran (saved by another program?); nothing written: "
                "run it again")

    def text(self) -> str:
        """The file's text as validation read it (LF line endings, no BOM); "" for a file to create."""
        try:
            if not self.existed:
                if self.path.exists() or self.path.is_symlink():
                    raise ChangedWhileRunning()
                return ""
            self._raw, text, self._line_ending, self._bom = unchanged_text(self.path, self._snapshot)
            return text
        except ChangedWhileRunning:
            raise EditRefused(self.changed) from None

    def propose(self, new_text: str) -> str:
        """The bytes to write for `new_text` (the file's own line endings and BOM kept), once the registry as it
        would be after the edit gains no problem."""
        from neuron_compat.contributing.shadow_registry import problems_the_edit_adds, validate_with_changes

        written = self._bom + new_text.replace("\n", self._line_ending) if self.existed else new_text
        after = validate_with_changes(self.root, {self.relative: written})
        added = problems_the_edit_adds(self.problems, after, self.shown)
        if added:
            raise EditRefused(render_problems(added, "text"),
                              f"the edit would leave {len(added)} problem(s); {self.shown} not changed")
        return written

    @property
    def raw(self) -> bytes | None:
        """The bytes the edit was made from (compared before the rename); None for a file created."""
        return self._raw

    def ready_to_replace(self) -> None:
        """Just before the write: a file to create must still be absent."""
        if not self.existed and (self.path.exists() or self.path.is_symlink()):
            raise EditRefused(self.changed)
        self.path.parent.mkdir(parents=True, exist_ok=True)
