"""A built wheel, installed into a fresh venv outside the clone, answers `check` with its bundled data and
without the site's tools (the user who only checks models installs nothing of mkdocs or jinja2)."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from check_helpers import CONFIGS, ROOT, bundled_snapshot, clean_env, run_check

pytestmark = pytest.mark.slow


def venv_env() -> dict[str, str]:
    """The environment of the fresh venv: no PYTHONPATH, so neither pip nor the venv's Python sees the clone's
    src/ (its egg-info would read as neuron-compat already installed)."""
    return {k: v for k, v in clean_env().items() if k != "PYTHONPATH"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """bin/ of a new venv holding the wheel built from this checkout (its dependencies from the index)."""
    work = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(work)],
                           capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next(work.glob("neuron_compat-*.whl"))
    environment = work / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    pip = subprocess.run([str(environment / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                         capture_output=True, text=True, timeout=900, check=False, env=venv_env())
    assert pip.returncode == 0, pip.stderr[-2000:]
    return environment / "bin"


def test_the_installed_wheel_checks_a_config_from_any_directory(installed, tmp_path):
    config = str((CONFIGS / "qwen3-8b.json").resolve())
    result = subprocess.run([str(installed / "neuron-compat"), "check", config, "--json"], capture_output=True,
                            text=True, cwd=tmp_path, env=venv_env(), timeout=60, check=False)
    verdict = json.loads(result.stdout)
    clone = run_check(config, "--json", registry=ROOT / "registry")  # the same data, read from the clone
    answer = json.loads(clone.stdout)
    assert result.returncode == clone.returncode == answer["exit_code"] == verdict["exit_code"], result.stderr
    assert (verdict["status"], verdict["summary"]) == (answer["status"], answer["summary"])
    assert verdict["registry"]["chosen_by"] == "bundled"
    assert verdict["registry"]["location"] == "neuron_compat/data/registry.json"
    assert verdict["family"]["id"] == "qwen3"
    bundled = json.loads(bundled_snapshot()[0].read_text(encoding="utf-8"))  # what the wheel build compiled too
    assert verdict["registry"]["data_version"] == bundled["data_version"]
    names = [entry["name"] for entry in verdict["fit"]["instances"]]  # the snapshot carries instances.yaml
    assert names == [instance["name"] for instance in bundled["instances"]["instances"]] and "trn1.2xlarge" in names


def test_the_wheel_brings_none_of_the_site_tools(installed):
    probe = ("import importlib.util, neuron_compat; "
             "print(neuron_compat.__file__); "
             "print([m for m in ('mkdocs', 'material', 'jinja2') if importlib.util.find_spec(m)])")
    result = subprocess.run([str(installed / "python"), "-c", probe], capture_output=True, text=True,
                            timeout=60, check=False, env=venv_env())
    location, missing = result.stdout.splitlines()
    assert str(installed.parent) in location, "the venv's own copy, not the clone's"
    assert missing == "[]"


def test_the_installed_wheel_explains_errors_and_lists_tested_configurations(installed, tmp_path):
    """explain and check's tested configurations read the bundled snapshot too: no clone, no registry/ folder."""
    run = lambda *argv: subprocess.run([str(installed / "neuron-compat"), *argv], capture_output=True,  # noqa: E731
                                       text=True, cwd=tmp_path, env=venv_env(), timeout=60, check=False)
    matched = run("explain", "nrt_tensor_allocate status=4 message=\"Allocation Failure\"")
    assert matched.returncode == 0, matched.stderr
    assert "runtime-device-memory-allocation" in matched.stdout
    unmatched = run("explain", "zz no Neuron error reads like this zz")
    assert unmatched.returncode == 4 and "No known issue matched" in unmatched.stdout
    config = str((CONFIGS / "llama-3.1-8b.json").resolve())
    checked = run("check", config, "--json", "--instance", "trn1.32xlarge")
    tested = json.loads(checked.stdout)["tested_configurations"]
    assert tested["instance"] == "trn1.32xlarge" and tested["total"] >= 1  # inference runs of this size there
    assert all(entry["family"] == "llama" for entry in tested["configurations"])


def test_the_wheel_carries_registry_compiled_by_its_build(installed):
    """The build hook compiled registry/ into the wheel (nothing compiled is committed): the same bytes a clone
    compiles on demand, with its index."""
    where = subprocess.run([str(installed / "python"), "-c", "import neuron_compat; print(neuron_compat.__file__)"],
                           capture_output=True, text=True, timeout=60, check=False, env=venv_env()).stdout.strip()
    data = Path(where).parent / "data"
    document, index = bundled_snapshot()
    assert (data / "registry.json").read_bytes() == document.read_bytes()
    cached = json.loads(index.read_bytes())  # the cache's index adds what its reader verifies (document/cache.py)
    assert cached.pop("content_key") and cached.pop("document_sha256")
    assert json.loads((data / "registry.index.json").read_bytes()) == cached
