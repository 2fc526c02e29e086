"""The tested-configurations page in a browser (filters and sorting, from api/configurations.json), its JSON,
and the family pages' Tested configurations and Known issues sections. Shares the session's site build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from site_helpers import REPOSITORY_INSTANCES

pytestmark = pytest.mark.skipif(not REPOSITORY_INSTANCES.exists(), reason="the site fixture's configurations need "
                                "registry/instances.yaml")


def _ids(page: object) -> list[str]:
    return page.eval_on_selector_all("[data-nc-crows] tr", "rows => rows.map(r => r.getAttribute('data-nc-id'))")  # type: ignore[attr-defined]


def _open(page: object, url: str) -> None:
    page.goto(url)  # type: ignore[attr-defined]
    page.wait_for_function("document.querySelectorAll('[data-nc-crows] tr').length > 0")  # type: ignore[attr-defined]


def test_configurations_json_lists_rows_with_sortable_values(built_site: Path) -> None:
    data = json.loads((built_site / "api" / "configurations.json").read_text(encoding="utf-8"))
    rows = {row["id"]: row for row in data["configurations"]}
    assert sorted(rows) == ["llama-trn1-mid", "llama-unmeasured", "qwen3-inf2-slow", "qwen3-trn1-fast"]
    assert rows["qwen3-trn1-fast"]["measured"]["ttft"][0]["sort"] == 500.0  # 0.5 s in ms
    assert rows["llama-unmeasured"]["measured"] == {} and rows["llama-unmeasured"]["release"] is None
    assert [m["id"] for m in data["metrics"]][:3] == ["token-matching", "accuracy", "throughput"]


def test_configurations_page_filters(site_page, serve, built_site: Path) -> None:
    page = site_page
    _open(page, serve(built_site) + "configurations/")
    assert len(_ids(page)) == 4
    page.select_option("select[name=family]", "qwen3")
    assert sorted(_ids(page)) == ["qwen3-inf2-slow", "qwen3-trn1-fast"]
    page.select_option("select[name=instance]", "trn1.32xlarge")
    assert _ids(page) == ["qwen3-trn1-fast"]
    page.select_option("select[name=family]", "")
    assert sorted(_ids(page)) == ["llama-trn1-mid", "qwen3-trn1-fast"]
    page.select_option("select[name=stack]", "optimum-neuron")
    assert _ids(page) == ["llama-trn1-mid"]
    page.select_option("select[name=stack]", "")
    page.select_option("select[name=instance]", "")
    page.select_option("select[name=release]", "2.21.0")
    assert sorted(_ids(page)) == ["llama-trn1-mid", "qwen3-inf2-slow"]
    page.select_option("select[name=dtype]", "fp16")
    assert _ids(page) == ["qwen3-inf2-slow"]
    page.select_option("select[name=dtype]", "")
    page.select_option("select[name=release]", "(unknown)")
    assert _ids(page) == ["llama-unmeasured"]
    assert page.locator("[data-nc-ccount]").inner_text() == "1"


def test_configurations_page_sorts_measured_columns(site_page, serve, built_site: Path) -> None:
    page = site_page
    _open(page, serve(built_site) + "configurations/")
    throughput = page.locator("button[data-nc-sort='m:throughput']")
    throughput.click()
    assert _ids(page) == ["qwen3-inf2-slow", "llama-trn1-mid", "qwen3-trn1-fast", "llama-unmeasured"]
    throughput.click()  # descending; the row without a value stays last
    assert _ids(page) == ["qwen3-trn1-fast", "llama-trn1-mid", "qwen3-inf2-slow", "llama-unmeasured"]
    assert throughput.evaluate("b => b.parentNode.getAttribute('aria-sort')") == "descending"
    page.locator("button[data-nc-sort='m:ttft']").click()  # 80 ms before 0.5 s: compared in one unit
    assert _ids(page)[:2] == ["qwen3-inf2-slow", "qwen3-trn1-fast"]
    cell = page.locator("tr[data-nc-id=qwen3-trn1-fast] td[data-nc-metric=throughput]")
    assert cell.inner_text() == "120.5 tokens/s"


def test_family_page_lists_its_configurations(built_site: Path) -> None:
    html = (built_site / "families" / "llama" / "index.html").read_text(encoding="utf-8")
    assert 'id="tested"' in html and 'id="cfg-llama-trn1-mid"' in html and "45 tokens/s" in html
    assert "not stated" in html and "its numbers are not recorded" in html
    bert = (built_site / "families" / "bert" / "index.html").read_text(encoding="utf-8")
    assert "No tested configuration of this family is recorded yet" in bert
