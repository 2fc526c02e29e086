"""The documentation tree writers never delete, move or write outside their output folder, and publish nothing
from outside the pages folder.

Both writers are run: `neuron-compat site --out` (in-process, `replace_tree`) and the `mkdocs serve` hook's
tree update (`mkdocs_hook._regenerate`, `update_tree`), each against a tampered manifest, a symlinked
sub-folder, an unreadable sub-folder and a folder holding only a symlink and an empty folder. After each
run, every file outside the output folder is byte-identical.

Tests run as root here, and root reads a folder whatever its mode: "unreadable" is simulated by an
`os.scandir` that raises PermissionError for that folder (the mode is set to 000 as well, for non-root runs).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mkdocs.exceptions import PluginError

from neuron_compat.cli import main
from neuron_compat.safeio.atomic_write import WriteRefused
from neuron_compat.safeio.tree_write import MANIFEST, replace_tree, update_tree
from neuron_compat.site import mkdocs_hook
from neuron_compat.site.tree import TreeError
from neuron_compat.site.tree_source import build_tree, read_pages

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "registry"


@pytest.fixture(scope="module")
def tree_files() -> dict[str, bytes]:
    tree = build_tree(FIXTURE, REPO / "site")
    assert not tree.problems and not tree.error, (tree.problems, tree.error)
    return tree.files


@pytest.fixture
def world(tmp_path: Path, tree_files: dict[str, bytes]) -> Path:
    """A project (mkdocs.yml, registry, site) with a written tree in docs/, and files beside it to protect."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project / "registry")
    shutil.copytree(REPO / "site", project / "site")
    (project / "mkdocs.yml").write_text("site_name: test\n", encoding="utf-8")
    (tmp_path / "victim.txt").write_text("precious\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    for path in ("index.md", "matrix.md", "check.md"):  # names the tree writes: what a followed link would overwrite
        (outside / path).write_text(f"not the tree's {path}\n", encoding="utf-8")
    replace_tree(project / "docs", tree_files, note={"generator": "neuron-compat site"})
    return tmp_path


def outside_digest(root: Path, docs: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for folder, directories, names in os.walk(root):
        if Path(folder) == docs.parent:
            directories[:] = [name for name in directories if name != docs.name]
        for name in names:
            path = Path(folder) / name
            if not path.is_symlink():
                found[path.relative_to(root).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def tamper_manifest_dotdot(world: Path, docs: Path) -> None:
    _add_to_manifest(docs, ["../../victim.txt", "../registry/releases.yaml"])


def tamper_manifest_absolute(world: Path, docs: Path) -> None:
    _add_to_manifest(docs, [str(world / "victim.txt"), str(world / "outside" / "index.md")])


def _add_to_manifest(docs: Path, entries: list[str]) -> None:
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"] += entries
    (docs / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def symlinked_subfolder(world: Path, docs: Path) -> None:
    families = docs / "families"
    for path in families.iterdir():  # the same names outside, so a followed link would overwrite them
        (world / "outside" / path.name).write_text("outside\n", encoding="utf-8")
    shutil.rmtree(families)
    families.symlink_to(world / "outside", target_is_directory=True)


UNREADABLE: dict[str, Path] = {}


def unreadable_subfolder(world: Path, docs: Path) -> None:
    shutil.rmtree(docs)
    (docs / "private").mkdir(parents=True)
    (docs / "private" / "thesis.tex").write_text("years of work\n", encoding="utf-8")
    os.chmod(docs / "private", 0)
    UNREADABLE["folder"] = docs / "private"


def only_a_symlink_and_an_empty_folder(world: Path, docs: Path) -> None:
    shutil.rmtree(docs)
    (docs / "empty").mkdir(parents=True)
    (docs / "link").symlink_to(world / "outside", target_is_directory=True)


TAMPERINGS = [tamper_manifest_dotdot, tamper_manifest_absolute, symlinked_subfolder, unreadable_subfolder,
              only_a_symlink_and_an_empty_folder]


@pytest.fixture
def no_listing_of_unreadable(monkeypatch: pytest.MonkeyPatch) -> None:
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        folder = UNREADABLE.get("folder")
        if folder is not None and os.path.realpath(path) == os.path.realpath(folder):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    UNREADABLE.clear()
    monkeypatch.setattr(os, "scandir", scandir)


def run_site_out(project: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["site", "--registry", str(project / "registry"), "--pages", str(project / "site"),
                 "--out", str(project / "docs")])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def run_serve_hook(project: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv(mkdocs_hook.REGISTRY_ENV, raising=False)
    config = SimpleNamespace(config_file_path=str(project / "mkdocs.yml"), docs_dir=str(project / "docs"))
    with pytest.raises(PluginError) as raised:
        mkdocs_hook._regenerate(config)
    return str(raised.value)


@pytest.mark.parametrize("writer", ["site --out", "serve hook"])
@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda function: function.__name__)
def test_a_tampered_tree_is_refused_and_nothing_outside_changes(
        writer: str, tamper: Any, world: Path, no_listing_of_unreadable: None,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = world / "project"
    docs = project / "docs"
    tamper(world, docs)
    before = outside_digest(world, docs)
    try:
        message = run_site_out(project, capsys) if writer == "site --out" else run_serve_hook(project, monkeypatch)
    finally:
        if docs.joinpath("private").exists():
            os.chmod(docs / "private", 0o755)
    assert "Traceback" not in message
    assert any(word in message for word in ("not a path inside the tree", "did not write")), message
    assert outside_digest(world, docs) == before
    assert (world / "victim.txt").read_text(encoding="utf-8") == "precious\n"
    if tamper is unreadable_subfolder:  # the user's file is where it was, not inside a leftover .old.tmp
        assert (docs / "private" / "thesis.tex").read_text(encoding="utf-8") == "years of work\n"
    assert not [path.name for path in project.iterdir() if path.name.endswith(".tmp")]


def test_an_untampered_tree_is_updated_in_place_by_both_writers(
        world: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = world / "project"
    before = outside_digest(world, project / "docs")
    (project / "docs" / "matrix.md").write_text("edited\n", encoding="utf-8")
    monkeypatch.delenv(mkdocs_hook.REGISTRY_ENV, raising=False)
    mkdocs_hook._regenerate(SimpleNamespace(config_file_path=str(project / "mkdocs.yml"), docs_dir=str(project / "docs")))
    assert (project / "docs" / "matrix.md").read_text(encoding="utf-8") != "edited\n"
    assert main(["site", "-q", "--registry", str(project / "registry"), "--pages", str(project / "site"),
                 "--out", str(project / "docs")]) == 0
    assert outside_digest(world, project / "docs") == before


@pytest.mark.parametrize("entry", ["../x", "/etc/passwd", "a//b", "./a", "a/\x1b[2J", "", 7])
def test_update_tree_refuses_a_manifest_entry_outside_the_tree(tmp_path: Path, entry: object) -> None:
    docs = tmp_path / "docs"
    replace_tree(docs, {"a.md": b"a"})
    (tmp_path / "x").write_bytes(b"keep")
    manifest = json.loads((docs / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"].append(entry)
    (docs / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(WriteRefused) as refused:
        update_tree(docs, {"b.md": b"b"})
    assert "\x1b" not in str(refused.value) and "\n" not in str(refused.value)
    assert (tmp_path / "x").read_bytes() == b"keep" and (docs / "a.md").read_bytes() == b"a"


def test_refusing_a_foreign_folder_stops_at_its_first_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    foreign = tmp_path / "big"
    for index in range(50):
        (foreign / f"d{index:02}").mkdir(parents=True)
        (foreign / f"d{index:02}" / "f").write_bytes(b"x")
    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path: Any = ".") -> Any:
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting)
    with pytest.raises(WriteRefused, match=r"first: d00/f"):
        replace_tree(foreign, {"a.md": b"a"})
    assert len(listed) <= 2, listed
    monkeypatch.undo()
    root_link = tmp_path / "root"
    root_link.symlink_to("/")
    with pytest.raises(WriteRefused, match="did not write"):  # a symlink to / is refused without walking it
        replace_tree(root_link, {"a.md": b"a"})


# --- the pages folder: nothing from outside it is published -------------------------------------------


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    root = tmp_path / "repo" / "site"
    shutil.copytree(REPO / "site", root)
    (tmp_path / "repo" / "secret.env").write_text("TOKEN=hunter2\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("target", ["/proc/self/environ", "../../secret.env", "/etc/hostname"])
def test_a_page_symlink_out_of_the_pages_folder_is_refused(pages: Path, target: str) -> None:
    (pages / "assets" / "leak.txt").symlink_to(target)
    with pytest.raises(TreeError, match="outside the pages folder"):
        read_pages(pages)


def test_a_symlinked_folder_in_the_pages_is_refused_even_pointing_inside(pages: Path) -> None:
    (pages / "mirror").symlink_to(pages / "assets", target_is_directory=True)
    with pytest.raises(TreeError, match="a symlink to a folder"):
        read_pages(pages)
    (pages / "mirror").unlink()
    (pages / "outside").symlink_to("/proc/self", target_is_directory=True)
    with pytest.raises(TreeError, match="outside the pages folder"):
        read_pages(pages)


def test_a_page_symlink_to_a_file_inside_the_pages_folder_is_copied(pages: Path) -> None:
    (pages / "assets" / "copy.md").symlink_to(pages / "index.md")
    read = read_pages(pages)
    assert read["assets/copy.md"] == (pages / "index.md").read_bytes()


def test_site_out_with_a_leaking_page_link_writes_nothing(pages: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    (pages / "environ.txt").symlink_to("/proc/self/environ")
    code = main(["site", "--registry", str(FIXTURE), "--pages", str(pages), "--out", str(tmp_path / "docs")])
    err = capsys.readouterr().err
    assert code == 1 and "outside the pages folder" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "docs").exists()


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_manifest_that_is_a_fifo_or_a_folder_neither_hangs_nor_counts(tmp_path: Path, kind: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    if kind == "fifo":
        os.mkfifo(docs / MANIFEST)
    else:
        (docs / MANIFEST).mkdir()
        (docs / MANIFEST / "files").write_text("someone's\n", encoding="utf-8")
    config = SimpleNamespace(docs_dir=str(docs))
    mkdocs_hook.on_config(config)  # returns at once: not a tree written by `neuron-compat site`
    with pytest.raises(WriteRefused, match="did not write"):
        replace_tree(docs, {"a.md": b"a"})
