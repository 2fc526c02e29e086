"""Helpers of the `neuron-compat check` tests: paths, a clean environment, a CLI runner.

Named check_helpers (not conftest) so that test modules import it without clashing with the conftest
modules of other test directories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK_REGISTRY = Path(__file__).resolve().parent / "registry"
CONFIGS = ROOT / "tests" / "fixtures" / "configs"
CONFIG_FILES = sorted(CONFIGS.glob("*.json"))


def bundled_snapshot() -> tuple[Path, Path]:
    """The document and index `check` answers from when no registry is named: this clone's registry/ compiled
    (into build/registry-snapshot/, compiled now when that cache is cold)."""
    from neuron_compat.registry_sources.bundled import compiled_clone

    paths = compiled_clone(ROOT)
    assert isinstance(paths[0], Path) and isinstance(paths[1], Path), "the cache under build/ is not writable"
    return paths[0], paths[1]


def config_text(name: str) -> str:
    return (CONFIGS / name).read_text(encoding="utf-8")


def clean_env(**extra: str) -> dict[str, str]:
    """The test process's environment without any Hub settings or tokens of the machine, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    env.update(extra)
    return env


def run_check(*args: str, env: dict[str, str] | None = None, registry: Path = CHECK_REGISTRY,
              timeout: float = 60, process: bool = False) -> subprocess.CompletedProcess:
    """`neuron-compat check ARGS --registry REGISTRY` from the repository root. In this process (cli_in_process)
    when it reads a local file or folder with the test's own environment; in a real process when `env` is given,
    when it names a Hub id (huggingface_hub reads HF_ENDPOINT and HF_HUB_OFFLINE on import), or with `process`.
    The real command's exit codes are also tested from the installed wheel (test_check_installed_wheel.py)."""
    arguments = ["check", *args, "--registry", str(registry)]
    model = next((a for a in args if not a.startswith("-")), None)
    local = model is None or (ROOT / model).exists()
    if env is None and local and not process:
        from cli_in_process import run_in_process

        return run_in_process(arguments, ROOT)
    command = [sys.executable, "-m", "neuron_compat.cli", *arguments]
    return subprocess.run(command, capture_output=True, text=True, env=env or clean_env(), cwd=ROOT, timeout=timeout,
                          check=False)


def verdict_of(result: subprocess.CompletedProcess) -> dict:
    """The resolver's verdict of `check --json`: its output without `registry` (where the data came from), which
    the site's check page, answering from the page's own api/registry.json, does not repeat."""
    assert result.stdout, result.stderr
    return without_origin(json.loads(result.stdout))


def without_origin(document: dict) -> dict:
    """`check --json` without what only the command adds: `registry` (where the data came from), `known_issues` and
    `tested_configurations` (checked apart)."""
    origin = document.pop("registry")
    assert set(origin) == {"chosen_by", "kind", "location", "data_version", "from_cache", "note"}, origin
    tested = document.pop("tested_configurations")
    assert set(tested) == {"matched_by", "instance", "hardware", "workload", "scope", "other_label", "total",
                           "configurations", "other_sizes_total", "other_sizes", "compile_time",
                           "checkpoint_page"}, tested
    assert isinstance(document.pop("known_issues"), list)  # the family's known issues: the command's own addition
    return document




def node_executable() -> str:
    """The `node` that runs the matrix's script outside the browser. Skipped locally without it; CI must have it."""
    import shutil

    import pytest

    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: CI must install it (apt-get install nodejs)")
        pytest.skip("node is not installed; the matrix parity tests need it")
    return node
