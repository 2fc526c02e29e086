"""Many odd configs through both implementations (Python and the site's check.js): the same verdict JSON or the
same error. Configs are drawn from a fixed-seed generator of the values real config.json files contain, and of
the wrong types they sometimes contain."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from check_helpers import CHECK_REGISTRY, ROOT, node_executable

from neuron_compat.check.config_facts import ConfigError, facts_from_config
from neuron_compat.check.resolver import ResolveError, resolve
from neuron_compat.commands.check import verdict_document
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules.validation import validate_registry

ODD = [None, True, False, 0, -1, 1, 2, 4096.0, 4096.5, 1e300, "", "x" * 250, "two\nlines", [], {}, ["a", 1], "bf16"]
MODEL_TYPES = ["llama", "qwen3", "qwen3_moe", "gemma3", "gemma3_text", "mistral", "qwen2", "llamaa", "deepseek_v3",
               "gpt_oss", "t5", "whisper", "bert", "mamba2", "Llama", "ÿ-type", "llama_4"]
ARCHITECTURES = ["LlamaForCausalLM", "Qwen3ForCausalLM", "Gemma3ForCausalLM", "MistralForCausalLM", "OtherModel"]
DTYPES = ["bfloat16", "float16", "float32", "torch.bfloat16", "float8_e4m3fn", "int8", "complex64", "half"]
ATTENTION = ["eager", "sdpa", "flash_attention_2", "flex_attention", "native"]
QUANT = [{"quant_method": m} for m in ["fp8", "awq", "gptq", "mxfp4", "bitsandbytes", "compressed-tensors", "AWQ", "hqq"]] + [
    {"load_in_8bit": True}, {"_load_in_4bit": True}, {"bits": 4}, {"quant_method": 3}]
PIPELINES = ["StableDiffusionXLPipeline", "StableDiffusionXLPipelines", "FluxPipeline", 7]


def pick(rng: random.Random, values: list, odd: float = 0.15):
    return rng.choice(ODD) if rng.random() < odd else rng.choice(values)


def random_config(rng: random.Random) -> object:
    if rng.random() < 0.1:
        return {"_class_name": pick(rng, PIPELINES), "_diffusers_version": "0.30.0",
                "unet": rng.choice([["diffusers", "UNet2DConditionModel"], ["diffusers"], [None, None], "x"]),
                "vae": ["diffusers", "AutoencoderKL"]}
    config: dict = {}
    if rng.random() < 0.9:
        config["model_type"] = pick(rng, MODEL_TYPES)
    if rng.random() < 0.7:
        config["architectures"] = rng.choice([[pick(rng, ARCHITECTURES)], [pick(rng, ARCHITECTURES), 3], "Llama", None])
    if not config:
        config["architectures"] = []
    keys = {
        rng.choice(["torch_dtype", "dtype"]): lambda: pick(rng, DTYPES),
        rng.choice(["attn_implementation", "_attn_implementation"]): lambda: pick(rng, ATTENTION),
        "sliding_window": lambda: pick(rng, [4096, 1024, None, 2047]),
        "use_sliding_window": lambda: pick(rng, [True, False]),
        rng.choice(["max_position_embeddings", "n_positions", "max_target_positions", "seq_length"]):
            lambda: pick(rng, [512, 8192, 32768, 40960, 131072, 4096.0]),
        rng.choice(["rope_scaling", "rope_parameters"]): lambda: pick(rng, [
            {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192},
            {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096.0},
            {"rope_type": "default", "rope_theta": 10000.0}, {"factor": 2}, {"rope_type": "linear", "factor": "8"}]),
        "quantization_config": lambda: pick(rng, QUANT),
        rng.choice(["num_local_experts", "num_experts", "n_routed_experts"]): lambda: pick(rng, [8, 128, 256, 1, 0]),
        rng.choice(["num_experts_per_tok", "experts_per_token"]): lambda: pick(rng, [2, 4, 8]),
        "n_shared_experts": lambda: pick(rng, [1, 2]),
        "auto_map": lambda: pick(rng, [{"AutoConfig": "configuration_x.XConfig"},
                                       {"AutoTokenizer": ["tok.Slow", "tok.Fast"], "AutoModel": None}, {}]),
        "transformers_version": lambda: pick(rng, ["4.51.0", "5.0.0"]),
        "text_config": lambda: pick(rng, [{"model_type": "gemma3_text", "sliding_window": 1024, "torch_dtype": "bfloat16",
                                           "rope_scaling": {"rope_type": "linear", "factor": 8.0}},
                                          {"model_type": "qwen3", "max_position_embeddings": 32768}, {}]),
    }
    for key, make in keys.items():
        if rng.random() < 0.45:
            config[key] = make()
    return config


def test_python_and_javascript_agree_on_odd_configs():
    result = validate_registry(CHECK_REGISTRY)
    registry = result.registry
    rng = random.Random(20261202)
    option_sets = [{}, {"release": "2.21.0"}, {"stack": "optimum-neuron", "workload": "inference"}, {"release": "2.1.0"}]
    cases, expected = [], []
    for index in range(1000):
        config = random_config(rng)
        options = option_sets[index % len(option_sets)]
        cases.append({"name": str(index), "config": config, "options": options})
        try:
            verdict = resolve(facts_from_config(config), registry, **options)
            expected.append({"verdict": verdict_document(verdict)})
        except (ConfigError, ResolveError) as error:
            expected.append({"error": str(error)})
    node = node_executable()
    js = subprocess.run([node, str(Path(__file__).with_name("run_check_js.js"))],
                        input=json.dumps({"registry": registry_to_json(registry), "cases": cases}),
                        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert js.returncode == 0, js.stderr
    answers = json.loads(js.stdout)
    kinds = {"verdict": 0, "error": 0}
    for case, want, got in zip(cases, expected, answers, strict=True):
        got = {k: v for k, v in got.items() if k != "name"}
        assert got == want, json.dumps(case)
        kinds[next(iter(want))] += 1
    assert kinds["verdict"] > 500 and kinds["error"] > 100  # both paths are exercised
