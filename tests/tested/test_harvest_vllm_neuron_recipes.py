"""The vLLM Neuron recipe harvester on parts of the recipe pages of aws-neuron-sdk v2.32.0 (fixtures/vllm_recipes,
fixtures/optimum_neuron/SOURCES.md says which lines): both table orientations, fractions in percent, the release
from the page's words, and no measurement where the page does not state the release."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from harvesters.vllm_neuron_recipes import parse_scores, percent, recipe_entries

from neuron_compat.contract.tested_configurations import TestedConfiguration as Configuration

FIXTURES = Path(__file__).parent / "fixtures" / "vllm_recipes"
COMMIT = "a3247f5b8c305f9b70a19993acb306122e736eec"
RELEASES = [("2.31.0", dt.date(2026, 7, 1)), ("2.31.1", dt.date(2026, 8, 12)), ("2.32.0", dt.date(2026, 8, 17))]


def _read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_percent_reads_fractions_percentages_and_scores() -> None:
    assert percent("0.95") == 95.0
    assert percent("88.8%") == 88.8
    assert percent("85.94") == 85.94
    assert percent("N/A") is None and percent("120") is None


def test_row_table_with_its_release_keeps_the_gsm8k_scores() -> None:
    entries, skipped = recipe_entries("llama-3.md", _read("llama-3.md"), COMMIT, RELEASES)
    assert skipped == []
    bf16, fp8 = entries
    assert bf16["id"] == "vllm-neuron-recipe-llama-3-llama-3-3-70b-bf16"
    assert bf16["hub_id"] == "meta-llama/Llama-3.3-70B-Instruct" and bf16["dtype"] == "bf16"
    assert bf16["release"] == "2.32.0" and bf16["release_stated"] == "Neuron 2.32 release build"
    assert bf16["measurements"] == [{"metric": "accuracy", "name": "GSM8K (flexible-extract, n=100)",
                                     "value": 95.0, "unit": "percent"}]
    assert bf16["source"]["url"].endswith(f"/blob/{COMMIT}/vllm-neuron/docs/model-recipes/llama-3.md#L24")  # the BF16 row of the fixture
    assert "hub_id" not in fp8 and fp8["quantization"] == "fp8"
    for entry in entries:
        Configuration.model_validate(entry)


def test_release_is_unknown_when_two_point_releases_were_out() -> None:
    releases = [*RELEASES, ("2.32.1", dt.date(2026, 8, 1))]
    entries, _ = recipe_entries("llama-3.md", _read("llama-3.md"), COMMIT, releases)
    assert entries[0]["release"] is None and "measurements" not in entries[0]
    assert "1 accuracy score(s)" in entries[0]["notes"][-1]


def test_column_table_without_a_release_keeps_only_the_outcome() -> None:
    [entry], skipped = recipe_entries("gpt-oss.md", _read("gpt-oss.md"), COMMIT, RELEASES)
    assert skipped == []
    assert entry["checkpoint"] == "openai/gpt-oss-120b" and entry["quantization"] == "mxfp4"
    assert entry["release"] is None and "measurements" not in entry and entry["outcome"] == "compiled-and-ran"
    assert entry["notes"][-1].startswith("The page gives 3 accuracy score(s)")
    Configuration.model_validate(entry)


def test_published_column_is_not_a_neuron_run() -> None:
    scores = parse_scores(_read("qwen3-embedding-8b.md"))
    assert {s.label for s in scores} == {"Neuron (BF16)", "Published"}
    assert scores[0].benchmark == "STS12 (Spearman)" and scores[0].value == 86.39
    entries, skipped = recipe_entries("qwen3-embedding-8b.md", _read("qwen3-embedding-8b.md"), COMMIT, RELEASES)
    assert [e["checkpoint"] for e in entries] == ["Qwen/Qwen3-Embedding-8B"] and skipped == []


def test_unmapped_label_and_page_without_scores_are_not_recorded() -> None:
    text = _read("gpt-oss.md").replace("gpt-oss-120b (MXFP4)", "gpt-oss-20b (MXFP4)")
    entries, skipped = recipe_entries("gpt-oss.md", text, COMMIT, RELEASES)
    assert entries == [] and skipped[0]["path"].endswith("gpt-oss.md (gpt-oss-20b (MXFP4))")
    assert recipe_entries("x.md", "# Title\n", COMMIT, RELEASES) == (
        [], [{"path": "vllm-neuron/docs/model-recipes/x.md",
              "reason": "no score table under '## Accuracy Evaluation'"}])
