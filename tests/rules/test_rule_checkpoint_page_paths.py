"""rules/checkpoint_page_paths.py: no two checkpoint ids with a page differ only in case; add-evidence asks the same
of `--hub-id` before it writes, and takes every valid id (96 + 1 + 96 characters at most, `org/index`, a bare id)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_in_process import run_in_process
from rule_helpers import replace_once, rule_problems

from neuron_compat.contract.hub_ids import REPO_ID_MAX_LENGTH

RULE = "checkpoint-page-paths"
LONGEST = "a" * 96 + "/" + "b" * 96


def test_a_second_spelling_that_differs_only_in_case_is_located_there(registry: Path) -> None:
    replace_once(registry / "families" / "bert.yaml", "model_types: [bert]\n",
                 "model_types: [bert]\nexamples: [org/x, META-LLAMA/llama-3.1-8b]\n")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:9:12: examples[0]: checkpoint 'meta-llama/Llama-3.1-8B' differs only in case "
        "from 'META-LLAMA/llama-3.1-8b' (families/bert.yaml examples[1]): `check` and the Hub take them as one repo, "
        "and the site would give them one page (write one spelling in both places, the one "
        "https://huggingface.co/META-LLAMA/llama-3.1-8b shows)"]


def test_ids_named_like_index_pages_pass(registry: Path) -> None:
    """`org`, `org/index`, `org/README` and `org/index.md` each have a page of their own: nothing to refuse."""
    replace_once(registry / "families" / "bert.yaml", "model_types: [bert]\n",
                 "model_types: [bert]\nexamples: [meta-llama, meta-llama/index, meta-llama/README, "
                 "meta-llama/index.md, index, README]\n")
    assert rule_problems(registry, RULE) == []


def _add(registry: Path, hub_id: str) -> object:
    return run_in_process(
        ["add-evidence", "configuration", "--registry", str(registry), "--family", "llama", "--checkpoint", "x",
         "--hub-id", hub_id, "--stack", "optimum-neuron", "--outcome", "compiled-and-ran", "--validated",
         "2025-01-01", "--url", "https://github.com/aws-neuron/aws-neuron-sdk/issues/1"], cwd=registry.parent)


def test_add_evidence_refuses_a_hub_id_that_differs_only_in_case_and_writes_nothing(registry: Path) -> None:
    result = _add(registry, "META-LLAMA/llama-3.1-8b")
    assert result.returncode == 1  # type: ignore[attr-defined]
    assert result.stderr.splitlines() == [  # type: ignore[attr-defined]
        "error: --hub-id META-LLAMA/llama-3.1-8b: differs only in case from 'meta-llama/Llama-3.1-8B' "
        "(families/llama.yaml examples[0]): `check` and the Hub take them as one repo, and the site would give them "
        "one page; write it as the Hub does (--hub-id meta-llama/Llama-3.1-8B if that is its spelling)"]
    assert not (registry / "configurations").exists()


@pytest.mark.parametrize("hub_id", [LONGEST, "gpt2", "org/index", "org/README"])
def test_add_evidence_takes_every_valid_hub_id_up_to_the_longest(registry: Path, hub_id: str) -> None:
    assert len(LONGEST) == REPO_ID_MAX_LENGTH
    result = _add(registry, hub_id)
    assert result.returncode == 0, result.stderr  # type: ignore[attr-defined]
    written = [p.read_text(encoding="utf-8") for p in (registry / "configurations").rglob("*.yaml")]
    assert len(written) == 1 and f"hub_id: {hub_id}\n" in written[0]
    assert rule_problems(registry, RULE) == []
