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
    {"id": "alloc", "title": "Alloc", "match": {"phrases": ["Failed to allocate"]},
     "stacks": [{"stack": "transformers-neuronx"}], "description": "d", "sources": [{"url": "https://example.org/b"}]},
]
REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def test_codes_are_whole_tokens_and_phrases_collapse_whitespace() -> None:
    assert [m.issue["id"] for m in match_issues("error NCC_EOOM001 at line 3", ISSUES)] == ["hbm"]
    assert [m.issue["id"] for m in match_issues("code EOOM001", ISSUES)] == ["hbm"]  # the NCC_ prefix left off
    assert match_issues("NCC_EOOM0012 something", ISSUES) == []  # not a token of its own
    matched = match_issues("It EXCEEDS the\n   high-bandwidth  memory limit; Failed to allocate 3MB", ISSUES)
    assert [m.issue["id"] for m in matched] == ["hbm", "alloc"]  # the longer phrase first
    ranked = match_issues("Failed to allocate", ISSUES, stack="nxd-inference")  # --stack ranks, never hides
    assert [(m.issue["id"], m.stack_match) for m in ranked] == [("alloc", False)]


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
    assert main(["explain", "--registry", str(REGISTRY), "--json", "nrt_tensor_allocate status=4"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["matched"] == 1 and document["issues"][0]["id"] == "runtime-device-memory-allocation"


def test_explain_bad_input_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain"]) == 1
    assert "give the error text" in capsys.readouterr().err
    assert main(["explain", "--file", str(tmp_path / "missing.log")]) == 1
    assert "missing.log" in capsys.readouterr().err
    assert main(["explain", "   "]) == 1
