"""The same documentation tree built by both engines: mkdocs-material (the reference) and Zensical.

`neuron-compat site --out` writes the tree; each engine builds it as plain files (Zensical runs no hooks).
Both must give the same set of pages with the same main content, and Zensical's built-in search must find
a family by the names people type.
"""

from __future__ import annotations

import importlib.util
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from site_helpers import write_tree, zensical_build

pytestmark = pytest.mark.slow

COMPARED_PAGES = ("index.html", "families/index.html", "families/qwen3/index.html", "families/custom-phi/index.html",
                  "matrix/index.html", "releases/2.22.0/index.html", "coverage/index.html", "stacks/index.html",
                  "api/index.html")


class _ArticleText(HTMLParser):
    """The visible text of <article> (the page's main content), scripts, styles and icons left out."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.skipping = 0
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.depth += tag == "article"
        self.skipping += bool(self.depth) and tag in ("script", "style", "svg")

    def handle_endtag(self, tag: str) -> None:
        self.skipping -= bool(self.depth) and tag in ("script", "style", "svg")
        self.depth -= tag == "article"

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skipping:
            self.words.extend(data.split())


def article_text(path: Path) -> list[str]:
    parser = _ArticleText()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.words


def pages(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*.html")}


@pytest.fixture(scope="module")
def zensical_site(site_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("zensical") is None:
        pytest.fail("zensical is not installed: it is in the test extra (pip install -e '.[test]')")
    project = tmp_path_factory.mktemp("zensical")
    written = write_tree(site_registry, project / "docs")
    assert written.returncode == 0, written.stderr
    result, site = zensical_build(project / "docs", project)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return site


def test_both_engines_build_the_same_pages_with_the_same_main_content(built_site: Path, zensical_site: Path) -> None:
    assert pages(zensical_site) == pages(built_site)
    for page in COMPARED_PAGES:
        assert article_text(zensical_site / page) == article_text(built_site / page), page
    for data in ("api/registry.json", "api/matrix.json", "api/families/qwen3.json", "releases/feed.xml",
                 "api/feeds/qwen3.xml", "api/badges/qwen3/nxd-inference-inference.json"):
        assert (zensical_site / data).read_bytes() == (built_site / data).read_bytes(), data


def test_the_theme_overrides_work_on_both_engines(built_site: Path, zensical_site: Path) -> None:
    for site in (built_site, zensical_site):
        family = (site / "families/qwen3/index.html").read_text(encoding="utf-8")
        assert 'data-nc-data-version="2026.11.3"' in family
        assert ('<a href="https://github.com/neuron-compat/neuron-compat/edit/main/registry/families/qwen3.yaml" '
                'title="Edit this page"') in family
        assert 'rel="alternate feed" type="application/atom+xml"' in family and 'href="../../api/feeds/qwen3.xml"' in family
        assert 'title="Edit this page"' not in (site / "matrix/index.html").read_text(encoding="utf-8")


def test_zensical_search_index_holds_the_names_people_type(zensical_site: Path) -> None:
    index = json.loads((zensical_site / "search.json").read_text(encoding="utf-8"))
    text = " ".join(item["text"] for item in index["items"] if item["location"].startswith("families/qwen3/"))
    for term in ("Qwen3ForCausalLM", "qwen3", "Qwen/Qwen3-8B"):
        assert term in text, term


@pytest.mark.browser
def test_zensical_search_reaches_the_family_page(site_page, serve, zensical_site: Path) -> None:
    """Zensical's search is its own dialog, drawn in a shadow root (Playwright's CSS locators go into it)."""
    page = site_page
    page.goto(serve(zensical_site))
    page.locator(".md-search__button").click()
    box = page.locator("input[role=combobox]")
    box.fill("Qwen3ForCausalLM")
    box.press("End")
    first = page.locator("ol li a[href*='?h=']").first
    first.wait_for(timeout=10000)
    assert "families/qwen3/" in (first.get_attribute("href") or "")
    first.click()
    page.wait_for_url("**/families/qwen3/**")
