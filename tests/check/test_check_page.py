"""The site's check page in a real chromium: paste a real config, read the verdict; it equals `check --json`."""

from __future__ import annotations

import json

import pytest
from check_helpers import CHECK_REGISTRY, CONFIGS, ROOT, run_check, verdict_of

pytestmark = pytest.mark.browser


def open_check_page(page, base: str, query: str = "") -> None:
    page.goto(base + "check/" + query)
    page.wait_for_selector("#nc-check[data-ready=yes]", timeout=15000)


def paste_and_check(page, text: str, release: str = "", stack: str = "", workload: str = "") -> None:
    page.fill("#nc-check-config", text)
    page.select_option("#nc-check-release", release)
    page.select_option("#nc-check-stack", stack)
    page.select_option("#nc-check-workload", workload)
    page.click("#nc-check-run")
    page.wait_for_selector("#nc-check-result[data-status]")


@pytest.mark.parametrize(("name", "flags", "choices"), [
    ("llama-3.1-8b.json", [], {}),
    ("gpt-oss-20b.json", [], {}),
    ("gemma-3-4b-it.json", [], {}),
    ("sdxl-base-1.0-model_index.json", [], {}),
    ("mistral-7b-v0.1.json", ["--neuron", "2.20.0"], {"release": "2.20.0"}),
    ("llama-3.1-8b.json", ["--stack", "optimum-neuron", "--workload", "training"],
     {"stack": "optimum-neuron", "workload": "training"}),
])
def test_pasted_config_gives_the_cli_verdict(check_page, check_site_url, name, flags, choices):
    page = check_page
    open_check_page(page, check_site_url)
    paste_and_check(page, (CONFIGS / name).read_text(encoding="utf-8"), **choices)
    result = page.locator("#nc-check-result")
    cli = verdict_of(run_check(str(CONFIGS / name), "--json", *flags))
    assert result.get_attribute("data-status") == cli["status"]
    assert result.get_attribute("data-exit-code") == str(cli["exit_code"])
    assert page.locator("#nc-check-result .nc-check-summary").inner_text().endswith(cli["summary"])
    shown = json.loads(page.locator("#nc-check-result details pre").text_content())
    assert shown == cli
    rows = page.eval_on_selector_all("#nc-check-result tbody tr[data-stack]",
                                     "rows => rows.map(r => [r.dataset.stack, r.dataset.workload, "
                                     "r.querySelector('.nc-verdict').textContent])")
    assert rows == [[a["stack"], a["workload"], a["display_status"]] for a in cli["answers"]]
    assert page.errors == []


def test_caveats_are_listed_under_their_row(check_page, check_site_url, artifacts_dir):
    page = check_page
    open_check_page(page, check_site_url)
    paste_and_check(page, (CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    nxd = page.locator("#nc-check-result tbody tr[data-stack=nxd-inference]")
    assert "beyond the 8192 tokens" in nxd.locator("xpath=following-sibling::tr[1]").inner_text()
    assert nxd.locator("xpath=following-sibling::tr[1]").get_attribute("class") == "nc-check-caveat-row"
    link = nxd.locator("a").first
    assert link.get_attribute("href").endswith("/families/llama/#nxd-inference-inference")
    page.screenshot(path=str(artifacts_dir / "check-page-llama.png"), full_page=True)


def test_errors_are_one_line_and_the_page_keeps_working(check_page, check_site_url):
    page = check_page
    open_check_page(page, check_site_url)
    paste_and_check(page, '{"model_type": "llama",')
    assert page.locator("#nc-check-result").get_attribute("data-status") == "error"
    assert page.locator(".nc-check-error").inner_text().startswith("pasted text: malformed JSON")
    paste_and_check(page, '{"tokenizer_class": "LlamaTokenizer"}')
    assert page.locator(".nc-check-error").inner_text() == (
        "not a transformers config.json or a diffusers model_index.json (no model_type, architectures or _class_name)")
    paste_and_check(page, (CONFIGS / "bert-base-uncased.json").read_text(encoding="utf-8"))
    assert page.locator("#nc-check-result").get_attribute("data-status") == "supported"
    assert page.errors == []


def test_config_text_is_shown_as_text_and_never_runs(check_page, check_site_url):
    page = check_page
    open_check_page(page, check_site_url)
    hostile = {"model_type": "<img src=x onerror=window.__pwned=1>", "architectures": ["<script>window.__pwned=2</script>"],
               "attn_implementation": "<b onmouseover=window.__pwned=3>x</b>"}
    paste_and_check(page, json.dumps(hostile))
    assert page.evaluate("window.__pwned === undefined")
    assert page.locator("#nc-check-result img, #nc-check-result script, #nc-check-result b").count() == 0
    assert "<img src=x onerror=window.__pwned=1>" in page.locator("#nc-check-result").inner_text()


def test_hub_id_from_the_home_page_is_offered_with_a_link(check_page, check_site_url):
    page = check_page
    open_check_page(page, check_site_url, "?q=Qwen%2FQwen3-8B")
    assert page.input_value("#nc-check-hub-id") == "Qwen/Qwen3-8B"
    # Material opens its search dialog for ?q= too; the page closes it again so the form can be used
    page.wait_for_timeout(1500)
    assert page.evaluate("document.querySelector('input[data-md-toggle=search]').checked") is False
    assert page.input_value("input.md-search__input") == ""
    paste_and_check(page, (CONFIGS / "qwen3-8b.json").read_text(encoding="utf-8"))
    assert page.locator("#nc-check-result").get_attribute("data-status") == "supported"
    link = page.locator("#nc-check-hub-hint a")
    assert link.get_attribute("href") == "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json"
    page.click("#nc-check-fetch")  # the Hub is unreachable from the test browser: the page says what to do
    page.wait_for_selector(".nc-check-error:has-text('Could not fetch Qwen/Qwen3-8B')")
    assert "neuron-compat check Qwen/Qwen3-8B" in page.locator(".nc-check-error").inner_text()
    open_check_page(page, check_site_url, "?q=..%2F..%2Fetc")
    assert "is not a valid Hub repo id" in page.locator("#nc-check-hub-hint").inner_text()


def test_the_page_reads_the_registry_json_it_is_published_with(check_site):
    published = json.loads((check_site / "api" / "registry.json").read_text(encoding="utf-8"))
    from neuron_compat.publishing.registry_document import registry_to_json
    from neuron_compat.rules.validation import validate_registry

    assert published == json.loads(json.dumps(registry_to_json(validate_registry(CHECK_REGISTRY).registry)))
    html = (check_site / "check" / "index.html").read_text(encoding="utf-8")
    # the config reader, then the resolver, then the page, each published as it is in the repository
    scripts = [f"../assets/javascripts/{name}.js" for name in ("check_config", "check_resolve", "check")]
    tags = [html.index(f'<script src="{src}"></script>') for src in scripts]
    assert tags == sorted(tags)
    for path in sorted((ROOT / "site" / "assets" / "javascripts").glob("check*.js")):
        assert (check_site / "assets" / "javascripts" / path.name).read_bytes() == path.read_bytes()
