"""`changelog` across a commit that adds a huge file under registry/: the archive is streamed, never held.

The 400 MB file of the report is scaled to 48 MB here (the same code path): Python's allocations while the
revision is extracted stay a few megabytes (tracemalloc), the file is written only up to the loader's
limit (at its real size, the rest a hole), and the command ends with the loader's one-line refusal.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from neuron_compat.commands.changelog import extract_registry
from neuron_compat.loading.file_caps import MAX_FILE_BYTES

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "registry"
BIG = 48 * 1024 * 1024


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.fixture(scope="module", params=["families/huge.yaml", "releases.yaml"])
def repo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("changelog-repo")
    shutil.copytree(FIXTURE, root / "registry")
    git(root, "init", "-q")
    git(root, "add", "registry")
    git(root, "commit", "-qm", "base")
    huge = root / "registry" / request.param
    huge.parent.mkdir(parents=True, exist_ok=True)
    with open(huge, "wb") as out:
        out.write(b"id: huge\n")
        chunk = b"# " + b"x" * (1024 * 1024 - 3) + b"\n"
        for _ in range(BIG // len(chunk)):
            out.write(chunk)
    git(root, "add", "registry")
    git(root, "commit", "-qm", "huge")
    return root, request.param


def test_the_archive_is_streamed_and_each_file_cut_at_the_limit(repo: tuple[Path, str], tmp_path: Path) -> None:
    root, name = repo
    tracemalloc.start()
    try:
        extracted = extract_registry(root, "HEAD", "registry", tmp_path / "out")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert extracted is not None
    written = extracted / name
    assert written.stat().st_size >= BIG  # its real size, so the loader's message is true...
    assert written.stat().st_blocks * 512 <= MAX_FILE_BYTES + 1024 * 1024  # ...but only the limit is on disk
    assert written.read_bytes()[MAX_FILE_BYTES + 1:].count(0) == written.stat().st_size - MAX_FILE_BYTES - 1
    assert peak < 8 * 1024 * 1024, f"peak Python allocation {peak} bytes"
    assert (extracted / "families" / "llama.yaml").read_bytes() == (FIXTURE / "families" / "llama.yaml").read_bytes()


def test_changelog_refuses_the_huge_file_in_one_line(repo: tuple[Path, str]) -> None:
    root, name = repo
    result = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "changelog", "--from", "HEAD~1"], cwd=root,
                            capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr
    assert any(f"HEAD:registry/{name}" in line and "a registry file may be at most" in line for line in result.stderr.splitlines()), \
        result.stderr
