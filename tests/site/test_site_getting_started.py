"""Getting started: a bare `mkdocs build` / `mkdocs serve` in a fresh clone, and one rebuild per edit under serve.

A fresh clone is a temporary folder holding what git tracks for the site (mkdocs.yml, site/, the theme and the
hook under src/, the site-test registry as registry/) and no build/: the first `mkdocs build` writes build/docs
itself. Where it cannot (another tree named by NEURON_COMPAT_DOCS that does not exist), one line names the
command to run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from site_helpers import REPO, fetch_text, free_port, make_registry, stop_process_group


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NEURON_COMPAT_REGISTRY", "NEURON_COMPAT_DOCS", "SOURCE_DATE_EPOCH")}
    return {**env, "NO_MKDOCS_2_WARNING": "1", **extra}


def fresh_clone(target: Path) -> Path:
    target.mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copytree(REPO / "site", target / "site")
    for folder in ("theme", "templates"):  # the theme overrides, and the templates mkdocs.yml watches
        shutil.copytree(REPO / "src" / "neuron_compat" / "site" / folder, target / "src" / "neuron_compat" / "site" / folder)
    shutil.copy(REPO / "src" / "neuron_compat" / "site" / "mkdocs_hook.py",
                target / "src" / "neuron_compat" / "site" / "mkdocs_hook.py")
    make_registry(target / "registry")
    return target


def test_a_fresh_clone_builds_with_a_bare_mkdocs_build(tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path / "clone")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=clone, env=_env(),
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "neuron-compat site --out build/docs" in result.stderr  # it says what it did
    assert (clone / "build" / "docs" / ".neuron-compat-tree.json").is_file()
    assert (clone / "build" / "site" / "families" / "qwen3" / "index.html").is_file()
    # the tree it wrote is the command's: `neuron-compat site --out build/docs` takes it over afterwards
    again = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "site", "--out", "build/docs"], cwd=clone,
                           env=_env(), capture_output=True, text=True, timeout=300, check=False)
    assert again.returncode == 0, again.stderr


def test_a_missing_tree_it_cannot_write_is_one_line_naming_the_command(tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path / "clone")
    missing = tmp_path / "nowhere"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build"], cwd=clone,
                            env=_env(NEURON_COMPAT_DOCS=str(missing)), capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [f"error: {missing} does not exist: write the documentation tree first with "
                     f"`neuron-compat site --out {missing}`"]
    assert not missing.exists()


def test_the_readme_site_command_builds_once_serves_and_rebuilds_once_per_edit(tmp_path: Path) -> None:
    """The README's site command (`mkdocs serve --livereload` after the install) in a fresh clone: the tree is
    written once and built once before the first page, `/` redirects to the path of site_url without a WARNING, the
    log lists no pages missing from the nav, and one edit of a registry file is one rebuild (the hook's
    regeneration of the tree used to set off a second one, for the files it had rewritten)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install -e '.[site]' && mkdocs serve --livereload\n" in readme
    clone = fresh_clone(tmp_path / "clone")
    port = free_port()
    log_path = tmp_path / "serve.log"
    log = log_path.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--livereload", "-a", f"127.0.0.1:{port}"],
        cwd=clone, env=_env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    root = f"http://127.0.0.1:{port}/"
    url = f"{root}neuron-compat/families/qwen3/"

    def logged() -> str:
        return log_path.read_text(encoding="utf-8")

    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and "Qwen3" not in fetch_text(url):
            time.sleep(0.5)
        assert "Qwen3" in fetch_text(url), "mkdocs serve did not come up:\n" + logged()
        assert "neuron-compat" in fetch_text(root)  # `/` redirects to the site's path
        time.sleep(3)  # anything the start-up itself set off has settled
        assert logged().count("does not exist yet: writing it") == 1
        assert "files changed" not in logged()  # the tree it had just written was not generated a second time
        before = logged().count("Building documentation")
        assert before == 1, logged()[-3000:]
        family = clone / "registry" / "families" / "qwen3.yaml"
        family.write_text(family.read_text(encoding="utf-8").replace("name: Qwen3", "name: Qwen3 Edited"),
                          encoding="utf-8")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and "Qwen3 Edited" not in fetch_text(url):
            time.sleep(0.5)
        assert "Qwen3 Edited" in fetch_text(url), "no rebuild after the edit:\n" + logged()
        time.sleep(8)  # a second rebuild, if the tree's rewrite set one off, starts within the watcher's delay
        assert logged().count("Building documentation") - before == 1, logged()[-3000:]
        assert "WARNING" not in logged() and "not included in the \"nav\"" not in logged(), logged()[-3000:]
    finally:
        stop_process_group(process)
        log.close()
