"""add-evidence beside a real concurrent writer: no save of another program is silently replaced.

A thread plays a text editor that re-saves registry/families/llama.yaml every few milliseconds the way
editors do (write a temporary file beside it, rename it over the file), each save carrying a numbered
comment. Before each save it looks at the file: a version it did not write is add-evidence's, and that
version's comment says which save add-evidence edited. If that is not the editor's latest save, a save was
lost. add-evidence must refuse with one line (exit 1) when the file changed since it read it, or write an
edit of the latest save. Other writers turn the file into non-UTF-8 bytes or broken YAML between reads.
The registry lock's own failure (a directory that cannot be opened) is one line too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from neuron_compat import cli
from neuron_compat.contributing import registry_lock

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "registry"
ADD = ["add-evidence", "llama", "--stack", "nxd-inference", "--release", "2.22.0", "--hardware", "trn1",
       "--registry", "registry"]
CHANGED = ("error: registry/families/llama.yaml changed while add-evidence ran (saved by another program?); "
           "nothing written: run it again")
CHANGED_AT_WRITE = ("error: registry/families/llama.yaml: changed since it was read (saved by another program?); "
                    "nothing written: run the command again")


def run_cli(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


class Editor(threading.Thread):
    """Saves the file every `period` seconds (temporary + rename), and records saves that someone replaced."""

    def __init__(self, path: Path, period: float, versions: list[bytes] | None = None) -> None:
        super().__init__(daemon=True)
        self.path, self.period = path, period
        self.base = path.read_bytes()
        self.versions = versions
        self.saves = 0
        self.last_saved = b""
        self.foreign: list[tuple[int, int]] = []  # (save the foreign version was made from, editor's latest save)
        self.stopping = threading.Event()

    def content(self, number: int) -> bytes:
        if self.versions is not None:
            return self.versions[number % len(self.versions)]
        return self.base + f"# editor save {number}\n".encode()

    def run(self) -> None:
        while not self.stopping.is_set():
            current = self.path.read_bytes()
            if self.versions is None and self.saves and current != self.last_saved:
                marker = current.rsplit(b"# editor save ", 1)[-1].split(b"\n", 1)[0]
                self.foreign.append((int(marker), self.saves))
                self.base = current.rsplit(b"# editor save ", 1)[0]  # keep the edit: a real editor reloads it
            self.saves += 1
            self.last_saved = self.content(self.saves)
            temporary = self.path.with_name(f".{self.path.name}.editor{self.saves}")
            temporary.write_bytes(self.last_saved)
            os.replace(temporary, self.path)
            time.sleep(self.period)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=10)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "registry")
    return tmp_path


@pytest.mark.parametrize("period", [0.002, 0.02], ids=["2ms", "20ms"])
def test_an_editor_saving_during_add_evidence_loses_no_save(workdir: Path, period: float) -> None:
    family = workdir / "registry" / "families" / "llama.yaml"
    editor = Editor(family, period)
    editor.start()
    outcomes = []
    try:
        for run in range(6):
            result = run_cli([*ADD, "--url", f"https://example.com/run-{run}"], workdir)
            assert "Traceback" not in result.stderr, result.stderr
            if result.returncode == 0:
                assert result.stdout.splitlines()[-1].startswith("wrote registry/families/llama.yaml")
                outcomes.append("wrote")
            else:
                assert result.returncode == 1, result.stderr
                assert result.stderr.splitlines() in ([CHANGED], [CHANGED_AT_WRITE]), result.stderr
                outcomes.append("refused")
            time.sleep(3 * period)  # let the editor see what was written
    finally:
        editor.stop()
    lost = [(made_from, latest) for made_from, latest in editor.foreign if made_from != latest]
    # Only a save landing in the microseconds between the last comparison and the rename can be lost
    # (atomic_write's docstring); an unguarded add-evidence loses one in nearly every run here.
    assert len(lost) <= 1, f"saves lost: {lost} (outcomes {outcomes})"
    assert editor.saves > 20


def test_without_an_editor_the_edit_is_written(workdir: Path) -> None:
    """The guard refuses only a real change: the same run with no other writer writes."""
    result = run_cli([*ADD, "--url", "https://example.com/alone"], workdir)
    assert result.returncode == 0, result.stderr
    assert "https://example.com/alone" in (workdir / "registry" / "families" / "llama.yaml").read_text()


@pytest.mark.parametrize("other", [b"\xff\xfe not UTF-8 \x80\x81\n", b"id: llama\nname: [unclosed\n"],
                         ids=["not-utf8", "broken-yaml"])
def test_a_file_that_turns_bad_between_reads_is_one_line(workdir: Path, other: bytes) -> None:
    family = workdir / "registry" / "families" / "llama.yaml"
    editor = Editor(family, 0.001, versions=[family.read_bytes(), other])
    editor.start()
    try:
        for run in range(5):
            result = run_cli([*ADD, "--url", f"https://example.com/flip-{run}"], workdir)
            assert "Traceback" not in result.stdout + result.stderr, result.stderr
            assert result.returncode in (0, 1), result.stderr
    finally:
        editor.stop()


@pytest.mark.parametrize("error", [PermissionError(13, "Permission denied"), OSError(24, "Too many open files")],
                         ids=["EACCES", "EMFILE"])
@pytest.mark.parametrize("command", [[*ADD, "--url", "https://example.com/x"],
                                     ["new", "foo", "--model-type", "foo", "--remote-code", "--registry", "registry"]],
                         ids=["add-evidence", "new"])
def test_a_registry_that_cannot_be_locked_is_one_line(workdir: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], error: OSError,
                                                      command: list[str]) -> None:
    """A directory at mode 0311 cannot be opened to flock it (root ignores the mode, so os.open is made to fail)."""
    def refusing_open(path: Path) -> int:
        raise type(error)(error.errno, error.strerror, str(path))

    monkeypatch.chdir(workdir)
    monkeypatch.setattr(registry_lock, "_open_directory", refusing_open)
    code = cli.main(command)
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.splitlines() == [f"error: registry: cannot lock the registry directory to write in it: "
                                         f"{error.strerror}"]
