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
        verdict = json.loads(page.locator("#nc-check-result details pre").text_content())
        shown = [(r["workload"], r["hardware"], r["stack"] or "", r["status"]) for r in verdict["recommendations"]]
        assert shown == answers, family_id
        assert verdict["status"] == (status if status != "none" else "unknown"), family_id
