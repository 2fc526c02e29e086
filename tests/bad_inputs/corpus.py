"""The bad-input corpus: cases in cases.yaml, each applied on top of a copy of tests/fixtures/registry.

A case names the edits that turn the valid fixture into a bad registry, and the exact lines
`neuron-compat validate` must print for it. Large or hostile files (the 20 MB file, the alias bomb,
binary data) are generated here at test time rather than committed.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
FIXTURE = HERE.parent / "fixtures" / "registry"
CASES_FILE = HERE / "cases.yaml"


def _alias_bomb() -> bytes:
    """The 'billion laughs' shape: nine levels of nine aliases each (9**9 strings if expanded)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [" + ",".join(f"*{previous}" for _ in range(9)) + "]")
    return ("\n".join(lines) + "\n").encode()


def _big_file() -> bytes:
    """A 20 MB family file: a valid head, then a comment block far beyond the size limit."""
    head = (FIXTURE / "families" / "bert.yaml").read_bytes()
    filler = b"# " + b"x" * 98 + b"\n"
    return head + filler * (20 * 1024 * 1024 // len(filler))


def _binary() -> bytes:
    """The first bytes of a PNG image."""
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256))


def _deep_nesting() -> bytes:
    return b"id: bert\nname: " + b"[" * 100_000 + b"]" * 100_000 + b"\n"


GENERATORS = {
    "alias-bomb": _alias_bomb,
    "20mb": _big_file,
    "binary": _binary,
    "deep-nesting": _deep_nesting,
}


@dataclass
class Case:
    name: str
    about: str
    expect: list[str]
    write: dict[str, str] = field(default_factory=dict)
    write_bytes: dict[str, str] = field(default_factory=dict)
    replace: list[dict[str, Any]] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    generate: dict[str, str] = field(default_factory=dict)
    site: bool = False  # also part of the subset checked against the site build

    def materialise(self, registry: Path) -> Path:
        """Copy the fixture to `registry` and apply this case's edits; returns `registry`."""
        shutil.copytree(FIXTURE, registry)
        for edit in self.replace:
            path = registry / edit["file"]
            text = path.read_text(encoding="utf-8")
            count = text.count(edit["old"])
            if count != 1:
                raise AssertionError(f"case {self.name}: {edit['old']!r} occurs {count} times in {edit['file']}")
            path.write_text(text.replace(edit["old"], edit["new"]), encoding="utf-8")
        for name, text in self.write.items():
            (registry / name).parent.mkdir(parents=True, exist_ok=True)
            (registry / name).write_text(text, encoding="utf-8")
        for name, escaped in self.write_bytes.items():
            (registry / name).write_bytes(escaped.encode("latin-1").decode("unicode_escape").encode("latin-1"))
        for name, kind in self.generate.items():
            (registry / name).write_bytes(GENERATORS[kind]())
        for name in self.delete:
            (registry / name).unlink()
        return registry


def load_cases() -> list[Case]:
    raw = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))
    cases = [Case(**entry) for entry in raw]
    names = [case.name for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise AssertionError(f"duplicate case names in {CASES_FILE.name}: {sorted(duplicates)}")
    return cases
