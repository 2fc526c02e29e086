"""The site says which data version it was built from and marks claims that may be stale (issue 7).

Render tests run the pure generator on temporary registry copies; build and browser tests use the real
`mkdocs build --strict` output (the footer comes from the theme override, not from the generator).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from site_helpers import BASE_REGISTRY, OLD_VERIFIED, SITE_DATA_VERSION

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site import render_site
from neuron_compat.site.freshness import STALE_AFTER_RELEASES, Freshness

STALE_ANCHOR = "nxd-inference-inference--trn2--2-21-0"


def load(root: Path):
    result = validate_registry(root)
    assert not result.problems, [p.format() for p in result.problems]
    return result.registry


@pytest.fixture(scope="module")
def fresh(site_registry: Path):
    return load(site_registry)


@pytest.fixture(scope="module")
def stale(stale_registry: Path):
    return load(stale_registry)


def statement_html(page: str, anchor: str) -> str:
    """The HTML of one statement block of a family page (from its opening div to the next statement)."""
    start = page.index(f'id="{anchor}"')
    start = page.rindex("<div", 0, start)
    end = page.find('<div class="nc-statement ', start + 1)
    return page[start:end if end > 0 else len(page)]


def test_data_version_on_family_pages_api_page_and_json(fresh) -> None:
    site = render_site(fresh)
    page = site.files["families/qwen3.md"]
    assert f"Data version {SITE_DATA_VERSION}" in page  # page head
    # Beside each stack x workload permalink, so a copied link comes with the version it points at.
    links = re.findall(r'<p class="nc-group-links"[^>]*>.*?</p>', page)
    assert links and all(f"data version {SITE_DATA_VERSION}" in line for line in links)
    assert f"data version <strong class=\"nc-data-version\">{SITE_DATA_VERSION}</strong>" in site.fragments["api-endpoints"]
    assert SITE_DATA_VERSION in site.fragments["home"]
    for path in ("api/registry.json", "api/families/qwen3.json", "api/families/llama.json", "api/matrix.json"):
        assert json.loads(site.files[path])["data_version"] == SITE_DATA_VERSION, path


def test_registry_without_registry_yaml_shows_no_version(tmp_path: Path) -> None:
    registry = load(BASE_REGISTRY)
    assert registry.meta is None
    site = render_site(registry)
    assert "Data version" not in site.files["families/llama.md"]
    assert "data version" not in site.files["families/llama.md"]
    assert json.loads(site.files["api/families/llama.json"])["data_version"] is None
    assert "carry no data version" in site.fragments["api-endpoints"]


def test_cutoff_is_the_date_of_a_release_not_the_clock(stale) -> None:
    freshness = Freshness.of(stale)
    dates = sorted((r.date for r in stale.releases), reverse=True)
    assert freshness.cutoff == dates[min(STALE_AFTER_RELEASES, len(dates)) - 1]
    # The fixture has 3 releases, fewer than the policy's 6: the oldest release is the cutoff, and the text says so.
    assert freshness.cutoff.isoformat() == "2024-09-16"
    assert freshness.cutoff_text == "2024-09-16 (Neuron 2.20.0, the oldest release: the registry has fewer than 6)"


def test_stale_statement_is_marked_and_only_it(stale, fresh) -> None:
    page = render_site(stale).files["families/qwen3.md"]
    marked = statement_html(page, STALE_ANCHOR)
    assert f"verified {OLD_VERIFIED}: may be stale" in marked
    assert "nc-statement--stale" in marked
    assert page.count(": may be stale</span>") == 1
    for other in ("nxd-inference-inference--inf2--2-22-0", "optimum-neuron-training--trn1--all"):
        assert "may be stale" not in statement_html(page, other), other
    # The page states the rule once, at the top.
    assert "1 statement below is marked." in page
    assert "last verified before 2024-09-16 (Neuron 2.20.0" in page
    # Nothing is stale in the fresh copy.
    fresh_page = render_site(fresh).files["families/qwen3.md"]
    assert "may be stale" not in fresh_page and "nc-statement--stale" not in fresh_page


def test_matrix_data_flags_stale_statements_and_rows(stale) -> None:
    files = render_site(stale).files
    data = json.loads(files["api/matrix.json"])
    assert data["stale_before"] == "2024-09-16"
    flagged = [(data["rows"][s["row"]], s["hardware"]) for s in data["statements"] if s["stale"]]
    assert flagged == [(["qwen3", "nxd-inference", "inference"], ["trn2"])]
    assert data["families"]["qwen3"]["url"] == "families/qwen3/"
    assert "qwen3forcausallm" in data["families"]["qwen3"]["text"]
    assert '<tr class="nc-row' not in files["matrix.md"]  # rows are drawn in the browser from the JSON
    assert 'data-nc-filter="stale"' in files["matrix.md"]


def test_home_counts_stale_and_unknown_shares(stale) -> None:
    home = render_site(stale).fragments["home"]
    statements = sum(len(f.support) for f in stale.families)
    unknown = sum(1 for f in stale.families for s in f.support if str(s.status) == "unknown")
    assert (statements, unknown) == (8, 1)
    assert f"<strong>1 of {statements}</strong> statement" in home
    assert "last verified before 2024-09-16 (Neuron 2.20.0" in home
    assert f"{unknown} of {statements} say “unknown”" in home
    assert re.search(r'data-nc-stat="stale">12%<', home)
    assert re.search(r'data-nc-stat="unknown">12%<', home)


def test_footer_of_every_built_page_names_the_data_version(built_site: Path) -> None:
    # Every page but the redirects of renamed family ids (bare forwarding pages without a theme).
    pages = [p for p in built_site.rglob("index.html") if 'http-equiv="refresh"' not in p.read_text(encoding="utf-8")]
    assert len(pages) > 10
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert f'data-nc-data-version="{SITE_DATA_VERSION}"' in text, path.relative_to(built_site)
    # The theme override folder is template input, never output.
    assert not list(built_site.rglob("copyright.html"))
    assert not (built_site / "partials").exists()


def test_builds_stay_byte_identical_with_stale_marks(stale_registry: Path, stale_site: Path, tmp_path: Path) -> None:
    from site_helpers import build_site

    again = tmp_path / "again"
    result = build_site(stale_registry, again)
    assert result.returncode == 0, result.stderr
    first = {p.relative_to(stale_site): p.read_bytes() for p in stale_site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_browser_footer_badge_and_only_stale_filter(site_page, serve, stale_site: Path, artifacts: Path) -> None:
    page = site_page
    base = serve(stale_site)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + f"families/qwen3/#{STALE_ANCHOR}")  # the permalink opens the fold the statement is in
    footer = page.locator("footer .nc-footer-version")
    assert footer.is_visible()
    assert footer.inner_text().startswith(f"Data version {SITE_DATA_VERSION}")
    badge = page.locator(f"#{STALE_ANCHOR} .nc-stale")
    assert badge.is_visible() and badge.inner_text() == f"verified {OLD_VERIFIED}: may be stale"
    assert page.locator(".nc-statement .nc-stale").count() == 1
    page.screenshot(path=str(artifacts / "site-family-stale.png"), full_page=True)

    page.goto(base + "matrix/")
    page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
    total = page.locator("tr.nc-row:visible").count()
    page.locator('[data-nc-filter="stale"]').check()
    visible = page.locator("tr.nc-row:visible")
    assert visible.count() == 1 < total
    assert visible.first.get_attribute("data-family") == "qwen3"
    assert "stale=1" in page.url
    page.screenshot(path=str(artifacts / "site-matrix-stale.png"), full_page=True)
    # Another release is drawn from api/matrix.json: the flag must survive the redraw.
    page.select_option('[data-nc-filter="release"]', "2.21.0")
    page.wait_for_function("document.querySelector('[data-nc-release]').textContent === '2.21.0'")
    assert page.locator("tr.nc-row:visible").count() == 1
    page.select_option('[data-nc-filter="release"]', "2.20.0")
    page.wait_for_function("document.querySelector('[data-nc-release]').textContent === '2.20.0'")
    assert page.locator("tr.nc-row:visible").count() == 0  # the stale claim holds since 2.21.0
    assert errors == []


def test_stack_advice_warns_of_exactly_the_claims_marked_stale(stale, fresh) -> None:
    # One policy (freshness.py) for the 'may be stale' marks and the "Which stack to pick" caution: the stale
    # claim (verified 2024-06-01, under a year before the newest release but before the cutoff) gets both.
    page = render_site(stale).files["families/qwen3.md"]
    summary = page[page.index('{ #summary }'):page.index('{ #identifiers }')]
    assert "Sources for NxD Inference were last verified before 2024-09-16 (Neuron 2.20.0" in summary
    fresh_page = render_site(fresh).files["families/qwen3.md"]
    assert "were last verified before" not in fresh_page[fresh_page.index('{ #summary }'):]
