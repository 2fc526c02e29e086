"""`neuron-compat check MODEL --environment FILE` and `--stack-version STACK==VERSION`, in-process: the release
detected answers, the 'Your environment' block and `environment` JSON say what was read and what does not fit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from cli_in_process import run_in_process  # noqa: E402

PASTES = ROOT / "tests" / "fixtures" / "environments"
CONFIGS = ROOT / "tests" / "fixtures" / "configs"


def check(*args: str):
    return run_in_process(["check", *args], ROOT)


@pytest.fixture(scope="module")
def trn2_vllm_paste(tmp_path_factory) -> Path:
    """An issue's paste: pip list of a 2.32.0 vLLM Neuron environment, then neuron-ls -j of a trn2.48xlarge."""
    path = tmp_path_factory.mktemp("paste") / "env.txt"
    path.write_text((PASTES / "pip_list_vllm_neuron_2_32.txt").read_text() + "$ neuron-ls -j\n"
                    + (PASTES / "neuron_ls_j_trn2_48xlarge.json").read_text())
    return path


def test_the_detected_release_answers_and_the_json_says_what_was_read():
    result = check(str(CONFIGS / "qwen3-8b.json"), "--environment", str(PASTES / "pip_freeze_optimum_0_4_5.txt"),
                   "--json")
    document = json.loads(result.stdout)
    assert document["release"] == "2.26.1"
    environment = document["environment"]
    assert (environment["release"], environment["release_candidates"]) == ("2.26.1", ["2.26.1"])
    assert environment["stack_versions"]["optimum-neuron"] == "0.4.5"
    assert {"name": "neuronx-cc", "version": "2.21.33363.0+82f9a0e4", "recorded_as": "neuronx-cc",
            "releases": ["2.26.1"], "source": "pip"} in environment["packages"]
    assert environment["instance"] is None and environment["mismatches"] == []


def test_a_stack_without_the_models_claim_at_your_release_says_which_release_brings_it(trn2_vllm_paste, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "qwen3_asr", "architectures": ["Qwen3ASRForConditionalGeneration"],
                                  "torch_dtype": "bfloat16"}))
    result = check(str(config), "--environment", str(trn2_vllm_paste))
    assert "Your environment (pip, neuron-ls --json-output):" in result.stdout
    assert "  instance: trn2.48xlarge or trn2u.48xlarge (trn2, 16 devices, LNC 2)" in result.stdout
    assert ("  ! vllm-neuron 0.24.0.1.1.0 is Neuron 2.32.0's vLLM Neuron plugin; Qwen3-ASR (inference, trn2) comes "
            "with Neuron 2.33.0's: install vllm-neuron 0.29.0.1.2.0") in result.stdout
    # the block sits between what was read and what to install
    assert result.stdout.index("Your environment") < result.stdout.index("What to install")


def test_a_claim_that_holds_at_your_release_is_no_mismatch(trn2_vllm_paste):
    result = check(str(CONFIGS / "qwen3-8b.json"), "--environment", str(trn2_vllm_paste), "--json")
    environment = json.loads(result.stdout)["environment"]
    assert not any("comes with" in line for line in environment["mismatches"])  # Qwen3 holds with 2.32.0's plugin


def test_a_stack_on_hardware_it_does_not_serve_is_named_with_what_to_install_instead():
    result = check(str(CONFIGS / "qwen3-8b.json"), "--environment", str(PASTES / "issue_paste_inf2_vllm_neuron.txt"),
                   "--json")
    document = json.loads(result.stdout)
    mismatches = document["environment"]["mismatches"]
    assert mismatches[0] == "vllm-neuron does not serve inf2 (it runs on trn2, trn3)"
    assert mismatches[1].startswith("instead, for Qwen3 on inf2 (inference): optimum-neuron 0.4.5 at Neuron 2.26.1")
    assert [r["hardware"] for r in document["recommendations"]] == ["inf2"]  # the environment's hardware answers
    assert document["fit"]["instances"][0]["name"] == "inf2.xlarge"  # and its instance is the one fitted


def test_stack_version_selects_the_release_it_pairs_with():
    result = check(str(CONFIGS / "qwen3-8b.json"), "--stack-version", "optimum-neuron==0.3.0", "--json")
    document = json.loads(result.stdout)
    assert document["release"] == "2.24.0"
    assert document["environment"]["formats"] == ["--stack-version"]


def test_a_flag_wins_over_the_environment_and_says_so():
    result = check(str(CONFIGS / "qwen3-8b.json"), "--environment", str(PASTES / "pip_freeze_optimum_0_4_5.txt"),
                   "--neuron", "2.25.0", "--json")
    document = json.loads(result.stdout)
    assert document["release"] == "2.25.0"
    assert "answered at --neuron 2.25.0; your packages are Neuron 2.26.1's" in document["environment"]["mismatches"]


@pytest.mark.parametrize("args, code, message", [
    (["--environment", "/dev/zero"], 1,
     "neuron-compat check: --environment /dev/zero: not a regular file (a character device); only plain files are read"),
    (["--environment", str(PASTES / "config_not_neuron_ls.json")], 1,
     "not neuron-ls output of a format this version reads"),
    (["--stack-version", "optimum-nueron==0.3.0"], 2, "did you mean 'optimum-neuron'?"),
    (["--stack-version", "optimum-neuron==9.9.9"], 2, "optimum-neuron 9.9.9 is in no release this registry records"),
])
def test_bad_environments_are_one_line_errors(args, code, message):
    result = check(str(CONFIGS / "qwen3-8b.json"), *args)
    assert result.returncode == code and result.stdout == ""
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_the_json_schema_describes_environment():
    schema = json.loads(check("--json-schema").stdout)
    assert schema["properties"]["environment"]["required"] == ["release", "release_candidates", "packages", "instance",
                                                               "mismatches"]


def test_a_caller_without_files_gets_the_same_environment_answer():
    """check/environment_answer.ask_in_environment: what the check page can call with pasted text."""
    from neuron_compat.check.answer_pipeline import AnswerError, Question
    from neuron_compat.check.environment_answer import ask_in_environment
    from neuron_compat.registry_sources.selection import open_registry

    registry = open_registry(str(ROOT / "registry"))[0]
    config = json.loads((CONFIGS / "qwen3-8b.json").read_text())
    paste = (PASTES / "issue_paste_inf2_vllm_neuron.txt").read_text()
    answer = ask_in_environment(config, registry, Question(), paste)
    cli = json.loads(check(str(CONFIGS / "qwen3-8b.json"), "--environment",
                           str(PASTES / "issue_paste_inf2_vllm_neuron.txt"), "--json").stdout)
    assert answer.environment == cli["environment"] and answer.verdict.release == cli["release"]
    with pytest.raises(AnswerError, match="environment: not text \\(binary data\\)") as raised:
        ask_in_environment(config, registry, Question(), "\0\0\0")
    assert raised.value.code == 1


def test_the_check_page_answers_for_a_pasted_environment_as_check_does():
    """The check page's entry point (check/page.py) with the environment box filled: the CLI's JSON with
    `--environment`, and a 'Your environment' part on the answer page; an empty box answers as before."""
    from neuron_compat.check.page import check_answer
    from neuron_compat.registry_sources.selection import open_registry

    registry = open_registry(str(ROOT / "registry"))[0]
    config_text = (CONFIGS / "qwen3-8b.json").read_text()
    paste = (PASTES / "issue_paste_inf2_vllm_neuron.txt").read_text()
    page = check_answer(config_text, registry, {"environment": paste}, "https://example.org/api/registry.json")
    cli = json.loads(check(str(CONFIGS / "qwen3-8b.json"), "--environment",
                           str(PASTES / "issue_paste_inf2_vllm_neuron.txt"), "--json").stdout)
    shown = json.loads(page["json"])
    assert shown["environment"] == cli["environment"] and shown["release"] == cli["release"]
    assert page["exit_code"] == cli["exit_code"]
    headings = [b["text"] for b in page["blocks"] if b["kind"] == "heading"]
    assert headings[0] == "Your environment"
    listed = [part["text"] for b in page["blocks"] if b.get("name") == "environment" for item in b["items"] for part in item]
    assert any("vllm-neuron does not serve inf2" in line for line in listed), listed
    plain = check_answer(config_text, registry, {"environment": "  "}, "https://example.org/api/registry.json")
    assert "environment" not in json.loads(plain["json"]) and "Your environment" not in [
        b.get("text") for b in plain["blocks"]]
    binary = check_answer(config_text, registry, {"environment": "\0\0\0"}, "https://example.org/api/registry.json")
    assert binary["exit_code"] == 1 and binary["error"].startswith("environment: not text")
