"""`.ci/lane.py`: a pull request that changes only hand-written files under registry/ takes the data lane."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("ci_lane", ROOT / ".ci" / "lane.py")
assert spec and spec.loader
ci_lane = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ci_lane)


@pytest.mark.parametrize("changed, generated, expected", [
    (["registry/families/llama.yaml"], [], "data"),
    (["registry/families/llama.yaml", "registry/releases.yaml"], [], "data"),
    (["registry/families/llama.yaml", "src/neuron_compat/cli.py"], [], "full"),
    (["registry/upstream/probe.yaml"], ["registry/upstream/probe.yaml"], "full"),  # regenerated: code wrote it
    (["README.md"], [], "full"),
    ([], [], "full"),
])
def test_the_lane(changed, generated, expected):
    assert ci_lane.lane(changed, generated) == expected


def test_without_a_base_everything_runs():
    result = subprocess.run([sys.executable, str(ROOT / ".ci" / "lane.py"), ""], capture_output=True, text=True,
                            check=True)
    assert result.stdout == "full\n"


def test_the_workflow_runs_one_lane_or_the_other():
    jobs = yaml.safe_load((ROOT / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8"))["jobs"]
    assert jobs["data"]["if"] == "needs.lane.outputs.lane == 'data'"
    assert jobs["check"]["if"] == "needs.lane.outputs.lane != 'data'"
    data_runs = [step.get("run", "") for step in jobs["data"]["steps"]]
    assert "python -m pytest -q -m data" in data_runs
    assert any(run.startswith("neuron-compat validate registry") for run in data_runs)
    full_runs = " ".join(step.get("run", "") for step in jobs["check"]["steps"])
    assert "ruff" not in full_runs and "mypy" not in full_runs  # once: tests/core/test_core_code_checks.py
