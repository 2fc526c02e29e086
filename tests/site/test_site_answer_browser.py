"""The one answer in a real chromium: for five families of the real registry, the families index ("Answer today"),
the matrix's default view (today's answer, drawn from api/matrix.json), the family page's answer table and the
check page (a config of the family pasted) show what views.answer gives, per workload x hardware: the same stack
and status.

The site of the real registry is the session's `real_site` (conftest.py), built once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neuron_compat.loading.loader import load_registry
from neuron_compat.views.answer import best, family_answers

pytestmark = pytest.mark.browser

REGISTRY = Path(__file__).resolve().parents[2] / "registry"
FAMILIES = ("bert", "whisper", "mixtral", "llama", "qwen3")


@pytest.fixture(scope="module")
def registry() -> Any:
    result = load_registry(REGISTRY)
    assert result.problems == []
    return result.registry


@pytest.fixture(scope="module")
def expected(registry: Any) -> dict[str, tuple[str, list[tuple[str, str, str, str]]]]:
    """Per family: the best answer's status, and (workload, hardware, stack, status) per answer."""
    found = {}
    for family_id in FAMILIES:
        answers = family_answers(registry, registry.family_by_id[family_id])
        chosen = best(answers)
        found[family_id] = (chosen.status if chosen else "none",
                            [(a.workload, a.hardware, a.stack or "", a.status) for a in answers])
    return found


def test_the_five_families_answer_alike_on_the_index_the_matrix_and_their_page(
        site_page, serve, real_site: Path, expected: dict[str, Any]) -> None:
    page = site_page
    base = serve(real_site)
    page.goto(base + "families/")
    for family_id, (status, _) in expected.items():
        cell = page.locator(f'tr:has(> td > a[href="{family_id}/"]) td[data-status]')
        assert cell.get_attribute("data-status") == status, family_id

    for family_id, (_, answers) in expected.items():
        page.goto(base + f"families/{family_id}/")
        table = page.eval_on_selector_all(
            "tr[data-answer]", "rows => rows.map(r => [...r.dataset.answer.split('/'), r.dataset.stack,"
                               " r.dataset.status])")
        assert [tuple(row) for row in table] == answers, family_id

        # the matrix's default view, every row shown (with_data=0), narrowed to the family by its id
        page.goto(base + f"matrix/?q={family_id}&with_data=0")
        page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
        assert page.locator("select[name=release]").input_value() == "today"
        drawn = page.eval_on_selector_all(
            f"tr.nc-row[data-family='{family_id}'][data-role=answer]",
            "rows => rows.map(r => [r.dataset.workload, r.dataset.hardware, r.dataset.stack, r.dataset.status])")
        assert [tuple(row) for row in drawn] == answers, family_id
        # only rows with a statement (the default): the answers a stack's statement gives, none of "no stack says"
        page.goto(base + f"matrix/?q={family_id}&with_data=1")
        page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
        claimed = page.eval_on_selector_all(
            f"tr.nc-row[data-family='{family_id}'][data-role=answer]",
            "rows => rows.map(r => [r.dataset.workload, r.dataset.hardware, r.dataset.stack, r.dataset.status])")
        assert [tuple(row) for row in claimed] == [a for a in answers if a[2]], family_id


def test_the_check_page_gives_the_five_families_the_same_answers(
        site_page, serve, real_site: Path, registry: Any, expected: dict[str, Any]) -> None:
    from engine_build import pyodide_dir
    from test_surface_agreement import _config

    pyodide_dir()  # the page answers with its Python runtime, served from the site (skipped locally without it)
    page = site_page
    page.goto(serve(real_site) + "check/")
    page.wait_for_selector("#nc-check[data-ready=yes]", state="attached")
    for family_id, (status, answers) in expected.items():
        page.fill("#nc-check-config", json.dumps(_config(registry.family_by_id[family_id])))
        page.evaluate("document.getElementById('nc-check-result').removeAttribute('data-status')")
        page.click("#nc-check-run")
        page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", state="attached",
                               timeout=120_000)  # Python loads on the first answer
        verdict = json.loads(page.locator("#nc-check-result details.nc-check-json pre").text_content())
        shown = [(r["workload"], r["hardware"], r["stack"] or "", r["status"]) for r in verdict["recommendations"]]
        assert shown == answers, family_id
        assert verdict["status"] == (status if status != "none" else "unknown"), family_id


def test_the_matrix_default_view_shows_and_filters_dtypes_and_attention_of_claims_only(
        site_page, serve, real_site: Path, registry: Any) -> None:
    """Today's rows carry the dtypes and attention of the statements their claim rests on (the Dtype and Attention
    filters used to return 0 rows there), an answer no claim backs shows none, and the last column is named for
    what it holds."""
    from neuron_compat.site.pages.matrix import matrix_data

    today = matrix_data(registry)["today"]
    expected = sum(1 for t in today if t[4] in ("supported", "partial", "ended") and t[1] is not None)
    page = site_page
    base = serve(real_site)
    rows = []
    for family_id in (*FAMILIES, "afmoe"):  # every row of these families is drawn (a page holds 200 rows)
        page.goto(base + f"matrix/?q={family_id}&with_data=0")
        page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
        assert page.locator("[data-nc-last-column]").text_content() == "Install at (ended: last held)"
        rows += page.eval_on_selector_all(
            f"tr.nc-row[data-family='{family_id}']",
            "rows => rows.map(r => [r.dataset.family, r.dataset.stack, r.dataset.workload, r.dataset.hardware,"
            " r.dataset.status, r.dataset.dtype, r.dataset.attention])")
    assert {r[4] for r in rows} >= {"supported", "ended", "unknown"}  # afmoe: no stack claims it
    for family, stack, workload, hardware, status, dtype, attention in rows:
        if status not in ("supported", "partial", "ended"):
            assert dtype == "" and attention == "", (family, stack, workload, hardware, status)
    llama = [r for r in rows if r[0] == "llama" and r[1] == "nxd-inference" and r[3] == "trn2"]
    assert llama and llama[0][5].split() == ["bf16"]  # registry/families/llama.yaml's statement for NxD Inference

    for name, value in (("dtype", "bf16"), ("attention", "nki-flash")):
        page.goto(base + f"matrix/?{name}={value}&with_data=0")
        page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
        count = int(page.locator("[data-nc-count]").text_content())
        assert 0 < count <= expected, (name, count)
        drawn = page.eval_on_selector_all("tr.nc-row", f"rows => rows.map(r => r.dataset.{name})")
        assert drawn and all(value in d.split() for d in drawn), name

    page.goto(base + "matrix/?release=2.22.0")  # a release's view keeps its own column
    page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
    assert page.locator("[data-nc-last-column]").text_content() == "Since"
