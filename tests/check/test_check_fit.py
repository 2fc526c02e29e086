"""`check`'s fit: the flags and their bad values, the `fit` object of `check --json`, the table, broken size fields,
and odd size fields (the fuzzed configs the check page's browser test pastes too)."""

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
    assert fit["assumptions"] == {"batch": 1, "batch_from": "default", "seq_len": 4096, "seq_len_from": "default",
                                  "dtype": "bf16", "dtype_from": "the config (torch_dtype='bfloat16')",
                                  "kv_cache_dtype": "bf16", "stack": "nxd-inference", "stack_from": "default"}
    assert fit["tensor_parallel"]["nxd-inference"] == list(range(1, 65))  # up to trn2.48xlarge's 64 cores at LNC=2
    assert fit["tensor_parallel"]["optimum-neuron"] is None
    assert fit["tensor_parallel_rules"]["nxd-inference"]["sources"] == TP_RULES["nxd-inference"]["sources"]
    assert "not recorded" in fit["tensor_parallel_rules"]["optimum-neuron"]["text"]
    assert "activations and intermediate tensors" in fit["not_counted"]
    assert [entry["name"] for entry in fit["instances"]] == INSTANCES
    trn2 = next(e for e in fit["instances"] if e["name"] == "trn2.48xlarge")
    assert (trn2["neuron_cores"], trn2["lnc"], trn2["degree"], trn2["fits"]) == (64, 2, 1, True)
    assert trn2["bytes_available"] == 24 * 2**30  # 1536 GiB over 64 logical cores
    assert trn2["bytes_needed"] == fit["weights_bytes"]["bf16"] + 4096 * fit["kv_cache_bytes_per_token"]["bf16"]
    assert trn2["headroom_bytes"] == trn2["bytes_available"] - trn2["bytes_needed"]
    unknown = next(e for e in fit["instances"] if e["name"] == "trn2.3xlarge")
    assert unknown["fits"] is None and "not recorded" in unknown["reason"]


def test_a_long_context_needs_more_cores():
    """Llama 3.1 8B, bf16, batch 4 x 32k tokens on inf2.48xlarge (16 GiB per core): 15 GiB of weights + 16 GiB of
    cache do not fit one core; at degree 2 the 8 KV heads split evenly and the 32 GiB of two cores hold it."""
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--batch", "4", "--seq-len", "32768",
                       "--instance", "inf2.48xlarge")
    [entry] = verdict_of(result)["fit"]["instances"]
    assert (entry["degree"], entry["fits"]) == (2, True)
    assert entry["bytes_needed"] == 16_060_522_496 + 4 * 32768 * 131072
    assert entry["bytes_available"] == 2 * 16 * 2**30
    small = verdict_of(run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", "--batch", "64", "--seq-len",
                                 "131072", "--instance", "inf2.xlarge"))["fit"]["instances"][0]
    assert small["fits"] is False and small["degree"] == 2 and small["headroom_bytes"] < 0
    assert small["reason"] == "does not fit even at degree 2, the largest valid one on its 2 NeuronCores"


@pytest.mark.parametrize(("degree", "heads", "kv_heads", "stored"), [
    (1, 32, 8, 8), (2, 32, 8, 8), (8, 32, 8, 8),  # KV heads split evenly: as they are
    (16, 32, 8, 16), (32, 32, 8, 32), (24, 64, 8, 24), (12, 28, 4, 12),  # REPLICATE_TO_TP_DEGREE: one per rank
    (3, 32, 8, 33), (5, 32, 8, 35), (10, 28, 4, 30),  # CONVERT_TO_MHA: the padded query heads
    (3, 32, 32, 33), (4, 32, 32, 32),  # MHA: padded with the query heads
])
def test_kv_heads_follow_nxd_inference_sharding(degree, heads, kv_heads, stored):
    from neuron_compat.check.fit import _kv_heads_at

    assert _kv_heads_at(degree, heads, kv_heads) == stored


@pytest.mark.parametrize(("flags", "says"), [
    (["--seq-len", "0"], "--seq-len 0: use a whole number from 1 to 10000000"),
    (["--batch", "-1"], "--batch -1: use a whole number from 1 to 65536"),
    (["--dtype", "fp64"], "unknown --dtype 'fp64'; use one of: fp32, bf16, fp16, fp8, int8, int4"),
    (["--instance", "p5.48xlarge"], "unknown --instance 'p5.48xlarge'; use one of: " + ", ".join(INSTANCES)),
])
def test_bad_fit_flags_are_one_line_naming_the_valid_values(flags, says):
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), *flags)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"neuron-compat check: {says}\n"


def test_the_table_prints_the_fit_with_its_assumptions(tmp_path):
    result = run_check(str(CONFIGS / "qwen3-8b.json"), "--instance", "trn1.2xlarge", "--dtype", "fp8")
    lines = result.stdout.splitlines()
    start = lines.index("Fit (an estimate): weights + KV cache against device memory")
    section = "\n".join(lines[start:])
    assert "not counted: activations and intermediate tensors" in section
    assert "assumed: batch 1 (default), seq-len 4096 (default), dtype fp8 (--dtype), KV cache at fp8" in section
    assert "tensor parallel, nxd-inference: degrees 1-64" in section
    row = next(line for line in lines[start:] if line.strip().startswith("trn1.2xlarge"))
    assert row.split()[1:5] == ["2", "(LNC=1)", "1", "yes"]
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


def test_a_stack_without_a_recorded_rule_is_said_so():
    fit = verdict_of(run_check(str(CONFIGS / "qwen3-8b.json"), "--json", "--stack", "optimum-neuron"))["fit"]
    assert fit["assumptions"]["stack"] == "optimum-neuron" and fit["assumptions"]["stack_from"] == "--stack"
    assert all(e["fits"] is None and e["reason"].startswith("optimum-neuron: this stack's tensor-parallel rule is "
                                                            "not recorded") for e in fit["instances"] if e["neuron_cores"])


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


# --- odd size fields ---------------------------------------------------------------------------------

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
