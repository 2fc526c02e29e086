"""The site's check page in a real chromium, offline (the pinned Pyodide served from the test site): it runs the
package's own Python, so for every pasted fixture config and a fuzzed set its JSON is `check --json`'s and its text
is the table `check` prints; bad input gets `check`'s one-line error, and a worker that overruns is stopped."""

from __future__ import annotations

import contextlib
import io
import json
import urllib.parse
from pathlib import Path

import pytest
from check_helpers import CHECK_REGISTRY, CONFIG_FILES, CONFIGS, ROOT

from neuron_compat.cli import main

pytestmark = pytest.mark.browser

SITE_JS = ROOT / "site" / "assets" / "javascripts"


def open_check_page(page, base: str, query: str = "") -> None:
    page.goto(base + "check/" + query)
    page.wait_for_selector("#nc-check[data-ready=yes]", timeout=15000)


def ask(page, text: str, **choices: str) -> None:
    """Paste `text`, set the controls (release, stack, workload, task, instance, batch, seq_len), press Check and
    wait for the answer (Python loads on the first one)."""
    page.fill("#nc-check-config", text)
    for name in ("release", "stack", "workload", "hardware", "task", "instance", "dtype"):
        page.select_option(f"#nc-check-{name}", choices.get(name, ""))
    for name in ("batch", "seq-len"):
        page.fill(f"#nc-check-{name}", choices.get(name.replace("-", "_"), ""))
    page.evaluate("document.getElementById('nc-check-result').removeAttribute('data-status')")
    page.click("#nc-check-run")
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", timeout=120_000)


def cli(config: Path, *flags: str) -> tuple[int, str, str]:
    """`neuron-compat check CONFIG FLAGS --registry <the check registry>`, in this process: (exit, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check", str(config), *flags, "--registry", str(CHECK_REGISTRY)])
    return code, out.getvalue(), err.getvalue()


def shown_json(page) -> dict:
    document = json.loads(page.locator("#nc-check-result details.nc-check-json pre").text_content())
    origin = document.pop("registry")
    assert origin["chosen_by"] == "the check page" and origin["location"].endswith("api/check/registry.json")
    return document


def without_registry(text: str) -> dict:
    document = json.loads(text)
    document.pop("registry")
    return document


def table_body(text: str) -> list[str]:
    """The table `check` prints without its first line (the file's name) and its `registry:` line."""
    lines = text.rstrip("\n").split("\n")
    return [line for line in lines[1:] if not line.startswith("  registry: ")]


def assert_same_answer(page, config: Path, flags: list[str], choices: dict[str, str]) -> None:
    ask(page, config.read_text(encoding="utf-8"), **choices)
    code, out, err = cli(config, "--json", *flags)
    result = page.locator("#nc-check-result")
    if not out:
        assert result.get_attribute("data-status") == "error", (config.name, flags)
        said = page.locator("#nc-check-result .nc-check-error").inner_text()
        assert err.strip() == "neuron-compat check: " + said.replace("pasted text", str(config)), config.name
        assert result.get_attribute("data-exit-code") == str(code)
        return
    assert shown_json(page) == without_registry(out), (config.name, flags)
    assert result.get_attribute("data-exit-code") == str(code)
    _, table, _ = cli(config, *flags)
    text = page.locator("#nc-check-result pre.nc-check-text").text_content()
    assert text.split("\n")[0] == "pasted text"
    assert table_body(text) == table_body(table), (config.name, flags)
    assert page.locator(".nc-check-exit").inner_text().startswith(f"neuron-compat check would exit {code}: ")


def test_python_loads_when_a_question_is_typed_never_on_page_load(check_page, check_site_url):
    page = check_page
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    open_check_page(page, check_site_url)
    page.wait_for_load_state("networkidle")
    assert not [url for url in asked if "pyodide" in url or url.endswith("python.zip")]
    page.locator("#nc-check-config").press_sequentially("{")  # the visitor starts typing a question
    for _ in range(300):  # the worker's requests are the page's too (Chromium); at most 30 s
        if any(url.endswith("pyodide.asm.wasm") for url in asked):
            break
        page.wait_for_timeout(100)
    assert any(url.endswith("pyodide.asm.wasm") for url in asked), asked
    assert page.locator("#nc-check-result").inner_text() == ""  # nothing is answered until Check is pressed


def test_every_fixture_config_gives_the_cli_json_and_table(loaded_check_page):
    page = loaded_check_page
    for config in CONFIG_FILES:
        assert_same_answer(page, config, [], {})
    assert page.errors == []


CONTROLS = [
    (["--neuron", "2.20.0"], {"release": "2.20.0"}),
    (["--stack", "optimum-neuron", "--workload", "training"], {"stack": "optimum-neuron", "workload": "training"}),
    (["--task", "feature-extraction"], {"task": "feature-extraction"}),
    (["--batch", "4", "--seq-len", "32768", "--instance", "inf2.48xlarge"],
     {"batch": "4", "seq_len": "32768", "instance": "inf2.48xlarge"}),
    (["--hardware", "trn2", "--dtype", "fp8"], {"hardware": "trn2", "dtype": "fp8"}),
]
"""Each page control and the `check` flag it stands for (one page, so Python loads once for all of them)."""


def test_the_controls_are_the_cli_flags(loaded_check_page):
    page = loaded_check_page
    for flags, choices in CONTROLS:
        for name in ("llama-3.1-8b.json", "qwen3-8b.json"):
            assert_same_answer(page, CONFIGS / name, flags, choices)  # its message names the config and flags
    assert page.errors == []


def test_fuzzed_configs_give_the_cli_answer_or_its_error(loaded_check_page, tmp_path):
    from test_check_fit import fuzzed_configs

    page = loaded_check_page
    configs = fuzzed_configs(40, seed=33)[-40:]
    for index, config in enumerate(configs):
        path = tmp_path / f"fuzzed-{index}.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        assert_same_answer(page, path, [], {})
    assert page.errors == []


BAD_INPUT = {
    "not JSON": "model_type: llama",
    "truncated": '{"model_type": "llama",',
    "no keys": '{"tokenizer_class": "LlamaTokenizer"}',
    "deep": "[" * 900 + "]" * 900,
    "deep object": '{"model_type": "llama", "x": ' + '{"a": ' * 900 + "1" + "}" * 900 + "}",
    "proto": '{"__proto__": {"polluted": 1}, "constructor": {"prototype": 1}, "model_type": "llama"}',
    "strings": '{"model_type": "llama", "hidden_size": "4096", "num_hidden_layers": "32", "vocab_size": "x"}',
    "nan": '{"model_type": "llama", "hidden_size": NaN}',
}


def test_bad_input_gets_the_cli_error_and_the_page_keeps_working(loaded_check_page, tmp_path):
    page = loaded_check_page
    for name, text in BAD_INPUT.items():
        path = tmp_path / "config.json"
        path.write_text(text, encoding="utf-8")
        assert_same_answer(page, path, [], {})
        assert page.evaluate("({}).polluted === undefined && Object.prototype.polluted === undefined"), name
    # 50 MB: refused by size, as `check` refuses the file, and the tab stays responsive
    # (the text is made in the page: sending 50 MB through the browser's debugging protocol alone takes ~17 s)
    size = 50 * 1024 * 1024
    big = '{"model_type": "llama", "pad": "' + "x" * size + '"}'
    page.evaluate("""size => {
        const box = document.getElementById('nc-check-config');
        box.value = '{"model_type": "llama", "pad": "' + 'x'.repeat(size) + '"}';
        document.getElementById('nc-check-result').removeAttribute('data-status');
        document.getElementById('nc-check-form').requestSubmit();
    }""", size)
    page.wait_for_selector("#nc-check-result[data-status=error]", timeout=120_000)
    path = tmp_path / "big.json"
    path.write_text(big, encoding="utf-8")
    _, _, err = cli(path)
    said = page.locator(".nc-check-error").inner_text()
    assert err.strip() == "neuron-compat check: " + said.replace("pasted text", str(path))
    assert "too large" in said
    assert_same_answer(page, CONFIGS / "bert-base-uncased.json", [], {})
    assert page.errors == []


def test_a_worker_that_overruns_is_stopped_and_the_page_says_so(loaded_check_page):
    page = loaded_check_page
    # 1 ms: less than any answer takes, with Python loaded or not (the module's page may have it loaded)
    page.evaluate("document.getElementById('nc-check').setAttribute('data-limit-ms', '1')")
    ask(page, (CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    assert "the Python worker was stopped" in page.locator(".nc-check-error").inner_text()
    page.evaluate("document.getElementById('nc-check').removeAttribute('data-limit-ms')")
    assert_same_answer(page, CONFIGS / "llama-3.1-8b.json", [], {})  # a new worker answers


def test_config_text_is_shown_as_text_and_never_runs(loaded_check_page):
    page = loaded_check_page
    hostile = {"model_type": "<img src=x onerror=window.__pwned=1>", "architectures": ["<script>window.__pwned=2</script>"],
               "attn_implementation": "<b onmouseover=window.__pwned=3>x</b>"}
    ask(page, json.dumps(hostile))
    assert page.evaluate("window.__pwned === undefined")
    assert page.locator("#nc-check-result img, #nc-check-result script, #nc-check-result b").count() == 0
    assert "<img src=x onerror=window.__pwned=1>" in page.locator("#nc-check-result").inner_text()


def test_the_explain_box_gives_explain_json(loaded_check_page):
    page = loaded_check_page
    error = "RuntimeError: NCC_EVRF009 something failed"
    page.fill("#nc-explain-text", error)
    page.click("#nc-explain-run")
    page.wait_for_selector("#nc-explain-result[data-exit-code]", timeout=120_000)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["explain", error, "--json", "--registry", str(CHECK_REGISTRY)])
    shown = json.loads(page.locator("#nc-explain-result details.nc-check-json pre").text_content())
    expected = json.loads(out.getvalue())
    assert {k: v for k, v in shown.items() if k != "registry"} == {k: v for k, v in expected.items() if k != "registry"}
    assert page.locator("#nc-explain-result").get_attribute("data-exit-code") == str(code)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["explain", error, "--registry", str(CHECK_REGISTRY)])
    text = page.locator("#nc-explain-result pre.nc-check-text").text_content()
    assert [line for line in text.split("\n") if "known issues in" not in line] == [
        line for line in out.getvalue().rstrip("\n").split("\n") if "known issues in" not in line]  # the origin differs


def test_hub_id_from_the_home_page_is_offered_with_a_link(check_page, check_site_url):
    page = check_page
    open_check_page(page, check_site_url, "?q=Qwen%2FQwen3-8B")
    assert page.input_value("#nc-check-hub-id") == "Qwen/Qwen3-8B"
    # Material opens its search dialog for ?q= too; the page closes it again so the form can be used
    page.wait_for_function("!new URLSearchParams(location.search).has('q')", timeout=10_000)
    assert page.evaluate("document.querySelector('input[data-md-toggle=search]').checked") is False
    link = page.locator("#nc-check-hub-hint a")
    assert link.get_attribute("href") == "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json"
    page.click("#nc-check-fetch")  # the Hub is unreachable from the test browser: the page says what to do
    page.wait_for_selector(".nc-check-error:has-text('Could not fetch Qwen/Qwen3-8B')")
    assert "neuron-compat check Qwen/Qwen3-8B" in page.locator(".nc-check-error").inner_text()
    open_check_page(page, check_site_url, "?q=..%2F..%2Fetc")
    assert "is not a valid Hub repo id" in page.locator("#nc-check-hub-hint").inner_text()


def test_the_page_downloads_what_it_reads_and_checks_it(check_site):
    from neuron_compat.publishing.registry_document import registry_to_json
    from neuron_compat.rules.validation import validate_registry
    from neuron_compat.site.check_archive import LEFT_OUT, PYODIDE_FILES, integrity

    published = json.loads((check_site / "api" / "registry.json").read_text(encoding="utf-8"))
    assert published == json.loads(json.dumps(registry_to_json(validate_registry(CHECK_REGISTRY).registry)))
    api = check_site / "api" / "check"
    page_document = json.loads((api / "registry.json").read_text(encoding="utf-8"))
    assert page_document == {k: v for k, v in published.items() if k not in LEFT_OUT}
    runtime = json.loads((api / "runtime.json").read_text(encoding="utf-8"))
    for name, expected in runtime["files"].items():
        assert integrity((api / name).read_bytes()) == expected, name
    for name, expected in PYODIDE_FILES.items():
        assert integrity((check_site / "assets" / "pyodide" / name).read_bytes()) == expected
    html = (check_site / "check" / "index.html").read_text(encoding="utf-8")
    assert '<script src="../assets/javascripts/check.js"></script>' in html
    assert "check_resolve" not in html and "check_fit" not in html


def test_no_site_script_reimplements_check():
    names = sorted(path.name for path in SITE_JS.glob("*.js"))
    assert [n for n in names if n.startswith("check")] == ["check-worker.js", "check.js"]
    lines = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in SITE_JS.glob("*.js")}
    # drawing and a worker's glue, no check logic: the page draws the blocks check/answer_page.py decides (issue 45
    # item 8: a page, no longer a terminal <pre>), replaces a worker whose Python broke and drops stale answers
    # (issue 50), which took the page from 410 lines to 617
    assert lines["check.js"] + lines["check-worker.js"] <= 625
    # issue 33: "about 1,300" (from 3,151); the known-issues page +44, the answer page +207, exact-id search items +20
    assert sum(lines.values()) <= 1600
    for name in ("check.js", "check-worker.js"):  # text is drawn with textContent: nothing is ever parsed as HTML
        source = (SITE_JS / name).read_text(encoding="utf-8")
        assert not [word for word in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "DOMParser")
                    if word in source], name


# What a first-time visitor hit (issue 23), moved here from tests/site/test_site_visitor.py: the check page answers
# only with its Python runtime, which this site serves itself (offline).

VISITOR_CONFIG = '{"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "torch_dtype": "bfloat16"}'


def test_a_config_pasted_on_the_home_page_lands_in_the_check_pages_config_box(check_page, check_site_url) -> None:
    page = check_page
    page.goto(check_site_url)
    page.fill("#nc-home-check", VISITOR_CONFIG)
    page.get_by_role("button", name="Check").click()
    page.wait_for_url("**/check/?model=*")
    page.wait_for_selector("#nc-check[data-ready=yes]", state="attached")
    assert page.locator("#nc-check-config").input_value() == VISITOR_CONFIG
    assert page.locator("#nc-check-hub-id").input_value() == ""
    assert "not a valid Hub repo id" not in page.locator("#nc-check").inner_text()
    assert not page.locator('input[data-md-toggle="search"]').is_checked()  # the header search stayed shut
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=error]):not([data-status=loading])",
                           state="attached", timeout=120_000)  # Python loads on the first answer
    assert "Qwen3" in page.locator("#nc-check-result pre.nc-check-text").text_content()


def _contrast(page, selector: str) -> float:
    return page.evaluate("""selector => {
        const el = document.querySelector(selector);
        const rgb = value => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => { const c = [r, g, b].map(v => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
        let node = el, bg = "rgba(0, 0, 0, 0)";
        while (node && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) { bg = getComputedStyle(node).backgroundColor; node = node.parentElement; }
        if (/rgba\\(0, 0, 0, 0\\)/.test(bg)) bg = "rgb(255, 255, 255)";
        const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(bg))];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""", selector)


def test_the_check_verdict_has_a_status_badge_and_errors_are_readable(loaded_check_page) -> None:
    page = loaded_check_page
    ask(page, VISITOR_CONFIG)
    status = page.locator("#nc-check-result").get_attribute("data-status")
    badge = page.locator("#nc-check-result .nc-check-summary .nc-status")
    assert badge.get_attribute("class") == f"nc-status nc-status--{status}" and badge.text_content() == status
    assert badge.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"  # styled as a badge
    assert _contrast(page, "#nc-check-result .nc-check-summary .nc-status") >= 4.5
    page.fill("#nc-check-config", "{not json")
    page.locator("#nc-check-run").click()
    page.wait_for_selector("#nc-check-result .nc-check-error")
    assert _contrast(page, "#nc-check-result .nc-check-error") >= 4.5


# --- issue 50: the page's Python is the CLI's, for every input; issue 45 item 8 and 49 item 5: a page, and what failed

DEEP = "[" * 5000 + "]" * 5000  # 10 KB nested 5,000 deep: json.loads exhausts the browser's stack at this depth


def test_a_config_nested_thousands_deep_is_refused_before_the_parser_and_the_tab_keeps_working(
        loaded_check_page, check_page, check_site_url, tmp_path):
    page = loaded_check_page
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    assert_same_answer(page, path, [], {})
    assert "nested more than 32 levels deep" in page.locator(".nc-check-error").inner_text()
    assert_same_answer(page, CONFIGS / "llama-3.1-8b.json", [], {})  # the same Python answers the next question
    assert page.errors == []
    fresh = check_page  # a shared link with such a config is refused the same way, and the tab still answers
    deep_object = '{"a": ' * 2500 + "1" + "}" * 2500
    path.write_text(deep_object, encoding="utf-8")
    _, _, err = cli(path)
    open_check_page(fresh, check_site_url, "?model=" + urllib.parse.quote(deep_object))
    fresh.wait_for_selector("#nc-check-result[data-status=error]", timeout=120_000)
    said = fresh.locator(".nc-check-error").inner_text()
    assert err.strip() == "neuron-compat check: " + said.replace("pasted text", str(path))
    assert_same_answer(fresh, CONFIGS / "bert-base-uncased.json", [], {})
    assert fresh.errors == []


# The real worker, able to break its own Python on request the way a stack overflow inside the parser did.
CRASH = ("pyodide.runPython(BOOT_PYTHON);", "pyodide.runPython(BOOT_PYTHON);\n  self.__crash = function () { "
         "pyodide.runPython(\"import json; json.loads('[' * 100000 + ']' * 100000)\"); };")
CRASH_CALL = ("var bytes = fileBytes(", "if (message.text === '__crash__') self.__crash();\n    var bytes = fileBytes(")


def test_a_worker_whose_python_broke_is_replaced_and_the_next_question_is_answered(check_page, check_site, check_site_url):
    worker = (check_site / "assets" / "javascripts" / "check-worker.js").read_text(encoding="utf-8")
    crashing = worker.replace(*CRASH).replace(*CRASH_CALL)
    assert crashing.count("self.__crash") == 2
    page = check_page
    page.context.route("**/check-worker.js", lambda route: route.fulfill(body=crashing, content_type="text/javascript"))
    open_check_page(page, check_site_url)
    ask(page, "__crash__")
    said = page.locator(".nc-check-error").inner_text()
    assert said.startswith("The page's Python stopped (") and "it starts again for your next question" in said, said
    assert_same_answer(page, CONFIGS / "llama-3.1-8b.json", [], {})  # a new worker, a new Python
    page.fill("#nc-explain-text", "NCC_EVRF009")
    page.click("#nc-explain-run")
    page.wait_for_selector("#nc-explain-result[data-exit-code]", timeout=120_000)
    assert page.errors == []


def _paste(page, js_text: str, box: str = "#nc-check-config") -> None:
    """Put text the test cannot send as UTF-8 (a lone surrogate) into a box: `js_text` is a JavaScript literal."""
    page.evaluate(f"document.querySelector({json.dumps(box)}).value = {js_text}")


def test_pasted_text_is_read_as_the_cli_reads_the_file(loaded_check_page, tmp_path):
    page = loaded_check_page
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + (CONFIGS / "llama-3.1-8b.json").read_bytes())
    assert_same_answer(page, bom, [], {})  # a byte-order mark: answered, as `check` answers the file
    assert page.locator("#nc-check-result").get_attribute("data-status") == "supported"
    surrogate = tmp_path / "surrogate.json"
    surrogate.write_bytes(b'{"model_type": "llama", "name": "\xed\xa0\x80"}')  # what a lone surrogate is in a file
    _paste(page, '\'{"model_type": "llama", "name": "\\ud800"}\'')
    page.evaluate("document.getElementById('nc-check-result').removeAttribute('data-status')")
    page.click("#nc-check-run")
    page.wait_for_selector("#nc-check-result[data-status=error]", timeout=120_000)
    code, _, err = cli(surrogate)
    assert page.locator(".nc-check-error").inner_text() == "pasted text: not UTF-8 text (save it as UTF-8)"
    assert err.strip() == f"neuron-compat check: {surrogate}: not UTF-8 text (save it as UTF-8)" and code == 1
    log = tmp_path / "log.txt"
    log.write_bytes(b"RuntimeError: NCC_EVRF009 failed\x00\x00\x00")  # NUL bytes: binary, for explain too
    err_out = io.StringIO()
    with contextlib.redirect_stderr(err_out):
        code = main(["explain", "--file", str(log), "--registry", str(CHECK_REGISTRY)])
    _paste(page, "'RuntimeError: NCC_EVRF009 failed\\u0000\\u0000\\u0000'", "#nc-explain-text")
    page.evaluate("document.getElementById('nc-explain-result').removeAttribute('data-exit-code')")
    page.click("#nc-explain-run")
    page.wait_for_selector("#nc-explain-result[data-exit-code]", timeout=120_000)
    said = page.locator("#nc-explain-result .nc-check-error").inner_text()
    assert err_out.getvalue().strip().endswith(said) and said == (
        "the input is binary (NUL bytes or mostly not UTF-8), not a log")
    assert page.locator("#nc-explain-result").get_attribute("data-exit-code") == str(code) == "1"
    assert page.errors == []


def test_two_presses_10_ms_apart_draw_only_the_second_answer(loaded_check_page):
    page = loaded_check_page
    ask(page, "{}")  # Python loaded
    page.evaluate("""([first, second]) => new Promise(done => {
        const box = document.getElementById('nc-check-config'), form = document.getElementById('nc-check-form');
        const result = document.getElementById('nc-check-result');
        window.__drawn = [];
        new MutationObserver(() => window.__drawn.push(result.getAttribute('data-status') + ' ' + result.textContent.slice(0, 60)))
          .observe(result, { attributes: true, childList: true });
        box.value = first; form.requestSubmit();
        setTimeout(() => { box.value = second; form.requestSubmit(); done(); }, 10);
    })""", [(CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"), "{not json"])
    page.wait_for_selector("#nc-check-result[data-status=error]", timeout=120_000)
    page.wait_for_timeout(1500)  # the first press's answer comes later than the second's: it must not be drawn
    drawn = page.evaluate("window.__drawn")
    assert not [line for line in drawn if "Llama" in line], drawn
    assert page.locator("#nc-check-result .nc-check-error").inner_text().startswith("pasted text:1:2: malformed JSON")
    page.evaluate("""good => { const box = document.getElementById('nc-check-config');
        const form = document.getElementById('nc-check-form');
        box.value = good; form.requestSubmit(); setTimeout(() => form.requestSubmit(), 10); }""",
                  (CONFIGS / "qwen3-8b.json").read_text(encoding="utf-8"))
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading]):not([data-status=error])",
                           timeout=120_000)
    page.wait_for_timeout(1000)
    assert page.locator("#nc-check-result .nc-check-error").count() == 0  # never "still answering": one answer
    assert page.errors == []


def test_a_model_link_never_shows_hidden_characters_raw(check_page, check_site_url):
    page = check_page
    open_check_page(page, check_site_url, "?model=evil%E2%80%AEtxt.exe%E2%80%8B%00")
    value = page.input_value("#nc-check-hub-id")
    assert value == "evil\\u{202e}txt.exe\\u{200b}\\u{0}"
    hint = page.locator("#nc-check-hub-hint").inner_text()
    assert "\u202e" not in hint and "\u200b" not in hint and "'evil\\u{202e}txt.exe\\u{200b}\\u{0}'" in hint
    open_check_page(page, check_site_url, "?model=" + "%7B%22model_type%22%3A%20%22llama%E2%80%AE%22%7D")
    assert page.input_value("#nc-check-config") == '{"model_type": "llama\\u202e"}'  # the same JSON string
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", timeout=120_000)
    assert "\u202e" not in page.locator("#nc-check").inner_text()
    assert page.errors == []


def test_a_malformed_fragment_never_stops_the_page(check_page, check_site_url):
    page = check_page
    for fragment in ("#%E0%A4%A", "#%", "#%C0%80x", "#explain-an-error"):
        open_check_page(page, check_site_url, fragment)
        assert page.errors == [], fragment
    assert_same_answer(page, CONFIGS / "bert-base-uncased.json", [], {})  # the page's scripts all ran


@pytest.mark.parametrize("blocked", ["**/assets/pyodide/**", "**/api/check/python.zip"])
def test_a_runtime_that_cannot_be_downloaded_is_named_with_the_offline_route(check_page, check_site_url, blocked):
    page = check_page
    page.context.route(blocked, lambda route: route.abort())
    open_check_page(page, check_site_url)
    ask(page, (CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    result = page.locator("#nc-check-result")
    assert result.get_attribute("data-failure") == "runtime"
    said = result.inner_text()
    assert said.startswith("The check page could not download the Python it answers with (Pyodide ")
    assert "Failed to fetch" in said or "HTTP" in said
    source = result.locator("a[data-nc-from]")
    assert source.get_attribute("href") == check_site_url + "assets/pyodide/" == source.inner_text()
    assert ("pip install neuron-compat     # or, in a clone of the repository: pip install .\n"
            "neuron-compat check config.json") in said
    assert "neuron-compat site --pyodide .cache/pyodide/package" in said
    assert page.errors == []


def test_the_page_without_its_data_says_what_failed_and_the_offline_route(check_page, check_site_url):
    page = check_page
    page.context.route("**/api/check/runtime.json", lambda route: route.abort())
    page.goto(check_site_url + "check/")
    page.wait_for_selector("#nc-check[data-ready=failed]", timeout=15000)
    said = page.locator("#nc-check-result").inner_text()
    assert "could not read " + check_site_url + "api/check/runtime.json" in said
    assert "pip install neuron-compat" in said and page.errors == []


SIDEWAYS = """() => {
  const column = document.querySelector("article.md-content__inner").getBoundingClientRect().right + 1;
  const out = [...document.querySelectorAll("#nc-check-result table, #nc-check-result pre, #nc-check-result p")]
    .filter(el => el.offsetParent && (el.getBoundingClientRect().right > column || el.scrollWidth > el.clientWidth + 1))
    .map(el => el.tagName + ": " + el.textContent.slice(0, 50));
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) out.push("the page scrolls sideways");
  return out;
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_answer_reads_as_a_page_and_nothing_scrolls_sideways(check_page, check_site, check_site_url, width):
    page = check_page
    page.set_viewport_size({"width": width, "height": 900})
    open_check_page(page, check_site_url)
    ask(page, (CONFIGS / "llama-3.1-8b.json").read_text(encoding="utf-8"))
    result = page.locator("#nc-check-result")
    assert [h.inner_text() for h in result.locator("h3").all()] == [
        "What to install", "Answer per stack", "Fit (an estimate)", "Evidence"]
    install = result.locator(".nc-check-copy code").inner_text()
    assert "optimum-neuron 0.0.28" in install.splitlines()  # the install line, to copy
    assert result.locator(".nc-answer-stacks table tbody tr").count() == 3
    assert result.locator(".nc-answer-fit table tbody tr").count() >= 8
    page.evaluate("() => document.querySelectorAll('#nc-check-result details').forEach(d => { d.open = true; })")
    page.wait_for_timeout(300)  # the site re-fits its tables
    assert page.evaluate(SIDEWAYS) == [], f"at {width} px"
    for href in {a.get_attribute("href") for a in result.locator("a").all()}:  # every link of the site is a page
        assert href.startswith(("https://", check_site_url)), href
        if href.startswith(check_site_url):
            path = href[len(check_site_url):].split("#")[0]
            assert (check_site / path / "index.html").is_file(), href
    assert page.errors == []


def test_a_pasted_environment_answers_for_its_release_in_the_browser(loaded_check_page):
    """The environment box (issue 47): read by the page's Python, the answer is the CLI's `--environment` one."""
    page = loaded_check_page
    config = CONFIGS / "llama-3.1-8b.json"
    page.evaluate("document.getElementById('nc-check-environment-box').open = true")
    page.fill("#nc-check-environment", "neuronx-distributed-inference==0.1.0\n")
    try:
        ask(page, config.read_text(encoding="utf-8"))
        shown = shown_json(page)
        assert shown["release"] == "2.21.0" and shown["environment"]["release"] == "2.21.0"
        assert page.locator("#nc-check-result").get_by_text("Neuron release: 2.21.0").count() >= 1
    finally:
        page.fill("#nc-check-environment", "")
