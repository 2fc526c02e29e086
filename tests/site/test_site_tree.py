"""`neuron-compat site --out DIR`: the documentation tree, written whole, reproducibly, and never over other files."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from site_helpers import make_registry, write_tree

from neuron_compat.safeio.tree_write import MANIFEST


def digest(root: Path) -> dict[str, str]:
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_registry(tmp_path_factory.mktemp("tree") / "registry")


def test_the_tree_holds_hand_written_and_generated_files_and_a_manifest(registry: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    result = write_tree(registry, docs)
    assert result.returncode == 0, result.stderr
    files = digest(docs)
    for path in ("index.md", "check.md", "contributing.md", "api.md", "assets/javascripts/neuron-compat.js",
                 "assets/stylesheets/neuron-compat.css", "families/qwen3.md", "families/index.md", "matrix.md",
                 "releases/2.22.0.md", "releases/feed.xml", "coverage.md", "stacks.md", "api/registry.json",
                 "api/matrix.json", "api/feeds/qwen3.xml", "api/badges/qwen3/nxd-inference-inference.json"):
        assert path in files, path
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["files"] == sorted(set(files) - {MANIFEST})
    index = (docs / "index.md").read_text(encoding="utf-8")
    assert "neuron-compat:home" not in index  # the marker was filled
    assert index.startswith("---\ntitle: Does this model run on AWS Neuron?\n")
    family = (docs / "families/qwen3.md").read_text(encoding="utf-8")
    assert '"edit_url": "https://github.com/neuron-compat/neuron-compat/edit/main/registry/families/qwen3.yaml"' in family
    assert '"family_feed": "../../api/feeds/qwen3.xml"' in family
    assert not [p for p in tmp_path.iterdir() if p.name != "docs"]  # no scratch directory left beside it


def test_two_trees_are_byte_identical_and_a_rewrite_replaces_its_own_tree(registry: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    assert write_tree(registry, first, extra_env={"TZ": "UTC", "LC_ALL": "C.UTF-8"}).returncode == 0
    assert write_tree(registry, second, cwd=tmp_path, extra_env={"TZ": "Pacific/Kiritimati", "LC_ALL": "C"}).returncode == 0
    assert digest(first) == digest(second)
    (first / "families" / "qwen3.md").write_text("edited by hand\n", encoding="utf-8")
    (first / "families" / "gone.md").unlink(missing_ok=True)
    again = write_tree(registry, first)
    assert again.returncode == 0, again.stderr
    assert digest(first) == digest(second)


def _refused(registry: Path, out: Path) -> str:
    result = write_tree(registry, out)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {out}: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_out_onto_a_file_a_fifo_or_a_foreign_directory_is_refused_and_nothing_is_touched(
        registry: Path, tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n", encoding="utf-8")
    assert "is a file" in _refused(registry, a_file)
    assert a_file.read_text(encoding="utf-8") == "mine\n"

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert "not a directory" in _refused(registry, fifo)  # and it did not hang on the FIFO

    foreign = tmp_path / "project"
    (foreign / "src").mkdir(parents=True)
    (foreign / "src" / "main.py").write_text("print('keep me')\n", encoding="utf-8")
    assert "did not write" in _refused(registry, foreign)
    assert digest(foreign) == {"src/main.py": hashlib.sha256(b"print('keep me')\n").hexdigest()}

    ours = tmp_path / "docs"
    assert write_tree(registry, ours).returncode == 0
    (ours / "assets" / "notes.txt").write_text("someone else's\n", encoding="utf-8")
    before = digest(ours)
    line = _refused(registry, ours)
    assert "a file this command did not write (assets/notes.txt)" in line
    assert digest(ours) == before
    leftovers = sorted(p.name for p in tmp_path.iterdir())
    assert leftovers == ["docs", "notes.txt", "pipe", "project"], leftovers


def test_an_empty_directory_and_a_missing_parent_are_fine(registry: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert write_tree(registry, tmp_path / "empty").returncode == 0
    assert write_tree(registry, tmp_path / "deep" / "er" / "docs").returncode == 0
    assert digest(tmp_path / "empty") == digest(tmp_path / "deep" / "er" / "docs")


def test_an_invalid_registry_writes_nothing(registry: Path, tmp_path: Path) -> None:
    broken = make_registry(tmp_path / "registry")
    family = broken / "families" / "qwen3.yaml"
    family.write_text(family.read_text(encoding="utf-8").replace("status: partial", "status: parcial"), encoding="utf-8")
    result = write_tree(broken, tmp_path / "docs")
    assert result.returncode == 1
    assert "qwen3.yaml:" in result.stderr and "nothing written" in result.stderr
    assert not (tmp_path / "docs").exists()
