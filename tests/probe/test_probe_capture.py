"""scripts/probe.py on real tiny models: runs only where the `probe` extra (CPU torch, transformers) is installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def probe():
    spec = importlib.util.spec_from_file_location("probe", ROOT / "scripts" / "probe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpt2_captures_into_one_static_graph(probe):
    result = probe.run_isolated("gpt2", timeout=300)
    assert result["built"], result
    assert result["model_class"] == "GPT2Model"
    assert result["config"]["n_layer"] == 2
    assert result["export"] == {"outcome": "ok"}
    assert (result["dynamo"]["graphs"], result["dynamo"]["graph_breaks"]) == (1, 0)
    assert result["operators_from"] == "export"
    assert "aten::addmm" in result["operators"] and "aten::embedding" in result["operators"]


def test_an_unknown_model_type_is_recorded_as_not_built(probe):
    result = probe.run_isolated("no_such_model_type", timeout=120)
    assert result["built"] is False
    assert "no_such_model_type" in result["reason"]
