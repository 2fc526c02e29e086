"""Lists of checkpoint ids on a family page (its example checkpoints, the checkpoints a constraint or note is scoped
to, its tested configurations) link each checkpoint that has a page to that page, relative to the family page; one
without a page is plain text; the id is registry text and stays escaped either way. In-process: the renderer,
no site build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site import render_site
from neuron_compat.site.pages import families
from neuron_compat.site.support import ReleaseView
from neuron_compat.site.tested_data import checkpoint_links

HOSTILE = "evil/<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def registry(site_registry: Path):
    result = validate_registry(site_registry)
    assert not result.problems, [p.format() for p in result.problems]
    return result.registry


def _section(page: str, heading: str) -> str:
    """The HTML of one row of the identifiers table (`heading` is its header cell)."""
    match = re.search(rf'<th scope="row">{re.escape(heading)}</th>\s*<td>(.*?)</td>', page)
    assert match is not None, heading
    return match.group(1)


def test_example_checkpoints_link_to_their_pages(registry) -> None:
    files = render_site(registry).files
    page = files["families/qwen3.md"]
    examples = _section(page, "Example checkpoints")
    assert examples == ('<a href="../../checkpoints/Qwen/Qwen3-8B/" data-nc-checkpoint><code>Qwen/Qwen3-8B</code></a> '
                        '<a href="../../checkpoints/Qwen/Qwen3-Embedding-0.6B/" data-nc-checkpoint>'
                        '<code>Qwen/Qwen3-Embedding-0.6B</code></a>')
    # the link is the page the site writes, resolved from the family page's directory URL (families/qwen3/)
    assert "checkpoints/Qwen/Qwen3-8B/index.md" in files and "checkpoints/Qwen/Qwen3-Embedding-0.6B/index.md" in files
    # the note scoped to one checkpoint names it as a link too
    scoped = re.search(r'<span class="nc-applies-to" data-nc-applies-to>(.*?)</span>', page)
    assert scoped is not None
    assert scoped.group(1) == ('(only for feature-extraction; <a href="../../checkpoints/Qwen/Qwen3-Embedding-0.6B/" '
                               'data-nc-checkpoint>Qwen/Qwen3-Embedding-0.6B</a>)')
    # a tested configuration's checkpoint links to its page
    assert '<a href="../../checkpoints/Qwen/Qwen3-8B/"><code>Qwen/Qwen3-8B</code></a>' in page


def test_only_checkpoints_with_a_page_get_a_link(registry) -> None:
    links = checkpoint_links(registry, ["Qwen/Qwen3-8B", "qwen/qwen3-8b", "nobody/No-Page", HOSTILE], "families/qwen3/")
    assert links == {"Qwen/Qwen3-8B": "../../checkpoints/Qwen/Qwen3-8B/",
                     "qwen/qwen3-8b": "../../checkpoints/Qwen/Qwen3-8B/"}  # same page, as `check` matches ids


def _page_of(registry, family) -> str:  # type: ignore[no-untyped-def]
    return families.family_page(registry, family, ReleaseView(registry, registry.newest_release))


def test_a_checkpoint_without_a_page_is_plain_escaped_text(registry) -> None:
    qwen3 = registry.family_by_id["qwen3"]
    family = qwen3.model_copy(update={"examples": ["Qwen/Qwen3-8B", "nobody/No-Page", HOSTILE]})
    examples = _section(_page_of(registry, family), "Example checkpoints")
    assert examples == ('<a href="../../checkpoints/Qwen/Qwen3-8B/" data-nc-checkpoint><code>Qwen/Qwen3-8B</code></a> '
                        '<code>nobody/No-Page</code> <code>evil/&lt;img src=x onerror=alert(1)&gt;</code>')


def test_a_linked_checkpoint_id_stays_escaped(registry, monkeypatch: pytest.MonkeyPatch) -> None:
    """Were a page ever written for an id with markup in it (validation refuses such ids), the link's text and
    its URL are escaped, never markup."""
    monkeypatch.setattr(families, "checkpoint_links",
                        lambda _registry, ids, _url: {i: f"../../checkpoints/{i}/" for i in ids})
    family = registry.family_by_id["qwen3"].model_copy(update={"examples": [HOSTILE]})
    page = _page_of(registry, family)
    assert "<img" not in page
    assert _section(page, "Example checkpoints") == (
        '<a href="../../checkpoints/evil/&lt;img src=x onerror=alert(1)&gt;/" data-nc-checkpoint>'
        '<code>evil/&lt;img src=x onerror=alert(1)&gt;</code></a>')


def test_coverage_lists_a_hub_model_with_a_page_by_a_link_to_it(registry, tmp_path: Path) -> None:
    """The coverage page's lists of missing Hub models: one with a checkpoint page links to it, one of a known
    family without a page links to the family, another is plain text."""
    import yaml

    from neuron_compat.site.upstream import load_hub_snapshots

    (tmp_path / "upstream").mkdir()
    (tmp_path / "upstream" / "hub-top-text-generation.yaml").write_text(yaml.safe_dump({
        "title": "Top text-generation models", "source": "https://huggingface.co/models", "taken": "2026-12-01",
        "models": [{"id": "Qwen/Qwen3-8B", "model_type": "qwen3", "downloads": 10},
                   {"id": "Qwen/Qwen3-32B", "model_type": "qwen3", "downloads": 7},
                   {"id": "someone/other", "model_type": "gpt2", "downloads": 5}]}), encoding="utf-8")
    page = render_site(registry, load_hub_snapshots(tmp_path)).files["coverage.md"]
    missing = re.findall(r'<p class="nc-missing-list">(.*?)</p>', page)
    with_qwen = [m for m in missing if "Qwen/Qwen3-8B" in m]
    assert with_qwen
    for listed in with_qwen:
        assert '<a href="../checkpoints/Qwen/Qwen3-8B/"><code>Qwen/Qwen3-8B</code></a>' in listed
        assert '<a href="../families/qwen3/"><code>Qwen/Qwen3-32B</code></a>' in listed
        assert "<code>someone/other</code>" in listed and 'other</code></a>' not in listed
