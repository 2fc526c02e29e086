"""Search that lands: in chromium, a query a visitor types puts the right page first in the header search.

One site build (the session's `built_site`, the site-test registry) and one browser for the module. QUERIES is a
list of (query, expected page): instance names, hardware generations, stack ids and names, family ids and
checkpoint ids of the site-test registry. Pages that other work adds (a checkpoint page, an error-code page) join
by adding their (query, page) here.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

QUERIES = [
    ("trn2", "instances/"),
    ("inf2", "instances/"),
    ("inf2.xlarge", "instances/"),
    ("trn2.48xlarge", "instances/"),
    ("nxd-inference", "stacks/"),
    ("NxD Inference", "stacks/"),
    ("optimum-neuron", "stacks/"),
    ("Optimum Neuron", "stacks/"),
    ("qwen3", "families/qwen3/"),
    ("Qwen/Qwen3-8B", "families/qwen3/"),
    ("bert", "families/bert/"),
]


def first_hit(page, base: str, query: str) -> str:
    page.goto(base)
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material's search listens to keyup
    page.locator(".md-search-result__item").first.wait_for(timeout=10000)
    page.wait_for_timeout(300)  # search-exact.js re-ranks once its index has loaded
    href = page.locator(".md-search-result__item > a").first.get_attribute("href")
    return urlsplit(href).path


def test_queries_put_the_right_page_first(site_page, serve, built_site: Path) -> None:
    base = serve(built_site)
    root = urlsplit(base).path
    missed = {}
    for query, expected in QUERIES:
        path = first_hit(site_page, base, query)
        if path != root + expected:
            missed[query] = f"{path} (expected {root + expected})"
    assert missed == {}
    assert len(QUERIES) >= 10
