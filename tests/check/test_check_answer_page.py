"""check/answer_page.py: the check page's answer as blocks (what a visitor reads, decided next to the answer): the
sections in order, install lines to copy, tables whose rows have a cell per column, links only to https addresses
or the site's own pages, and pasted text with its hidden characters escaped; the explain box's matches linked to
their known-issue entries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from check_helpers import CHECK_REGISTRY, CONFIGS
from cli_in_process import run_in_process

from neuron_compat.check.answer_page import answer_blocks, explain_blocks, headline


def _answer(config: Path) -> dict[str, Any]:
    result = run_in_process(["check", str(config), "--json", "--registry", str(CHECK_REGISTRY)], cwd=CONFIGS)
    return json.loads(result.stdout)


def _parts(blocks: list[dict[str, Any]]) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []
    for block in blocks:
        if block["kind"] == "paragraph":
            found += block["parts"]
        elif block["kind"] == "list":
            found += [part for item in block["items"] for part in item]
        elif block["kind"] == "table":
            for row in block["rows"]:
                for cell in row:
                    found += [part for item in cell["list"] for part in item] if isinstance(cell, dict) else cell
    return found


def test_an_answer_reads_as_sections_with_install_lines_and_full_rows() -> None:
    verdict = _answer(CONFIGS / "llama-3.1-8b.json")
    blocks = answer_blocks(verdict)
    assert [b["text"] for b in blocks if b["kind"] == "heading"] == [
        "What to install", "Answer per stack", "Fit (an estimate)", "Evidence"]
    code = next(b for b in blocks if b["kind"] == "code")
    assert code["lines"][:2] == ["# inference on inf2: Optimum Neuron at Neuron 2.22.0", "optimum-neuron 0.0.28"]
    assert "# nothing recorded to install (nxd-inference, component versions)" in code["lines"]
    for table in (b for b in blocks if b["kind"] == "table"):
        assert all(len(row) == len(table["headers"]) for row in table["rows"]), table["name"]
    stacks = next(b for b in blocks if b.get("name") == "stacks")
    assert len(stacks["rows"]) == len(verdict["answers"])
    assert stacks["rows"][0][0] == [{"link": "Optimum Neuron", "page": "families/llama/#optimum-neuron-inference"}]
    fit = next(b for b in blocks if b.get("name") == "fit")
    assert [row[0][0]["text"] for row in fit["rows"]] == [i["name"] for i in verdict["fit"]["instances"]]
    links = [p for p in _parts(blocks) if "link" in p]
    assert links and all(p.get("href", "").startswith("https://") or p.get("page", "").startswith("families/")
                         for p in links)


def test_pasted_text_is_shown_with_hidden_characters_escaped_and_only_https_is_a_link() -> None:
    verdict = _answer(CONFIGS / "llama-3.1-8b.json")
    verdict["summary"] = "llama\u202e: unknown"
    verdict["answers"][0]["sources"] = ["javascript:alert(1)", "https://example.com/\u202e"]
    verdict["answers"][0]["caveats"] = [{"limits": False, "message": "model_type x\u202ey\u2066z\x1b"}]
    assert headline(verdict) == "llama\\u202e: unknown"
    parts = _parts(answer_blocks(verdict))
    assert {"text": "javascript:alert(1)"} in parts and not any(p.get("href", "").startswith("javascript") for p in parts)
    assert {"text": "model_type x\\u202ey\\u2066z\\x1b"} in parts
    assert not any("\u202e" in value for p in parts for value in p.values() if "href" not in p)


def test_an_unknown_model_has_no_install_section_but_says_so() -> None:
    verdict = _answer(CONFIGS / "llama-3.1-8b.json")
    verdict.update(recommendations=[], answers=[], fit=None, tested_configurations={}, known_issues=[], family=None,
                   no_statement=["nxd-training"])
    assert answer_blocks(verdict) == [{"kind": "paragraph", "parts": [{"text": "No statement for: nxd-training"}]}]


def test_matched_known_issues_link_to_their_entries_with_why_and_sources() -> None:
    document = {"known_issues": 3, "browse_only": 1, "refusals": [], "issues": [
        {"id": "compiler-hbm-limit", "title": "Needs more device memory", "why": ["error code NCC_EVRF009"],
         "sources": ["https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/x.html", "file:///etc/passwd"],
         "issue": {"description": "The compiler stops.", "workaround": "Shard it.", "families": ["llama", "qwen3"]}}]}
    blocks = explain_blocks(document)
    assert blocks[0] == {"kind": "paragraph", "parts": [{"text": "1 known issue match, best first (of 3 known)."}]}
    assert blocks[1]["parts"][0] == {"link": "Needs more device memory", "page": "known-issues/#issue-compiler-hbm-limit"}
    assert blocks[2]["items"] == [
        [{"text": "The compiler stops."}], [{"text": "Workaround: Shard it."}],
        [{"text": "Families: "}, {"link": "llama", "page": "families/llama/"}, {"text": ", "},
         {"link": "qwen3", "page": "families/qwen3/"}],
        [{"text": "Source: "}, {"link": "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/x.html",
                                "href": "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/x.html"}],
        [{"text": "Source: "}, {"text": "file:///etc/passwd"}]]
    none = explain_blocks({"known_issues": 3, "browse_only": 1, "issues": []})
    assert none == [{"kind": "paragraph", "parts": [{"text": "No known issue matched (3 known issues; 1 of them quote "
                                                             "no error text and are listed on the site only)."}]}]


def test_a_model_type_not_covered_names_its_nearest_families_and_why_nothing_was_estimated(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"]}', encoding="utf-8")
    verdict = _answer(config)
    assert verdict["status"] == "unknown" and verdict["nearest"] == ["qwen3"]
    blocks = answer_blocks(verdict)
    assert {"kind": "paragraph", "parts": [{"text": "The nearest families the registry covers: "},
                                           {"link": "qwen3", "page": "families/qwen3/"}]} in blocks
    said = [b["parts"][0]["text"] for b in blocks if b["kind"] == "paragraph"]
    assert "Not estimated for any instance: vocab_size is not set; num_hidden_layers / n_layer / num_layers is not " \
           "set; num_attention_heads / n_head / num_heads is not set" in said
    assert not [b for b in blocks if b.get("name") == "fit" and b["kind"] == "table"]  # no table of blank rows


def test_a_tested_configuration_links_its_checkpoint_page_and_its_source() -> None:
    from neuron_compat.check.answer_page import configuration_item

    run = {"checkpoint": "meta-llama/Llama-3.1-8B-Instruct", "hub_id": "meta-llama/Llama-3.1-8B-Instruct",
           "stack": "nxd-inference", "release": "2.22.0", "instance": "trn1.32xlarge", "parallelism": {"tensor": 8},
           "dtype": "bf16", "outcome": "compiled-and-ran",
           "measurements": [{"metric": "throughput", "value": 41.5, "unit": "tokens/s", "phase": "token-generation"}],
           "source": {"url": "https://github.com/aws-neuron/aws-neuron-sdk/issues/1", "title": "a report"}}
    assert configuration_item(run) == [
        {"link": "meta-llama/Llama-3.1-8B-Instruct", "page": "checkpoints/meta-llama/Llama-3.1-8B-Instruct/"},
        {"text": " · nxd-inference · Neuron 2.22.0 · trn1.32xlarge · TP=8 · bf16 · compiled-and-ran: throughput 41.5 "
                 "tokens/s (token-generation) — "},
        {"link": "a report", "href": "https://github.com/aws-neuron/aws-neuron-sdk/issues/1"}]
    assert configuration_item({**run, "hub_id": None, "checkpoint": "Llama-3.1-70B pre-training"})[0] == {
        "text": "Llama-3.1-70B pre-training"}
