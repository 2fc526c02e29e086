"""Fixtures of the website tests: a registry to build from, the built site, a server, a browser.

The site is built once per session (`mkdocs build --strict` in a subprocess, exactly as a person runs
it) from a temporary copy of tests/fixtures/registry plus the site-test families in fixtures/families/, with the
check page's Python runtime served from the site when the machine has it (.ci/run installs it), so the check page
answers offline. NEURON_COMPAT_SITE_REGISTRY points the tests at another registry (e.g. ./registry) instead.
`real_site` is the one build of the repository's own registry, the README's way, shared by the tests that need
every family. Under pytest-xdist each of these is made once per run, by the first worker that asks
(engine_build.made_once); the others read the same folder.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import static_server
from engine_build import REPO, available_pyodide, kept_log, made_once, readme_build, site_builder
from site_helpers import ARTIFACTS, inject_hostile, make_registry, make_stale_registry


@pytest.fixture(scope="session")
def site_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("NEURON_COMPAT_SITE_REGISTRY")
    if chosen:
        return Path(chosen).resolve()
    return made_once(tmp_path_factory, "registry", lambda folder: make_registry(folder / "registry")) / "registry"


@pytest.fixture(scope="session")
def built_site(site_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, "site", site_builder(site_registry, available_pyodide())) / "out"


@pytest.fixture(scope="session")
def real_site(site_registry: Path, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """The site of the repository's registry (every family), built once per session: the session's `built_site`
    when NEURON_COMPAT_SITE_REGISTRY already points there."""
    if site_registry == (REPO / "registry").resolve():
        return Path(request.getfixturevalue("built_site"))
    def build(folder: Path) -> None:
        kept_log(folder, readme_build(folder / "out", pyodide=available_pyodide()))
    return made_once(tmp_path_factory, "real-site", build) / "out"


@pytest.fixture(scope="session")
def stale_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site-test registry with one claim last verified before every release (see make_stale_registry)."""
    return made_once(tmp_path_factory, "stale", lambda folder: make_stale_registry(folder / "registry")) / "registry"


@pytest.fixture(scope="session")
def stale_site(stale_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, "stale-site", site_builder(stale_registry)) / "out"


@pytest.fixture(scope="session")
def hostile_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(folder: Path) -> None:
        inject_hostile(make_registry(folder / "registry"))
    return made_once(tmp_path_factory, "hostile", make) / "registry"


@pytest.fixture(scope="session")
def hostile_site(hostile_registry: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(tmp_path_factory, "hostile-site", site_builder(hostile_registry)) / "out"


@pytest.fixture(scope="session")
def serve() -> Iterator[object]:
    """serve(directory) -> base URL of a threading http.server on 127.0.0.1 and a free port (static_server),
    stopped at the end of the session."""
    with contextlib.ExitStack() as servers:
        yield lambda directory: servers.enter_context(static_server.serving(directory))


@pytest.fixture
def site_page(loopback_context: object) -> object:
    """A fresh page (own context) that can reach only the loopback server."""
    return loopback_context.new_page()  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
