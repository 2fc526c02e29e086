"""`explain --file` reads through the one bounded reader: a FIFO with no writer, a device or a folder is refused
before a byte is read (never a hang), and a closed standard input is one line, not a traceback.

The closed-stdin and FIFO cases run a real process: a closed file descriptor 0 and a blocking open are what
they are about.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from neuron_compat.cli import main
from neuron_compat.safeio import bounded_read


def run_cli(args: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *args], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "NO_COLOR": "1"}, **options)  # type: ignore[call-overload]


def _close_stdin() -> None:
    os.close(0)


@pytest.mark.parametrize("argument", ["-", "/dev/stdin"])
def test_explain_with_stdin_closed_is_one_line(argument: str) -> None:
    result = run_cli(["explain", "--offline", "--file", argument], stdin=None, preexec_fn=_close_stdin)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"neuron-compat explain: {argument}: "), result.stderr


def test_explain_from_a_fifo_with_no_writer_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "errors.log"
    os.mkfifo(fifo)
    result = run_cli(["explain", "--offline", "--file", str(fifo)])
    assert result.returncode == 1, result.stderr
    assert "a FIFO" in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a character device"), ("/", "a directory"),
                                            ("/dev/null", "a character device")])
def test_explain_from_a_device_or_folder_is_refused_before_reading(
        path: str, kind: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    real_read = os.read

    def counting_read(fd: int, size: int) -> bytes:
        reads.append(size)
        return real_read(fd, size)

    monkeypatch.setattr(bounded_read.os, "read", counting_read)
    assert main(["explain", "--offline", "--file", path]) == 1
    err = capsys.readouterr().err
    assert kind in err and len(err.strip().splitlines()) == 1, err
    assert reads == []


def test_explain_reads_the_end_of_a_log_longer_than_the_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from neuron_compat.check import explain

    monkeypatch.setattr(explain, "MAX_TEXT", 1_000_000)  # the cap is 64 MB; a 6 MB log stands for a longer one
    log = tmp_path / "long.log"
    log.write_bytes(b"x " * 3_000_000 + b"\n[F137] neuronx-cc was forcibly killed - This most commonly occurs due to "
                    b"insufficient system memory.\n")
    code = main(["explain", "--offline", "--json", "--file", str(log)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert '"truncated": true' in captured.out and '"skipped_bytes": 5' in captured.out
    assert '"compiler-f137-forcibly-killed"' in captured.out
