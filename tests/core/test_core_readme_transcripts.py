"""The README's transcripts are what the code prints: each `$ neuron-compat ...` block is run (in-process, from the
clone's root) and compared line by line; a line `  ... (what is left out)` stands for any lines of the output."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from neuron_compat.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ELIDED = re.compile(r"^\s*\.\.\. \(.*\)$")


def transcripts() -> list[tuple[str, list[str]]]:
    """(command, expected lines) of each fenced block that starts with `$ neuron-compat `."""
    found = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", README.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL):
        first, *lines = block.splitlines()
        if first.startswith("$ neuron-compat "):
            found.append((first[2:], lines))
    return found


def matches(expected: list[str], output: str) -> bool:
    pattern = "".join(r"(?:.*\n)*?" if ELIDED.match(line) else re.escape(line) + r"\n" for line in expected)
    return re.fullmatch(pattern, output) is not None


def test_the_readme_has_transcripts():
    assert [command.split()[1] for command, _ in transcripts()] == ["check"]


@pytest.mark.parametrize("command, expected", transcripts(), ids=lambda value: str(value)[:40])
def test_a_transcript_is_what_the_command_prints(command, expected, monkeypatch):
    monkeypatch.chdir(ROOT)
    for name in ("NEURON_COMPAT_REGISTRY", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(shlex.split(command)[1:])
    printed = out.getvalue()
    assert matches(expected, printed), f"README.md's transcript of `{command}` differs from its output:\n{printed}"
    result = re.search(r"\(exit (\d+)\)$", expected[-1])
    assert result is None or int(result.group(1)) == code


def test_an_elision_cannot_hide_a_difference():
    assert matches(["a", "  ... (rest)", "z"], "a\nb\nc\nz\n")
    assert not matches(["a", "  ... (rest)", "z"], "a\nb\ny\n")
    assert not matches(["a", "b"], "a\nc\n")
