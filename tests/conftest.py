"""Fixtures shared by every test directory.

One Chromium for the whole run: Playwright's sync API allows a single instance per thread, so the site,
check-page and hostile-content tests all borrow this one instead of starting their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback import new_loopback_context

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Debian's chromium driven by Playwright (never a downloaded browser). Skipped locally when it is not
    installed; under CI (CI=true) its absence is a failure, since .ci/run installs it."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: CI must install chromium (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def loopback_context(chromium: object) -> Iterator[object]:
    """A fresh loopback-only browser context (new_loopback_context) for one test."""
    context = new_loopback_context(chromium)
    yield context
    context.close()  # type: ignore[attr-defined]
