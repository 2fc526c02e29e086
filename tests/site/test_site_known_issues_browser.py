"""The known-issues page, the release pages' known-issues section and the header search for an error code, in a real
chromium, on a site built once for this module from the site-test registry plus three known issues."""

from __future__ import annotations

from pathlib import Path

import pytest
from site_helpers import build_site, make_registry

pytestmark = pytest.mark.browser

KNOWN_ISSUES = """issues:
  - id: ncc-eoom001
    title: "NCC_EOOM001: The combined memory needed for the model tensors exceeds the high-bandwidth memory limit"
    kind: error-code
    component: compiler
    match: {codes: [NCC_EOOM001], phrases: ["exceeds the high-bandwidth memory limit"]}
    stacks: [{stack: nxd-inference}, {stack: optimum-neuron}]
    description: The compiler stops because the model needs more device memory than one NeuronCore has.
    sources: [{url: "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/compiler/error-codes/EOOM001.html", kind: vendor-docs, verified: 2026-08-17}]
  - id: qwen3-batch
    title: Qwen3 only supports batch size 16 or more
    kind: known-issue
    component: nxd-inference
    stacks: [{stack: nxd-inference}]
    hardware: [trn2]
    families: [qwen3]
    description: Listed in the 2.21.0 notes only.
    listed_in: {first: "2.21.0", last: "2.21.0", not_listed_from: "2.22.0"}
    pin_release: "2.21.0"
    sources: [{url: "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/release-notes/components/nxd-inference.html", kind: release-notes, verified: 2026-08-17}]
  - id: optimum-fix
    title: Fixed an export crash in Optimum Neuron
    kind: bug-fix
    component: optimum
    stacks: [{stack: optimum-neuron}]
    hardware: [inf2]
    description: A fix named by the 2.22.0 notes.
    fixed_in: {release: "2.22.0"}
    sources: [{url: "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/release-notes/index.html", kind: release-notes, verified: 2026-08-17}]
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    registry = make_registry(tmp_path_factory.mktemp("ki-registry") / "registry")
    (registry / "known-issues").mkdir()
    (registry / "known-issues" / "curated.yaml").write_text(KNOWN_ISSUES, encoding="utf-8")
    output = tmp_path_factory.mktemp("ki-site") / "out"
    result = build_site(registry, output)
    assert result.returncode == 0, result.stderr
    return output


def _shown(page) -> list[str]:
    return page.eval_on_selector_all(".nc-known-issues .nc-issue:not([hidden])", "items => items.map(i => i.id)")


def test_filters_narrow_the_list_and_permalinks_land_on_the_entry(site_page, serve, site: Path) -> None:
    page = site_page
    base = serve(site)
    page.goto(base + "known-issues/")
    assert _shown(page) == ["issue-ncc-eoom001", "issue-qwen3-batch", "issue-optimum-fix"]
    page.select_option("select[name=stack]", "optimum-neuron")
    assert _shown(page) == ["issue-ncc-eoom001", "issue-optimum-fix"]
    page.select_option("select[name=stack]", "")
    page.select_option("select[name=hardware]", "trn2")
    assert _shown(page) == ["issue-ncc-eoom001", "issue-qwen3-batch"]  # an entry of any hardware stays
    page.select_option("select[name=hardware]", "")
    page.select_option("select[name=release]", "2.22.0")
    assert _shown(page) == ["issue-optimum-fix"]  # fixed in it (no longer listed is not fixed)
    page.select_option("select[name=release]", "2.21.0")
    assert _shown(page) == ["issue-qwen3-batch"]  # listed in it
    page.select_option("select[name=release]", "")
    page.select_option("select[name=component]", "compiler")
    assert _shown(page) == ["issue-ncc-eoom001"]
    assert "1 shown" in page.locator(".nc-ki-count").inner_text()
    page.goto(base + "known-issues/#issue-qwen3-batch")
    assert page.locator("#issue-qwen3-batch").is_visible()
    assert page.locator("#issue-qwen3-batch .nc-permalink").get_attribute("href") == "#issue-qwen3-batch"


def test_entries_are_folded_by_component_then_release_and_a_filter_opens_the_few_it_keeps(
        site_page, serve, site: Path) -> None:
    page = site_page
    page.goto(serve(site) + "known-issues/")
    folds = page.eval_on_selector_all(
        "details.nc-ki-group", "gs => gs.map(g => [g.dataset.ncKiComponent, g.open,"
        " [...g.querySelectorAll('details.nc-ki-release')].map(r => [r.dataset.ncKiRelease,"
        " [...r.querySelectorAll('.nc-issue')].map(i => i.id)])])")
    assert folds == [
        ["compiler", False, [["", ["issue-ncc-eoom001"]]]],
        ["nxd-inference", False, [["2.21.0", ["issue-qwen3-batch"]]]],
        ["optimum", False, [["2.22.0", ["issue-optimum-fix"]]]],
    ]
    assert not page.locator("#issue-qwen3-batch").is_visible()  # folded until asked for
    page.select_option("select[name=stack]", "nxd-inference")  # two entries: their folds open, the other hides
    assert page.locator("#issue-qwen3-batch").is_visible() and page.locator("#issue-ncc-eoom001").is_visible()
    assert page.locator("details[data-nc-ki-component=optimum]").is_hidden()
    assert page.locator("details[data-nc-ki-component=compiler] > summary").inner_text() == "compiler (1)"


def test_the_real_known_issues_page_is_short_and_every_entry_keeps_its_anchor(
        loopback_context, serve, real_site: Path) -> None:
    """706 entries fully expanded made the page about 198,000 px tall at 1280 px; folded, it scans."""
    import json

    page = loopback_context.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve(real_site) + "known-issues/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 20_000, height
    issues = json.loads((real_site / "api" / "known-issues.json").read_text(encoding="utf-8"))["issues"]
    ids = page.eval_on_selector_all(".nc-issue", "items => items.map(i => i.id)")
    assert sorted(ids) == sorted(f"issue-{issue['id']}" for issue in issues)
    last = issues[-1]["id"]
    page.goto(serve(real_site) + f"known-issues/#issue-{last}")
    page.locator(f"#issue-{last}").wait_for(state="visible")


def test_release_pages_list_what_was_known_and_fixed(site_page, serve, site: Path) -> None:
    page = site_page
    base = serve(site)
    page.goto(base + "releases/2.22.0/")
    fixed = page.locator(".nc-release-fixed li")
    assert fixed.count() == 1  # a known issue the 2.22.0 notes no longer list is not shown as fixed in it
    fixed.filter(has_text="Optimum Neuron").locator("a").click()
    page.wait_for_url("**/known-issues/#issue-optimum-fix")
    page.goto(base + "releases/2.21.0/")
    assert page.locator(".nc-release-known li").count() == 1
    assert "Qwen3 only supports" in page.locator(".nc-release-known").inner_text()


def test_the_header_search_finds_an_error_code(site_page, serve, site: Path) -> None:
    page = site_page
    base = serve(site)
    page.goto(base)
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("NCC_EOOM001")
    box.press("End")
    page.locator(".md-search-result__item").first.wait_for(timeout=10000)
    hrefs = page.eval_on_selector_all(".md-search-result__item > a", "links => links.map(a => a.href)")
    assert any("known-issues/" in href for href in hrefs[:3]), hrefs


def test_the_family_page_shows_its_issue_with_the_pin(site_page, serve, site: Path) -> None:
    page = site_page
    base = serve(site)
    page.goto(base + "families/qwen3/#issue-qwen3-batch")  # the permalink opens the fold the issue is in
    issue = page.locator("#issue-qwen3-batch")
    issue.wait_for(state="visible")
    text = issue.inner_text()
    assert "not listed in the notes from 2.22.0 on" in text and "recommends release 2.21.0" in text
    assert "fixed in" not in text
