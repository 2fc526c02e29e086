"""One page per checkpoint across a Hub rename: the current name's page lists the runs recorded under either name
and says the old name; the old name's folder forwards to it. Rendered in this process from the real registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.loading.loader import load_registry
from neuron_compat.site.pages import checkpoints

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return checkpoints.render(load_registry(ROOT / "registry").registry)


def test_the_old_name_forwards_to_the_current_page(pages: dict[str, str]) -> None:
    assert "checkpoints/meta-llama/Meta-Llama-3.1-8B-Instruct/index.md" not in pages
    forward = pages["checkpoints/meta-llama/Meta-Llama-3.1-8B-Instruct/index.html"]
    assert 'http-equiv="refresh" content="0; url=../Llama-3.1-8B-Instruct/"' in forward


def test_the_current_page_lists_runs_under_both_names(pages: dict[str, str]) -> None:
    current = pages["checkpoints/meta-llama/Llama-3.1-8B-Instruct/index.md"]
    assert "Also named <code>meta-llama/Meta-Llama-3.1-8B-Instruct</code>" in current
    assert "vllm-results-dp4.csv" in current  # a run recorded under the old name (optimum-neuron benchmarks)


def test_a_documented_recipe_shows_its_command_and_the_errors_its_flags_avoid(pages: dict[str, str]) -> None:
    page = next(text for path, text in pages.items() if "Tongyi-DeepResearch-30B-A3B" in path)
    assert "vllm serve Alibaba-NLP/Tongyi-DeepResearch-30B-A3B --tensor-parallel-size 4 --enable-expert-parallel" in page
