"""`neuron-compat explain`: matching entries exit 0, none exit 4, bad input exit 1; matching is linear-time."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from neuron_compat.check.explain import match_issues
from neuron_compat.cli import main

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ISSUES = [
    {"id": "hbm", "title": "HBM", "match": {"codes": ["NCC_EOOM001"], "phrases": ["exceeds the high-bandwidth memory limit"]},
     "stacks": [{"stack": "nxd-inference"}], "description": "d", "sources": [{"url": "https://example.org/a"}]},
    {"id": "alloc", "title": "Alloc", "match": {"phrases": ["Failed to allocate", "Too many open files"]},
     "stacks": [{"stack": "transformers-neuronx"}], "description": "d", "sources": [{"url": "https://example.org/b"}]},
    {"id": "cores", "title": "Cores", "match": {"phrases": ["NeuronCore(s) not available - Requested:1 Available:0"]},
     "stacks": [{"stack": "transformers-neuronx"}], "description": "d", "sources": [{"url": "https://example.org/c"}]},
]
REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def test_codes_are_whole_tokens_and_phrases_collapse_whitespace() -> None:
    assert [m.issue["id"] for m in match_issues("error NCC_EOOM001 at line 3", ISSUES)] == ["hbm"]
    assert [m.issue["id"] for m in match_issues("code EOOM001", ISSUES)] == ["hbm"]  # the NCC_ prefix left off
    assert match_issues("NCC_EOOM0012 something", ISSUES) == []  # not a token of its own
    matched = match_issues("It EXCEEDS the\n   high-bandwidth  memory limit; NeuronCore(s) not available - "
                           "Requested:4 Available:2", ISSUES)
    assert [(m.issue["id"], m.tier) for m in matched] == [("hbm", "phrase"), ("cores", "phrase")]
    ranked = match_issues("NeuronCore(s) not available - Requested:nc1-nc1 Available:0", ISSUES, stack="nxd-inference")
    assert [(m.issue["id"], m.stack_match) for m in ranked] == [("cores", False)]  # --stack ranks, never hides
    assert ranked[0].evidence[0].text.startswith("NeuronCore(s) not available")


def test_a_generic_phrase_alone_never_matches() -> None:
    assert match_issues("RuntimeError: Failed to allocate 1073741824 bytes (CPU allocator)", ISSUES) == []
    assert match_issues("OSError: [Errno 24] Too many open files: '/tmp/x'", ISSUES) == []


def test_a_code_beats_a_phrase_and_the_score_says_so() -> None:
    log = "NeuronCore(s) not available - Requested:1 Available:0\nERROR [NCC_EOOM001] compile failed"
    matched = match_issues(log, ISSUES)
    assert [(m.issue["id"], m.tier) for m in matched] == [("hbm", "code"), ("cores", "phrase")]
    assert matched[0].score > matched[1].score
    assert matched[0].to_dict()["matched"][0] == {"kind": "code", "pattern": "NCC_EOOM001", "line": 2,
                                                  "text": "ERROR [NCC_EOOM001] compile failed"}


def test_hostile_text_is_matched_in_linear_time() -> None:
    text = ("a" * 50_000 + "_") * 4 + "(" * 100_000
    started = time.perf_counter()
    assert match_issues(text, ISSUES) == []
    assert time.perf_counter() - started < 2.0


@pytest.mark.skipif(not (REGISTRY / "instances.yaml").exists(), reason="needs instances.yaml")
def test_explain_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--registry", str(REGISTRY), "NCC_EARG001: lnc=2 is not supported"]) == 0
    out = capsys.readouterr().out
    assert "compiler-lnc-unsupported" in out and "EARG001.html" in out
    assert main(["explain", "--registry", str(REGISTRY), "a message nobody has seen"]) == 4
    assert "No known issue matched" in capsys.readouterr().out
    assert main(["explain", "--registry", str(REGISTRY), "--json",
                 'RuntimeError: nrt_tensor_allocate status=4 message="Allocation Failure"']) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["matched"] == 1 and document["issues"][0]["id"] == "runtime-device-memory-allocation"


def test_explain_bad_input_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain"]) == 1
    assert "give the error text" in capsys.readouterr().err
    assert main(["explain", "--file", str(tmp_path / "missing.log")]) == 1
    assert "missing.log" in capsys.readouterr().err
    assert main(["explain", "   "]) == 1
