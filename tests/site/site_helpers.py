"""Helpers of the website tests: build a registry copy, build the site, inject hostile text.

Named site_helpers (not conftest) so that test modules can import it without clashing with the
conftest modules of other test directories.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import urllib.request
from pathlib import Path

from engine_build import build_site, mkdocs_build, write_tree, zensical_build

__all__ = ["build_site", "mkdocs_build", "write_tree", "zensical_build"]

REPO = Path(__file__).resolve().parents[2]
BASE_REGISTRY = REPO / "tests" / "fixtures" / "registry"
SITE_FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPOSITORY_INSTANCES = REPO / "registry" / "instances.yaml"
ARTIFACTS = REPO / "test-artifacts"


SITE_DATA_VERSION = "2026.11.3"
"""The data version of tests/site/fixtures/registry.yaml, which make_registry adds to the copy."""

OLD_VERIFIED = "2024-06-01"
"""Before the oldest fixture release (2.20.0, 2024-09-16): a claim verified then is stale under any policy."""


def make_registry(target: Path) -> Path:
    """A copy of the shared fixture registry with the site-test families, capability files and registry.yaml
    added (a site-test file replaces the shared one of that name)."""
    shutil.copytree(BASE_REGISTRY, target)
    for folder in ("families", "capabilities"):
        for path in sorted((SITE_FIXTURES / folder).glob("*.yaml")):
            shutil.copy(path, target / folder / path.name)
    shutil.copy(SITE_FIXTURES / "registry.yaml", target / "registry.yaml")
    if REPOSITORY_INSTANCES.exists():  # the configurations page's rows, and the instances those rows name
        shutil.copytree(SITE_FIXTURES / "configurations", target / "configurations")
        shutil.copy(REPOSITORY_INSTANCES, target / "instances.yaml")
    return target


def make_stale_registry(target: Path) -> Path:
    """make_registry, with qwen3's first statement (nxd-inference, trn2) last verified on OLD_VERIFIED."""
    make_registry(target)
    family = target / "families" / "qwen3.yaml"
    text = family.read_text(encoding="utf-8")
    assert text.count("verified: 2026-12-02") == 4, "tests/site/fixtures/families/qwen3.yaml changed shape"
    family.write_text(text.replace("verified: 2026-12-02", f"verified: {OLD_VERIFIED}", 1), encoding="utf-8")
    return target


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


# --- a real `mkdocs serve` in the tests: a port, a page, stopping it --------------------------------------------

def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch_text(url: str) -> str:
    """The page at `url` as text, or "" while nothing answers there (2 s timeout)."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a server started with start_new_session=True and everything it started: SIGTERM, then SIGKILL."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
