"""`check`'s fit: the flags and their bad values, the `fit` object of `check --json`, the table, broken size fields,
and the same fit on odd configs."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from check_helpers import CHECK_REGISTRY, CONFIGS, ROOT, run_check, verdict_of

from neuron_compat.check.fit import TP_RULES, FitOptions, fit_document
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules.validation import validate_registry

INSTANCES = [i["name"] for i in json.loads(json.dumps(
    registry_to_json(validate_registry(CHECK_REGISTRY).registry)["instances"]))["instances"]]


def _write(tmp_path: Path, config: dict) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def test_fit_in_check_json_has_the_documented_shape():
    fit = verdict_of(run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json"))["fit"]
    assert fit["parameters"] == 8_030_261_248  # Meta's model card rounds it to 8B; the sizing tests hold it to 1%
    assert fit["weights_bytes"]["bf16"] == 2 * fit["parameters"] and fit["weights_bytes"]["fp32"] == 4 * fit["parameters"]
    assert fit["kv_cache_bytes_per_token"]["bf16"] == 2 * 32 * 8 * 128 * 2
    assumptions = fit["assumptions"]
    assert {k: assumptions[k] for k in ("batch", "batch_from", "seq_len", "dtype", "dtype_from", "workload",
                                        "optimizer")} == {
        "batch": 1, "batch_from": "default", "seq_len": 4096, "dtype": "bf16",
        "dtype_from": "the config (torch_dtype='bfloat16')", "workload": "inference", "optimizer": None}
    assert fit["tensor_parallel"]["nxd-inference"] == list(range(1, 65))  # up to trn2.48xlarge's 64 cores at LNC=2
    assert fit["tensor_parallel"]["optimum-neuron"] == list(range(1, 65))  # recorded: its gqa.py
    assert fit["tensor_parallel"]["nxd-training"] is None
    assert fit["tensor_parallel_rules"]["nxd-inference"]["sources"] == TP_RULES["nxd-inference"]["sources"]
    assert "optimum-neuron" in fit["tensor_parallel_rules"]["optimum-neuron"]["sources"][0]
    assert "activations and intermediate tensors" in fit["not_counted"]
    assert [entry["name"] for entry in fit["instances"]] == INSTANCES
    trn2 = next(e for e in fit["instances"] if e["name"] == "trn2.48xlarge")
    assert (trn2["neuron_cores"], trn2["lnc"], trn2["degree"], trn2["fits"]) == (64, 2, 1, True)
    assert trn2["stack"] == "nxd-inference" and trn2["stack_from"] == "recommended for inference on trn2"
    assert trn2["bytes_available"] == 24 * 2**30  # 1536 GiB over 64 logical cores
    assert trn2["bytes_needed"] == fit["weights_bytes"]["bf16"] + 4096 * fit["kv_cache_bytes_per_token"]["bf16"]
    assert trn2["headroom_bytes"] == trn2["bytes_available"] - trn2["bytes_needed"]
    unknown = next(e for e in fit["instances"] if e["name"] == "trn2.3xlarge")
    assert unknown["fits"] is None and "not recorded" in unknown["reason"]


def test_one_inf2_core_is_not_proposed_when_it_leaves_no_margin():
    """15.46 GiB of weights + cache fit one 16 GiB Inf2 core with 0.54 GiB to spare: not a degree anyone would
    run with activations and runtime buffers uncounted, so the proposal is 2, which leaves the margin."""
    fit = verdict_of(run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--instance", "inf2.48xlarge"))["fit"]
    [entry] = fit["instances"]
    assert entry["stack"] == "optimum-neuron" and entry["stack_from"] == "recommended for inference on inf2"
    assert entry["degrees"] == list(range(1, 25))  # never beyond its 24 NeuronCores
    assert (entry["degree"], entry["degree_from"], entry["within_margin"]) == (2, "smallest-with-margin", True)
    assert "divides the 32 attention heads" in entry["degree_why"]
    assert fit["tensor_parallel"]["optimum-neuron"] == list(range(1, 25))  # --instance bounds the listing too


def test_a_long_context_needs_more_cores():
    """Llama 3.1 8B, bf16, batch 4 x 32k tokens on inf2.48xlarge (16 GiB per core): 15 GiB of weights + 16 GiB of
    cache do not fit one core; at degree 2 the 8 KV heads split evenly and the 32 GiB of two cores hold it, but
    without the margin, so the proposal is 4; --degree 2 fits at 2."""
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--batch", "4", "--seq-len", "32768",
                       "--instance", "inf2.48xlarge")
    [proposed] = verdict_of(result)["fit"]["instances"]
    assert (proposed["degree"], proposed["degree_from"], proposed["within_margin"]) == (4, "smallest-with-margin", True)
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--batch", "4", "--seq-len", "32768",
                       "--instance", "inf2.48xlarge", "--degree", "2")
    [entry] = verdict_of(result)["fit"]["instances"]
    assert (entry["degree"], entry["degree_from"], entry["fits"], entry["within_margin"]) == (2, "--degree", True, False)
    assert entry["bytes_needed"] == 16_060_522_496 + 4 * 32768 * 131072
    assert entry["bytes_available"] == 2 * 16 * 2**30
    small = verdict_of(run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--batch", "64", "--seq-len",
                                 "131072", "--instance", "inf2.xlarge"))["fit"]["instances"][0]
    assert small["fits"] is False and small["degree"] == 2 and small["headroom_bytes"] < 0
    assert small["reason"] == "does not fit at degree 2 on its 2 NeuronCores"
    assert small["degree_from"] == "largest-valid"


@pytest.mark.parametrize(("degree", "heads", "kv_heads", "stored"), [
    (1, 32, 8, 8), (2, 32, 8, 8), (8, 32, 8, 8),  # KV heads split evenly: as they are
    (16, 32, 8, 16), (32, 32, 8, 32), (24, 64, 8, 24), (12, 28, 4, 12),  # REPLICATE_TO_TP_DEGREE: one per rank
    (3, 32, 8, 33), (5, 32, 8, 35), (10, 28, 4, 30),  # CONVERT_TO_MHA: the padded query heads
    (3, 32, 32, 33), (4, 32, 32, 32),  # MHA: padded with the query heads
])
def test_kv_heads_follow_nxd_inference_sharding(degree, heads, kv_heads, stored):
    from neuron_compat.check.fit import _kv_heads_at

    assert _kv_heads_at("gqa-replicate-or-mha", degree, heads, kv_heads) == stored


@pytest.mark.parametrize(("degree", "kv_heads", "stored"), [(1, 8, 8), (4, 8, 8), (8, 8, 8), (16, 8, 16), (64, 8, 64)])
def test_kv_heads_follow_vllm_neuron_replication(degree, kv_heads, stored):
    """vLLM Neuron: heads_per_rank = max(1, kv_heads // degree), so KV heads are stored max(kv_heads, degree) times."""
    from neuron_compat.check.fit import _kv_heads_at

    assert _kv_heads_at("heads-split-kv-replicate", degree, 64, kv_heads) == stored


@pytest.mark.parametrize(("flags", "says"), [
    (["--seq-len", "0"], "--seq-len 0: use a whole number from 1 to 10000000"),
    (["--batch", "-1"], "--batch -1: use a whole number from 1 to 65536"),
    (["--dtype", "fp64"], "unknown --dtype 'fp64'; use one of: fp32, bf16, fp16, fp8, int8, int4"),
    (["--instance", "p5.48xlarge"], "unknown --instance 'p5.48xlarge'; use one of: " + ", ".join(INSTANCES)),
    (["--degree", "25", "--instance", "inf2.48xlarge"], "--degree 25: larger than inf2.48xlarge's 24 NeuronCores"),
    (["--degree", "65"], "--degree 65: larger than the largest instance's 64 NeuronCores"),
    (["--degree", "0"], "--degree 0: use a whole number from 1"),
    (["--optimizer", "lion"], "unknown --optimizer 'lion'; use one of: adamw-mixed, adamw-fp32, sgd"),
])
def test_bad_fit_flags_are_one_line_naming_the_valid_values(flags, says):
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), *flags)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"neuron-compat check: {says}\n"


def test_the_table_prints_the_fit_with_its_assumptions(tmp_path):
    result = run_check(str(CONFIGS / "qwen3-8b.json"), "--instance", "trn1.2xlarge", "--dtype", "fp8")
    lines = result.stdout.splitlines()
    start = lines.index("Fit (an estimate, inference): weights + KV cache against device memory")
    section = "\n".join(lines[start:])
    assert "not counted: activations and intermediate tensors" in section
    assert "assumed: batch 1 (default), seq-len 4096 (default), dtype fp8 (--dtype), KV cache at fp8" in section
    assert "tensor parallel, nxd-inference: degrees 1, 2 (" in section  # bounded by trn1.2xlarge's 2 cores
    assert "runtime reserve per NeuronCore: not stated by any source." in section
    assert "host memory: not stated by any source." in section
    row = next(line for line in lines[start:] if line.strip().startswith("trn1.2xlarge"))
    assert row.split()[1:6] == ["2", "(LNC=1)", "optimum-neuron", "1", "yes"]  # recommended on trn1 for Qwen3
    assert "    degree 1 (smallest-with-margin): an estimate: the smallest degree optimum-neuron's rule accepts" in section
    assert lines[-1].startswith("Result: ")  # the result line stays last


def test_broken_size_fields_say_what_was_not_counted_and_why(tmp_path):
    config = json.loads((CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    config.pop("hidden_size")
    config["num_key_value_heads"] = 64
    result = run_check(str(_write(tmp_path, config)), "--json")
    plain = run_check(str(CONFIGS / "llama-3.1-8b.json"))
    assert result.returncode == plain.returncode, result.stderr  # the verdict's exit code: fit never changes it
    fit = verdict_of(result)["fit"]
    assert fit["parameters"] is None and fit["weights_bytes"]["bf16"] is None
    reasons = {part["name"]: part["reason"] for part in fit["parameter_parts"] if part["count"] is None}
    assert reasons["embeddings"] == "hidden_size / n_embd / d_model is not set"
    assert fit["kv_cache_bytes_per_token"]["bf16"] is None and "larger" in fit["kv_cache_reason"]
    assert all(e["fits"] is None and e["reason"] for e in fit["instances"])
    text = run_check(str(_write(tmp_path, config)))
    assert "embeddings: not counted: hidden_size / n_embd / d_model is not set" in text.stdout
    assert "Traceback" not in text.stderr
    config["hidden_size"] = 4096
    heads = verdict_of(run_check(str(_write(tmp_path, config)), "--json"))["fit"]
    attention = next(part for part in heads["parameter_parts"] if part["name"] == "attention")
    assert attention == {"name": "attention", "count": None,
                         "reason": "num_key_value_heads (64) is larger than num_attention_heads (32)"}
    assert next(p for p in heads["parameter_parts"] if p["name"] == "mlp")["count"] == 32 * 3 * 4096 * 14336


def test_a_diffusers_pipeline_and_an_encoder_get_an_honest_fit():
    sdxl = verdict_of(run_check(str(CONFIGS / "sdxl-base-1.0-model_index.json"), "--json"))["fit"]
    assert sdxl["parameters"] is None and "diffusers pipeline" in sdxl["parameter_parts"][0]["reason"]
    bert = verdict_of(run_check(str(CONFIGS / "bert-base-uncased.json"), "--json", "--instance", "inf2.xlarge"))["fit"]
    assert bert["kv_cache_bytes_per_token"]["bf16"] is None and "encoder-only" in bert["kv_cache_reason"]
    [entry] = bert["instances"]
    assert entry["fits"] is True and entry["bytes_needed"] == bert["weights_bytes"]["bf16"]  # no cache to hold


def test_a_stack_without_a_recorded_rule_is_said_so_and_a_recorded_rule_is_shown_labelled():
    fit = verdict_of(run_check(str(CONFIGS / "qwen3-8b.json"), "--json", "--stack", "nxd-training",
                               "--instance", "trn1.32xlarge"))["fit"]
    assert fit["assumptions"]["stack"] == "nxd-training" and fit["assumptions"]["stack_from"] == "--stack"
    assert fit["tensor_parallel_rules"]["nxd-training"]["rule"] is None
    [entry] = fit["instances"]
    assert entry["stack"] == "nxd-training" and entry["rule_stack"] == "nxd-inference"
    assert entry["rule_note"] == ("the nxd-training rule is not recorded; degrees and fit below follow "
                                  "nxd-inference's recorded rule, as an indication only")
    assert entry["degrees"] == list(range(1, 33))


def test_json_schema_of_check_includes_fit():
    import sys

    import jsonschema

    schema = json.loads(subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", "--json-schema"],
                                       capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    assert "fit" in schema["required"] and schema["properties"]["fit"] == {"$ref": "#/$defs/Fit"}
    assert set(schema["$defs"]["Fit"]["required"]) >= {"parameters", "weights_bytes", "kv_cache_bytes_per_token",
                                                       "tensor_parallel", "instances"}
    for name in ("llama-3.1-8b.json", "sdxl-base-1.0-model_index.json", "deepseek-v3.json"):
        jsonschema.validate(json.loads(run_check(str(CONFIGS / name), "--json").stdout), schema)


# --- the check page's port ---------------------------------------------------------------------------------

SIZE_KEYS = ["hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim",
             "intermediate_size", "vocab_size", "tie_word_embeddings", "attention_bias", "num_experts",
             "moe_intermediate_size", "n_routed_experts", "kv_lora_rank", "sliding_window", "mlp_only_layers",
             "decoder_sparse_step", "first_k_dense_replace", "hidden_act", "model_type", "torch_dtype",
             "quantization_config", "text_config", "num_local_experts", "d_model", "num_heads", "d_kv"]
ODD = [None, True, False, 0, -1, 1, 3, 7, 64, 4096.0, 4096.5, 1e300, -1e300, 10**14, 2**53 + 1, "", "4096", "x'y",
       "tab\there", [], [1, 2], {}, {"quant_method": "fp8"}, {"load_in_4bit": True}, "silu", "gelu", "ÿ-type",
       "\u200b", "llama", "qwen3_moe", "deepseek_v3", "t5", "bert", "mamba", "opt", "falcon", "gpt2", "clip",
       {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "vocab_size": 100, "intermediate_size": 128}]


def _fuzzed(rng: random.Random, base: dict) -> dict:
    config = dict(base)
    for key in rng.sample(SIZE_KEYS, rng.randint(1, 4)):
        config[key] = rng.choice(ODD)
    return config


def fuzzed_configs(count: int, seed: int = 20261203) -> list[dict]:
    """The fixture configs, then `count` of them with 1-4 size fields set to odd values (the same every run)."""
    bases = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(CONFIGS.glob("*.json"))]
    bases += [json.loads(path.read_text(encoding="utf-8"))
              for path in sorted((ROOT / "tests" / "sizing" / "configs").glob("*.json")) if path.name != "manifest.json"]
    rng = random.Random(seed)
    return bases + [_fuzzed(rng, rng.choice(bases)) for _ in range(count)]


def test_odd_size_fields_give_a_fit_and_never_an_exception():
    result = validate_registry(CHECK_REGISTRY)
    document = registry_to_json(result.registry)
    stacks = [stack.id for stack in result.registry.stacks]
    options = [{}, {"batch": 16, "seq_len": 131072}, {"dtype": "int4", "instance": "trn2.48xlarge"}]
    counted = 0
    configs = fuzzed_configs(600)
    for index, config in enumerate(configs):
        fit = fit_document(config, document["instances"], FitOptions(**options[index % len(options)]), stacks,
                           pipeline="_class_name" in config)
        json.dumps(fit, allow_nan=False)
        counted += fit["parameters"] is not None
    assert 100 < counted < len(configs)  # both counted and refused configs


# --- the done-when cases of issue 36, on the project's own registry -------------------------------------------

REGISTRY = ROOT / "registry"
LLAMA_3_1_70B = {  # meta-llama/Llama-3.1-70B config.json's size fields
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 8192, "intermediate_size": 28672,
    "num_attention_heads": 64, "num_hidden_layers": 80, "num_key_value_heads": 8, "vocab_size": 128256,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "hidden_act": "silu"}
QWEN3_32B = {  # Qwen/Qwen3-32B config.json's size fields
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 5120, "intermediate_size": 25600,
    "num_attention_heads": 64, "num_hidden_layers": 64, "num_key_value_heads": 8, "head_dim": 128,
    "vocab_size": 151936, "tie_word_embeddings": False, "torch_dtype": "bfloat16", "hidden_act": "silu"}


def test_llama_70b_at_8k_on_inf2_48xlarge_proposes_the_degree_its_tested_configurations_use(tmp_path):
    result = run_check(str(_write(tmp_path, LLAMA_3_1_70B)), "--json", "--seq-len", "8192", "--dtype", "bf16",
                       "--instance", "inf2.48xlarge", registry=REGISTRY, timeout=120)
    [entry] = verdict_of(result)["fit"]["instances"]
    assert entry["stack"] == "optimum-neuron" and entry["rule_stack"] == "optimum-neuron"
    assert max(entry["degrees"]) == 24
    # the config names no checkpoint: a run of the family at this size, labelled so
    assert (entry["degree"], entry["degree_from"], entry["fits"]) == (24, "tested-configuration-family-size", True)
    assert entry["tested_configuration"]["checkpoint"] == "Llama-3.3-70b"
    assert "ran Llama-3.3-70b at tensor parallelism 24 on inf2.48xlarge" in entry["degree_why"]
    assert entry["estimated_degree"] is not None and entry["estimated_why"].startswith("an estimate")


def test_qwen3_32b_on_trn2_48xlarge_proposes_the_documented_degree_then_the_estimate(tmp_path):
    result = run_check(str(_write(tmp_path, QWEN3_32B)), "--json", "--instance", "trn2.48xlarge", registry=REGISTRY,
                       timeout=120)
    fit = verdict_of(result)["fit"]
    [entry] = fit["instances"]
    assert entry["stack"] == "vllm-neuron" and entry["lnc"] == 2
    assert entry["degrees"] == [1, 2, 4, 8, 16, 32, 64]  # vLLM Neuron: divisors of 64 heads, KV 8 split or replicated
    # the vLLM Neuron Qwen3-32B tutorial's TP 8 (a checkpoint of this size; this config names none) comes first
    assert (entry["degree"], entry["degree_from"]) == (8, "documented-family-size") and entry["within_margin"]
    assert 64 % entry["estimated_degree"] == 0 and entry["estimated_from"] == "smallest-with-margin"
    assert "divides the 64 attention heads" in entry["estimated_why"]


def test_training_on_trn1_counts_gradients_and_optimizer_states():
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--workload", "training", "--instance",
                       "trn1.32xlarge", timeout=120)
    fit = verdict_of(result)["fit"]
    assert fit["assumptions"]["optimizer"] == "adamw-mixed" and "fp32 master" in fit["assumptions"]["optimizer_text"]
    assert any("activations" in item for item in fit["not_counted"])
    [entry] = fit["instances"]
    assert entry["stack"] == "optimum-neuron" and entry["rule_stack"] == "optimum-neuron"
    parts = {p["name"]: p["bytes"] for p in entry["memory_parts"]}
    n = fit["parameters"]
    degree, replicas = entry["degree"], 32 // entry["degree"]
    assert parts["weights"] == 2 * n and parts["gradients"] == 4 * n  # fp32 gradient accumulation (Optimum Neuron)
    assert parts["optimizer_states"] == -(-12 * n // replicas)  # ZeRO-1 over the data-parallel ranks
    assert entry["bytes_needed"] == sum(parts.values()) and entry["within_margin"]
    assert 14336 % degree == 0  # the training rule: the MLP splits evenly
    sgd = verdict_of(run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--workload", "training",
                               "--instance", "trn1.32xlarge", "--optimizer", "sgd"))["fit"]["instances"][0]
    assert {p["name"]: p["bytes"] for p in sgd["memory_parts"]}["optimizer_states"] == 0


def test_a_huge_instance_is_bounded_work():
    from neuron_compat.check.fit import MAX_DEGREE

    instances = {"generations": [], "instances": [{"name": "huge", "hardware": "trn9", "neuron_cores": 100_000,
                                                   "device_memory_gib": 100_000}]}
    config = json.loads((CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    fit = fit_document(config, instances, FitOptions(), ["nxd-inference", "vllm-neuron"])
    [entry] = fit["instances"]
    assert max(entry["degrees"]) == MAX_DEGREE and fit["tensor_parallel"]["nxd-inference"][-1] == MAX_DEGREE


@pytest.mark.parametrize(("change", "says"), [
    ({"num_hidden_layers": 0}, "num_hidden_layers"),
    ({"hidden_size": 4095, "head_dim": None}, "hidden_size / num_attention_heads"),
])
def test_absurd_sizes_give_a_row_saying_why(change, says):
    config = json.loads((CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    config.update(change)
    instances = json.loads(json.dumps(registry_to_json(validate_registry(CHECK_REGISTRY).registry)["instances"]))
    for workload in ("inference", "training"):
        fit = fit_document(config, instances, FitOptions(workload=workload), ["nxd-inference"])
        for entry in fit["instances"]:
            assert entry["fits"] is None and entry["reason"], entry
            assert entry["bytes_needed"] is None
        assert any(says in (part["reason"] or "") for part in fit["parameter_parts"])


def test_recommended_stacks_is_the_one_reading_of_the_recommendation():
    from neuron_compat.check.fit import recommended_stacks

    verdict = {"recommendations": [{"workload": "inference", "hardware": "inf2", "stack": "optimum-neuron"},
                                   {"workload": "inference", "hardware": "trn2", "stack": None}]}
    assert recommended_stacks(verdict) == {("inference", "inf2"): "optimum-neuron"}
    assert recommended_stacks(None) == {}


def test_whisper_is_counted_and_fitted():
    """The family is matched two lines above, so the fit counts it too (it said "model_type 'whisper' is not
    known"): the encoder-decoder's parameters, its decoder self-attention cache and a degree dividing its heads."""
    fit = verdict_of(run_check(str(CONFIGS / "whisper-large-v3.json"), "--json", "--instance", "inf2.xlarge"))["fit"]
    assert fit["parameters"] == 1_543_490_560
    assert fit["kv_cache_bytes_per_token"]["fp16"] == 2 * 32 * 1280 * 2
    [entry] = fit["instances"]
    assert entry["fits"] is True and 20 % entry["degree"] == 0
