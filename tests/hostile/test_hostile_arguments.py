"""Arguments are echoed in errors like registry text: escaped, on one line; odd paths end in one line too.

Every command is run with a hostile value in each of its arguments (a forged CI workflow command after a
newline, a terminal escape, a bidi override): no output line may start a forged command, carry a raw ESC or
bidi mark, or be a traceback. Then with a 300-character path component (ENAMETOOLONG) in every place a
path goes, and with an ASCII-only stdout and an emoji in the data.

The messages are tested in-process (cli_in_process), except `check org/name`, which asks the (fake, offline) Hub
through huggingface_hub: its HF_ENDPOINT and HF_HUB_OFFLINE are read when it is imported, so those run in a real
process, as do the environment-variable and output-encoding tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_in_process import run_in_process

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "registry"
HOSTILE = ["HEAD\n::error::forged", "x\x1b[2J\x1b]0;pwn\x07", "llama\n", "a\u202eb"]
LONG = "a" * 300

# Each command with the placeholder @V@ where the hostile value goes (one run per placeholder position).
COMMANDS = [
    ["changelog", "--from", "@V@"],
    ["changelog", "--from", "HEAD", "--to", "@V@"],
    ["changelog", "--from", "HEAD", "--path", "@V@"],
    ["add-evidence", "@V@", "--stack", "optimum-neuron", "--release", "2.22.0", "--hardware", "inf2",
     "--url", "https://example.com/x"],
    ["add-evidence", "llama", "--stack", "@V@", "--release", "2.22.0", "--hardware", "inf2", "--url", "https://example.com/x"],
    ["add-evidence", "llama", "--stack", "optimum-neuron", "--release", "@V@", "--hardware", "inf2",
     "--url", "https://example.com/x"],
    ["add-evidence", "llama", "--stack", "optimum-neuron", "--release", "2.22.0", "--instance", "@V@",
     "--url", "https://example.com/x"],
    ["add-evidence", "llama", "--stack", "optimum-neuron", "--release", "2.22.0", "--hardware", "inf2", "--url", "@V@"],
    ["add-evidence", "llama", "--stack", "optimum-neuron", "--release", "2.22.0", "--hardware", "inf2",
     "--url", "https://example.com/x", "--registry", "@V@"],
    ["new", "@V@", "--model-type", "foo"],
    ["new", "foo", "--model-type", "@V@"],
    ["new", "foo", "--model-type", "foo", "--from-config", "@V@"],
    ["validate", "@V@"],
    ["stale", "@V@"],
    ["diff", "@V@"],
    ["export", "@V@"],
    ["export", "registry", "-o", "@V@/x.json"],
    ["check", "@V@", "--registry", "registry"],
    ["check", "org/name", "--revision", "@V@", "--registry", "registry"],
    ["check", "org/name", "--registry", "@V@"],
]


def run(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """In-process, unless the run sets environment variables or asks the Hub (see the module's docstring)."""
    if not env and not (argv[0] == "check" and argv[1] == "org/name"):
        return run_in_process(argv, cwd)
    environment = {**os.environ, "HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "1", **env}
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=60, env=environment, errors="backslashreplace")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "registry")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "registry"], cwd=tmp_path, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "x"],
                   cwd=tmp_path, check=True)
    return tmp_path


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_arguments_are_escaped_in_every_message(workdir: Path, command: list[str], value: str) -> None:
    argv = [part.replace("@V@", value) for part in command]
    result = run(argv, workdir)
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    for line in output.splitlines():
        assert not line.startswith("::"), line
        assert "\x1b" not in line and "\x07" not in line and "\u202e" not in line, repr(line)
        assert not line.startswith("b\n") and line != "b"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_too_long_path_component_is_one_line(workdir: Path, command: list[str]) -> None:
    argv = [part.replace("@V@", LONG) for part in command]
    result = run(argv, workdir)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-500:]
    assert result.returncode in (1, 2), result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2, result.stderr


def test_the_registry_named_by_the_environment_may_be_too_long(workdir: Path) -> None:
    result = run(["check", "org/name"], workdir, NEURON_COMPAT_REGISTRY=LONG)
    assert "Traceback" not in result.stderr, result.stderr[-500:]
    assert result.returncode in (1, 2)
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("encoding_env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "POSIX", "PYTHONUTF8": "0",
                                                                       "PYTHONIOENCODING": ""}])
@pytest.mark.parametrize("command", [["export", "registry"], ["diff", "registry", "registry2"], ["validate", "registry"],
                                     ["stale", "registry", "--today", "2030-01-01"], ["export", "registry", "--json"]])
def test_an_ascii_stdout_gets_escapes_not_a_crash(workdir: Path, command: list[str], encoding_env: dict[str, str]) -> None:
    shutil.copytree(workdir / "registry", workdir / "registry2")
    llama = workdir / "registry2" / "families" / "llama.yaml"
    llama.write_text(llama.read_text(encoding="utf-8").replace("Example partial note.", "Works \U0001f680 fine."),
                     encoding="utf-8")
    if command[0] != "diff":
        shutil.rmtree(workdir / "registry")
        shutil.copytree(workdir / "registry2", workdir / "registry")
    result = run(command, workdir, **encoding_env)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-800:]
    assert result.returncode in (0, 1), result.stderr
