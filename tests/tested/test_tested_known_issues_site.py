"""The known-issues page, its JSON index and the release pages' section, rendered once from the real registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages import known_issues, releases

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def registry():  # type: ignore[no-untyped-def]
    return validate_registry(ROOT / "registry").registry


def test_the_page_has_every_entry_with_a_permalink_and_its_codes_in_the_text(registry) -> None:  # type: ignore[no-untyped-def]
    pages = known_issues.render(registry)
    text = pages[known_issues.PAGE]
    assert len(registry.known_issues.issues) >= 400
    assert text.count('class="nc-issue" id="issue-') == len(registry.known_issues.issues)
    assert 'href="#issue-ncc-eoom001"' in text and "<code>NCC_EOOM001</code>" in text
    assert "<script" not in text.split("</form>", 1)[1]  # registry text is escaped, never HTML


def test_release_pages_list_what_was_known_and_fixed(registry) -> None:  # type: ignore[no-untyped-def]
    known = {i.id for i in known_issues.known_at(registry, "2.28.0")}
    assert any("qwen3-moe-only" in i for i in known)
    fixed = known_issues.fixed_at(registry, "2.27.1")
    assert any("llama-4" in i.id or "Llama 4" in i.title for i in fixed)
    page = releases.release_page(registry, "2.28.0", [])
    assert "Known in this release" in page and "#issue-" in page
