"""The built site in a real chromium: search, matrix filters, permalinks, hostile text, screenshots.

Screenshots of the key pages go to test-artifacts/ (gitignored) for people to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser


def search(page, base: str, query: str) -> None:
    page.goto(base)
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material's search listens to keyup
    page.locator(".md-search-result__item").first.wait_for(timeout=10000)


@pytest.mark.parametrize(("query", "family"), [
    ("Qwen3ForCausalLM", "qwen3"),
    ("phi3_custom", "custom-phi"),
    ("Phi3CustomForCausalLM", "custom-phi"),
    ("Custom-Phi-Mini", "custom-phi"),
])
def test_search_reaches_the_family_page(site_page, serve, built_site: Path, query: str, family: str) -> None:
    page = site_page
    base = serve(built_site)
    search(page, base, query)
    first = page.locator(".md-search-result__item > a").first
    assert f"families/{family}/" in first.get_attribute("href")
    first.click()
    page.wait_for_url(f"**/families/{family}/**")
    assert page.locator("h1").first.is_visible()


def test_home_search_box_opens_search_and_check_box_goes_to_check_page(site_page, serve, built_site: Path) -> None:
    page = site_page
    base = serve(built_site)
    page.goto(base)
    page.fill("#nc-home-search", "Qwen3ForCausalLM")
    page.locator("#nc-home-search").press("Enter")
    page.locator(".md-search-result__item").first.wait_for(timeout=10000)
    assert "families/qwen3/" in page.locator(".md-search-result__item > a").first.get_attribute("href")

    page.goto(base)
    page.fill("#nc-home-check", "Qwen/Qwen3-8B")
    page.get_by_role("button", name="Check").click()
    page.wait_for_url("**/check/?model=Qwen%2FQwen3-8B")


def open_matrix(page, url: str) -> None:
    """The matrix rows are drawn from api/matrix.json after load: wait until they are."""
    page.goto(url)
    page.wait_for_selector(".nc-matrix.nc-ready", state="attached")


def visible_rows(page) -> list[tuple[str, str, str]]:
    return page.eval_on_selector_all(
        "tr.nc-row:not([hidden])",
        "rows => rows.map(r => [r.dataset.family, r.dataset.stack, r.dataset.workload])",
    )


def test_matrix_filters_show_the_right_rows(site_page, serve, built_site: Path) -> None:
    page = site_page
    base = serve(built_site)
    open_matrix(page, base + "matrix/?release=2.22.0&with_data=0")  # a release's view (the default is today's answer)
    total = page.locator("tr.nc-row").count()
    assert total == 4 * 3  # 4 families x (optimum-neuron inference, training; nxd-inference inference)
    page.select_option("select[name=status]", "supported-with-requirements")
    assert visible_rows(page) == [["qwen3", "nxd-inference", "inference"]]
    page.select_option("select[name=status]", "")
    page.select_option("select[name=hardware]", "inf2")
    assert sorted(visible_rows(page)) == [["bert", "optimum-neuron", "inference"],
                                          ["custom-phi", "optimum-neuron", "inference"],
                                          ["qwen3", "nxd-inference", "inference"]]
    page.select_option("select[name=hardware]", "")
    page.fill("input[name=q]", "Qwen3ForCausalLM")
    page.wait_for_function("document.querySelectorAll('tr.nc-row:not([hidden])').length === 3")
    assert {row[0] for row in visible_rows(page)} == {"qwen3"}
    assert page.locator("[data-nc-count]").inner_text() == "3"
    page.check("input[name=with_data]")
    assert sorted(visible_rows(page)) == [["qwen3", "nxd-inference", "inference"], ["qwen3", "optimum-neuron", "training"]]
    assert "q=Qwen3ForCausalLM" in page.url  # filters are shareable


def test_matrix_release_selector_redraws_from_json(site_page, serve, built_site: Path) -> None:
    page = site_page
    base = serve(built_site)
    open_matrix(page, base + "matrix/?release=2.20.0&with_data=0")
    page.wait_for_function("document.querySelector('[data-nc-release]').textContent === '2.20.0'")
    llama = page.locator("tr.nc-row[data-family=llama][data-stack=optimum-neuron][data-workload=inference]")
    assert llama.get_attribute("data-status") == "partial"
    page.select_option("select[name=release]", "2.22.0")
    page.wait_for_function("document.querySelector('[data-nc-release]').textContent === '2.22.0'")
    assert llama.get_attribute("data-status") == "ended"  # its statement ended (until 2.22.0): not "no statement"
    qwen = page.locator("tr.nc-row[data-family=qwen3][data-stack=nxd-inference]")
    assert qwen.get_attribute("data-status") == "supported-with-requirements partial"
    assert qwen.locator(".nc-cell-hardware").inner_text() == "inf2, trn2"


def test_matrix_cells_say_ended_not_yet_no_statement_and_why_unknown(site_page, serve, built_site: Path) -> None:
    """views.cell_at's kinds, drawn from api/matrix.json: a row whose statements ended says where (and, in its
    title, the last release it held), a row whose first statement starts later says when, and an unknown cell
    carries its note in its title and links to the statement on the family page."""
    page = site_page
    base = serve(built_site)
    open_matrix(page, base + "matrix/?release=2.22.0&with_data=0")

    def row(family: str, stack: str, workload: str):
        return page.locator(f"tr.nc-row[data-family={family}][data-stack={stack}][data-workload={workload}]")

    ended = row("qwen3", "optimum-neuron", "inference")
    assert ended.get_attribute("data-status") == "ended"
    badge = ended.locator(".nc-cell-status [data-nc-cell=ended]")
    assert badge.inner_text() == "ended at 2.22.0"
    assert badge.get_attribute("title") == "held through 2.21.0"
    unknown = row("qwen3", "optimum-neuron", "training").locator(".nc-cell-status a.nc-cell-note")
    assert unknown.locator("[data-nc-cell=unknown]").get_attribute("title") == "No Qwen3 training example is documented."
    assert unknown.get_attribute("href").endswith("families/qwen3/#optimum-neuron-training")
    none = row("bert", "nxd-inference", "inference")
    assert none.get_attribute("data-status") == "none"
    assert none.locator(".nc-cell-status").inner_text() == "No statement"
    page.select_option("select[name=status]", "ended")
    assert sorted(visible_rows(page)) == [["llama", "optimum-neuron", "inference"], ["qwen3", "optimum-neuron", "inference"]]
    page.select_option("select[name=status]", "")

    page.select_option("select[name=release]", "2.20.0")
    page.wait_for_function("document.querySelector('[data-nc-release]').textContent === '2.20.0'")
    later = row("qwen3", "nxd-inference", "inference")
    assert later.get_attribute("data-status") == "not-yet"
    assert later.locator(".nc-cell-status").inner_text() == "not yet (from 2.21.0)"
    assert row("qwen3", "optimum-neuron", "inference").get_attribute("data-status") == "supported"


def test_family_page_shows_a_scoped_constraint_with_its_scope(site_page, serve, built_site: Path) -> None:
    page = site_page
    base = serve(built_site)
    page.goto(base + "families/qwen3/#nxd-inference-inference--trn2--2-21-0")  # the permalink opens its fold
    card = page.locator("#nxd-inference-inference--trn2--2-21-0")
    runner = card.locator("li", has=page.locator("code", has_text="--runner"))
    assert runner.count() == 1
    assert runner.locator("[data-nc-applies-to]").inner_text() == \
        "(only for feature-extraction; Qwen/Qwen3-Embedding-0.6B)"
    unscoped = card.locator("li", has=page.locator("code", has_text="enable_bucketing"))
    assert unscoped.locator("[data-nc-applies-to]").count() == 0  # an unscoped constraint says nothing of scope


def test_statement_permalinks(site_page, serve, built_site: Path) -> None:
    page = site_page
    base = serve(built_site)
    page.goto(base + "families/qwen3/#nxd-inference-inference")
    heading = page.locator("h2#nxd-inference-inference")
    assert heading.is_visible()
    assert page.evaluate("window.scrollY") > 0  # the browser scrolled to the anchor
    assert 0 <= heading.evaluate("el => el.getBoundingClientRect().top") < 500
    page.goto(base + "families/qwen3/#nxd-inference-inference--inf2--2-22-0")
    card = page.locator("#nxd-inference-inference--inf2--2-22-0")
    assert "Partial" in card.inner_text()
    assert card.evaluate("el => el.matches(':target')")
    assert card.evaluate("el => 0 <= el.getBoundingClientRect().top && el.getBoundingClientRect().top < innerHeight")
    # the copy-link affordance puts the statement's URL in the address bar (and the clipboard)
    page.goto(base + "families/qwen3/#nxd-inference-inference")
    page.locator("a[data-nc-copy='nxd-inference-inference--trn2--2-21-0']").click()
    assert page.url.endswith("families/qwen3/#nxd-inference-inference--trn2--2-21-0")
    # the matrix links to the plain anchor
    open_matrix(page, base + "matrix/?release=2.22.0&with_data=0")
    page.locator("tr.nc-row[data-family=qwen3][data-stack=nxd-inference] a").click()
    page.wait_for_url("**/families/qwen3/#nxd-inference-inference")


def test_a_renamed_family_id_redirects_with_its_anchor(site_page, serve, built_site: Path) -> None:
    page = site_page
    base = serve(built_site)
    page.goto(base + "families/phi-custom/#optimum-neuron-inference")
    page.wait_for_url("**/families/custom-phi/#optimum-neuron-inference")
    assert page.locator("h2#optimum-neuron-inference").is_visible()


def test_hostile_registry_text_is_shown_as_text_and_never_runs(site_page, serve, hostile_site: Path) -> None:
    page = site_page
    base = serve(hostile_site)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for path in ("families/custom-phi/", "families/", "matrix/", "releases/2.21.0/", "coverage/"):
        page.goto(base + path)
        page.wait_for_load_state("load")
        if path == "matrix/":  # rows are drawn from api/matrix.json: the hostile name must arrive as text
            page.wait_for_selector(".nc-matrix.nc-ready", state="attached")
            name = page.locator("tr.nc-row[data-family=custom-phi] a").first.inner_text()
            assert '{: onclick="window.__pwned=1" } &lt;img src=x onerror=window.__pwned=2&gt;' in name, name
        hovered = 0  # the pointer really passes over the text, so a smuggled onmouseover would fire
        for element in page.locator("a, p, li, td, h1, span").all()[:400]:
            if element.is_visible():
                element.hover(timeout=2000, force=True)  # force: no waiting for what covers it (a sticky header)
                hovered += 1
        assert hovered > 0, path
        page.mouse.move(200, 300)
        assert page.evaluate("window.__pwned === undefined"), path
        attributes = page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(el =>
            [...el.attributes].filter(a => a.name.startsWith('on') || /^\\s*javascript:/i.test(a.value)).map(a => a.name))""")
        assert attributes == [], (path, attributes)
    page.goto(base + "families/custom-phi/")
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")  # the folded evidence
    heading = page.locator("h1").first.inner_text()
    assert '{: onclick="window.__pwned=1" }' in heading
    assert "&lt;img src=x onerror=window.__pwned=2&gt;" in heading
    body = page.locator("article").inner_text()
    assert "javascript:window.__pwned=6" in body
    assert '[run](https://example.com/#" onfocus="window.__pwned=7)' in body
    assert page.locator("article strong", has_text="bold").count() == 1  # the allowed subset still works
    assert page.locator("article img, article svg[onload], article script").count() == 0
    for element in page.locator("article a").all():
        element.focus()
    assert page.evaluate("window.__pwned === undefined")
    assert dialogs == []


@pytest.mark.parametrize(("name", "path"), [
    ("home", ""),
    ("family", "families/qwen3/"),
    ("matrix", "matrix/"),
    ("release", "releases/2.22.0/"),
    ("coverage", "coverage/"),
    ("contributing", "contributing/"),
])
def test_screenshots_of_key_pages(site_page, serve, built_site: Path, artifacts: Path, name: str, path: str) -> None:
    page = site_page
    base = serve(built_site)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + path)
    page.wait_for_load_state("load")
    page.screenshot(path=str(artifacts / f"site-{name}.png"), full_page=True)
    assert errors == []
    assert page.locator("h1").first.is_visible()


def test_matrix_filters_stay_fast_with_thousands_of_rows(site_page, serve, tmp_path: Path) -> None:
    """350 more families x 3 stack/workload pairs, over a thousand rows: a filter change must stay quick."""
    from site_helpers import build_site, make_registry

    registry = make_registry(tmp_path / "registry")
    template = (registry / "families" / "custom-phi.yaml").read_text(encoding="utf-8")
    for number in range(350):
        family_id = f"bulk-{number:03d}"
        (registry / "families" / f"{family_id}.yaml").write_text(
            template.replace("id: custom-phi", f"id: {family_id}")
            .replace("name: Custom Phi", f"name: Bulk {number}")
            .replace("phi3_custom", f"bulk_type_{number}")
            .replace("Phi3CustomForCausalLM", f"Bulk{number}ForCausalLM")  # one family per architecture class
            .replace("previous_ids: [phi-custom]\n", ""),
            encoding="utf-8",
        )
    result = build_site(registry, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-2000:]
    page = site_page
    base = serve(tmp_path / "site")
    open_matrix(page, base + "matrix/?release=2.22.0&with_data=0")
    assert int(page.locator("[data-nc-total]").inner_text()) >= 1000
    # Only the first page of rows is in the DOM; "Show more" adds the next page.
    assert page.locator("tr.nc-row").count() == 200
    page.locator("[data-nc-more]").click()
    assert page.locator("tr.nc-row").count() == 400
    timings = page.evaluate("""() => {
        const time = (name, value) => {
            const control = document.querySelector(`[data-nc-filter=${name}]`);
            const start = performance.now();
            control.value = value;
            control.dispatchEvent(new Event("change"));
            document.body.offsetHeight;  // include the layout the change causes
            return performance.now() - start;
        };
        return [time("status", "unsupported"), time("hardware", "inf2"), time("status", ""), time("hardware", "")];
    }""")
    assert max(timings) < 1500, timings
    page.fill("input[name=q]", "bulk_type_349")
    page.wait_for_function("document.querySelector('[data-nc-count]').textContent === '3'")
