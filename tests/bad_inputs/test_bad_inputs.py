"""Every case of the bad-input corpus fails `neuron-compat validate` cleanly, with its exact located lines.

Cleanly means: exit code 1, the expected `path:line:col: field: message (hint)` lines and nothing
else on stdout, a count on stderr, and no traceback anywhere. `export -o` on a bad registry keeps the
previous output file as it was.

The cases run in-process (`neuron_compat.cli.main(argv)`, from the case's folder, its output captured): a fresh
interpreter per case cost 71 s of the suite for nothing the command does differently. A case that sets
environment variables runs in a real process (a variable may be read when a module is imported); exit codes
of a real process, signals and output encodings have their own tests (tests/hostile).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_in_process import run_in_process
from corpus import Case, load_cases

CASES = load_cases()
VALIDATE_CASES = [case for case in CASES if not case.run]
COMMAND_CASES = [case for case in CASES if case.run]
SITE_CASES = [case for case in CASES if case.site]


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`neuron-compat ARGS` run from `cwd`: in-process, or in a real process when `env` adds variables."""
    if env is not None and env != dict(os.environ):
        return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=60)
    return run_in_process(list(args), cwd)


def snapshot(folder: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every entry under `folder`: regular files by content, symlinks by target, others by kind (never read)."""
    state: dict[str, tuple[str, bytes | str]] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            state[key] = ("link", os.readlink(path))
        elif path.is_file():
            state[key] = ("file", path.read_bytes())
        else:
            state[key] = ("dir" if path.is_dir() else "special", "")
    return state


def test_corpus_is_large_and_covers_every_area() -> None:
    assert len(CASES) >= 40
    names = {case.name for case in CASES}
    for required in ("alias-bomb", "file-20mb", "binary-file", "empty-file", "id-does-not-match-file-name",
                     "http-source", "script-in-note", "duplicate-model-type", "missing-source"):
        assert required in names


@pytest.mark.parametrize("case", VALIDATE_CASES, ids=lambda case: case.name)
def test_validate_reports_exact_located_lines(case: Case, tmp_path: Path) -> None:
    case.materialise(tmp_path / "registry")
    result = run_cli("validate", "registry", cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines() == case.expect
    warnings = sum(": warning: " in line for line in case.expect)  # shown beside the problems, never counted as one
    counted = f"{len(case.expect) - warnings} problem(s)" + (f" and {warnings} warning(s)" if warnings else "")
    assert result.stderr.strip() == f"{counted} in registry"


@pytest.mark.parametrize("case", COMMAND_CASES, ids=lambda case: case.name)
def test_command_gives_one_line_and_its_exit_code(case: Case, tmp_path: Path) -> None:
    case.materialise(tmp_path / "registry")
    before = snapshot(tmp_path)
    result = run_cli(*case.run, cwd=tmp_path, env={**os.environ, **case.env} if case.env else None)
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert result.returncode == case.exit, output
    if case.expect:
        assert result.stdout.splitlines() == case.expect
    for line in case.contains:
        assert line in result.stdout.splitlines(), result.stdout
    if case.stderr is not None:
        assert result.stderr.splitlines() == case.stderr
    after = snapshot(tmp_path)
    changed = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    assert changed <= set(case.writes), f"changed: {sorted(changed)}"


@pytest.mark.parametrize("case", SITE_CASES, ids=lambda case: case.name)
def test_failed_export_keeps_previous_output(case: Case, tmp_path: Path) -> None:
    case.materialise(tmp_path / "registry")
    previous = tmp_path / "registry.json"
    previous.write_text('{"previous": true}\n', encoding="utf-8")
    result = run_cli("export", "registry", "-o", str(previous), cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1
    assert previous.read_text(encoding="utf-8") == '{"previous": true}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["registry", "registry.json"]  # no temporary left over
    assert case.expect[0] in result.stderr
