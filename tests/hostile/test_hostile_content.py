"""Hostile registry text that passes validation renders as inert text everywhere, checked in chromium.

A family with a payload in every text field (payloads.py) is added to a copy of the fixture registry;
the real site is built from it with `mkdocs build --strict`; every HTML page, the JSON API, the badges,
the search and the in-browser "check your model" page are then inspected in a real browser: no
payload runs (window.__pwned stays undefined, no dialog opens), none became an event-handler
attribute or a javascript:/data: link, and the text itself is shown and exported unchanged.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import static_server
import yaml
from payloads import MARKDOWN, PAGE_PATH_IDS, PLAIN, hostile_family

from neuron_compat.rules.validation import validate_registry

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "registry"

pytestmark = pytest.mark.browser

# Runs in every page before its own scripts: record any dialog instead of blocking on it.
RECORD_DIALOGS = """
window.__dialogs = [];
for (const name of ["alert", "confirm", "prompt", "print"]) {
  window[name] = (...args) => { window.__dialogs.push(name + ":" + args.join(",")); };
}
"""

# What counts as a payload that escaped its text: returns a list of findings (empty when all is inert).
FIND_ESCAPES = r"""
() => {
  const found = [];
  if (window.__pwned !== undefined) found.push("a payload ran: window.__pwned = " + window.__pwned);
  if (window.__dialogs.length) found.push("a dialog opened: " + window.__dialogs.join(" "));
  for (const element of document.querySelectorAll("*")) {
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase(), value = attribute.value;
      if (name.startsWith("on") && /pwned/.test(value)) found.push(`handler ${element.tagName} ${name}="${value}"`);
      if (/^(href|src|action|formaction|xlink:href|srcset|poster)$/.test(name) && /^\s*(javascript|data|vbscript):/i.test(value))
        found.push(`link ${element.tagName} ${name}="${value.slice(0, 80)}"`);
      if (/pwned/.test(name)) found.push(`attribute named ${name} on ${element.tagName}`);
    }
    if (element.tagName === "SCRIPT" && /pwned/.test(element.textContent)) found.push("script element with a payload");
    if ((element.tagName === "IMG" || element.tagName === "IFRAME") && /a\.example|^x$/.test(element.getAttribute("src") || ""))
      found.push(`${element.tagName} from registry text: ${element.getAttribute("src")}`);
  }
  return found;
}
"""


@pytest.fixture(scope="module")
def hostile_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    registry = tmp_path_factory.mktemp("hostile") / "registry"
    shutil.copytree(FIXTURE, registry)
    text = yaml.safe_dump(hostile_family(), allow_unicode=True, sort_keys=False, width=10_000)
    (registry / "families" / "hostile.yaml").write_text(text, encoding="utf-8")
    problems = validate_registry(registry).problems
    assert not problems, "the payloads must pass validation: " + problems[0].format()
    return registry


@pytest.fixture(scope="module")
def hostile_site(hostile_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile-site") / "out"
    from engine_build import available_pyodide, build_site

    result = build_site(hostile_registry, out, pyodide=available_pyodide())  # the check page answers offline
    assert result.returncode == 0, result.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def base_url(hostile_site: Path) -> Iterator[str]:
    with static_server.serving(hostile_site) as url:
        yield url


@pytest.fixture
def hostile_page(loopback_context: object) -> Iterator[object]:
    context = loopback_context
    context.add_init_script(RECORD_DIALOGS)  # type: ignore[attr-defined]
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.dismiss())
    yield page


def html_pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site).parent).replace(".", "", 1) if p.parent != site else ""
                  for p in site.rglob("index.html"))


def test_every_page_shows_the_payloads_as_inert_text(hostile_page, base_url: str, hostile_site: Path) -> None:
    page = hostile_page
    pages = html_pages(hostile_site)
    assert "families/hostile" in pages
    for path in pages:
        page.goto(base_url + (path + "/" if path else ""))
        page.wait_for_load_state("load")
        page.mouse.move(5, 5)
        assert page.evaluate(FIND_ESCAPES) == [], path


def test_ids_named_like_index_pages_each_build_a_page_of_their_own(hostile_site: Path) -> None:
    """`org` and `org/index`, `org/README`, `org/index.md`: the strict build passed (the fixture) and each id's page
    is its own, titled with it (none overwrote another)."""
    from neuron_compat.site import urls

    for hub_id in ["hostile/model", *PAGE_PATH_IDS]:
        page = hostile_site / urls.checkpoint_url(hub_id) / "index.html"
        assert page.is_file(), hub_id
        assert "<h1 id=" in (text := page.read_text(encoding="utf-8")) and f">{hub_id}<" in text, hub_id
    assert not list((hostile_site / "checkpoints").rglob("README*.html"))


def test_family_page_shows_each_payload_verbatim(hostile_page, base_url: str) -> None:
    page = hostile_page
    page.goto(base_url + "families/hostile/")
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")  # folded evidence
    heading = page.locator("h1").first.text_content()
    assert PLAIN[0] in heading
    body = page.locator("body").inner_text()
    for text in PLAIN[1:7]:
        assert text in body, text
    for text in (MARKDOWN[3].replace("`", ""), "[ref link][evil]", '[link](https://a.example/" onmouseover="window.__pwned=11)'):
        assert text in " ".join(body.split()), text
    # hovering and focusing every element fires whatever handlers exist; none may come from registry text
    for locator in page.locator("main a, main code, main li, main td, main span").all()[:400]:
        locator.dispatch_event("mouseover")
        locator.dispatch_event("focus")
    assert page.evaluate(FIND_ESCAPES) == []


def test_json_api_and_badges_carry_the_exact_text(hostile_page, base_url: str, hostile_site: Path) -> None:
    page = hostile_page
    family = json.loads((hostile_site / "api" / "families" / "hostile.json").read_text(encoding="utf-8"))["family"]
    assert family["name"] == PLAIN[0] and family["vendor"] == PLAIN[1] and family["aliases"] == PLAIN[1:]
    assert [note["text"] for note in family["support"][0]["notes"]] == MARKDOWN
    registry = json.loads((hostile_site / "api" / "registry.json").read_text(encoding="utf-8"))
    assert next(f for f in registry["families"] if f["id"] == "hostile")["name"] == PLAIN[0]
    badges = sorted((hostile_site / "api" / "badges" / "hostile").glob("*.json"))
    assert badges
    for badge in badges:
        data = json.loads(badge.read_text(encoding="utf-8"))
        assert set(data) >= {"schemaVersion", "label", "message", "color"}
        assert "<" not in data["label"] + data["message"]
    for path in ("api/families/hostile.json", "api/registry.json", f"api/badges/hostile/{badges[0].name}"):
        response = page.goto(base_url + path)
        assert response.headers["content-type"].startswith("application/json")
        assert page.evaluate(FIND_ESCAPES) == [], path


def test_search_results_stay_inert(hostile_page, base_url: str) -> None:
    page = hostile_page
    page.goto(base_url + "families/")
    search = page.locator("input.md-search__input")
    for query in ("Hostile", "onmouseover", "pwned", "script"):
        search.click()
        search.fill(query)
        search.press("End")  # Material's search listens to keyup
        page.locator(".md-search-result__item").first.wait_for(timeout=10_000)
        assert page.evaluate(FIND_ESCAPES) == [], query
    assert page.locator(".md-search-result__item").count() > 0


def test_check_page_renders_pasted_and_registry_text_inertly(hostile_page, base_url: str) -> None:
    from engine_build import pyodide_dir

    pyodide_dir()  # the page answers with its Python runtime, served from the site (skipped locally without it)
    page = hostile_page
    page.goto(base_url + "check/")
    page.wait_for_selector("#nc-check[data-ready='yes']", timeout=10_000,
                           state="attached")
    configs = [
        {"model_type": "qwen3", "architectures": ['<img src=x onerror="window.__pwned=31">'],
         "torch_dtype": '" onmouseover="window.__pwned=32'},
        {"model_type": "<script>window.__pwned=33</script>", "architectures": ["x\" onfocus=\"window.__pwned=34"]},
    ]
    for config in configs:
        page.fill("#nc-check-config", json.dumps(config))
        page.evaluate("document.getElementById('nc-check-result').removeAttribute('data-status')")
        page.locator("#nc-check-form").evaluate("form => form.requestSubmit()")
        page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", state="attached",
                               timeout=120_000)  # Python loads on the first answer
        assert page.evaluate(FIND_ESCAPES) == [], config
    shown = page.locator("#nc-check-result").evaluate("result => result.textContent")
    page.fill("#nc-check-config", json.dumps(configs[0]))
    page.evaluate("document.getElementById('nc-check-result').removeAttribute('data-status')")
    page.locator("#nc-check-form").evaluate("form => form.requestSubmit()")
    # "checking…" is a text change too: wait for the answer itself (its status leaves "loading")
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", state="attached",
                           timeout=30_000)
    assert page.locator("#nc-check-result").evaluate("result => result.textContent") != shown  # configs[0]'s answer
    result = page.locator("#nc-check-result").inner_text()
    assert PLAIN[0] in result or "hostile" in result.lower()


def test_the_escape_finder_catches_each_kind_of_escape(hostile_page) -> None:
    """A control: the checks above would see a payload that escaped (so their empty results mean something)."""
    page = hostile_page
    page.set_content('<p><a href="https://a.example/" onmouseover="window.__pwned=1">x</a></p>'
                     '<a href="javascript:void(0)">y</a><img src="https://a.example/x.png">'
                     '<script>window.__pwned=2; alert(1)</script>')
    found = page.evaluate(FIND_ESCAPES)
    assert any(item.startswith("a payload ran: window.__pwned = 2") for item in found)
    assert any(item.startswith("a dialog opened") for item in found)
    assert any(item.startswith("handler A onmouseover") for item in found)
    assert any(item.startswith("link A href") for item in found)
    assert any(item.startswith("IMG from registry text") for item in found)
    assert any(item == "script element with a payload" for item in found)
