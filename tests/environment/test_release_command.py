"""`neuron-compat release VERSION [--from VERSION] [--json]`, in-process, on the repository's registry: what a
release changed as its site page says it; an unknown release is one line and exit 1."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from cli_in_process import run_in_process  # noqa: E402


def release(*args: str):
    return run_in_process(["release", *args, "--registry", str(ROOT / "registry")], ROOT)


def test_a_release_against_the_one_before():
    result = release("2.27.0")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Neuron 2.27.0 (2025-12-19), compared with 2.26.1"
    assert "Support added (6):" in lines and "  Qwen3 / nxd-inference / inference / trn2: supported" in lines
    assert "  neuronx-cc 2.21.33363.0 -> 2.22.12471.0" in lines
    assert "  transformers-neuronx 0.13.1315 -> (none)" in lines  # it left the release with 2.26's end of support
    assert any(line.startswith("Fixed (") for line in lines)


def test_the_json_matches_the_release_page_readings():
    from neuron_compat.registry_sources.selection import open_registry
    from neuron_compat.site.pages.releases import all_release_changes

    document = json.loads(release("2.27.0", "--json").stdout)
    registry = open_registry(str(ROOT / "registry"))[0]
    page_changes = all_release_changes(registry)["2.27.0"]  # what the site's release page folds
    assert sum(len(c["hardware"]) for c in document["changes"]) == len(page_changes)
    assert document["from"] == "2.26.1" and document["components"]["neuronx-cc"] == "2.22.12471.0"
    assert {i["fixed_in"] for i in document["fixed"]} == {"2.27.0"}


def test_from_an_older_release_counts_what_happened_in_between():
    document = json.loads(release("2.26.0", "--from", "2.24.0", "--json").stdout)
    assert document["from"] == "2.24.0"
    assert "Transformers NeuronX reaches end of support with Neuron 2.26.0" in document["lifecycle"]
    fixed_in = {i["fixed_in"] for i in document["fixed"]}
    assert fixed_in <= {"2.24.1", "2.25.0", "2.26.0"} and len(fixed_in) > 1


@pytest.mark.parametrize("args, message", [
    (["2.27.9"], "neuron-compat release: unknown release VERSION '2.27.9'; did you mean 2.27.1? (known: 2.18.0 to 2.34.0)"),
    (["2.26.0", "--from", "2.27.0"], "neuron-compat release: --from 2.27.0 is not before 2.26.0: give an older release"),
    (["2.26.0", "--from", "latest"], "neuron-compat release: unknown release --from 'latest'"),
])
def test_an_unknown_release_is_one_line_and_exit_1(args, message):
    result = release(*args)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
