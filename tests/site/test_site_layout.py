"""Pages a newcomer can read, measured in a real chromium at 1280 and 390 px on the site-test registry's site.

One site build (the session's `built_site`) and one browser (the session's chromium) for the module. Every page
type is visited: home, check, families index, each family page of FAMILY_SAMPLE that the build has (the site-test
registry has four; with NEURON_COMPAT_SITE_REGISTRY=registry the same fixed sample of the real registry's pages),
matrix, tested configurations, releases index and one release, coverage, stacks, instances, contributing, schema
reference, glossary and API. On each: no table is wider than its column, and no request leaves 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from loopback import new_loopback_context
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

FAMILY_SAMPLE = ("qwen3", "llama", "bert", "custom-phi", "mixtral", "flux")
"""A fixed sample of family pages (those the build has): four in the site-test registry, six in the real one."""

FIXED_PAGES = ("", "check/", "families/", "matrix/", "configurations/", "releases/", "coverage/", "stacks/",
               "instances/", "contributing/", "schema/", "glossary/", "api/")
WIDTHS = (1280, 390)


def page_types(site: Path) -> list[str]:
    families = [f"families/{f}/" for f in FAMILY_SAMPLE if (site / "families" / f / "index.html").is_file()]
    releases = sorted(p.parent.name for p in (site / "releases").glob("*/index.html"))
    assert len(families) >= 4 and releases, "the site-test registry lost its families or releases"
    return [*FIXED_PAGES, *families, f"releases/{releases[-1]}/"]


OVERFLOWS = """() => {
  const column = document.querySelector("article.md-content__inner");
  const right = column.getBoundingClientRect().right + 1;
  const out = [];
  for (const table of column.querySelectorAll("table")) {
    if (!table.offsetParent) continue;  // folded away or hidden
    const box = table.getBoundingClientRect();
    const scrolls = table.scrollWidth > table.clientWidth + 1;
    if (box.right > right || scrolls) {
      out.push(`${table.className || "table"} (${Math.round(box.width)} px, content ${table.scrollWidth} px, `
               + `column ends at ${Math.round(right)}): ${table.innerText.slice(0, 60).replace(/\\s+/g, " ")}`);
    }
  }
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) {
    out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
  }
  return out;
}"""

BROKEN_IDENTIFIERS = """() => {
  // an identifier (code, or an instance name cell) drawn on more than one line: broken inside a word
  const out = [];
  for (const el of document.querySelectorAll("article table code, article tr[data-instance] > td:first-child")) {
    if (!el.offsetParent || el.textContent.includes(" ")) continue;
    const rects = el.getClientRects();
    if (rects.length > 1 && el.textContent.length < 40) out.push(el.textContent);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def base(serve, built_site: Path) -> str:
    return serve(built_site)


def loopback_at(chromium, width: int, outside: list[str]):
    """A context `width` px wide that records (and aborts) every request leaving 127.0.0.1 in `outside`."""
    return new_loopback_context(chromium, width=width, height=800, outside=outside)


def load(page, url: str, open_all: bool = False) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if "/matrix/" in url:
        page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
    if open_all:
        page.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")
        page.wait_for_timeout(150)  # the toggle events re-fit the tables inside


def visit(chromium, width: int, url: str, outside: list[str], open_all: bool = False):
    context = loopback_at(chromium, width, outside)
    page = context.new_page()
    load(page, url, open_all)
    return context, page


@pytest.mark.parametrize("width", WIDTHS)
def test_no_table_is_wider_than_its_column_and_no_third_party_request(chromium, base: str, built_site: Path,
                                                                       width: int) -> None:
    problems: dict[str, list[str]] = {}
    outside: list[str] = []
    context = loopback_at(chromium, width, outside)  # one context (and page) for every page type at this width
    try:
        page = context.new_page()
        for path in page_types(built_site):
            load(page, base + path, open_all=True)
            try:  # the folds just opened re-fit their tables in toggle events: on a busy machine that takes a while
                page.wait_for_function(f"({OVERFLOWS})().length === 0", timeout=5000)
            except PlaywrightTimeout:
                pass  # reported below
            found = page.evaluate(OVERFLOWS) + [f"broken identifier: {t}" for t in page.evaluate(BROKEN_IDENTIFIERS)]
            if found:
                problems[path or "home"] = found
    finally:
        context.close()
    assert problems == {}, f"at {width} px"
    assert outside == [], "requests to a third party on page load"


def test_a_family_page_opens_on_the_answer_with_the_evidence_folded(chromium, base: str, built_site: Path) -> None:
    outside: list[str] = []
    families = [p for p in page_types(built_site) if p.startswith("families/") and p != "families/"]
    context = loopback_at(chromium, 1280, outside)
    try:
        page = context.new_page()
        for path in families:
            load(page, base + path)
            answer = page.locator(".nc-summary")
            assert answer.count() == 1, path
            top = answer.evaluate("el => el.getBoundingClientRect().top + scrollY")
            assert top < 800, f"{path}: the answer starts at {top} px"
            # what comes first in the article is the answer: no statement card or table before it
            first = page.evaluate("() => document.querySelector('article h2').id")
            assert first == "summary", path
            folds = page.locator("details.nc-fold")
            assert folds.count() >= 1, path
            assert page.evaluate("() => [...document.querySelectorAll('details.nc-fold')].every(d => !d.open)"), path
    finally:
        context.close()


def test_a_permalink_or_a_search_hit_opens_the_fold_it_lands_in(chromium, base: str) -> None:
    outside: list[str] = []
    context, page = visit(chromium, 1280, base + "families/qwen3/#nxd-inference-inference--trn2--2-21-0", outside)
    try:
        card = page.locator("#nxd-inference-inference--trn2--2-21-0")
        assert card.is_visible()
        assert page.evaluate("() => document.querySelector('details[data-nc-fold=nxd-inference-inference]').open")
        assert not page.evaluate("() => document.querySelector('details[data-nc-fold=tested]').open")
        # a link in the page (the overview's stack link) opens its fold too
        page.goto(base + "families/qwen3/")
        page.locator(".nc-scroll a[href='#optimum-neuron-training']").first.click()
        assert page.locator("#optimum-neuron-training").is_visible()
    finally:
        context.close()
    context, page = visit(chromium, 1280, base + "families/qwen3/?h=Qwen%2FQwen3-0.6B", outside)
    try:
        assert page.evaluate("() => document.querySelector('details[data-nc-fold=tested]').open")
    finally:
        context.close()


def test_the_matrix_opens_on_rows_with_a_statement(chromium, base: str) -> None:
    outside: list[str] = []
    context, page = visit(chromium, 1280, base + "matrix/", outside)
    try:
        # the default view is "today": each row is the answer a stack's statement gives; "–" is no stack at all
        stacks = page.eval_on_selector_all("tr.nc-row td:nth-child(2)", "cells => cells.map(c => c.textContent)")
        assert stacks and "–" not in stacks
        with_statement = int(page.text_content("[data-nc-count]") or "0")
        assert page.locator("input[name=with_data]").is_checked()
        assert "with_data" not in page.url  # the default is not written into the URL
        page.uncheck("input[name=with_data]")
        assert "with_data=0" in page.url
        assert int(page.text_content("[data-nc-count]") or "0") > with_statement
        page.select_option("select[name=release]", index=1)  # a release: rows with no statement there say so
        page.wait_for_function("() => document.querySelector('[data-nc-release]').textContent !== 'today (what you can install)'")
        assert "none" in page.eval_on_selector_all("tr.nc-row", "rows => rows.map(r => r.dataset.status)")
    finally:
        context.close()
    context, page = visit(chromium, 1280, base + "matrix/?with_data=0", outside)
    try:
        assert not page.locator("input[name=with_data]").is_checked()
    finally:
        context.close()


def test_a_narrow_table_reads_as_labelled_rows(chromium, base: str) -> None:
    outside: list[str] = []
    context, page = visit(chromium, 390, base + "instances/", outside)
    try:
        stacked = page.locator("table.nc-stacked").first
        assert stacked.count() == 1
        label = stacked.locator("td[data-label]").nth(1)
        before = label.evaluate("el => getComputedStyle(el, '::before').content")
        assert before.startswith('"') and before.endswith(': "'), before
    finally:
        context.close()
