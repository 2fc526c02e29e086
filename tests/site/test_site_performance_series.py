"""Performance series on the site, in process on a small registry (tests/check/registry plus one made-up series):
the family and checkpoint pages draw each series as a table and an inline SVG chart (no script, registry text
escaped), and a release page lists what moved by 10% or more against the release before, citing both sources."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages import checkpoints, families, releases
from neuron_compat.site.performance_charts import sparkline

ROOT = Path(__file__).resolve().parents[2]
SERIES = """source: series-test
description: One configuration measured at three releases (made up for the tests).
configurations:
""" + "".join(f"""  - id: llama-series-{release.replace('.', '-')}
    family: llama
    checkpoint: meta-llama/Llama-3.1-8B
    hub_id: meta-llama/Llama-3.1-8B
    stack: optimum-neuron
    release: "{release}"
    instance: trn1.32xlarge
    parallelism: {{tensor: 32}}
    batch_size: 4
    setting: "throughput optimized; <b>bold</b> run"
    outcome: compiled-and-ran
    measurements:
      - {{metric: throughput, value: {value}, unit: tokens/s}}
    validated: 2026-11-0{index + 1}
    source: {{url: "https://github.com/aws-neuron/aws-neuron-sdk/issues/{10 + index}"}}
    evidence: user-report
""" for index, (release, value) in enumerate([("2.20.0", 100), ("2.21.0", 125), ("2.22.0", 120)]))


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    target = tmp_path_factory.mktemp("series") / "registry"
    shutil.copytree(ROOT / "tests" / "check" / "registry", target)
    (target / "configurations").mkdir()
    (target / "configurations" / "series-test.yaml").write_text(SERIES.replace("<b>bold</b>", "bold"),
                                                                encoding="utf-8")
    result = validate_registry(target)
    assert result.problems == [], [p.format() for p in result.problems]
    return result.registry


def test_the_family_page_shows_the_series_table_and_an_inline_svg(registry) -> None:  # type: ignore[no-untyped-def]
    page = families.render(registry)["families/llama.md"]
    assert "Performance over releases (1 series)" in page
    section = page[page.index('<div class="nc-series">'):]
    section = section[:section.index("</div>")]
    assert "meta-llama/Llama-3.1-8B, optimum-neuron, trn1.32xlarge, TP=32, batch 4" in section
    assert "<svg" in section and "<script" not in section and "<polyline" in section
    assert [cell for cell in ("<td>2.20.0</td>", "<td>100</td>", "<td>125</td>", "<td>120</td>") if cell not in section] == []
    assert "https://github.com/aws-neuron/aws-neuron-sdk/issues/12" in section
    assert "+20.0% first to last" in section


def test_the_checkpoint_page_shows_its_series(registry) -> None:  # type: ignore[no-untyped-def]
    pages = checkpoints.render(registry)
    page = pages["checkpoints/meta-llama/Llama-3.1-8B/index.md"]
    assert "## Performance over releases" in page and page.count("<svg") == 1


def test_a_release_page_lists_a_move_of_ten_percent_with_both_sources(registry) -> None:  # type: ignore[no-untyped-def]
    pages = releases.render(registry, releases.all_release_changes(registry))
    moved = pages["releases/2.21.0.md"] if "releases/2.21.0.md" in pages else next(
        text for name, text in pages.items() if "2.21.0" in name)
    section = moved[moved.index("{ #moved }"):moved.index("{ #known-issues }")]
    assert "+25.0%" in section and "100 at 2.20.0" in section
    assert "issues/10" in section and "issues/11" in section
    quiet = next(text for name, text in pages.items() if "2.22.0" in name)
    assert "No measured configuration moved by 10% or more" in quiet  # -4%: under the threshold


def test_the_chart_escapes_its_label_and_draws_a_flat_series() -> None:
    svg = str(sparkline([5.0, 5.0], "a <b> & c"))
    assert "<title>a &lt;b&gt; &amp; c</title>" in svg and "nan" not in svg
    assert svg.count("<circle") == 2
