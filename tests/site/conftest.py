"""Fixtures of the website tests: a registry to build from, the built site, a server, a browser.

The site is built once per session (`mkdocs build --strict` in a subprocess, exactly as a person runs
it) from a temporary copy of tests/fixtures/registry plus the site-test families in fixtures/families/, with the
check page's Python runtime served from the site when the machine has it (.ci/run installs it), so the check page
answers offline. NEURON_COMPAT_SITE_REGISTRY points the tests at another registry (e.g. ./registry) instead.
`real_site` is the one build of the repository's own registry, shared by the tests that need every family.
"""

from __future__ import annotations

import functools
import http.server
import os
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_build import REPO, available_pyodide
from site_helpers import ARTIFACTS, build_site, inject_hostile, make_registry, make_stale_registry


@pytest.fixture(scope="session")
def site_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("NEURON_COMPAT_SITE_REGISTRY")
    if chosen:
        return Path(chosen).resolve()
    return make_registry(tmp_path_factory.mktemp("registry") / "registry")


@pytest.fixture(scope="session")
def built_site(site_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("site") / "out"
    result = build_site(site_registry, output, pyodide=available_pyodide())
    assert result.returncode == 0, result.stderr
    return output


@pytest.fixture(scope="session")
def real_site(site_registry: Path, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """The site of the repository's registry (every family), built once per session: the session's `built_site`
    when NEURON_COMPAT_SITE_REGISTRY already points there."""
    if site_registry == (REPO / "registry").resolve():
        return Path(request.getfixturevalue("built_site"))
    output = tmp_path_factory.mktemp("real-site") / "out"
    result = build_site(REPO / "registry", output, pyodide=available_pyodide())
    assert result.returncode == 0, result.stderr[-3000:]
    return output


@pytest.fixture(scope="session")
def stale_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site-test registry with one claim last verified before every release (see make_stale_registry)."""
    return make_stale_registry(tmp_path_factory.mktemp("stale") / "registry")


@pytest.fixture(scope="session")
def stale_site(stale_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    output = tmp_path_factory.mktemp("stale-site") / "out"
    result = build_site(stale_registry, output)
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
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,  # noqa: RUF012
                      ".wasm": "application/wasm", ".mjs": "text/javascript"}  # the check page's Python runtime

    def log_message(self, format: str, *args: object) -> None:
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


@pytest.fixture
def site_page(loopback_context: object) -> object:
    """A fresh page (own context) that can reach only the loopback server."""
    return loopback_context.new_page()  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
