"""Fixtures of the `neuron-compat check` tests: a fake Hub on 127.0.0.1, its environment, a closed port."""

from __future__ import annotations

import socket

import pytest
from check_helpers import clean_env, config_text
from fake_hub import FakeHub


@pytest.fixture
def fake_hub():
    hub = FakeHub()
    hub.add("Qwen/Qwen3-8B", {"config.json": config_text("qwen3-8b.json")}, revisions={"main": "1" * 40, "v1.0": "2" * 40})
    hub.add("meta-llama/Llama-3.1-8B", {"config.json": config_text("llama-3.1-8b.json")}, gated=True)
    hub.add("stabilityai/stable-diffusion-xl-base-1.0",
            {"model_index.json": config_text("sdxl-base-1.0-model_index.json")}, redirect=True)
    hub.add("acme/no-config", {"README.md": "# nothing to see"})
    hub.add("acme/slow", {"config.json": config_text("bert-base-uncased.json")}, delay=3.0)
    hub.add("acme/broken", {"config.json": '{"model_type": "llama",'})
    hub.add("acme/sizeless", {"config.json": config_text("bert-base-uncased.json")}, sizeless=True)
    hub.add("acme/huge", {"config.json": b'{"model_type": "llama", "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'})
    hub.start()
    yield hub
    hub.stop()


@pytest.fixture
def hub_env(fake_hub, tmp_path):
    """Environment for a CLI run against the fake Hub, with an empty cache of its own and short timeouts."""
    return clean_env(HF_ENDPOINT=fake_hub.url, HF_HOME=str(tmp_path / "hf-home"),
                     HF_HUB_ETAG_TIMEOUT="2", HF_HUB_DOWNLOAD_TIMEOUT="2")


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- the website's check page ---------------------------------------------------------------------------

@pytest.fixture(scope="session")
def check_site(tmp_path_factory):
    """The site built from the check registry (tests/check/registry), the way tests/site builds it.

    The site tests' `built_site` uses a different registry (and its fixtures are not visible from here); this
    build takes about 4 s and gives the check page every family the fixture configs need.
    """
    from check_helpers import CHECK_REGISTRY
    from engine_build import made_once, pyodide_dir, site_builder

    return made_once(tmp_path_factory, "check-site", site_builder(CHECK_REGISTRY, pyodide_dir())) / "out"


@pytest.fixture(scope="session")
def check_site_url(check_site):
    from static_server import serving

    with serving(check_site) as url:
        yield url


@pytest.fixture
def check_page(loopback_context):
    """A fresh page that can reach only the loopback server; page errors are collected in page.errors."""
    page = loopback_context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


@pytest.fixture(scope="module")
def _module_check_page(chromium, check_site_url):
    from loopback import new_loopback_context

    context = new_loopback_context(chromium)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(check_site_url + "check/")
    page.wait_for_selector("#nc-check[data-ready=yes]", timeout=15000)
    yield page
    context.close()


@pytest.fixture
def loaded_check_page(_module_check_page):
    """The module's one check page, already open (its Python, once loaded, stays loaded): for tests that only
    ask questions through the controls (ask() sets every control each time), so Python boots once per module
    instead of once per test. Its page.errors is emptied for each test."""
    page = _module_check_page
    page.errors.clear()
    page.evaluate("document.getElementById('nc-check').removeAttribute('data-limit-ms')")
    return page


@pytest.fixture(scope="session")
def artifacts_dir():
    from check_helpers import ROOT

    path = ROOT / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
