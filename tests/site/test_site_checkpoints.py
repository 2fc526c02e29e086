"""Tested configurations readable at 1280 and 390 px (every field inside the viewport, no sideways scrollbar) on the
configurations page, a family page and a checkpoint page; the checkpoint page of meta-llama/Llama-3.1-8B-Instruct
with its measurements and its family's answer; the search finds it by its Hub id. Shares the session's site build."""

from __future__ import annotations

from pathlib import Path

import pytest
from site_helpers import REPOSITORY_INSTANCES

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not REPOSITORY_INSTANCES.exists(), reason="the site fixture's configurations need "
                                 "registry/instances.yaml")]

CHECKPOINT = "checkpoints/meta-llama/Llama-3.1-8B-Instruct/"
OUTSIDE = """(selector) => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.left < -1 || box.right > width + 1) out.push((el.getAttribute('data-label') || el.tagName) + ' ' +
        Math.round(box.left) + '..' + Math.round(box.right) + ' of ' + width);
  }
  return out;
}"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize(("path", "cells", "ready"), [
    ("configurations/", "[data-nc-crows] td", "document.querySelectorAll('[data-nc-crows] tr').length > 0"),
    ("families/llama/", ".nc-card dt, .nc-card dd", "true"),
    (CHECKPOINT, ".nc-card dt, .nc-card dd", "true"),
])
def test_every_field_is_within_the_viewport(site_page, serve, built_site: Path, width: int, path: str, cells: str,
                                            ready: str) -> None:
    page = site_page
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(serve(built_site) + path)
    page.wait_for_function(ready)
    assert page.locator(cells).count() > 0
    assert page.evaluate(OUTSIDE, cells) == []
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")


def test_checkpoint_page_has_its_measurements_answer_and_family(site_page, serve, built_site: Path) -> None:
    page = site_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve(built_site) + CHECKPOINT)
    assert page.locator("h1").first.inner_text().startswith("meta-llama/Llama-3.1-8B-Instruct")
    card = page.locator("#cfg-llama-trn1-mid")
    assert "45 tokens/s" in card.inner_text()
    assert page.locator("#answer").count() == 1 and page.locator("table").first.is_visible()
    page.locator("a", has_text="Llama").first.click()
    page.wait_for_url("**/families/llama/**")
    page.locator("a[data-nc-checkpoint]", has_text="meta-llama/Llama-3.1-8B").first.click()  # an example, to its page
    page.wait_for_url("**/checkpoints/meta-llama/Llama-3.1-8B/")


def test_search_finds_the_checkpoint_page_by_its_hub_id(site_page, serve, built_site: Path) -> None:
    page = site_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve(built_site))
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("meta-llama/Llama-3.1-8B-Instruct")
    box.press("End")
    page.locator(".md-search-result__item").first.wait_for(timeout=10000)
    hrefs = page.eval_on_selector_all(".md-search-result__item > a", "links => links.map(a => a.href)")
    assert any(CHECKPOINT in href for href in hrefs), hrefs
