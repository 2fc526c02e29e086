"""`new`, `add-evidence` and `add-evidence configuration` keep the bundled snapshot (src/neuron_compat/data/registry.json and its index) in step
with the checkout's registry/ they write into (issue 23, defect 9: `bundle_registry.py --check` failed after them).

A checkout is copied into a temporary folder (pyproject.toml, registry/ from the fixture, the package, the
script) and the commands run from that copy, as a contributor runs them from an editable install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from contrib_helpers import FIXTURE_REGISTRY, REPO, run_cli

NEW = ("new", "qwen3", "--model-type", "qwen3", "--stack", "nxd-inference", "--today", "2026-12-02")
EVIDENCE = ("add-evidence", "qwen3", "--stack", "nxd-inference", "--release", "2.21.0", "--instance", "trn2.48xlarge",
            "--dtype", "bf16", "--url", "https://example.com/q.log", "--verified", "2026-12-03")
CONFIGURATION = ("add-evidence", "configuration", "--family", "qwen3", "--checkpoint", "Qwen/Qwen3-8B", "--stack",
                 "nxd-inference", "--release", "2.21.0", "--outcome", "compiled-and-ran", "--measure",
                 "throughput=12.5tokens/s", "--validated", "2026-12-03", "--url",
                 "https://github.com/aws-neuron/aws-neuron-sdk/issues/7")


def make_checkout(target: Path) -> Path:
    shutil.copy(REPO / "pyproject.toml", target / "pyproject.toml")
    shutil.copytree(FIXTURE_REGISTRY, target / "registry")
    shutil.copytree(REPO / "src" / "neuron_compat", target / "src" / "neuron_compat",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (target / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "bundle_registry.py", target / "scripts" / "bundle_registry.py")
    return target


def run_in(checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A command of the copied checkout, with its own package first on the path."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(checkout / "src")}
    return subprocess.run([sys.executable, *args], cwd=checkout, env=env, capture_output=True, text=True,
                          timeout=180, check=False)


def test_new_and_add_evidence_rebuild_the_snapshot_of_their_own_checkout(tmp_path: Path) -> None:
    checkout = make_checkout(tmp_path)
    snapshot = checkout / "src" / "neuron_compat" / "data" / "registry.json"
    for command in (NEW, EVIDENCE, CONFIGURATION):
        result = run_in(checkout, "-m", "neuron_compat.cli", *command, "--registry", "registry")
        assert result.returncode == 0, result.stderr
        assert "updated the bundled snapshot (src/neuron_compat/data/registry.json, " \
               "src/neuron_compat/data/registry.index.json): commit it too" in result.stdout.splitlines()
        check = run_in(checkout, "scripts/bundle_registry.py", "--check")
        assert check.returncode == 0, check.stderr
    assert "https://example.com/q.log" in snapshot.read_text(encoding="utf-8")
    assert "reported-qwen3-8b-no-instance" in snapshot.read_text(encoding="utf-8")


def test_another_checkouts_registry_gets_a_reminder_and_its_snapshot_is_left_alone(tmp_path: Path) -> None:
    """The running package is not that checkout's: its code may compile the registry differently."""
    checkout = make_checkout(tmp_path)
    snapshot = checkout / "src" / "neuron_compat" / "data" / "registry.json"
    before = snapshot.read_bytes()
    result = run_cli(*NEW, "--registry", checkout / "registry", cwd=checkout)
    assert result.returncode == 0, result.stderr
    assert (
        "note: the bundled snapshot src/neuron_compat/data/registry.json is now out of date; "
        "run `python scripts/bundle_registry.py` in that checkout and commit it with your change"
    ) in result.stdout.splitlines()
    assert snapshot.read_bytes() == before


def test_a_registry_outside_a_checkout_says_nothing_of_a_snapshot(registry: Path, tmp_path: Path) -> None:
    result = run_cli(*NEW, "--registry", registry, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "snapshot" not in result.stdout + result.stderr
