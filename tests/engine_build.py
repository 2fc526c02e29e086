"""Building the website as a person does, for the tests of every folder: `neuron-compat site --out` writes the
documentation tree, then an engine (mkdocs-material, the reference, or Zensical) builds it.

Importable as `engine_build` from any test folder (tests/ is on sys.path through tests/conftest.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = REPO / "site"
THEME = REPO / "src" / "neuron_compat" / "site" / "theme"


def _env(extra_env: dict[str, str] | None = None) -> dict[str, str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    for name in ("SOURCE_DATE_EPOCH", "NEURON_COMPAT_REGISTRY", "NEURON_COMPAT_DOCS"):
        env.pop(name, None)
    env.update(extra_env or {})
    return env


PYODIDE_CACHE = REPO / ".cache" / "pyodide" / "package"
"""Where .ci/run unpacks the pinned npm package `pyodide` ($NEURON_COMPAT_PYODIDE_DIR overrides it)."""


def available_pyodide() -> Path | None:
    """The pinned Pyodide runtime the check page runs on, when this machine has it: sites built with it answer on
    the check page offline, from the test server alone."""
    folder = Path(os.environ.get("NEURON_COMPAT_PYODIDE_DIR") or PYODIDE_CACHE)
    return folder if (folder / "pyodide.mjs").is_file() else None


def pyodide_dir() -> Path:
    """`available_pyodide()`, fetched when missing (scripts/fetch_pyodide.py: the npm registry's tarball of the
    pinned version, its sha512 checked), for a test that needs it. Where it cannot be fetched (no route to the npm
    registry), the test is skipped locally and fails on CI ($CI set)."""
    import pytest

    folder = available_pyodide()
    if folder is None and not os.environ.get("NEURON_COMPAT_PYODIDE_DIR"):
        folder = _fetched_pyodide()
    if folder is None:
        where = os.environ.get("NEURON_COMPAT_PYODIDE_DIR") or PYODIDE_CACHE
        if os.environ.get("CI"):
            pytest.fail(f"no Pyodide at {where} and it could not be fetched (python scripts/fetch_pyodide.py)")
        pytest.skip(f"no Pyodide at {where} and it could not be fetched (python scripts/fetch_pyodide.py)")
    return folder


def _fetched_pyodide() -> Path | None:
    """Run scripts/fetch_pyodide.py once for the whole run (xdist workers wait on one lock)."""
    from filelock import FileLock

    PYODIDE_CACHE.parent.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(PYODIDE_CACHE.parent.parent / "pyodide.lock")):
        if available_pyodide() is None:
            subprocess.run([sys.executable, str(REPO / "scripts" / "fetch_pyodide.py")], cwd=REPO, check=False,
                           timeout=600)
    return available_pyodide()


def write_tree(registry: Path, docs: Path, pages: Path = PAGES, cwd: Path | None = None,
               extra_env: dict[str, str] | None = None, pyodide: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`neuron-compat site --registry REGISTRY --pages PAGES --out DOCS [--pyodide DIR]`."""
    return subprocess.run(
        [sys.executable, "-m", "neuron_compat.cli", "site", "--registry", str(registry), "--pages", str(pages),
         "--out", str(docs), *(["--pyodide", str(pyodide)] if pyodide else [])],
        cwd=cwd or REPO, env=_env(extra_env), capture_output=True, text=True, timeout=300, check=False,
    )


def mkdocs_build(docs: Path, output: Path, cwd: Path | None = None, extra_env: dict[str, str] | None = None,
                 config: Path = REPO / "mkdocs.yml") -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the repository's mkdocs.yml from the tree at `docs` into `output`."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(output)],
        cwd=cwd or REPO, env=_env({"NEURON_COMPAT_DOCS": str(docs), **(extra_env or {})}),
        capture_output=True, text=True, timeout=300, check=False,
    )


def build_site(registry: Path, output: Path, cwd: Path | None = None,
               extra_env: dict[str, str] | None = None, pyodide: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The README's build: the tree (beside `output`, as OUTPUT-docs) from `registry`, then mkdocs into `output`.
    With `pyodide`, the check page's runtime is served from the site. Returns the first step that failed, or
    mkdocs' result."""
    docs = output.parent / f"{output.name}-docs"
    tree = write_tree(registry, docs, cwd=cwd, extra_env=extra_env, pyodide=pyodide)
    if tree.returncode != 0:
        return tree
    return mkdocs_build(docs, output, cwd=cwd, extra_env=extra_env)


def readme_build(output: Path, pyodide: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The README's build with no settings, from the repository root: `neuron-compat site --out DOCS` (the bundled
    registry/ and site/ pages by default) then `mkdocs build --strict`, the tree beside `output` instead of
    build/docs (so no test writes into the checkout) and the site into `output`."""
    docs = output.parent / f"{output.name}-docs"
    tree = subprocess.run(
        [sys.executable, "-m", "neuron_compat.cli", "site", "--out", str(docs),
         *(["--pyodide", str(pyodide)] if pyodide else [])],
        cwd=REPO, env=_env(), capture_output=True, text=True, timeout=300, check=False,
    )
    if tree.returncode != 0:
        return tree
    return mkdocs_build(docs, output)


def zensical_build(docs: Path, project: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`zensical build` of the repository's mkdocs.yml from the tree at `docs`; returns its result and the site.

    Zensical wants docs_dir and site_dir inside the folder of its config file and has no -d option, so the
    build runs in `project`: a copy of mkdocs.yml there (theme.custom_dir made absolute) with the tree moved in.
    """
    project.mkdir(parents=True, exist_ok=True)
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("custom_dir: src/neuron_compat/site/theme", f"custom_dir: {THEME}")
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    tree = project / "docs"
    if docs.resolve() != tree.resolve():
        docs.rename(tree)
    result = subprocess.run(
        [sys.executable, "-m", "zensical", "build", "--clean", "-f", str(project / "mkdocs.yml")],
        cwd=project, env=_env({"NEURON_COMPAT_DOCS": "docs"}), capture_output=True, text=True, timeout=300,
        check=False,
    )
    return result, project / "build" / "site"


BUILD_LOG = "mkdocs.log"
"""Beside a made_once site's `out`: the engine's log of that build (build_log reads it)."""


def kept_log(folder: Path, result: subprocess.CompletedProcess[str]) -> None:
    """Fails the fixture with mkdocs' last words, or keeps its log as FOLDER/mkdocs.log for the tests that read it."""
    assert result.returncode == 0, result.stderr[-3000:]
    (folder / BUILD_LOG).write_text(result.stderr, encoding="utf-8")


def build_log(site: Path) -> str:
    """The engine's log of a made_once site (its `out` folder), as a person would see it in the terminal."""
    return (site.parent / BUILD_LOG).read_text(encoding="utf-8")


def site_builder(registry: Path, pyodide: Path | None = None) -> Callable[[Path], None]:
    """For made_once: build_site of `registry` into FOLDER/out, failing the fixture with mkdocs' last words."""
    def build(folder: Path) -> None:
        kept_log(folder, build_site(registry, folder / "out", pyodide=pyodide))
    return build


def made_once(tmp_path_factory, name: str, make: Callable[[Path], object]) -> Path:
    """`make(folder)` once per test run, however many pytest-xdist workers ask: the first worker makes it under a
    lock in the run's shared temporary folder and the others wait, then read the same folder. Without workers it is
    a plain `tmp_path_factory.mktemp(name)`. For session fixtures whose result no test changes (built sites and the
    registries they are built from). `make` raises (a failed assert) when it fails; the next worker then retries
    and fails the same way."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent / "made-once"
    shared.mkdir(exist_ok=True)
    folder, done = shared / name, shared / f"{name}.done"
    with FileLock(str(shared / f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder
