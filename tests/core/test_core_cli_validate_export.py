"""`neuron-compat validate` and `export` through the real command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "registry"


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})


def bad_registry(tmp_path: Path) -> Path:
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    path = registry / "families" / "bert.yaml"
    path.write_text(path.read_text().replace("status: supported", "status: suported"))
    return registry


def test_valid_registry_prints_a_summary(tmp_path: Path) -> None:
    result = cli("validate", str(FIXTURE), cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip() == "ok: 2 families, 3 statements, 2 stacks, 3 releases (newest 2.22.0)"


def test_a_release_without_component_versions_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    releases = registry / "releases.yaml"
    releases.write_text("".join(line for line in releases.read_text().splitlines(keepends=True)
                                if not line.lstrip().startswith("components: {")))
    quiet = cli("validate", "registry", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stdout + quiet.stderr
    result = cli("validate", "registry", "--warnings", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    *warnings, summary = result.stdout.strip().splitlines()
    assert warnings and all(": warning: " in line and "records no component versions" in line for line in warnings)
    assert summary == f"ok: 2 families, 3 statements, 2 stacks, 3 releases (newest 2.22.0), {len(warnings)} warning(s)"
    assert quiet.stdout == f"{summary} (list them with --warnings)\n"  # one line, the warnings counted


def test_missing_registry_directory(tmp_path: Path) -> None:
    result = cli("validate", "nowhere", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.strip() == ("nowhere: registry directory not found (run it in a clone's root or name the "
                                     "directory; `check` needs none)")


def test_formats_json_and_github(tmp_path: Path) -> None:
    bad_registry(tmp_path)
    as_json = cli("validate", "registry", "--format", "json", cwd=tmp_path)
    assert as_json.returncode == 1
    found = json.loads(as_json.stdout)
    [problem] = [p for p in found if p["severity"] == "error"]
    assert problem == {"file": "registry/families/bert.yaml", "line": 8, "column": 13, "field": "support[0].status",
                       "message": "'suported' is not one of the allowed values", "hint": "did you mean 'supported'?",
                       "rule": "schema", "severity": "error"}
    assert all(p["rule"] == "release-components" for p in found if p["severity"] == "warning")
    github = cli("validate", "registry", "--format", "github", cwd=tmp_path)
    lines = github.stdout.strip().splitlines()
    assert [line for line in lines if line.startswith("::error")] == [
        "::error file=registry/families/bert.yaml,line=8,col=13,title=neuron-compat schema::"
        "support[0].status: 'suported' is not one of the allowed values (did you mean 'supported'?)"]
    assert all(line.startswith("::warning ") for line in lines if not line.startswith("::error"))


def test_export_is_identical_across_directories_locales_and_time_zones(tmp_path: Path) -> None:
    first = cli("export", str(FIXTURE), cwd=tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    shutil.copytree(FIXTURE, other / "registry")
    second = cli("export", "registry", cwd=other, env={"TZ": "Pacific/Kiritimati", "LC_ALL": "C", "LANG": "C"})
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert [f["id"] for f in data["families"]] == ["bert", "llama"]


def test_export_writes_atomically_and_refuses_bad_registry(tmp_path: Path) -> None:
    out = tmp_path / "api" / "registry.json"
    out.parent.mkdir()
    assert cli("export", str(FIXTURE), "-o", str(out), cwd=tmp_path).returncode == 0
    good = out.read_text(encoding="utf-8")
    bad_registry(tmp_path)
    result = cli("export", "registry", "-o", str(out), cwd=tmp_path)
    assert result.returncode == 1
    assert "nothing exported" in result.stderr
    assert out.read_text(encoding="utf-8") == good
    assert sorted(p.name for p in out.parent.iterdir()) == ["registry.json"]


def test_no_command_prints_help_and_exits_2(tmp_path: Path) -> None:
    result = cli(cwd=tmp_path)
    assert result.returncode == 2
    assert "validate" in result.stdout


def test_a_file_of_thousands_of_overlapping_statements_finishes_with_one_line_each(tmp_path: Path) -> None:
    """3,000 identical statements (under the 1 MB file limit) overlap pairwise: reporting every pair was 4.5
    million lines and minutes of work. One line per statement; the subprocess timeout only catches a hang."""
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    statement = ("  - stack: optimum-neuron\n    workload: inference\n    hardware: [inf2]\n    status: unknown\n"
                 "    notes: [{text: n}]\n    sources: [{url: 'https://huggingface.co/docs/optimum-neuron/index', "
                 "kind: vendor-docs, verified: 2026-12-02}]\n")
    path = registry / "families" / "bert.yaml"
    path.write_text(path.read_text().split("support:")[0] + "support:\n" + statement * 3000 + "classes: [encoder]\n")
    result = cli("validate", "registry", cwd=tmp_path)
    assert result.returncode == 1
    overlaps = [line for line in result.stdout.splitlines() if "overlaps support[" in line]
    assert len(overlaps) == 2999
    assert overlaps[0] == ("registry/families/bert.yaml:11:5: support[1].since: overlaps support[0] "
                           "(optimum-neuron/inference on inf2) (set until on support[0] to this statement's since, "
                           "or split the hardware)")
