"""`neuron-compat explain` on the real registry: --stack/--hardware rank and label, --release answers, the JSON a
page box renders, the stacks' refusals, codes of a real shape only, and bad input (binary, oversized) in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from neuron_compat.check.explain import match_issues
from neuron_compat.cli import main
from neuron_compat.contract.known_issues import IssueMatch

REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["explain", "--registry", str(REGISTRY), "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_a_code_line_answers_for_every_stack_and_the_stack_ranks_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json(capsys, "--stack", "vllm-neuron", "2026-01-02 03:04:05 [NCC_EOOM001] out of memory")
    assert code == 0
    first = document["issues"][0]
    assert first["id"] == "ncc-eoom001" and first["stack_match"] is True
    assert "error code NCC_EOOM001 as a token" in first["why"]
    # the curated entry names three stacks, not vLLM: it follows, labelled, instead of being hidden
    assert [(i["id"], i["stack_match"]) for i in document["issues"][1:]] == [("compiler-hbm-limit", False)]


def test_release_says_affected_and_fixed() -> None:
    from neuron_compat.check.explain import release_answer

    issue = {"kind": "known-issue", "listed_in": {"first": "2.28.0", "last": "2.28.0", "not_listed_from": "2.29.0"}}
    assert release_answer(issue, "2.28.0")["affected"] is True
    after = release_answer(issue, "2.30.0")  # no note says it was fixed: no "fixed in", no "not affected"
    assert after["affected"] is None and after["fixed_in"] is None
    assert "not listed in the notes from 2.29.0 on" in after["says"] and "fixed" not in after["says"].replace(
        "no note says it was fixed", "")
    assert release_answer(issue, "2.20.0")["affected"] is None  # before it was listed: no source says
    fix = {"kind": "bug-fix", "fixed_in": {"release": "2.27.1"}}
    assert release_answer(fix, "2.27.0")["affected"] is True and release_answer(fix, "2.27.1")["affected"] is False
    none = release_answer({"kind": "error-code"}, "2.30.0")
    assert none["affected"] is None and none["fixed_in"] is None  # never an invented fix release


def test_the_json_carries_everything_a_box_renders(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json(capsys, "--release", "2.29.0", "--hardware", "trn2",
                           "Traceback ...\nRuntimeError: NeuronCore(s) not available - Requested:3 Available:0")
    assert code == 0
    assert {"format", "matched", "truncated", "stack", "hardware", "release", "refusals", "issues",
            "known_issues", "registry"} <= set(document)
    assert document["known_issues"] >= 400
    first = document["issues"][0]
    assert {"id", "title", "kind", "why", "release", "issue", "hardware_match"} <= set(first)
    assert first["release"]["release"] == "2.29.0" and first["issue"]["sources"]


def test_a_stack_refusal_is_answered_with_the_models_support(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = _json(capsys, "INFO 01-02 vllm: ValueError: Model architectures ['Qwen3MoeForCausalLM'] are "
                           "not supported on Neuron for now. Supported architectures: [...]")
    assert code == 0
    [refusal] = document["refusals"]
    assert refusal["stack"] == "vllm-neuron" and refusal["architectures"] == ["Qwen3MoeForCausalLM"]
    assert refusal["family"] == "qwen3_moe" and refusal["summary"].startswith("Qwen3 MoE")
    assert main(["explain", "--registry", str(REGISTRY),
                 "ValueError: Model type llama is not supported for task feature-extraction"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("optimum-neuron refused llama: Llama")


def test_codes_have_a_real_shape_so_ordinary_words_never_match() -> None:
    for bad in ("NCC_T", "TIMEOUT", "NCC_", "ab_c"):
        with pytest.raises(ValidationError):
            IssueMatch.model_validate({"codes": [bad]})
    IssueMatch.model_validate({"codes": ["NCC_EOOM001", "NRT_RESOURCE", "EOOM001"]})
    # a registry document from elsewhere may hold such a code: the matcher ignores it
    hostile = [{"id": "x", "match": {"codes": ["NCC_T", "TIMEOUT"]}, "stacks": []}]
    assert match_issues("I got a timeout at step T", hostile) == []


def test_binary_and_oversized_input_exit_1_or_read_a_bounded_prefix(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "core.bin"
    binary.write_bytes(b"\x7fELF\x00\x01" + bytes(range(256)) * 50)
    assert main(["explain", "--registry", str(REGISTRY), "--file", str(binary)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "binary" in err
    big = tmp_path / "big.log"
    with big.open("wb") as handle:
        handle.write(b"[NCC_EOOM001] first line\n")
        handle.seek(200 * 1024 * 1024)  # a 200 MB paste (sparse): only a bounded prefix is read
        handle.write(b"end\n")
    assert main(["explain", "--registry", str(REGISTRY), "--file", str(big)]) in (0, 1)
    captured = capsys.readouterr()
    assert captured.err.count("\n") <= 1


def test_check_lists_the_familys_issues_and_the_release_its_notes_recommend(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"],
                                  "torch_dtype": "bfloat16"}), encoding="utf-8")
    main(["check", "--registry", str(REGISTRY), str(config)])
    out = capsys.readouterr().out
    advice = out.index("the release notes recommend Neuron 2.28.0 for: Qwen3-MoE 235B")
    assert out.index("What to install") < advice < out.index("STACK")  # under the recommendation
    assert "Qwen3 MoE only supports batch size ≥ 16 configurations" in out
    main(["check", "--registry", str(REGISTRY), "--json", str(config)])
    issues = json.loads(capsys.readouterr().out)["known_issues"]
    assert any(i["pin_release"] == "2.28.0" for i in issues)
