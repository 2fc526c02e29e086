"""The portability probe's snapshot (registry/upstream/probe.yaml): contract, rendering, check, and the
operator-list parser. None of these needs torch; test_probe_capture.py runs the probe itself."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from neuron_compat.contract.models import ProbeSnapshot
from neuron_compat.loading.loader import load_registry
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.site.pages.families import family_page
from neuron_compat.site.support import ReleaseView
from neuron_compat.views.probe_reading import probe_lines

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "probe.yaml"
CHECK_REGISTRY = ROOT / "tests" / "check" / "registry"
CONFIGS = ROOT / "tests" / "fixtures" / "configs"


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _registry_with_probe(tmp_path: Path) -> Path:
    root = tmp_path / "registry"
    shutil.copytree(CHECK_REGISTRY, root)
    (root / "upstream").mkdir()
    shutil.copy(FIXTURE, root / "upstream" / "probe.yaml")
    return root


def _load(root: Path):
    result = load_registry(root)
    registry = result.registry if hasattr(result, "registry") else result[0]
    problems = result.problems if hasattr(result, "problems") else result[1]
    return registry, problems


def test_committed_snapshot_follows_the_contract_and_accounts_for_every_registry_model_type():
    snapshot = ProbeSnapshot.model_validate(yaml.safe_load((ROOT / "registry/upstream/probe.yaml").read_text()))
    registry, _ = _load(ROOT / "registry")
    model_types = {t for f in registry.families for t in f.model_types}
    accounted = [*snapshot.probes, *snapshot.not_built, *snapshot.not_probed]
    assert sorted(accounted) == sorted(model_types)  # each once: probed, not built with a reason, or not reached
    reached = len(snapshot.probes) + len(snapshot.not_built)
    assert len(snapshot.probes) >= 0.8 * reached, (len(snapshot.probes), reached)
    for model_type, result in snapshot.probes.items():
        assert model_type in registry.family_by_id[result.family].model_types
        assert result.workloads, model_type
        for name, workload in result.workloads.items():
            assert not set(workload.operators) & set(workload.custom_ops), (model_type, name)
            assert set(workload.no_known_lowering) <= set(workload.operators), (model_type, name)


def test_probe_never_changes_a_support_statement(tmp_path):
    root = _registry_with_probe(tmp_path)
    with_probe, problems = _load(root)
    assert not problems
    (root / "upstream" / "probe.yaml").unlink()
    without, _ = _load(root)
    document = registry_to_json(with_probe)
    assert document["families"] == registry_to_json(without)["families"]
    assert document["probe"]["probes"]["llama"]["workloads"]["prefill"]["graph_breaks"] == 2
    assert registry_to_json(without)["probe"] is None


def test_a_broken_snapshot_is_a_located_problem_not_a_crash(tmp_path):
    root = _registry_with_probe(tmp_path)
    text = (root / "upstream" / "probe.yaml").read_text().replace("outcome: ok", "outcome: fine", 1)
    (root / "upstream" / "probe.yaml").write_text(text)
    _, problems = _load(root)
    assert any(p.file.endswith("probe.yaml") and p.line > 0 and "outcome" in p.field for p in problems), problems


def test_an_unknown_workload_is_refused(tmp_path):
    root = _registry_with_probe(tmp_path)
    text = (root / "upstream" / "probe.yaml").read_text().replace("      decode:", "      generate:")
    (root / "upstream" / "probe.yaml").write_text(text)
    _, problems = _load(root)
    assert any(p.file.endswith("probe.yaml") and "workloads" in p.field for p in problems), problems


def test_family_page_groups_workloads_by_stack_workload_and_escapes_their_text(tmp_path):
    registry, _ = _load(_registry_with_probe(tmp_path))
    view = ReleaseView(registry, registry.newest_release)
    page = family_page(registry, registry.family_by_id["llama"], view)
    section = page[page.index("## Portability probe"):]
    assert "not a compile on Neuron" in section and "static capture" not in section
    inference = section[section.index("Beside the inference rows"):section.index("Beside the training rows")]
    training = section[section.index("Beside the training rows"):]
    assert 'data-probe-workload="prefill"' in inference and 'data-probe-workload="decode"' in inference
    assert 'data-probe-workload="train"' not in inference and 'data-probe-workload="train"' in training
    assert "torch.export failed: data-dependent control flow or shapes" in inference
    assert "dynamo: 3 graphs, 2 graph breaks" in inference
    assert "nodes 463 at 16, 2143 at 64 (grows with the length" in inference
    assert "no known torch-xla lowering: <code>aten::histc</code>" in inference
    assert "opaque custom ops, no Neuron lowering known: <code>transformers::grouped_mm_fallback</code>" in inference
    assert "stopped: the capture hit the probe&#39;s time limit" in training or \
        "stopped: the capture hit the probe's time limit" in training
    assert "static KV cache of twice the length" in inference
    assert "text_config.vocab_size=512" in section and "139,584 parameters" in section
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in section
    assert "&lt;b&gt;here&lt;/b&gt;" in section and "modeling_llama.py:120" in section
    whisper = family_page(registry, registry.family_by_id["whisper"], view)
    assert "Not probed: transformers 5.25.0 cannot build the config tiny" in whisper
    mistral = family_page(registry, registry.family_by_id["mistral"], view)
    assert "Not probed: the probe run has not reached this model type yet" in mistral
    mixtral = family_page(registry, registry.family_by_id["mixtral"], view)
    assert "Portability probe" not in mixtral


def test_workload_lines_read_each_outcome():
    snapshot = ProbeSnapshot.model_validate(yaml.safe_load(FIXTURE.read_text()))
    bert = snapshot.probes["bert"].model_dump(mode="json")
    assert probe_lines(bert, "inference") == [
        "task forward: captured by torch.export at static shapes; dynamo: 1 graph, 0 graph breaks; "
        "nodes 91 at 16, 91 at 64; every ATen operator has a torch-xla lowering or a PyTorch decomposition"]
    assert probe_lines(bert, "training") == [
        "training (forward + loss + backward): forward and backward captured through AOT autograd; dynamo: 1 graph, "
        "0 graph breaks, 1 backward graph; nodes 457 at 16; no known torch-xla lowering: "
        "aten::polar"]
    llama = snapshot.probes["llama"].model_dump(mode="json")
    assert probe_lines(llama, "training") == [
        "training (forward + loss + backward): stopped: the capture hit the probe's time limit"]
    assert snapshot.probes["bert"].workloads["forward"].captured
    assert not snapshot.probes["llama"].workloads["prefill"].captured


def test_coverage_counts_missing_model_types_captured_for_the_rows_workload(tmp_path):
    registry, _ = _load(_registry_with_probe(tmp_path))
    from neuron_compat.site.pages.coverage import _rows

    rows = _rows(registry, [("bert", "bert"), ("llama", "llama")], "model type")
    assert any(m["model_type"] == "bert" for row in rows for m in row.missing), "bert must be uncovered somewhere"
    for row in rows:
        missing = {m["model_type"]: m["static"] for m in row.missing}
        assert row.probe_applies
        assert row.missing_static == (1 if "bert" in missing else 0)  # llama: prefill broke, training timed out
        assert missing.get("llama", "") == ""
        if "bert" in missing:
            assert missing["bert"] == f"{row.workload} workloads captured on CPU"


def test_check_prints_the_probe_workloads_beside_their_stack_workload(tmp_path):
    root = _registry_with_probe(tmp_path)
    command = [sys.executable, "-m", "neuron_compat.cli", "check", str(CONFIGS / "bert-base-uncased.json"),
               "--registry", str(root)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Probe (bert"))
    assert lines[start] == ("Probe (bert; CPU capture of a tiny random model; evidence, not support, "
                            "not a Neuron compile):"), result.stdout
    probe = [line for line in lines[start + 1:] if line.startswith("  ")]
    workloads = {line.split(" · ")[0].strip() for line in probe}
    assert workloads <= {"inference", "training"} and probe, result.stdout
    assert any(line.startswith("  inference · task forward: captured by torch.export") for line in probe)
    assert "ATen operators outside the torch-neuronx operator list" not in result.stdout
    plain = subprocess.run([*command[:-2], "--registry", str(CHECK_REGISTRY)], capture_output=True, text=True,
                           cwd=ROOT, timeout=60, check=False)
    assert plain.returncode == result.returncode
    assert "Probe (" not in plain.stdout


def test_operator_list_parser_reads_the_docs_table():
    snapshot = _script("snapshot_neuron_operators")
    rst = """The following list the aten operators supported by torch-neuronx.

+----------------------------------+
| aten::addcdiv\\_                  |
+----------------------------------+
| aten::_softmax                   |
+----------------------------------+
| aten::addmm                      |
+----------------------------------+
| aten::addmm                      |
+----------------------------------+
"""
    assert snapshot.parse_operators(rst) == ["aten::_softmax", "aten::addcdiv_", "aten::addmm"]
    with pytest.raises(ValueError, match="no aten:: operator"):
        snapshot.snapshot("no table here", "v0")


def test_committed_operator_snapshot_names_its_page():
    data = yaml.safe_load((ROOT / "registry/upstream/torch-neuronx-operators.yaml").read_text())
    assert data["source"].startswith("https://awsdocs-neuron.readthedocs-hosted.com/en/v")
    assert data["docs_version"] in data["source"]
    assert "aten::addmm" in data["operators"] and data["operators"] == sorted(data["operators"])


def _harness(name: str):
    scripts = str(ROOT / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    return importlib.import_module(f"probe_harness.{name}")


LOWERINGS = ROOT / "registry" / "upstream" / "torch-xla-lowerings.yaml"


def test_probe_render_is_deterministic_sorted_and_flags_growth():
    render = _harness("render")
    families = {"bert": "bert", "llama": "llama", "mamba": "mamba"}
    forward = {"model_class": "BertForMaskedLM", "config": {"b": 1, "a": 2}, "parameters": 10,
               "inputs": {"input_ids": [1, 16]}, "lengths": [16, 64], "outcome": "ok", "graphs": 1, "graph_breaks": 0,
               "breaks": [], "nodes": {"64": 91, "16": 91}, "nodes_from": "export", "operators_from": "export",
               "operators": ["aten::mm", "aten::_assert_scalar", "transformers::grouped_mm_fallback"]}
    raw = {
        "llama": {"model_type": "llama", "built": False, "reason": "x"},
        "mamba": {"model_type": "mamba", "built": True, "kind": "decoder", "workload_order": ["prefill", "decode"],
                  "workloads": {"prefill": {**forward, "nodes": {"16": 557, "64": 1517}},
                                "decode": {"outcome": "not_run", "error": "no static KV cache"}}},
        "bert": {"model_type": "bert", "built": True, "kind": "encoder", "workload_order": ["forward"],
                 "workloads": {"forward": forward}},
    }
    stamp = {"torch": "2.13.0+cpu", "transformers": "5.25.0", "harness": "2"}
    text = render.render(raw, families, stamp, LOWERINGS)
    assert text == render.render(dict(reversed(raw.items())), families, stamp, LOWERINGS)
    data = yaml.safe_load(text)
    ProbeSnapshot.model_validate(data)
    bert = data["probes"]["bert"]
    assert list(bert["config"]) == ["a", "b"] and list(bert["workloads"]["forward"]["nodes"]) == ["16", "64"]
    assert bert["workloads"]["forward"]["grows_with_length"] is False
    assert bert["workloads"]["forward"]["operators"] == ["aten::_assert_scalar", "aten::mm"]
    assert bert["workloads"]["forward"]["custom_ops"] == ["transformers::grouped_mm_fallback"]
    assert bert["workloads"]["forward"]["bookkeeping"] == ["aten::_assert_scalar"]
    assert bert["workloads"]["forward"]["no_known_lowering"] == []
    assert data["probes"]["mamba"]["workloads"]["prefill"]["grows_with_length"] is True
    assert data["probes"]["mamba"]["workloads"]["decode"] == {"outcome": "not_run", "error": "no static KV cache"}
    assert data["not_built"] == {"llama": {"family": "llama", "reason": "x"}}
    pending = yaml.safe_load(render.render(raw, families, stamp, LOWERINGS, ["gpt2", "bert"]))
    assert pending["not_probed"] == ["gpt2"]


def test_operators_are_grouped_against_the_torch_xla_lowerings():
    reference = _harness("reference")
    _, lowered = reference.load_lowerings(LOWERINGS)
    groups = reference.grouped(["aten::mm", "aten::add_.Tensor", "aten::view", "aten::_assert_async.msg",
                                "aten::sym_size.int", "transformers::grouped_mm_fallback",
                                "higher_order::cond", "aten::_scaled_dot_product_flash_attention_for_cpu",
                                "aten::histc"], lowered)
    assert groups["lowered"] == ["aten::add_.Tensor", "aten::mm", "aten::view"]
    assert groups["bookkeeping"] == ["aten::_assert_async.msg", "aten::sym_size.int"]
    assert groups["custom"] == ["higher_order::cond", "transformers::grouped_mm_fallback"]
    assert groups["cpu_specific"] == ["aten::_scaled_dot_product_flash_attention_for_cpu"]
    assert groups["no_known_lowering"] == ["aten::histc"]


def test_torch_xla_snapshot_names_its_source_and_parses_the_codegen_list():
    snapshot = _script("snapshot_torch_xla_lowerings")
    text = "backend: XLA\nfull_codegen:\n  - abs\n  - eq.Scalar\nsupported:\n  - mm\n  - abs\nsymint:\n  - view\n"
    assert snapshot.lowered_operators(yaml.safe_load(text)) == ["aten::abs", "aten::eq.Scalar", "aten::mm"]
    with pytest.raises(ValueError, match="no operator"):
        snapshot.lowered_operators({"backend": "XLA"})
    data = yaml.safe_load(LOWERINGS.read_text())
    assert data["source"] == f"https://github.com/pytorch/xla/blob/v{data['torch_xla_version']}/codegen/xla_native_functions.yaml"
    assert "aten::mm" in data["operators"] and data["operators"] == sorted(data["operators"])


def test_probe_shrinks_sizes_and_nested_configs_only_downwards():
    tiny = _harness("tiny")
    values = {"hidden_size": 4096, "num_hidden_layers": 32, "vocab_size": 100, "pad_token_id": 50256,
              "layer_types": ["a", "b", "c"], "text_config": {"hidden_size": 2048, "model_type": "t"}}
    out = tiny.shrink(values)
    assert out["hidden_size"] == 64 and out["num_hidden_layers"] == 2 and "vocab_size" not in out
    assert out["layer_types"] == ["a", "b"] and out["text_config"]["hidden_size"] == 64
    assert "pad_token_id" not in out  # the vocabulary was not shrunk, so the id still fits


def test_tiny_deepseek_keeps_its_expert_groups_consistent():
    tiny = _harness("tiny")
    values = {"n_routed_experts": 256, "n_group": 8, "topk_group": 4, "num_experts_per_tok": 8,
              "num_attention_heads": 128, "num_key_value_heads": 128, "kv_lora_rank": 512}
    out = tiny.shrink(values)
    assert out["n_routed_experts"] == 4 and out["n_group"] == 2 and out["topk_group"] == 1
    assert out["num_experts_per_tok"] <= out["topk_group"] * (out["n_routed_experts"] // out["n_group"])
    assert out["num_key_value_heads"] == out["num_attention_heads"] == 4


def test_tiny_multimodal_ids_fit_the_text_vocabulary_and_show_as_dotted_fields():
    tiny = _harness("tiny")
    values = {"image_token_index": 32000, "text_config": {"vocab_size": 32064, "hidden_size": 4096},
              "vision_config": {"hidden_size": 1024}}
    out = tiny.shrink(values)
    assert out["image_token_index"] < out["text_config"]["vocab_size"] == 512
    changed = tiny.changed_fields(values, out)
    assert changed == {"image_token_index": 511, "text_config.hidden_size": 64, "text_config.vocab_size": 512,
                       "vision_config.hidden_size": 64}


def _sleep() -> dict:
    time.sleep(60)
    return {"outcome": "ok"}


def _allocate() -> dict:
    hoard = bytearray(3 * 2**30)
    return {"outcome": "ok", "size": len(hoard)}


def _exit() -> dict:
    os._exit(3)


def test_a_hanging_a_hungry_and_a_crashing_capture_are_each_an_outcome():
    isolate = _harness("isolate")
    began = time.monotonic()
    assert isolate.run_isolated(_sleep, timeout=1, memory_gb=8) == {"outcome": "timeout",
                                                                     "error": "timed out after 1 s"}
    assert time.monotonic() - began < 30
    hungry = isolate.run_isolated(_allocate, timeout=60, memory_gb=1)
    assert hungry == {"outcome": "memory", "error": "exceeded the memory cap of 1 GiB"}
    assert isolate.run_isolated(_exit, timeout=60, memory_gb=8) == {
        "outcome": "crashed", "error": "the probe process exited with code 3"}


def test_tiny_configs_keep_derived_fields_consistent():
    tiny = _harness("tiny")
    swin = tiny.shrink({"image_size": 224, "patch_size": 4, "embed_dim": 96, "hidden_size": 768, "window_size": 7,
                        "num_heads": [3, 6, 12, 24], "depths": [2, 2, 6, 2]})
    assert "embed_dim" not in swin and "hidden_size" not in swin  # derived from the stages
    assert swin["image_size"] == 64 and swin["window_size"] == 2 and swin["depths"] == [1, 1, 1, 1]
    efficientnet = tiny.shrink({"hidden_dim": 2560, "width_coefficient": 2.0})
    assert "hidden_dim" not in efficientnet
    detr = tiny.shrink({"d_model": 256, "use_timm_backbone": True, "backbone_config": {"model_type": "timm_backbone"}})
    assert detr["use_timm_backbone"] is False and detr["backbone_config"]["model_type"] == "resnet"
    deepseek_v2 = tiny.shrink({"n_routed_experts": 64, "num_experts_per_tok": None})
    assert deepseek_v2["num_experts_per_tok"] == 2
    hiera = tiny.shrink({"vision_config": {"backbone_config": {"hidden_size": 96, "embed_dim_per_stage": [96, 192]}}})
    assert "hidden_size" not in hiera.get("vision_config", {}).get("backbone_config", {})  # SAM 2: tied to its stages


def test_tiny_configs_set_what_the_modeling_code_reads_and_derives():
    tiny = _harness("tiny")
    hunyuan = tiny.shrink({"hidden_size": 4096, "num_attention_heads": 32, "head_dim": None})
    assert hunyuan["head_dim"] == hunyuan["hidden_size"] // hunyuan["num_attention_heads"] == 16
    nemotron = tiny.shrink({"hidden_size": 6144, "num_attention_heads": 48, "num_key_value_heads": None})
    assert nemotron["num_key_value_heads"] == 2
    mobilebert = tiny.shrink({"hidden_size": 512, "embedding_size": 128, "trigram_input": True})
    assert 0 < mobilebert["embedding_size"] < mobilebert["hidden_size"]
    mamba2 = tiny.shrink({"hidden_size": 4096, "expand": 2, "num_heads": 128, "head_dim": 64, "n_groups": 8})
    assert mamba2["hidden_size"] * 2 == mamba2["num_heads"] * mamba2["head_dim"]
    dbrx = tiny.shrink({"d_model": 6144, "attn_config": {"kv_n_heads": 1, "clip_qkv": None},
                        "rope_parameters": {"rope_theta": 10000.0}})
    assert dbrx["attn_config"] == {"kv_n_heads": 1, "clip_qkv": 8, "rope_theta": 10000.0}
    layoutlmv3 = tiny.shrink({"hidden_size": 768, "coordinate_size": 128, "shape_size": 128})
    assert 4 * layoutlmv3["coordinate_size"] + 2 * layoutlmv3["shape_size"] == layoutlmv3["hidden_size"]


def test_tiny_kv_sharing_keeps_a_producing_layer_for_each_consumed_type():
    tiny = _harness("tiny")
    types = (["sliding_attention"] * 4 + ["full_attention"]) * 7
    out = tiny.shrink({"num_hidden_layers": 35, "num_kv_shared_layers": 15, "layer_types": types,
                       "activation_sparsity_pattern": [0.95] * 10 + [0.0] * 25})
    first_shared = out["num_hidden_layers"] - out["num_kv_shared_layers"]
    assert set(out["layer_types"][:first_shared]) == set(out["layer_types"]) == set(types)
    assert len(out["activation_sparsity_pattern"]) == out["num_hidden_layers"] == 4


def test_tiny_vision_towers_fit_the_tiny_language_model():
    tiny = _harness("tiny")
    qwen = tiny.shrink({"image_token_id": 151655, "text_config": {"hidden_size": 3584, "vocab_size": 152064},
                        "vision_config": {"depth": 32, "hidden_size": 1280, "out_hidden_size": 3584,
                                          "fullatt_block_indexes": [7, 15, 23, 31]}})
    vision = qwen["vision_config"]
    assert vision["depth"] == 2 and vision["fullatt_block_indexes"] == [1]
    assert vision["out_hidden_size"] == qwen["text_config"]["hidden_size"] == 64
    mllama = tiny.shrink({"vision_config": {"num_hidden_layers": 32, "hidden_size": 1280, "vision_output_dim": 7680,
                                            "intermediate_layers_indices": [3, 7, 15, 23, 30]},
                          "text_config": {"num_hidden_layers": 40, "cross_attention_layers": [3, 8, 13]}})
    assert mllama["vision_config"]["vision_output_dim"] == 64 * 2 and mllama["text_config"]["cross_attention_layers"] == [1]
    paligemma = tiny.shrink({"image_token_index": 257152, "projection_dim": 2048, "text_config": {"hidden_size": 2048},
                             "vision_config": {"hidden_size": 1152}})
    assert paligemma["projection_dim"] == 64
    gemma3 = tiny.shrink({"mm_tokens_per_image": 256, "vision_config": {"image_size": 896, "patch_size": 14}})
    assert gemma3["mm_tokens_per_image"] == 4  # a 4x4 patch grid pooled 2x2


def test_tiny_multimodal_rope_sections_split_the_tiny_rotary_half():
    pytest.importorskip("transformers")
    tiny = _harness("tiny")
    for model_type in ("qwen2_vl", "glm4v", "qwen3_5"):
        overrides, _ = tiny.tiny_overrides(model_type)
        text = overrides["text_config"]
        head_dim = text.get("head_dim") or text["hidden_size"] // text["num_attention_heads"]
        rope = text["rope_parameters"]
        assert sum(rope["mrope_section"]) == int(head_dim * rope.get("partial_rotary_factor", 1.0)) // 2, model_type


def test_probe_refuses_an_unknown_model_type_and_a_partial_check_before_touching_anything(tmp_path, capsys):
    """--model-types names registry model types; --check always covers all of them (a partial check would compare a
    few against the whole file). Both refusals come before torch is imported or any file is written."""
    probe = _script("probe")
    output = tmp_path / "probe.yaml"
    assert probe.main(["--model-types", "nosuch", "--output", str(output)]) == 2
    assert capsys.readouterr().err.strip() == "error: --model-types: nosuch: not a registry model type"
    assert probe.main(["--model-types", "gpt2", "--check", "--output", str(output)]) == 2
    assert "takes no --model-types" in capsys.readouterr().err
    assert not output.exists()


def test_a_model_without_a_forward_of_its_own_gets_the_models_reason():
    runner = _harness("runner")

    class Qwen2_5OmniForConditionalGeneration:  # named as transformers names it
        pass

    error = TypeError("_forward_unimplemented() got an unexpected keyword argument 'input_ids'")
    reason = runner.clean_setup(Qwen2_5OmniForConditionalGeneration(), error)
    assert reason.startswith("Qwen2_5OmniForConditionalGeneration has no forward of its own: it only generates")
    assert runner.clean_setup(object(), ValueError("bad shape")).startswith("the model did not run eagerly")
