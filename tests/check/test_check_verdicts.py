"""`neuron-compat check` on real published configs: the verdicts, and the check page's entry point
(check/page.py, which the page runs in Pyodide) giving the same JSON and the same errors."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from check_helpers import (
    CHECK_REGISTRY,
    CONFIG_FILES,
    CONFIGS,
    ROOT,
    run_check,
    verdict_of,
    without_origin,
)

from neuron_compat.cli import main
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules.validation import validate_registry

# fixture -> (status, exit code, family id, model-level caveat kinds, {(stack, workload): (verdict, caveat kinds)})
EXPECTED = {
    "bert-base-uncased.json": ("supported", 0, "bert", [], {("optimum-neuron", "inference"): ("supported", [])}),
    "bloom-176b.json": ("unknown", 4, None, ["unknown-model-type"], {}),  # this test registry has no bloom family
    "clip-vit-base-patch32.json": ("supported", 0, "clip", [], {("optimum-neuron", "inference"): ("supported", [])}),
    "deepseek-v3.json": ("supported", 0, "deepseek-v3", ["remote-code"],
                         {("nxd-inference", "inference"): ("supported", ["requires"])}),
    "gemma-2-9b.json": ("supported", 0, "gemma2", [],
                        {("optimum-neuron", "inference"): ("supported", ["dtype-not-listed"])}),
    "gemma-3-4b-it.json": ("unknown", 4, None, ["sibling-covered"], {}),
    "gpt-oss-20b.json": ("partial", 3, "gpt-oss", [],
                         {("nxd-inference", "inference"): ("partial", ["quantization-not-listed"])}),
    "llama-3.1-8b.json": ("supported", 0, "llama", [], {
        ("optimum-neuron", "inference"): ("supported", ["requires"]),
        ("optimum-neuron", "training"): ("partial", []),
        ("nxd-inference", "inference"): ("supported", ["context-beyond-verified"]),
    }),
    "mistral-7b-v0.1.json": ("supported", 0, "mistral", [], {
        ("optimum-neuron", "inference"): ("ended", ["ended"]),
        ("nxd-inference", "inference"): ("supported", []),
    }),
    "mixtral-8x7b-v0.1.json": ("partial", 3, "mixtral", [], {("nxd-inference", "inference"): ("partial", [])}),
    "phi-3-mini-4k-instruct.json": ("supported", 0, "phi3", ["remote-code"],
                                    {("optimum-neuron", "inference"): ("supported", [])}),
    "qwen3-30b-a3b.json": ("unknown", 4, None, ["sibling-covered"], {}),
    "qwen3-32b.json": ("supported", 0, "qwen3", [], {
        ("optimum-neuron", "inference"): ("supported", ["context-beyond-verified"]),
        ("nxd-inference", "inference"): ("supported", []),
    }),
    "qwen3-8b.json": ("supported", 0, "qwen3", [], {
        ("optimum-neuron", "inference"): ("supported", ["context-beyond-verified"]),
        ("nxd-inference", "inference"): ("supported", []),
    }),
    "sdxl-base-1.0-model_index.json": ("supported", 0, "sdxl", [],
                                       {("optimum-neuron", "inference"): ("supported", [])}),
    "t5-base.json": ("unsupported", 4, "t5", [], {("optimum-neuron", "inference"): ("unsupported", [])}),
    "whisper-large-v3.json": ("partial", 3, "whisper", [], {("optimum-neuron", "inference"): ("partial", [])}),
}


def test_every_shipped_fixture_has_an_expected_verdict():
    assert sorted(p.name for p in CONFIG_FILES) == sorted(EXPECTED)
    assert (CONFIGS / "SOURCES.md").is_file()
    sources = (CONFIGS / "SOURCES.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        assert f"`{name}`" in sources, f"{name} has no entry in SOURCES.md"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_verdict(name):
    status, exit_code, family, model_caveats, rows = EXPECTED[name]
    result = run_check(str(CONFIGS / name), "--json")
    assert result.returncode == exit_code, result.stderr
    verdict = verdict_of(result)
    assert verdict["status"] == status
    assert verdict["exit_code"] == exit_code
    assert (verdict["family"] or {}).get("id") == family
    assert [c["kind"] for c in verdict["caveats"]] == model_caveats
    got = {(a["stack"], a["workload"]): (a["verdict"], [c["kind"] for c in a["caveats"]]) for a in verdict["answers"]}
    assert got == rows


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_table_is_readable(name):
    status, exit_code, *_ = EXPECTED[name]
    result = run_check(str(CONFIGS / name))
    assert result.returncode == exit_code
    lines = result.stdout.splitlines()
    assert lines[0] == str(CONFIGS / name)
    assert lines[-1].startswith("Result: ") and lines[-1].endswith(f"(exit {exit_code})")
    assert f": {status}" in lines[-1]  # the best answer, scoped (views.answer)
    if EXPECTED[name][4]:
        assert any(line.startswith("STACK") and "VERDICT" in line for line in lines)
    assert not any("\x1b" in line for line in lines)


def test_llama_answers_carry_what_the_statements_say():
    verdict = verdict_of(run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json"))
    assert verdict["model"]["rope_scaling"] == {"type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}
    assert verdict["model"]["max_position_embeddings"] == 131072
    assert verdict["no_statement"] == ["nxd-training"]
    optimum = verdict["answers"][0]
    assert optimum["display_status"] == "supported-with-requirements"
    assert optimum["caveats"][0]["message"] == "requires flag sequence_parallel_enabled = false"
    assert optimum["stack_since"] == "0.0.25" and optimum["anchor"] == "optimum-neuron-inference"
    nxd = verdict["answers"][2]
    assert nxd["caveats"][0]["message"] == ("max_position_embeddings 131072 is beyond the 8192 tokens this "
                                            "statement was verified with")
    training = verdict["answers"][1]
    assert [n["text"] for n in training["notes"]] == ["Test note, only tensor parallel fine-tuning.",
                                                      "Test note added at 2.22.0."]


def test_an_older_release_answers_for_that_release():
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--neuron", "2.21.0", "--json")
    training = next(a for a in verdict_of(result)["answers"] if a["workload"] == "training")
    assert [n["text"] for n in training["notes"]] == ["Test note, only tensor parallel fine-tuning."]
    mistral = verdict_of(run_check(str(CONFIGS / "mistral-7b-v0.1.json"), "--neuron", "2.20.0", "--json"))
    rows = {a["stack"]: a for a in mistral["answers"]}
    assert rows["optimum-neuron"]["verdict"] == "supported"
    assert rows["nxd-inference"]["verdict"] == "unsupported"
    assert rows["nxd-inference"]["caveats"][0]["message"] == (
        "no statement holds at 2.20.0; the first one starts at 2.21.0 (supported)")


def test_stack_and_workload_filters():
    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--stack", "optimum-neuron", "--workload", "training", "--json")
    verdict = verdict_of(result)
    assert result.returncode == 3
    assert [(a["stack"], a["workload"]) for a in verdict["answers"]] == [("optimum-neuron", "training")]
    assert verdict["no_statement"] == []
    result = run_check(str(CONFIGS / "bert-base-uncased.json"), "--stack", "nxd-inference", "--json")
    verdict = verdict_of(result)
    assert result.returncode == 4
    assert verdict["answers"][0]["caveats"][0]["kind"] == "no-statement"


def test_sibling_and_nearest_families_are_named():
    gemma3 = verdict_of(run_check(str(CONFIGS / "gemma-3-4b-it.json"), "--json"))
    assert gemma3["nearest"] == ["gemma3"]
    assert gemma3["caveats"][0]["message"] == ("model_type 'gemma3' is not covered, but its sibling gemma3_text "
                                               "(family gemma3) is; an answer for a sibling does not carry over")
    assert gemma3["model"]["text_model_type"] == "gemma3_text"
    assert gemma3["model"]["sliding_window"] == 1024
    moe = verdict_of(run_check(str(CONFIGS / "qwen3-30b-a3b.json"), "--json"))
    assert moe["nearest"] == ["qwen3"]
    assert moe["model"]["moe"] == {"experts": 128, "experts_per_token": 8, "shared_experts": None}


# --- configs edited from the fixtures, to reach the other rules ------------------------------------------

def _variant(tmp_path: Path, base: str, **changes) -> Path:
    config = json.loads((CONFIGS / base).read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            config.pop(key, None)
        else:
            config[key] = value
    path = tmp_path / f"{base.removesuffix('.json')}-variant.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


VARIANTS = {
    "flash-attention": ("llama-3.1-8b.json", {"attn_implementation": "flash_attention_2"}),
    "awq": ("llama-3.1-8b.json", {"quantization_config": {"quant_method": "awq", "bits": 4}}),
    "bnb-4bit": ("qwen3-8b.json", {"quantization_config": {"load_in_4bit": True}}),
    "unknown-type": ("qwen3-8b.json", {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"]}),
    "architecture-only": ("llama-3.1-8b.json", {"model_type": "my_llama"}),
    "no-model-type": ("llama-3.1-8b.json", {"model_type": None}),
    "no-model-type-unknown-class": ("llama-3.1-8b.json", {"model_type": None, "architectures": ["OtherForCausalLM"]}),
    "transformers-5-dtype": ("qwen3-8b.json", {"torch_dtype": None, "dtype": "float16"}),
    "unknown-pipeline": ("sdxl-base-1.0-model_index.json", {"_class_name": "StableDiffusionXLImg2ImgPipeline"}),
}


def test_variants_reach_each_rule(tmp_path):
    def check(name, *extra):
        base, changes = VARIANTS[name]
        result = run_check(str(_variant(tmp_path, base, **changes)), "--json", *extra)
        return result.returncode, verdict_of(result)

    code, verdict = check("flash-attention")
    optimum = verdict["answers"][0]
    assert (code, optimum["verdict"], optimum["caveats"][0]["kind"]) == (0, "partial", "attention-not-listed")
    assert [c["kind"] for c in verdict["answers"][2]["caveats"]] == ["context-beyond-verified"]  # native attention
    code, verdict = check("awq", "--stack", "nxd-inference")
    assert (code, verdict["answers"][0]["caveats"][0]["message"]) == (
        3, "quantization awq is not among this statement's quantization methods (none listed)")
    code, verdict = check("bnb-4bit")
    assert verdict["model"]["quantization"] == {"method": "bitsandbytes", "id": "bitsandbytes"} and code == 3
    code, verdict = check("unknown-type")
    assert (code, verdict["nearest"]) == (4, ["qwen3"])
    assert verdict["caveats"][0]["message"] == "model_type 'qwen2' is not in the registry; nearest covered families: qwen3"
    code, verdict = check("architecture-only")
    assert (code, verdict["family"]["matched_by"], verdict["status"]) == (3, "architectures", "partial")
    code, verdict = check("no-model-type")
    assert (code, verdict["family"]["id"]) == (3, "llama")
    code, verdict = check("no-model-type-unknown-class")
    assert code == 4 and verdict["caveats"][0]["message"].startswith("the config names no model_type")
    code, verdict = check("transformers-5-dtype")
    assert (verdict["model"]["dtype"], verdict["model"]["dtype_raw"]) == ("fp16", "float16")
    assert verdict["answers"][0]["caveats"][0]["kind"] == "dtype-not-listed"
    code, verdict = check("unknown-pipeline")
    assert (code, verdict["nearest"]) == (4, ["sdxl"])


# --- the check page's entry point must give the same JSON ----------------------------------------------------

def _page_answers(cases: list[dict], registry_root: Path = CHECK_REGISTRY) -> list[dict]:
    """check_page.check_answer on each case, over the document the site publishes, as the page calls it."""
    from neuron_compat.check.compiled_view import CompiledRegistry
    from neuron_compat.check.page import check_answer

    registry = CompiledRegistry(json.loads(json.dumps(registry_to_json(validate_registry(registry_root).registry))))
    answers = []
    for case in cases:
        options = dict(case.get("options") or {})
        if "release" in options:
            options["neuron"] = options.pop("release")
        checkpoint = options.pop("checkpoint", None)
        answer = check_answer(json.dumps(case["config"]), registry, options, "api/check/registry.json", checkpoint)
        answers.append({"error": answer["error"]} if answer["error"] else
                       {"verdict": without_origin(json.loads(answer["json"])), "lines": answer["lines"]})
    return answers


OPTION_SETS = [
    ({}, []),
    ({"batch": 8, "seq_len": 8192, "dtype": "fp32"}, ["--batch", "8", "--seq-len", "8192", "--dtype", "fp32"]),
    ({"instance": "inf2.48xlarge", "stack": "optimum-neuron"}, ["--instance", "inf2.48xlarge", "--stack", "optimum-neuron"]),
    ({"release": "2.20.0"}, ["--neuron", "2.20.0"]),
    ({"release": "2.21.0", "workload": "inference"}, ["--neuron", "2.21.0", "--workload", "inference"]),
    ({"stack": "nxd-inference"}, ["--stack", "nxd-inference"]),
    ({"task": "feature-extraction"}, ["--task", "feature-extraction"]),
    ({"hardware": "trn2", "workload": "inference"}, ["--hardware", "trn2", "--workload", "inference"]),
]


def _check_json_in_process(*args: str) -> dict:
    """`neuron-compat check --json` through the CLI's own main(), in this process (the subprocess tests above
    already cover the real command; ~100 subprocesses here would only add minutes)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", *args, "--json", "--registry", str(CHECK_REGISTRY)])
    return without_origin(json.loads(out.getvalue()))


def test_cli_and_site_give_the_same_json_on_every_fixture_and_variant(tmp_path):
    paths = [*CONFIG_FILES, *(_variant(tmp_path, base, **changes) for base, changes in VARIANTS.values())]
    cases, expected = [], []
    for path in paths:
        config = json.loads(path.read_text(encoding="utf-8"))
        for options, flags in OPTION_SETS:
            cases.append({"name": f"{path.name} {flags}", "config": config, "options": options})
            expected.append(_check_json_in_process(str(path), *flags))
    # and the real command on the plain fixtures, byte for byte through json
    for path, case in zip(CONFIG_FILES, cases[::len(OPTION_SETS)], strict=False):  # the variants follow
        assert verdict_of(run_check(str(path), "--json")) == expected[cases.index(case)]
    results = _page_answers(cases)
    assert len(results) == len(expected) > 90
    for case, result, cli in zip(cases, results, expected, strict=True):
        assert "error" not in result, (case["name"], result.get("error"))
        assert result["verdict"] == cli, case["name"]


def test_cli_and_site_refuse_the_same_inputs_with_the_same_words(tmp_path):
    bad = {"array": [1, 2], "no keys": {"hello": "world"}, "bad class": {"_class_name": 42}}
    page = [r.get("error") for r in _page_answers([{"config": v} for v in bad.values()])]
    path = tmp_path / "config.json"
    for config, said in zip(bad.values(), page, strict=True):
        path.write_text(json.dumps(config), encoding="utf-8")
        result = run_check(str(path))
        assert result.returncode == 1
        assert result.stderr.strip() == f"neuron-compat check: {said}".replace("pasted text", str(path)), said
    page = _page_answers([{"config": {"model_type": "llama"}, "options": {"release": "9.9.9"}}])
    cli = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--neuron", "9.9.9")
    assert cli.returncode == 1 and cli.stderr.strip().endswith(page[0]["error"])
    page = _page_answers([{"config": {"model_type": "llama"}, "options": {"hardware": "trn9"}}])
    cli = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--hardware", "trn9")
    assert cli.returncode == 2 and cli.stderr.strip().endswith(page[0]["error"])


def test_cli_and_site_agree_on_the_real_registry_too():
    """registry/ is curated by others and changes: whatever it holds, the page's entry answers as `check` does.
    Every fixture config at two releases, the newest and the sixth newest (the page and `check` share the release
    logic; tests/check/test_check_view_agreement.py asks every release)."""
    result = validate_registry(ROOT / "registry")
    if result.problems:
        pytest.skip("registry/ has validation problems right now")
    cases: list[dict] = []
    for path in CONFIG_FILES:
        config = json.loads(path.read_text(encoding="utf-8"))
        for release in (result.registry.release_versions[-6], result.registry.release_versions[-1]):
            cases.append({"name": f"{path.name}@{release}", "config": config, "options": {"release": release}})
    page = _page_answers(cases, ROOT / "registry")
    from neuron_compat.check.answer_pipeline import answer_for_verdict
    from neuron_compat.check.config_facts import facts_from_config
    from neuron_compat.check.fit import FitOptions
    from neuron_compat.check.resolver import resolve
    from neuron_compat.registry_sources.selection import open_registry

    opened, _ = open_registry(str(ROOT / "registry"))  # the registry as `check --registry registry` reads it
    for case, answer in zip(cases, page, strict=True):
        verdict = resolve(facts_from_config(case["config"]), opened, release=case["options"]["release"])
        document = answer_for_verdict(opened, verdict, case["config"], FitOptions()).document
        expected = json.loads(json.dumps(document))  # the answer with its fit (the tested lists: other tests)
        shown = {k: v for k, v in (answer.get("verdict") or {}).items() if k in expected}
        assert shown == expected, case["name"]


def test_json_output_follows_the_published_schema():
    import jsonschema

    schema = json.loads(subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", "--json-schema"],
                                       capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    assert schema["title"] == "Verdict"
    for name in ("llama-3.1-8b.json", "sdxl-base-1.0-model_index.json", "qwen3-30b-a3b.json"):
        jsonschema.validate(json.loads(run_check(str(CONFIGS / name), "--json").stdout), schema)


def test_no_model_is_bad_input():
    result = run_check()
    assert result.returncode == 1
    assert result.stderr.strip() == ("neuron-compat check: name a model: a Hub repo id, a config.json, a model folder "
                                     "or a model_index.json")


def test_scoped_constraints_apply_only_to_their_task_or_checkpoint():
    """qwen3's vLLM Neuron `--runner=pooling` is for Qwen3-Embedding: a Qwen3ForCausalLM config never hears of it;
    --task feature-extraction or a Qwen3-Embedding repo id does; the check page's entry point says the same."""
    from neuron_compat.check.answer_pipeline import answer_document
    from neuron_compat.check.config_facts import facts_from_config
    from neuron_compat.check.fit import FitOptions
    from neuron_compat.check.resolver import resolve

    result = validate_registry(ROOT / "registry")
    assert result.problems == []
    config = {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "torch_dtype": "bfloat16"}
    options = [{}, {"task": "feature-extraction"}, {"checkpoint": "Qwen/Qwen3-Embedding-8B"},
               {"checkpoint": "Qwen/Qwen3-32B"}, {"task": "text-generation", "checkpoint": "Qwen/Qwen3-Embedding-8B"}]
    document = registry_to_json(result.registry)
    stacks = [stack.id for stack in result.registry.stacks]
    python = [json.loads(json.dumps(answer_document(resolve(facts_from_config(config), result.registry, **o), config,
                                                    document["instances"], stacks, FitOptions())))
              for o in options]
    mentions = ["--runner" in json.dumps(v["answers"]) for v in python]
    assert mentions == [False, True, True, False, False]
    left_out = [[c["kind"] for a in v["answers"] for c in a["caveats"] if c["kind"] == "left-out"] for v in python]
    assert left_out[0] and left_out[1]  # each leaves out the other task's items and says so
    assert python[0]["task"] == "text-generation" and python[0]["task_from"] == "architectures"
    page = _page_answers([{"config": config, "options": o} for o in options], ROOT / "registry")
    assert [{k: v for k, v in r["verdict"].items() if k in p} for r, p in zip(page, python, strict=True)] == python
