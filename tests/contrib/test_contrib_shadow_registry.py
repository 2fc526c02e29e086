"""The shadow registry the contributor tools validate an edit in: it reads as the registry reads (the loader, which
refuses links out of the registry it reads, finds its own files there), and an edit made in it never reaches the
registry, though its files share the registry's inodes."""

from __future__ import annotations

import os
from pathlib import Path

from neuron_compat.contributing.shadow_registry import validate_with_changes
from neuron_compat.rules.validation import validate_registry


def _formatted(problems: list) -> list[str]:  # type: ignore[type-arg]
    return [p.format() for p in problems]


def test_the_shadow_of_a_registry_has_the_registrys_problems(registry: Path, tmp_path: Path,
                                                              monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    assert validate_with_changes(Path("registry"), {}) == [] == validate_registry("registry").problems
    llama = registry / "families" / "llama.yaml"
    llama.write_text(llama.read_text(encoding="utf-8").replace('since: "2.21.0"', 'since: "2.21.9"', 1), encoding="utf-8")
    (registry / "families" / "alias.yaml").symlink_to(tmp_path / "elsewhere.yaml")  # a dangling link out
    assert _formatted(validate_with_changes(Path("registry"), {})) == _formatted(validate_registry("registry").problems)
    assert len(validate_registry("registry").problems) == 2


def test_an_edit_in_the_shadow_never_reaches_the_registry(registry: Path) -> None:
    llama = registry / "families" / "llama.yaml"
    before = llama.read_bytes()
    found = validate_with_changes(registry, {"families/llama.yaml": "id: llama\n",
                                             "configurations/reported/new.yaml": "source: reported\n"})
    assert found  # the edited texts are what was validated
    assert llama.read_bytes() == before and os.stat(llama).st_nlink == 1
    assert not (registry / "configurations").exists()


def test_an_edit_into_a_folder_that_links_out_is_refused_not_written(registry: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (registry / "configurations").symlink_to(outside)
    found = validate_with_changes(registry, {"configurations/reported/new.yaml": "source: reported\n"})
    assert [p.message for p in found] == [
        "its folder is a link that leads out of the registry; the registry reads only its own files"]
    assert list(outside.iterdir()) == []
