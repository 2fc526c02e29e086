"""What the corpus cannot express: concurrent writers, writes through symlinks, kept modes and line endings,
unreadable files, leftovers of killed runs, and registry text in a pull-request comment.

Every command runs with a timeout; "no file changed that should not be" is checked on the whole folder.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from corpus import FIXTURE

TIMEOUT = 120
EVIDENCE = ["--stack", "nxd-inference", "--release", "2.22.0", "--hardware", "trn1"]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=TIMEOUT)


def registry_copy(tmp_path: Path) -> Path:
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    return registry


def add_evidence(registry: Path, url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return cli("add-evidence", "llama", *EVIDENCE, "--url", url, "--registry", str(registry), cwd=cwd)


def test_concurrent_add_evidence_keeps_every_write(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path)
    runs = [subprocess.Popen([sys.executable, "-m", "neuron_compat.cli", "add-evidence", "llama", *EVIDENCE,
                              "--url", f"https://example.com/c{i}", "--registry", str(registry)],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for i in range(8)]
    results = [(run.wait(timeout=TIMEOUT), *run.communicate()) for run in runs]
    assert [code for code, _, _ in results] == [0] * 8, results
    text = (registry / "families" / "llama.yaml").read_text(encoding="utf-8")
    assert sorted(line.strip() for line in text.splitlines() if "example.com/c" in line) == \
        sorted(f"- url: https://example.com/c{i}" for i in range(8))
    assert cli("validate", str(registry), cwd=tmp_path).returncode == 0


def test_add_evidence_writes_through_a_symlink_and_keeps_the_mode(tmp_path: Path) -> None:
    """A family file that is a link to a file inside the registry (a link out is refused: the next test)."""
    registry = registry_copy(tmp_path)
    (registry / "shared").mkdir()
    real = registry / "shared" / "llama-real.yaml"
    shutil.move(registry / "families" / "llama.yaml", real)
    (registry / "families" / "llama.yaml").symlink_to("../shared/llama-real.yaml")
    real.chmod(0o640)
    assert add_evidence(registry, "https://example.com/through", tmp_path).returncode == 0
    assert (registry / "families" / "llama.yaml").is_symlink()
    assert "https://example.com/through" in real.read_text(encoding="utf-8")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert not [p for p in real.parent.iterdir() if p.name.endswith(".tmp")]


def test_add_evidence_refuses_a_family_file_that_links_outside_the_registry(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path)
    outside = tmp_path / "private-llama.yaml"
    shutil.move(registry / "families" / "llama.yaml", outside)
    (registry / "families" / "llama.yaml").symlink_to(outside)
    before = outside.read_bytes()
    result = add_evidence(registry, "https://example.com/outside", tmp_path)
    assert result.returncode == 1 and "outside the registry" in result.stderr and "Traceback" not in result.stderr
    assert outside.read_bytes() == before


def test_add_evidence_keeps_crlf_line_endings_and_bom(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path)
    path = registry / "families" / "llama.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    assert add_evidence(registry, "https://example.com/crlf", tmp_path).returncode == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert b"https://example.com/crlf\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


def test_export_writes_through_a_symlink_and_new_files_get_the_umask_mode(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path)
    (tmp_path / "real.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "link.json").symlink_to("real.json")
    assert cli("export", "registry", "-o", "link.json", cwd=tmp_path).returncode == 0
    assert (tmp_path / "link.json").is_symlink()
    assert '"families"' in (tmp_path / "real.json").read_text(encoding="utf-8")
    old = os.umask(0o022)
    try:
        assert cli("export", str(registry), "-o", "new.json", cwd=tmp_path).returncode == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644


def test_a_failed_add_evidence_changes_nothing(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path)
    before = {p: p.read_bytes() for p in registry.rglob("*") if p.is_file()}
    result = cli("add-evidence", "llama", *EVIDENCE[:2], "--release", "9.9.9", "--hardware", "trn1",
                 "--url", "https://example.com/x", "--registry", str(registry), cwd=tmp_path)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert {p: p.read_bytes() for p in registry.rglob("*") if p.is_file()} == before


def test_stale_leftovers_of_killed_runs_are_removed(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path)
    families = registry / "families"
    old = time.time() - 3600
    leftover = families / ".llama.yaml.abc123.tmp"
    fresh = families / ".llama.yaml.def456.tmp"  # another run's, still being written
    shadow = Path(tempfile.gettempdir()) / "neuron-compat-check-killedrun"
    for path in (leftover, fresh):
        path.write_text("half", encoding="utf-8")
    shadow.mkdir(exist_ok=True)
    (shadow / "registry").symlink_to(registry)  # a shadow links to the real files: never followed
    os.utime(leftover, (old, old))
    os.utime(shadow, (old, old))
    try:
        assert add_evidence(registry, "https://example.com/clean", tmp_path).returncode == 0
        assert not leftover.exists() and fresh.exists() and not shadow.exists()
        assert (registry / "families" / "bert.yaml").is_file()  # the symlinked registry is untouched
    finally:
        shutil.rmtree(shadow, ignore_errors=True)


CAPSH = shutil.which("capsh")


@pytest.mark.skipif(os.geteuid() == 0 and not CAPSH, reason="root reads everything; capsh drops that")
@pytest.mark.parametrize("target, expected", [
    ("families/bert.yaml", "registry/families/bert.yaml: cannot read the file: Permission denied"),
    ("families", "registry/families: cannot list the directory: Permission denied (check its permissions)"),
])
def test_unreadable_files_are_located_errors(tmp_path: Path, target: str, expected: str) -> None:
    registry = registry_copy(tmp_path)
    (registry / target).chmod(0)
    try:
        command = [sys.executable, "-m", "neuron_compat.cli", "validate", "registry"]
        if os.geteuid() == 0:
            command = [CAPSH, "--drop=cap_dac_override,cap_dac_read_search", "--", "-c",
                       " ".join(f"'{part}'" for part in command)]
        result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    finally:
        (registry / target).chmod(0o755)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [expected]
    assert "Traceback" not in result.stderr


def test_diff_markdown_keeps_links_and_images_out_of_the_comment(tmp_path: Path) -> None:
    base = registry_copy(tmp_path)
    head = tmp_path / "head"
    shutil.copytree(FIXTURE, head)
    path = head / "families" / "llama.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("text: Example partial note.",
                                 'text: "![t](https://example.com/t.png) [x](https://example.com/x) *y*"'),
                    encoding="utf-8")
    result = cli("diff", "--format", "markdown", str(base), str(head), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "[t](" not in result.stdout and "[x](" not in result.stdout  # no link or image can form
    assert "\\!\\[t\\](https://example.com/t.png)" in result.stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device whose writes fail: disk full)")
@pytest.mark.parametrize("command", [["export", "registry"], ["validate", "registry"], ["schema"]])
def test_output_to_a_full_disk_is_one_line_and_exit_1(tmp_path: Path, command: list[str]) -> None:
    """`> file` on a full disk: the failed write is reported, not a traceback (nor an 'Exception ignored' at exit)."""
    registry_copy(tmp_path)
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "neuron_compat.cli", *command], cwd=tmp_path, stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
    assert result.returncode == 1
    assert result.stderr.splitlines() == ["neuron-compat: cannot write the output: No space left on device"]
