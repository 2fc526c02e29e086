"""Accessibility of the built site (issue 27): axe-core's WCAG 2 A and AA rules on one page of every type, in the
light and the dark colour scheme (and at phone width, where tables scroll), and the matrix and the check page used
with the keyboard alone. They share the session's site build and browser (conftest.py).

axe-core is a test asset, vendored from the npm registry (`npm pack axe-core@4.14.1`, axe.min.js and its MPL-2.0
licence in tests/site/vendor/); it never ships with the site.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from engine_build import pyodide_dir
from site_helpers import REPO

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_VERSION = "4.14.1"

PAGES = {
    "home": "",
    "families index": "families/",
    "family (llama)": "families/llama/",
    "family (qwen3)": "families/qwen3/",
    "matrix": "matrix/",
    "release": "releases/2.22.0/",
    "releases index": "releases/",
    "coverage": "coverage/",
    "stacks": "stacks/",
    "instances": "instances/",
    "check": "check/",
    "API": "api/",
    "contributing": "contributing/",
    "schema reference": "schema/",
    "glossary": "glossary/",
    "tested configurations": "configurations/",
    "known issues": "known-issues/",
    "checkpoint": "checkpoints/meta-llama/Llama-3.1-8B-Instruct/",
    "not found (404)": "404.html",
}
"""One page of every type the site has; test_every_page_type_of_the_built_site_is_checked keeps this complete."""

MODES = {  # name: (colour scheme the browser prefers, the scheme Material must then apply, viewport width)
    "light": ("light", "default", 1300),
    "dark": ("dark", "slate", 1300),
    "phone": ("light", "default", 390),
}


def site_path_prefix() -> str:
    """The path of site_url's default in mkdocs.yml (e.g. 'neuron-compat/'): the 404 page links its assets from it,
    so the site is served under that path for these tests (every other page links relatively)."""
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    match = re.search(r'^site_url: !ENV \[SITE_URL, "https?://[^/"]+/([^"]*)"\]', config, re.MULTILINE)
    assert match, "mkdocs.yml: site_url is no longer `!ENV [SITE_URL, \"https://host/path/\"]`"
    return match.group(1)


@pytest.fixture(scope="module")
def site_base(serve: Callable[[Path], str], built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    prefix = site_path_prefix()
    root = tmp_path_factory.mktemp("a11y-root")
    if prefix:
        (root / prefix.rstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        (root / prefix.rstrip("/")).symlink_to(built_site, target_is_directory=True)
    else:
        root = built_site
    return serve(root) + prefix


def page_kind(relative: Path) -> str | None:
    """The page type of a built page (a path under the site, e.g. families/qwen3/index.html)."""
    parts = relative.parts
    if relative.name == "404.html":
        return "not found (404)"
    if relative.name != "index.html" or parts[0] in ("assets", "search"):
        return None
    folders = parts[:-1]
    if not folders:
        return "home"
    if folders[0] == "families":
        return "families index" if len(folders) == 1 else "family"
    if folders[0] == "releases":
        return "releases index" if len(folders) == 1 else "release"
    if folders[0] == "checkpoints":
        return "checkpoint"
    return "/".join(folders)


def test_every_page_type_of_the_built_site_is_checked(built_site: Path) -> None:
    """A new kind of page (a new folder in the built tree) must be added to PAGES, or it would go unchecked."""
    checked = {page_kind(Path(path + "index.html") if not path.endswith(".html") else Path(path)) for path in PAGES.values()}
    built = {page_kind(path.relative_to(built_site)) for path in built_site.rglob("*.html")} - {None}
    assert built - checked == set(), f"page types with no axe check (add one page of each to PAGES): {built - checked}"
    for path in PAGES.values():
        assert (built_site / (path if path.endswith(".html") else path + "index.html")).is_file(), path


def report(violations: list[dict], where: str) -> str:
    """A readable failure: one paragraph per rule, with its impact, what it asks and the elements that fail."""
    lines = [f"{sum(len(v['nodes']) for v in violations)} WCAG 2 A/AA violation(s) on {where} (axe-core {AXE_VERSION}):"]
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']} [{len(violation['nodes'])} element(s)]")
        for node in violation["nodes"][:8]:
            summary = " ".join(node["failureSummary"].split())
            lines.append(f"    {' '.join(node['target'])}  --  {summary[:240]}")
        if len(violation["nodes"]) > 8:
            lines.append(f"    ... and {len(violation['nodes']) - 8} more")
    return "\n".join(lines)


def run_axe(page) -> list[dict]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    assert page.evaluate("axe.version") == AXE_VERSION
    return page.evaluate("""async () => {
        const result = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]}});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({target: n.target.map(String), failureSummary: n.failureSummary || ""}))}));
    }""")


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("kind", list(PAGES))
def test_no_wcag2_a_or_aa_violation(site_page, site_base: str, kind: str, mode: str) -> None:
    page = site_page
    preferred, scheme, width = MODES[mode]
    page.set_viewport_size({"width": width, "height": 1000})
    page.emulate_media(color_scheme=preferred)
    page.goto(site_base + PAGES[kind])
    page.wait_for_load_state("load")
    if kind == "matrix":
        page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
    if kind == "check":
        page.wait_for_selector("#nc-check[data-ready=yes]", state="attached")
    # The palette follows the preferred scheme: the page is checked in the scheme named, not in a fallback.
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme
    assert page.evaluate("document.styleSheets.length") > 1, "the theme's stylesheets did not load"
    violations = run_axe(page)
    assert violations == [], report(violations, f"{kind} ({PAGES[kind] or '/'}), {mode}")


def focused(page) -> dict:
    """What has the keyboard focus: a description and whether its focus is drawn (an outline or a box shadow)."""
    return page.evaluate("""() => {
        const el = document.activeElement;
        if (!el || el === document.body) return {name: "body", visible: false};
        // A visually hidden input (the theme's palette switch) shows its focus on the label after it.
        const next = el.nextElementSibling && el.nextElementSibling.tagName === "LABEL" ? [el.nextElementSibling] : [];
        const drawn = [el, ...(el.labels || []), ...next].some(node => {
            const style = getComputedStyle(node);
            return (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none";
        });
        const name = el.id ? "#" + el.id : el.getAttribute("name") ? el.tagName.toLowerCase() + "[name=" + el.getAttribute("name") + "]"
            : el.hasAttribute("data-nc-more") ? "show-more" : el.tagName.toLowerCase() + ":" + (el.textContent || "").trim().slice(0, 30);
        return {name: name, visible: el.matches(":focus-visible") && drawn,
                inRow: !!el.closest("tr.nc-row"), rowIndex: el.closest("tr.nc-row") ?
                    Array.prototype.indexOf.call(el.closest("tbody").rows, el.closest("tr.nc-row")) : -1};
    }""")


def tab_to(page, name: str, limit: int = 150) -> list[str]:
    """Press Tab until `name` has the focus; every element on the way must show its focus. Returns the names."""
    seen: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        seen.append(now["name"])
        assert now["visible"], f"{now['name']} has the keyboard focus but no visible outline or box shadow"
        if now["name"] == name:
            return seen
    raise AssertionError(f"{name} not reached with {limit} presses of Tab; the focus went {seen}")


def live_text(page, selector: str) -> str:
    """The text of the aria-live region holding `selector` (the test fails if there is none)."""
    return page.evaluate("""(selector) => {
        const region = document.querySelector(selector).closest("[aria-live]");
        if (!region || region.getAttribute("aria-live") === "off") return null;
        return region.textContent.replace(/\\s+/g, " ").trim();
    }""", selector)


MATRIX_FILTERS = ["select[name=release]", "select[name=stack]", "select[name=workload]", "select[name=hardware]",
                  "select[name=status]", "select[name=dtype]", "select[name=attention]", "input[name=q]"]


def test_the_matrix_filter_and_show_more_work_from_the_keyboard(site_page, site_base: str) -> None:
    page = site_page

    def small_pages(route) -> None:  # pages of 2 rows, so that the 12 fixture rows need "Show more"
        response = route.fetch()
        html = response.text()
        assert html.count('data-nc-page-size="200"') == 1, "the matrix no longer says its page size this way"
        route.fulfill(response=response, body=html.replace('data-nc-page-size="200"', 'data-nc-page-size="2"'))

    page.route(lambda url: url.split("?")[0].endswith("/matrix/"), small_pages)
    page.goto(site_base + "matrix/?release=2.22.0&with_data=0")  # a release's view: every family x stack x workload
    page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
    assert live_text(page, "[data-nc-count]").startswith("12 of 12 rows")
    seen = tab_to(page, "input[name=q]")
    assert seen[-len(MATRIX_FILTERS):] == MATRIX_FILTERS  # every filter, in reading order
    page.keyboard.type("qwen")
    page.wait_for_function("document.querySelector('[data-nc-count]').textContent === '3'")
    announced = live_text(page, "[data-nc-count]")
    assert announced is not None and announced.startswith("3 of 12 rows") and "showing the first 2" in announced
    assert page.locator("tr.nc-row").count() == 2
    tab_to(page, "show-more", limit=10)
    page.keyboard.press("Enter")
    assert page.locator("tr.nc-row").count() == 3
    assert not page.locator("[data-nc-more]").is_visible()
    assert "showing the first" not in live_text(page, "[data-nc-count]")
    now = focused(page)  # the button is gone: the focus moved to the first row it added, not to the page
    assert now["inRow"] and now["rowIndex"] == 2, now


CHECK_AFTER_CONFIG = ["#nc-check-release", "#nc-check-stack", "#nc-check-workload", "#nc-check-run"]
"""Controls the keyboard must meet, in this order, between the config box and Check (others may come between)."""


def in_order(wanted: list[str], seen: list[str]) -> bool:
    rest = iter(seen)
    return all(name in rest for name in wanted)


def test_the_check_page_works_from_the_keyboard_and_announces_the_verdict(site_page, site_base: str) -> None:
    pyodide_dir()  # the page answers with its Python runtime, served from the site (skipped locally without it)
    page = site_page
    page.goto(site_base + "check/")
    page.wait_for_selector("#nc-check[data-ready=yes]", state="attached")
    assert live_text(page, "#nc-check-result") == ""
    tab_to(page, "#nc-check-hub-id")
    assert tab_to(page, "#nc-check-config", limit=5) == ["#nc-check-fetch", "#nc-check-config"]
    page.keyboard.type('{"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "torch_dtype": "bfloat16"}')
    seen = tab_to(page, "#nc-check-run", limit=20)
    assert in_order(CHECK_AFTER_CONFIG, seen), seen
    # the environment box's summary (a <details>, closed) is the one stop that is not a control
    assert all(name.startswith("#nc-check-") or name.startswith("summary:Your environment") for name in seen), \
        f"the focus left the form: {seen}"
    page.keyboard.press("Enter")
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=error]):not([data-status=loading])",
                           state="attached", timeout=120_000)  # Python loads on the first answer
    assert page.locator("#nc-check-result a.nc-check-row-link[data-stack]").count() > 0
    verdict = live_text(page, "#nc-check-result")
    assert verdict and "Qwen3" in verdict, verdict
    # The table `check` prints is wide: it scrolls in a named block the keyboard can reach.
    assert page.locator('#nc-check-result pre.nc-check-text[tabindex="0"][aria-label]').count() == 1
