"""scripts/probe.py on real tiny models: runs only where the `probe` extra (CPU torch, transformers) is installed."""

from __future__ import annotations

import importlib.util
import sys
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


def _workload(model_type: str, workload: str):
    sys.path.insert(0, str(ROOT / "scripts"))
    from probe_harness.isolate import run_isolated
    from probe_harness.runner import run_workload
    from probe_harness.workloads import kind_of

    kind, auto_class = kind_of(model_type)
    return run_isolated(lambda: run_workload(model_type, kind, auto_class, workload), timeout=300, memory_gb=8)


def test_gpt2_prefill_and_decode_export_with_a_static_cache_at_both_lengths(probe):
    for workload in ("prefill", "decode"):
        result = _workload("gpt2", workload)
        assert result["model_class"] == "GPT2LMHeadModel" and result["cache"] == "static", result
        assert result["outcome"] == "ok" and (result["graphs"], result["graph_breaks"]) == (1, 0), result
        assert set(result["nodes"]) == {"16", "64"} and result["nodes"]["16"] == result["nodes"]["64"]
        assert result["operators_from"] == "export" and "aten::embedding" in result["operators"]
    assert _workload("gpt2", "decode")["inputs"]["input_ids"] == [1, 1]


def test_gpt2_training_captures_forward_and_backward(probe):
    result = _workload("gpt2", "train")
    assert result["outcome"] == "ok" and result["graphs"] >= 1 and result["backward_graphs"] >= 1, result
    assert result["loss"] == "the task head's loss" and "labels" in result["inputs"]
    assert "aten::embedding_dense_backward" in result["backward_operators"]


def test_mixtral_eager_routing_is_data_dependent_and_grouped_mm_is_a_custom_op(probe):
    eager = _workload("mixtral", "prefill_eager_experts")
    assert eager["experts_implementation"] == "eager" and eager["outcome"] == "data_dependent", eager
    assert eager["graph_breaks"] > 0 and any("nonzero" in b["reason"] for b in eager["breaks"])
    grouped = _workload("mixtral", "prefill")
    assert "transformers::grouped_mm_fallback" in grouped["operators"]  # grouped separately at render


def test_an_unknown_model_type_is_recorded_as_not_built(probe):
    result = probe.probe_model("no_such_model_type", timeout=120, memory_gb=8)
    assert result["built"] is False
    assert "no_such_model_type" in result["reason"]


def test_qwen_vl_gets_flattened_patches_a_grid_and_one_image_token_per_merged_patch(probe):
    from probe_harness.workloads import build_model, multimodal_inputs

    model, _ = build_model("qwen2_vl", "AutoModelForImageTextToText", use_cache=False, eager_experts=False)
    inputs = multimodal_inputs(model, 16)
    vision = model.config.vision_config
    grid = inputs["image_grid_thw"].tolist()
    assert grid == [[1, 4, 4]] and inputs["pixel_values"].shape == (16, 3 * 2 * vision.patch_size**2)
    image_tokens = int((inputs["input_ids"] == model.config.image_token_id).sum())
    assert image_tokens == 16 // vision.spatial_merge_size**2 == int(inputs["mm_token_type_ids"].sum())


def test_a_recurrent_models_missing_decode_reads_as_the_models_state_not_the_probe(probe):
    result = _workload("mamba", "decode")
    assert result["outcome"] == "not_run" and "keeps a recurrent state" in result["error"], result
    assert "probe" not in result["error"]
