"""What a first-time visitor hit (issue 23), in a real chromium at 1280 px and 390 px: each test failed before
its fix. They share the session's site build and browser (conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_helpers import REPO

pytestmark = pytest.mark.browser



def test_no_page_asks_for_a_file_that_is_not_there(site_page, serve, built_site: Path) -> None:
    """The Atom links in every head were taken for language versions: a sitemap.xml was fetched beside each."""
    page = site_page
    base = serve(built_site)
    missing: list[str] = []
    page.on("response", lambda response: missing.append(response.url) if response.status >= 400 else None)
    for path in ("", "families/qwen3/", "releases/", "matrix/"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    assert missing == []


def open_matrix(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".nc-matrix.nc-ready", state="attached")


def test_the_matrix_opens_on_rows_with_a_statement_and_hides_show_more_when_nothing_is_left(
        site_page, serve, built_site: Path) -> None:
    page = site_page
    open_matrix(page, serve(built_site) + "matrix/?release=2.22.0&with_data=0")
    statuses = page.eval_on_selector_all("tr.nc-row", "rows => rows.map(r => r.dataset.status)")
    assert "none" in statuses and statuses[0] != "none"
    first_none = statuses.index("none")
    assert all(status == "none" for status in statuses[first_none:]), statuses
    more = page.locator("[data-nc-more]")
    assert not more.is_visible(), more.inner_text()  # every row is drawn: no "Show 0 more"
    page.select_option("select[name=status]", "partial")
    assert not more.is_visible(), more.inner_text()


def _fits(page, selector: str) -> list[str]:
    """The cells of `selector` whose right edge is past the viewport or that clip their own text."""
    return page.evaluate("""selector => [...document.querySelectorAll(selector)].filter(cell => {
        const box = cell.getBoundingClientRect();
        return box.right > document.documentElement.clientWidth + 1 || cell.scrollWidth > cell.clientWidth + 1;
    }).map(cell => cell.textContent.trim())""", selector)


def test_tables_fit_a_1280_screen_and_the_matrix_a_390_phone(chromium, serve, built_site: Path) -> None:
    base = serve(built_site)
    wide = chromium.new_context(viewport={"width": 1280, "height": 900})
    phone = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = wide.new_page()
        for path in ("coverage/", "stacks/", "matrix/"):
            page.goto(base + path)
            page.wait_for_load_state("load")
            if path == "matrix/":
                page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
            assert _fits(page, "article table th:last-child, article table td:last-child") == [], path
        page = phone.new_page()
        open_matrix(page, base + "matrix/?with_data=0")
        assert page.locator("tr.nc-row td:nth-child(4)").first.is_visible()
        assert _fits(page, "tr.nc-row td:nth-child(4)") == []
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    finally:
        wide.close()
        phone.close()


def test_the_readme_gives_the_address_mkdocs_serve_answers_on() -> None:
    site_url = re.search(r'site_url: !ENV \[SITE_URL, "([^"]+)"\]', (REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert site_url
    path = re.sub(r"^https://[^/]+", "", site_url.group(1))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"http://127.0.0.1:8000{path}" in readme
    assert not re.search(r"http://127\.0\.0\.1:8000/?[\s)`]", readme)  # never the bare address


def test_stack_capability_sources_are_listed_once_each_under_a_name_of_their_own(site_page, serve, built_site: Path) -> None:
    """They were all labelled with their host: a list of identical "huggingface.co" (on the real site
    "github.com") links."""
    page = site_page
    page.goto(serve(built_site) + "families/llama/")
    rows = page.locator("tr:has(th:has-text('Stack capability'))")
    assert rows.count() > 0
    lists = [rows.nth(n).locator("td a").evaluate_all("links => links.map(a => [a.href, a.textContent.trim()])")
             for n in range(rows.count())]
    overlapping = page.locator("#optimum-neuron-inference--inf2--2-20-0 tr:has(th:has-text('Stack capability')) td a")
    assert overlapping.count() == 2  # the statement overlaps both optimum-neuron ranges of the fixture
    for links in lists:
        hrefs, labels = [href for href, _ in links], [label for _, label in links]
        assert len(set(hrefs)) == len(hrefs) and len(set(labels)) == len(labels), links
        assert not [label for label in labels if re.fullmatch(r"[\w.-]+\.[a-z]+", label)], links
    assert "Optimum Neuron guide, exporting a model" in [label for links in lists for _, label in links]
