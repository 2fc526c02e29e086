"""The compiled registry is built, never committed (issue 34): a clone compiles its registry/ on demand into a
cache keyed by content and version, a registry/ that does not validate is a located error (never a stale
answer), and two data branches that edit two families merge without a conflict."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import neuron_compat
from neuron_compat.registry_sources import bundled
from neuron_compat.registry_sources.errors import RegistrySourceError

ROOT = Path(__file__).resolve().parents[2]
SMALL_REGISTRY = ROOT / "tests" / "check" / "registry"
QWEN = ROOT / "tests" / "fixtures" / "configs" / "qwen3-8b.json"


def make_clone(target: Path) -> Path:
    """A clone's shape: pyproject.toml, .gitignore, registry/ (the small one of the check tests), src/."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ("pyproject.toml", ".gitignore"):
        shutil.copy(ROOT / name, target / name)
    shutil.copytree(SMALL_REGISTRY, target / "registry")
    shutil.copytree(ROOT / "src" / "neuron_compat", target / "src" / "neuron_compat",
                    ignore=shutil.ignore_patterns("__pycache__", "registry.json", "registry.index.json"))
    return target


def check_in(clone: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING", "NEURON_COMPAT"))}
    env["PYTHONPATH"] = str(clone / "src")
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", str(QWEN), "--json"],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120, check=False)


def answered(result: subprocess.CompletedProcess[str]) -> bool:
    """An answer (any status) from the clone's own registry, not an error."""
    return result.returncode not in (1, 64) and '"chosen_by": "bundled"' in result.stdout


def git(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=clone, capture_output=True, text=True, env=env, timeout=60, check=False)


def test_nothing_compiled_is_tracked():
    tracked = subprocess.run(["git", "ls-files", "src/neuron_compat/data"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    assert tracked == ""


def test_a_broken_family_file_is_a_located_error_never_the_stale_cache(tmp_path):
    clone = make_clone(tmp_path / "clone")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    good = check_in(clone, elsewhere)
    assert answered(good), good.stderr
    assert list((clone / "build" / "registry-snapshot").glob("registry-*.json"))  # the cache, in the clone's build/
    family = clone / "registry" / "families" / "qwen3.yaml"
    text = family.read_text(encoding="utf-8")
    family.write_text(text.replace("status: supported", "status: suported", 1), encoding="utf-8")
    broken = check_in(clone, elsewhere)
    assert broken.returncode == 1 and broken.stdout == ""
    line = broken.stderr.strip()
    assert "\n" not in line and "Traceback" not in line, broken.stderr
    assert "families/qwen3.yaml:" in line and "'suported'" in line and "neuron-compat validate" in line, line
    family.write_text(text, encoding="utf-8")
    assert answered(check_in(clone, elsewhere))  # fixed: answers again (the earlier cache entry)


def test_the_cache_is_keyed_by_content_and_version(tmp_path, monkeypatch):
    clone = make_clone(tmp_path / "clone")
    registry = clone / "registry"
    first = bundled.compiled_clone(clone)
    assert isinstance(first[0], Path) and first[0].parent == clone / "build" / "registry-snapshot"
    assert bundled.compiled_clone(clone) == first  # unchanged: the same entry
    monkeypatch.setattr(neuron_compat, "__version__", "999.0.0")  # a cache another version wrote is not used
    other = bundled.compiled_clone(clone)
    assert other != first  # rebuilt under its own key (older entries are kept a while, document/cache.py)
    (registry / "families" / "bert.yaml").write_text("id: [\n", encoding="utf-8")
    with pytest.raises(RegistrySourceError, match=r"bert\.yaml:\d+:\d+"):
        bundled.compiled_clone(clone)


def test_a_package_outside_a_clone_is_not_a_clone(tmp_path):
    package = tmp_path / "site-packages" / "neuron_compat"
    package.mkdir(parents=True)
    assert bundled.source_checkout(package) is None
    assert bundled.source_checkout(ROOT / "src" / "neuron_compat") == ROOT


def test_two_data_branches_that_edit_two_families_merge_without_conflict(tmp_path):
    clone = make_clone(tmp_path / "clone")
    assert git(clone, "init", "-q", "-b", "main").returncode == 0
    git(clone, "add", "-A")
    assert git(clone, "commit", "-q", "-m", "base").returncode == 0
    for branch, family, name in (("llama-note", "llama", "Llama"), ("qwen3-note", "qwen3", "Qwen3")):
        git(clone, "checkout", "-q", "-b", branch, "main")
        path = clone / "registry" / "families" / f"{family}.yaml"
        text = path.read_text(encoding="utf-8")
        assert f"\nname: {name}\n" in text
        path.write_text(text.replace(f"\nname: {name}\n", f"\nname: {name} (edited)\n", 1), encoding="utf-8")
        result = check_in(clone, tmp_path)  # what a contributor runs: compiles into build/, which git ignores
        assert answered(result), result.stderr
        assert git(clone, "status", "--porcelain").stdout.split() == ["M", f"registry/families/{family}.yaml"]
        git(clone, "commit", "-q", "-am", f"edit {family}")
    git(clone, "checkout", "-q", "main")
    assert git(clone, "merge", "-q", "--no-edit", "llama-note").returncode == 0
    merged = git(clone, "merge", "--no-edit", "qwen3-note")
    assert merged.returncode == 0 and "CONFLICT" not in merged.stdout, merged.stdout + merged.stderr
    for family, name in (("llama", "Llama"), ("qwen3", "Qwen3")):
        assert f"\nname: {name} (edited)\n" in (clone / "registry" / "families" / f"{family}.yaml").read_text()
