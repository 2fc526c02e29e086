"""The compile cache (document/cache.py, document/content_key.py): compiled once per content, never stale, never a
hang or a traceback on a hostile tree or a corrupt cache. In-process, on a copy of the small fixture registry."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from neuron_compat.document import cache
from neuron_compat.document.cache import CompileFailed, cached_compile, verified
from neuron_compat.document.content_key import compute

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "registry"
CODE = ROOT / "src" / "neuron_compat"
SALT = "test-salt"


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    copy = tmp_path / "repo" / "registry"
    shutil.copytree(FIXTURE, copy)
    return copy


def _compile(registry: Path) -> cache.CachedDocument:
    return cached_compile(registry, registry.parent / "cache", CODE, SALT)


def _data_version(found: cache.CachedDocument) -> object:
    text = found.document_path.read_text(encoding="utf-8") if found.document_path else found.compiled.document  # type: ignore[union-attr]
    return json.loads(text)["families"]


def _families(found: cache.CachedDocument) -> list[str]:
    return [family["id"] for family in _data_version(found)]  # type: ignore[attr-defined]


def _edit_bert_name(registry: Path, name: str) -> None:
    path = registry / "families" / "bert.yaml"
    text = path.read_text(encoding="utf-8")
    lines = [f"name: {name}" if line.startswith("name:") else line for line in text.splitlines()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _bert_name(found: cache.CachedDocument) -> str:
    return next(f["name"] for f in _data_version(found) if f["id"] == "bert")  # type: ignore[attr-defined, index]


def test_an_unchanged_registry_is_compiled_once_and_an_edit_compiles_afresh(registry, monkeypatch):
    first = _compile(registry)
    assert first.document_path is not None and verified(registry.parent / "cache", first.key) is not None
    compiles = []
    real = cache.compile_registry
    monkeypatch.setattr(cache, "compile_registry", lambda r: compiles.append(r) or real(r))
    assert _compile(registry).key == first.key and compiles == []
    _edit_bert_name(registry, "BERT edited")
    edited = _compile(registry)
    assert edited.key != first.key and len(compiles) == 1 and _bert_name(edited) == "BERT edited"


def test_a_corrupt_truncated_or_foreign_cache_entry_is_compiled_again_never_trusted(registry):
    first = _compile(registry)
    assert first.document_path is not None and first.index_path is not None
    for damage in (lambda: first.document_path.write_text("{not json", encoding="utf-8"),  # type: ignore[union-attr]
                   lambda: first.index_path.write_bytes(b"\x00\xff garbage"),  # type: ignore[union-attr]
                   lambda: first.document_path.write_text(first.document_path.read_text()[:100]),  # type: ignore[union-attr]
                   lambda: (registry.parent / "cache" / "stamp.json").write_text("[1, 2]")):
        damage()
        again = _compile(registry)
        assert again.key == first.key and verified(registry.parent / "cache", first.key) is not None
        assert _families(again) == ["bert", "llama"]


def test_an_edit_made_while_it_compiles_is_never_cached_under_the_old_content(registry, monkeypatch):
    real = cache.compile_registry

    def compile_then_edit(path: Path):
        result = real(path)
        _edit_bert_name(registry, "BERT saved during the compile")
        return result

    monkeypatch.setattr(cache, "compile_registry", compile_then_edit)
    racing = _compile(registry)
    assert racing.document_path is None and racing.compiled is not None  # answered from memory, not cached
    monkeypatch.setattr(cache, "compile_registry", real)
    assert _bert_name(_compile(registry)) == "BERT saved during the compile"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_anywhere_in_the_registry_never_hangs_the_key(registry):
    os.mkfifo(registry / "notes.fifo")
    os.mkfifo(registry / "families" / "qwen.yaml")
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(_compile_or_problems(registry)), daemon=True)
    worker.start()
    worker.join(60)
    assert done, "the compile hung on a FIFO"
    assert any("families/qwen.yaml" in p and "FIFO" in p for p in done[0])  # validate's located refusal


def _compile_or_problems(registry: Path) -> list[str]:
    try:
        _compile(registry)
    except CompileFailed as failed:
        return [p.format() for p in failed.problems]
    return []


def test_a_link_to_dev_zero_or_out_of_the_registry_is_a_located_problem_never_a_read(registry, tmp_path):
    (registry / "families" / "zero.yaml").symlink_to("/dev/zero")
    problems = _compile_or_problems(registry)
    assert any("families/zero.yaml" in p and "outside the registry" in p for p in problems), problems
    (registry / "families" / "zero.yaml").unlink()
    secret = tmp_path / "private.yaml"
    shutil.copy(registry / "families" / "bert.yaml", secret)
    (registry / "families" / "bert.yaml").unlink()
    (registry / "families" / "bert.yaml").symlink_to(secret)
    problems = _compile_or_problems(registry)
    assert any("families/bert.yaml" in p and "outside the registry" in p for p in problems), problems


def test_a_family_folder_that_is_a_link_inside_the_registry_is_followed_for_edits(registry):
    real = registry / "family-files"
    (registry / "families").rename(real)
    (registry / "families").symlink_to("family-files")
    first = _compile(registry)
    _edit_bert_name(registry, "BERT through the link")
    edited = _compile(registry)
    assert edited.key != first.key and _bert_name(edited) == "BERT through the link"


def test_the_stat_stamp_reads_only_files_changed_since_it_was_taken(registry):
    folders = [("registry", registry)]
    stamp = compute(folders, SALT)
    old = stamp.taken_ns - 10 * 1_000_000_000
    for path in registry.rglob("*.yaml"):
        os.utime(path, ns=(old, old))
    stamp = compute(folders, SALT)
    stamp = compute(folders, SALT, stamp)  # taken after the files' times: none is racy now
    again = compute(folders, SALT, stamp)
    assert again.key == stamp.key
    _edit_bert_name(registry, "changed")
    assert compute(folders, SALT, stamp).key != stamp.key


def test_check_in_the_clone_s_root_imports_neither_pydantic_nor_yaml_once_the_cache_is_warm():
    """The newcomer's case: `neuron-compat check config.json` in the clone's root (./registry is the working
    directory's registry). After one compile, the answer reads the cached document only."""
    import subprocess
    import sys

    probe = ("import sys; sys.argv = ['neuron-compat', 'check', 'tests/fixtures/configs/llama-3.1-8b.json']\n"
             "from neuron_compat.cli import main\n"
             "code = main()\n"
             "sys.stderr.write(repr(sorted(m for m in ('pydantic', 'yaml') if m in sys.modules)))\n")
    for _ in range(2):  # the first may compile (a cold cache); the second must not need to
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300,
                                env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert result.stderr.endswith("[]"), result.stderr[-500:]
    assert "chosen by working directory" in result.stdout
