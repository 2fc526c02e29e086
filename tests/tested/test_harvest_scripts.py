"""The two harvest scripts end to end on a small git repository built from the fixtures: they read a tag, write
a file the loader's contract accepts, and `--check` agrees with what they wrote (and fails on an edited file)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from neuron_compat.contract.tested_configurations import ConfigurationsFile

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
FIXTURES = Path(__file__).parent / "fixtures"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _repository(root: Path, files: dict[str, Path], tag: str) -> Path:
    for target, source in files.items():
        (root / target).parent.mkdir(parents=True, exist_ok=True)
        (root / target).write_bytes(source.read_bytes())
    for command in (["init", "-q"], ["add", "-A"],
                    ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "fixtures"],
                    ["tag", tag]):
        subprocess.run(["git", "-C", str(root), *command], check=True, capture_output=True)
    return root / ".git"


def _commit(git_dir: Path) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


def _run_and_check(module: ModuleType, git_dir: Path, tag: str, output: Path) -> dict[str, Any]:
    assert module.main(["--mirror", str(git_dir), "--revision", tag, "--output", str(output)]) == 0
    assert module.main(["--mirror", str(git_dir), "--revision", tag, "--output", str(output), "--check"]) == 0
    body = yaml.safe_load(output.read_text(encoding="utf-8"))
    ConfigurationsFile.model_validate(body)
    output.write_text(output.read_text(encoding="utf-8").replace("compiled-and-ran", "unknown", 1), encoding="utf-8")
    assert module.main(["--mirror", str(git_dir), "--revision", tag, "--output", str(output), "--check"]) == 1
    assert module.main(["--mirror", str(git_dir), "--revision", "no-such-tag", "--output", str(output)]) == 1
    return dict(body)


def test_optimum_neuron_script(tmp_path: Path) -> None:
    on = FIXTURES / "optimum_neuron"
    git_dir = _repository(tmp_path / "repo", {
        "benchmark/vllm/single-instance/README.md": on / "single-instance-README.md",
        "benchmark/vllm/single-instance/qwen3-30B-A3B/.env": on / "qwen3-30B-A3B.env",
        "benchmark/vllm/single-instance/qwen3-30B-A3B/vllm-results.csv": on / "qwen3-30B-A3B-vllm-results.csv",
        "benchmark/vllm/data-parallel/llama3.1-8b/.env": on / "llama3.1-8b.env",
        "benchmark/vllm/data-parallel/llama3.1-8b/vllm-results-dp4.csv": on / "llama3.1-8b-vllm-results-dp4.csv",
        "benchmark/vllm/data-parallel/llama3.1-8b/docker-compose-dp4.yaml": on / "llama3.1-8b-docker-compose-dp4.yaml",
        "benchmark/vllm/data-parallel/qwen3-30B-A3B/.env": on / "qwen3-30B-A3B.env",
        "docs/source/benchmarks/inferentia-llama3.3-70b.mdx": on / "inferentia-llama3.3-70b.mdx",
    }, "v0.4.5")
    body = _run_and_check(_script("harvest_optimum_neuron_benchmarks"), git_dir, "v0.4.5", tmp_path / "out.yaml")
    ids = [c["id"] for c in body["configurations"]]
    assert ids == ["optimum-neuron-qwen3-30b-a3b-20250924t154836", "optimum-neuron-llama3-1-8b-dp4-20250922t075325",
                   "optimum-neuron-docs-llama3-3-70b-bs1", "optimum-neuron-docs-llama3-3-70b-bs4",
                   "optimum-neuron-docs-llama3-3-70b-bs8"]
    reasons = [n["reason"] for n in body["not_recorded"]]
    assert len(reasons) == 3 and reasons[-1] == "a configuration without a results file"
    assert str(body["harvest"]["revision"]).startswith("v0.4.5 (")


def test_vllm_recipes_script(tmp_path: Path) -> None:
    recipes = FIXTURES / "vllm_recipes"
    folder = "vllm-neuron/docs/model-recipes"
    git_dir = _repository(tmp_path / "repo", {f"{folder}/{p.name}": p for p in sorted(recipes.glob("*.md"))},
                          "v2.32.0")
    body = _run_and_check(_script("harvest_vllm_neuron_recipes"), git_dir, "v2.32.0", tmp_path / "out.yaml")
    measured = {c["id"]: len(c.get("measurements", [])) for c in body["configurations"]}
    assert measured == {"vllm-neuron-recipe-gpt-oss-gpt-oss-120b-mxfp4": 0,
                        "vllm-neuron-recipe-llama-3-llama-3-3-70b-bf16": 1,
                        "vllm-neuron-recipe-llama-3-llama-3-3-70b-static-fp8": 1,
                        "vllm-neuron-recipe-qwen3-embedding-8b-neuron-bf16": 0}
    assert body["harvest"]["revision"] == f"v2.32.0 ({_commit(git_dir)})"
