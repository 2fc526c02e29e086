"""A registry document (a file here; a URL's body goes through the same validation) with absurd instance counts
or NeuronCores is refused when it is loaded, with one line, before `check` or fit does any work with it."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_compat.check.document_rules import MAX_INSTANCES, MAX_NEURON_CORES
from neuron_compat.cli import main
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules.validation import validate_registry

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "registry"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    compiled = json.loads(json.dumps(registry_to_json(validate_registry(FIXTURE).registry), default=str))
    instances = yaml.safe_load((REPO / "registry" / "instances.yaml").read_text(encoding="utf-8"))
    compiled["instances"] = json.loads(json.dumps(instances, default=str))
    return compiled


def _many_instances(document: dict[str, Any]) -> None:
    first = document["instances"]["instances"][0]
    document["instances"]["instances"] = [{**first, "name": f"trn1.{index}xlarge"} for index in range(3000)]


def _huge_cores(document: dict[str, Any]) -> None:
    document["instances"]["instances"][0]["neuron_cores"] = 100_000


def _huge_logical_cores(document: dict[str, Any]) -> None:
    document["instances"]["instances"][0]["logical_neuron_cores"] = {"1": 8, "2": 50_000}


def _huge_cores_per_chip(document: dict[str, Any]) -> None:
    document["instances"]["generations"][0]["cores_per_chip"] = 50_000


@pytest.mark.parametrize(("change", "expected"), [
    (_many_instances, f"instances lists 3000 instance sizes (at most {MAX_INSTANCES})"),
    (_huge_cores, f"100000 NeuronCores (at most {MAX_NEURON_CORES})"),
    (_huge_logical_cores, f"50000 NeuronCores (at most {MAX_NEURON_CORES})"),
    (_huge_cores_per_chip, f"cores_per_chip 50000 (at most {MAX_NEURON_CORES})"),
], ids=lambda value: getattr(value, "__name__", "")[1:])
def test_absurd_instances_are_refused_at_load(document: dict[str, Any], change: Any, expected: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    hostile = copy.deepcopy(document)
    change(hostile)
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(hostile), encoding="utf-8")
    config = tmp_path / "config.json"
    config.write_text('{"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096}',
                      encoding="utf-8")
    started = time.monotonic()
    code = main(["check", str(config), "--registry", str(path), "--instance", "trn1.2xlarge"])
    captured = capsys.readouterr()
    assert code == 1, captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "not a valid registry document" in lines[0] and expected in lines[0], captured.err
    assert len(captured.out) < 1000 and time.monotonic() - started < 15


def test_the_repository_instances_are_within_the_bounds(document: dict[str, Any], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    config = tmp_path / "config.json"
    config.write_text('{"model_type": "llama", "architectures": ["LlamaForCausalLM"]}', encoding="utf-8")
    main(["check", str(config), "--registry", str(path)])
    assert "not a valid registry document" not in capsys.readouterr().err
