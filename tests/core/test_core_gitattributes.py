"""`.gitattributes` marks what is generated under registry/ (GitHub folds it in a diff) and nothing people write."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ROOT = Path(__file__).resolve().parents[2]
HARVESTED = re.compile(r"^harvest:", re.MULTILINE)


def generated(paths: list[str]) -> dict[str, bool]:
    """`git check-attr` for each path (relative to the clone): is it marked linguist-generated?"""
    out = subprocess.run(["git", "check-attr", "linguist-generated", "--", *paths], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return {line.split(": ")[0]: line.endswith(": true") for line in out.splitlines()}


def registry_files() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "registry").rglob("*") if p.is_file())


def is_generated_by_its_content(path: str) -> bool:
    if path.startswith(("registry/schemas/", "registry/upstream/")):
        return True
    return path.endswith(".yaml") and bool(HARVESTED.search((ROOT / path).read_text(encoding="utf-8")))


def test_every_generated_file_is_marked_and_no_written_one():
    files = registry_files()
    marked = generated(files)
    wrong = [path for path in files if marked[path] != is_generated_by_its_content(path)]
    assert wrong == [], "fix .gitattributes: " + ", ".join(f"{p} (marked: {marked[p]})" for p in wrong)


@pytest.mark.parametrize("path, expected", [
    ("registry/known-issues/neuron-runtime-harvested.yaml", True),  # harvested known issues, when they exist
    ("registry/configurations/new-source-harvested.yaml", True),
    ("registry/known-issues/runtime.yaml", False),
    ("registry/known-issues/neuron-sdk.harvested.yaml", True),
    ("registry/known-issues/curated.yaml", False),
    ("registry/families/llama.yaml", False),
])
def test_the_patterns_cover_files_to_come(path, expected):
    assert generated([path])[path] is expected
