"""Fixtures of the website tests: a registry to build from, the built site, a server, a browser.

The site is built once per session (`mkdocs build --strict` in a subprocess, exactly as a person runs
it) from a temporary copy of tests/fixtures/registry plus the site-test families in fixtures/families/.
NEURON_COMPAT_SITE_REGISTRY points the tests at another registry (e.g. ./registry) instead.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import socketserver
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BASE_REGISTRY = REPO / "tests" / "fixtures" / "registry"
SITE_FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def make_registry(target: Path) -> Path:
    """A copy of the shared fixture registry with the site-test families added."""
    shutil.copytree(BASE_REGISTRY, target)
    for path in sorted((SITE_FIXTURES / "families").glob("*.yaml")):
        shutil.copy(path, target / "families" / path.name)
    return target


def build_site(registry: Path, output: Path, cwd: Path | None = None,
               extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the repository's mkdocs.yml against `registry`, into `output`."""
    env = {**os.environ, "NEURON_COMPAT_REGISTRY": str(registry), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("SOURCE_DATE_EPOCH", None)
    env.update(extra_env or {})
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"), "-d", str(output)],
        cwd=cwd or REPO, env=env, capture_output=True, text=True, timeout=300,
    )


def inject_hostile(registry: Path) -> None:
    """Registry text that passes validation but would execute if it were ever treated as markup."""
    family = registry / "families" / "custom-phi.yaml"
    text = family.read_text(encoding="utf-8")
    text = text.replace(
        "name: Custom Phi",
        "name: 'Custom Phi {: onclick=\"window.__pwned=1\" } &lt;img src=x onerror=window.__pwned=2&gt;"
        "&lt;/title&gt;&lt;script&gt;window.__pwned=9&lt;/script&gt;'\n"
        "description: '{: onclick=\"window.__pwned=3\" } **bold** see [docs](https://example.com/\" onclick=\"window.__pwned=4)'\n"
        "aliases: ['x\" onmouseover=\"window.__pwned=5']",
    )
    text = text.replace(
        "      - text: The custom attention module does not trace.",
        "      - text: 'Hostile note: javascript:window.__pwned=6 [run](https://example.com/#\" onfocus=\"window.__pwned=7) "
        "*emphasis* and `code` &amp done'",
    )
    text = text.replace(
        "        kind: community-report",
        "        title: 'Report \" onmouseover=\"window.__pwned=8'\n        kind: community-report",
    )
    family.write_text(text, encoding="utf-8")


@pytest.fixture(scope="session")
def site_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("NEURON_COMPAT_SITE_REGISTRY")
    if chosen:
        return Path(chosen).resolve()
    return make_registry(tmp_path_factory.mktemp("registry") / "registry")


@pytest.fixture(scope="session")
def built_site(site_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("site") / "out"
    result = build_site(site_registry, output)
    assert result.returncode == 0, result.stderr
    return output


@pytest.fixture(scope="session")
def hostile_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    registry = make_registry(tmp_path_factory.mktemp("hostile") / "registry")
    inject_hostile(registry)
    return registry


@pytest.fixture(scope="session")
def hostile_site(hostile_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("hostile-site") / "out"
    result = build_site(hostile_registry, output)
    assert result.returncode == 0, result.stderr
    return output


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - signature of the base class
        pass


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


@pytest.fixture(scope="session")
def serve() -> Iterator[object]:
    """serve(directory) -> base URL of a threading http.server on 127.0.0.1 and a free port."""
    servers: list[_Server] = []

    def start(directory: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(directory))
        server = _Server(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install chromium (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def site_page(site_browser: object) -> Iterator[object]:
    """A fresh page (own context) that can reach only the loopback server."""
    context = site_browser.new_context(viewport={"width": 1300, "height": 1000})  # type: ignore[attr-defined]
    # No network beyond the loopback server: block anything else (Material asks GitHub for repo stars).
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1")
                  else route.abort())
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
