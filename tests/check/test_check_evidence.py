"""Evidence for the question asked (issue 45): documented degrees first in the fit, runs and compile times scoped to
the workload, hardware and size asked, inference headlines a question without --workload, a `since` at the
registry's first tracked release said as such, the install line naming the stack's own package, and configs read
as transformers reads them. `check --json` in this process, on the fixture configs and the committed registry."""

from __future__ import annotations

import json
from pathlib import Path

from cli_in_process import run_in_process

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "fixtures" / "configs"


def _check(tmp_path: Path, fixture: str, *flags: str, name: str | None = None) -> tuple[int, str]:
    """`check` on a fixture config (named as `name` through `_name_or_path` when given) against the real registry."""
    config = json.loads((CONFIGS / fixture).read_text(encoding="utf-8"))
    if name is not None:
        config["_name_or_path"] = name
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    result = run_in_process(["check", str(path), "--registry", str(ROOT / "registry"), *flags], ROOT)
    assert result.returncode in (0, 3, 4), result.stderr
    return result.returncode, result.stdout


def _instance(document: dict, name: str) -> dict:
    return next(entry for entry in document["fit"]["instances"] if entry["name"] == name)


def test_fit_proposes_the_documented_degree_first_and_the_estimate_second(tmp_path: Path) -> None:
    """Qwen3-32B with vLLM Neuron on trn2.48xlarge: the tutorial's TP 8 (it names Trn2, not the instance type)."""
    _, out = _check(tmp_path, "qwen3-32b.json", "--json", "--stack", "vllm-neuron", "--instance", "trn2.48xlarge",
                    "--workload", "inference", name="Qwen/Qwen3-32B")
    entry = _instance(json.loads(out), "trn2.48xlarge")
    assert (entry["degree"], entry["degree_from"]) == (8, "documented")
    assert entry["tested_configuration"]["evidence"] == "vendor-docs"
    assert entry["tested_configuration"]["source"].endswith("tutorial-qwen3-32b.md")
    assert "names no instance type" in entry["degree_why"]
    assert entry["estimated_degree"] == 4 and entry["estimated_why"].startswith("an estimate")
    _, text = _check(tmp_path, "qwen3-32b.json", "--stack", "vllm-neuron", "--instance", "trn2.48xlarge",
                     "--workload", "inference", name="Qwen/Qwen3-32B")
    assert text.index("degree 8 (documented)") < text.index("estimate, second: degree 4")


def test_fine_tuning_llama_8b_on_trn1_follows_the_optimum_neuron_script(tmp_path: Path) -> None:
    _, out = _check(tmp_path, "llama-3.1-8b.json", "--json", "--workload", "training", "--instance", "trn1.32xlarge",
                    name="meta-llama/Llama-3.1-8B")
    entry = _instance(json.loads(out), "trn1.32xlarge")
    assert (entry["degree"], entry["degree_from"]) == (8, "documented")
    assert "finetune_llama.sh#L15-L18" in entry["tested_configuration"]["source"]


def test_a_documented_degree_of_the_family_at_this_size_is_labelled_so(tmp_path: Path) -> None:
    """A config that names no checkpoint: the Optimum Neuron script's Llama-3.1-8B degree is the family's at this
    size, not this checkpoint's."""
    _, out = _check(tmp_path, "llama-3.1-8b.json", "--json", "--workload", "training", "--instance", "trn1.32xlarge")
    entry = _instance(json.loads(out), "trn1.32xlarge")
    assert (entry["degree"], entry["degree_from"]) == (8, "documented-family-size")
    assert "of the family at this size (parameters within 25%)" in entry["degree_why"]


def test_with_hardware_the_fit_and_the_runs_are_of_that_hardware_only(tmp_path: Path) -> None:
    _, out = _check(tmp_path, "llama-3.1-8b.json", "--json", "--hardware", "inf2", "--workload", "inference")
    document = json.loads(out)
    assert {entry["hardware"] for entry in document["fit"]["instances"]} == {"inf2"}
    tested = document["tested_configurations"]
    assert tested["total"] > 0
    for configuration in tested["configurations"]:
        assert configuration["scope"]["hardware"] == "inf2" and configuration["scope"]["workload"] == "inference"
        assert configuration["scope"]["why_other"] is None
    reasons = [c["scope"]["why_other"] for c in tested["other_sizes"]]
    assert reasons and all(reasons)
    assert any(r.startswith("the source does not say where it ran") for r in reasons)  # never "on inf2"
    for item in tested["compile_time"]:  # only runs listed above, each named
        assert item["instance"].startswith("inf2") and len(item["runs"]) == item["n"]


def test_a_70b_question_gets_no_8b_or_7b_compile_time(tmp_path: Path) -> None:
    """The trn1 compile time of a Llama-2-7B TP 2 run is no evidence for a 70B question (another size)."""
    config = json.loads((CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    config.update(hidden_size=8192, intermediate_size=28672, num_hidden_layers=80, num_attention_heads=64)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    result = run_in_process(["check", str(path), "--registry", str(ROOT / "registry"), "--json", "--hardware", "trn1"],
                            ROOT)
    tested = json.loads(result.stdout)["tested_configurations"]
    for item in tested["compile_time"]:
        assert all("70" in run["checkpoint"] for run in item["runs"]), item
    assert all("70" in c["checkpoint"] or c["scope"]["this_checkpoint"] for c in tested["configurations"])


def test_without_workload_inference_is_the_headline_and_training_has_its_own_line(tmp_path: Path) -> None:
    code, out = _check(tmp_path, "deepseek-v3.json", "--json", "--hardware", "trn2")
    document = json.loads(out)
    assert document["summary"].startswith("DeepSeek-V3, inference on trn2")
    assert document["other_workload_summary"].startswith("DeepSeek-V3, training on trn2")
    assert document["exit_code"] == code
    _, text = _check(tmp_path, "deepseek-v3.json", "--hardware", "trn2")
    assert "Result: DeepSeek-V3, inference on trn2" in text and "\nTraining (its own line" in text
    assert text.index("Training (its own line") < text.index("Result: ")


def test_a_since_at_the_first_tracked_release_says_so(tmp_path: Path) -> None:
    _, out = _check(tmp_path, "bert-base-uncased.json", "--json")
    document = json.loads(out)
    floor = document["first_release"]
    assert floor == "2.18.0"
    assert all(a["since_is_floor"] == (a["since"] == floor) for a in document["answers"])
    assert any(a["since_is_floor"] for a in document["answers"])
    _, text = _check(tmp_path, "bert-base-uncased.json")
    assert "tracked since 2.18.0 (the first release this registry records)" in text


def test_the_install_line_names_the_stack_package_or_says_its_version_is_not_recorded(tmp_path: Path) -> None:
    _, out = _check(tmp_path, "qwen3-8b.json", "--json", "--stack", "vllm-neuron", "--hardware", "trn2",
                    "--workload", "inference")
    line = json.loads(out)["recommendations"][0]["line"]
    assert ("install vllm-neuron (its version at Neuron 2.34.0 is not recorded; newest recorded: 0.29.0.1.2.0 at "
            "Neuron 2.33.1), torchneuron") in line


def test_a_bloom_176b_config_with_legacy_keys_is_counted(tmp_path: Path) -> None:
    """bigscience/bloom names its hidden size `n_embed` and its layers `n_layer`, as BloomConfig still reads them."""
    _, out = _check(tmp_path, "bloom-176b.json", "--json")
    assert json.loads(out)["fit"]["parameters"] == 176_247_271_424


def test_runs_under_a_checkpoints_old_hub_name_count_as_its_own(tmp_path: Path) -> None:
    """meta-llama/Meta-Llama-3.1-8B-Instruct is meta-llama/Llama-3.1-8B-Instruct renamed (checkpoint-aliases.yaml)."""
    _, out = _check(tmp_path, "llama-3.1-8b.json", "--json", name="meta-llama/Llama-3.1-8B-Instruct")
    tested = json.loads(out)["tested_configurations"]
    old = [c for c in tested["configurations"] if c["checkpoint"] == "meta-llama/Meta-Llama-3.1-8B-Instruct"]
    assert old and all(c["scope"]["this_checkpoint"] for c in old)
    assert tested["matched_by"] == "checkpoint"
    _, out = _check(tmp_path, "llama-3.1-8b.json", "--json", name="meta-llama/Meta-Llama-3.1-8B-Instruct")
    tested = json.loads(out)["tested_configurations"]
    assert tested["checkpoint_page"] == "checkpoints/meta-llama/Llama-3.1-8B-Instruct/"  # one page, the current name
    assert any(c["checkpoint"] == "meta-llama/Llama-3.1-8B-Instruct" and c["scope"]["this_checkpoint"]
               for c in tested["configurations"] + tested["other_sizes"])


def test_explain_names_the_documented_flag_that_avoided_an_error() -> None:
    result = run_in_process(["explain", "[NCC_IINAR001] ISA validation failed: Copy", "--json",
                             "--registry", str(ROOT / "registry")], ROOT)
    assert result.returncode == 0, result.stderr
    flags = json.loads(result.stdout)["recipe_flags"]
    assert [(f["code"], f["flag"], f["checkpoint"], f["instance"]) for f in flags] == [
        ("NCC_IINAR001", "--optlevel 3", "Qwen3.5-27B", "trn2.3xlarge")]
    assert flags[0]["source"].startswith("https://github.com/vllm-project/vllm-neuron/blob/")


QWEN3_235B = {  # Qwen/Qwen3-235B-A22B config.json's size fields
    "architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 4096, "num_hidden_layers": 94,
    "num_attention_heads": 64, "num_key_value_heads": 4, "head_dim": 128, "intermediate_size": 12288,
    "moe_intermediate_size": 1536, "num_experts": 128, "num_experts_per_tok": 8, "decoder_sparse_step": 1,
    "mlp_only_layers": [], "vocab_size": 151936, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
    "max_position_embeddings": 40960, "_name_or_path": "Qwen/Qwen3-235B-A22B"}


def test_qwen3_235b_on_trn2_follows_the_nxd_inference_model_card(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(QWEN3_235B), encoding="utf-8")
    result = run_in_process(["check", str(path), "--registry", str(ROOT / "registry"), "--json", "--instance",
                             "trn2.48xlarge", "--workload", "inference"], ROOT)
    entry = _instance(json.loads(result.stdout), "trn2.48xlarge")
    assert (entry["degree"], entry["degree_from"]) == (64, "documented")
    assert "card_qwen3_moe_235b.yml#L" in entry["tested_configuration"]["source"]
    assert entry["estimated_degree"] != 64  # the estimate alone proposed less; it is shown second
