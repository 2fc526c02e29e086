"""The header search in chromium on the site of the real registry: an exact identifier finds its family first.

The site is built once for this module from ./registry (the shared site-test registry has four families, too
few to rank against). A fixed sample of families is queried by each identifier kind it has: its first
model_type, first architecture, first example checkpoint id, that checkpoint's repo name alone (only where no
other family carries it) and its name. mkdocs-material, the reference engine: every 5th family by id from the
first (34 of 168 families, about 160 queries); Zensical: every 12th from the third (14 families). Every family
took about 4 minutes on a loaded 2-core machine, so the sample keeps the module near a minute and a half.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from site_helpers import REPO, write_tree, zensical_build

from neuron_compat.site.search_identifiers import normalize

pytestmark = pytest.mark.browser

MATERIAL_SAMPLE = slice(0, None, 5)
ZENSICAL_SAMPLE = slice(2, None, 12)


@pytest.fixture(scope="module")
def registry_site(real_site: Path) -> Path:
    return real_site  # the session's one build of the repository's registry (conftest.py)


@pytest.fixture(scope="module")
def registry_zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("registry-zensical")
    written = write_tree(REPO / "registry", project / "docs")
    assert written.returncode == 0, written.stderr
    result, site = zensical_build(project / "docs", project)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return site


def queries(site: Path) -> list[tuple[str, str, str]]:
    """(family id, kind, query) for every family of the built site, from its published family documents."""
    index = json.loads((site / "api" / "search-identifiers.json").read_text(encoding="utf-8"))["identifiers"]
    found = []
    for path in sorted((site / "api" / "families").glob("*.json")):
        family = json.loads(path.read_text(encoding="utf-8"))["family"]
        kinds = [("model_type", family.get("model_types") or []), ("architecture", family.get("architectures") or []),
                 ("checkpoint id", family.get("examples") or []), ("name", [family["name"]])]
        repo_names = [e.rsplit("/", 1)[-1] for e in (family.get("examples") or [])[:1]]
        if repo_names and index.get(normalize(repo_names[0])) == [family["id"]]:
            kinds.append(("repo name", repo_names))
        for kind, values in kinds:
            if values:
                found.append((family["id"], kind, values[0]))
    return found


def first_pages(page, selector: str, count: int = 5) -> list[str]:
    return page.locator(selector).evaluate_all(
        f"links => links.slice(0, {count}).map(a => new URL(a.href).pathname)")


def misses(page, box, selector: str, cases: list[tuple[str, str, str]]) -> list[str]:
    """Type each query; a case misses when the first result is not its family page within 5 s."""
    wrong = []
    for family_id, kind, query in cases:
        box.fill("")
        box.press("End")
        box.fill(query)
        box.press("End")  # Material's search listens to keyup
        expected = f"/families/{family_id}/"
        try:
            page.wait_for_function(
                "([selector, expected]) => { const a = document.querySelector(selector) ||"
                " [...document.body.children].map(e => e.shadowRoot && e.shadowRoot.querySelector(selector))"
                ".find(Boolean); return a && new URL(a.href).pathname === expected; }",
                arg=[selector, expected], timeout=5000, polling=50)
        except Exception:  # noqa: BLE001 - the assertion below names the query and what came first
            wrong.append(f"{kind} {query!r}: {first_pages(page, selector, 3)} (wanted {expected})")
    return wrong


MATERIAL_FIRST = ".md-search-result__item > a"
ZENSICAL_FIRST = "ol > li > a"


def open_material(page, base: str):
    page.goto(base)
    box = page.locator("input.md-search__input")
    box.click()
    return box


def open_zensical(page, base: str):
    page.goto(base)
    page.locator(".md-search__button").click()
    return page.locator("input[role=combobox]")


def sample(cases: list[tuple[str, str, str]], families: slice) -> list[tuple[str, str, str]]:
    chosen = set(sorted({case[0] for case in cases})[families])
    return [case for case in cases if case[0] in chosen]


def test_material_sampled_families_first_for_each_of_their_identifiers(site_page, serve, registry_site: Path) -> None:
    cases = sample(queries(registry_site), MATERIAL_SAMPLE)
    assert len({case[0] for case in cases}) >= 30 and len(cases) > 130
    box = open_material(site_page, serve(registry_site))
    wrong = misses(site_page, box, MATERIAL_FIRST, cases)
    assert not wrong, f"{len(wrong)} of {len(cases)} queries:\n" + "\n".join(wrong)


def test_zensical_sample_first_for_each_identifier_and_enter_opens_it(
        site_page, serve, registry_zensical_site: Path) -> None:
    cases = sample(queries(registry_zensical_site), ZENSICAL_SAMPLE)
    box = open_zensical(site_page, serve(registry_zensical_site))
    wrong = misses(site_page, box, ZENSICAL_FIRST, cases)
    assert not wrong, f"{len(wrong)} of {len(cases)} queries:\n" + "\n".join(wrong)
    # Zensical keeps its own keyboard selection: Enter must still open the family put first ("llama", not mllama)
    misses(site_page, box, ZENSICAL_FIRST, [("llama", "model_type", "llama")])
    box.press("Enter")
    site_page.wait_for_url("**/families/llama/**")


@pytest.mark.parametrize(("typed", "wanted", "top"), [
    # a class-name prefix: a Qwen3 family (qwen3, qwen3_moe, ...) first, then Qwen3 families or Qwen3 checkpoints
    ("Qwen3For", ("/families/qwen3", "/checkpoints/Qwen/Qwen3"), 3),
    ("llam", "llama", 3),  # a prefix of a model_type as it is typed
    ("Qwen/Qwen3", "/families/qwen3", 1),  # part of a checkpoint id: a Qwen3 family first (then other Qwen ones)
])
def test_material_prefixes_still_find_families_as_you_type(site_page, serve, registry_site: Path, typed: str,
                                                           wanted: str | tuple[str, ...], top: int) -> None:
    box = open_material(site_page, serve(registry_site))
    box.fill(typed)
    box.press("End")
    site_page.locator(MATERIAL_FIRST).first.wait_for(timeout=10000)
    pages = first_pages(site_page, MATERIAL_FIRST)
    accepted = (wanted,) if isinstance(wanted, str) else wanted
    assert pages and accepted[0] in pages[0], pages
    assert all(any(w in page for w in accepted) for page in pages[:top]), pages
