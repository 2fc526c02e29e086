"""The site generator: registry in, {path: content} out. Pure: no I/O, no clock, no environment.

`render_site` returns the generated Markdown pages and data files keyed by their path in the docs
folder, plus the fragments that fill the generation markers of hand-written pages. The pages are drawn in two
halves of about equal cost (`_per_family_pages`, `_registry_pages`); with `processes=2` the first is drawn in a
forked process while this one draws the second (the output is the same: each half is pure).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site.pages import (
    api,
    checkpoints,
    configurations,
    contributing,
    coverage,
    families,
    home,
    instances,
    known_issues,
    matrix,
    release_feed,
    releases,
    stacks,
)
from neuron_compat.site.upstream import HubSnapshot


@dataclass
class RenderedSite:
    files: dict[str, str] = field(default_factory=dict)
    """Generated files by docs-relative path: .md pages (go through mkdocs) and data files (copied as-is)."""
    fragments: dict[str, str] = field(default_factory=dict)
    """Content for `<!-- neuron-compat:NAME -->` markers in hand-written pages, by NAME."""

    def add(self, files: dict[str, str]) -> None:
        for path in files:
            if path in self.files:
                raise ValueError(f"two generators produced {path}")
        self.files.update(files)


FRAGMENT_PAGES = {
    "home": "index.md",
    "schema-reference": "schema.md",
    "api-endpoints": "api.md",
    "glossary-statuses": "glossary.md",
    "family-example": "contributing.md",
}
"""Which hand-written page must carry which marker: a missing or stray marker fails the build."""


PARALLEL_FROM_FAMILIES = 200
"""`processes=None` draws the two halves in two processes from this many families on (below it, forking costs
more than it saves)."""


def render_site(registry: Registry, hub_snapshots: list[HubSnapshot] | None = None,
                processes: int | None = 1) -> RenderedSite:
    """Every generated file and fragment for `registry` (and the optional Hub popularity snapshots). `processes`:
    1 draws everything here; 2 draws the per-family half in a forked process; None picks 2 for a large registry on
    a machine with two cores or more (where `fork` exists), else 1. The result does not depend on it."""
    if processes is None:
        processes = 2 if (os.cpu_count() or 1) > 1 and len(registry.families) >= PARALLEL_FROM_FAMILIES else 1
    if "fork" not in multiprocessing.get_all_start_methods():
        processes = 1
    site = RenderedSite()
    if processes < 2:
        _per_family_pages(site, registry)
        _registry_pages(site, registry, hub_snapshots)
        return site
    global _FORKED
    _FORKED = registry
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
            half = pool.submit(_per_family_pages_forked)
            _registry_pages(site, registry, hub_snapshots)
            drawn = half.result()
    finally:
        _FORKED = None
    site.add(drawn.files)
    site.fragments.update(drawn.fragments)
    return site


def _per_family_pages(site: RenderedSite, registry: Registry) -> None:
    """The family pages, the checkpoint pages and the JSON API (a document and badges per family)."""
    site.add(families.render(registry))
    site.add(configurations.render(registry))
    site.add(known_issues.render(registry))
    site.add(checkpoints.render(registry))
    site.add(api.render(registry))


def _registry_pages(site: RenderedSite, registry: Registry, hub_snapshots: list[HubSnapshot] | None) -> None:
    """The matrix, the release pages and feed, coverage, stacks, instances and the hand-written pages' fragments."""
    site.add(matrix.render(registry))
    all_changes = releases.all_release_changes(registry)  # drawn once for the release pages and their feed
    site.add(releases.render(registry, all_changes))
    site.add(release_feed.render(registry, all_changes))
    site.add(coverage.render(registry, hub_snapshots))
    site.add(stacks.render(registry))
    site.add(instances.render(registry))
    site.fragments["home"] = home.fragment(registry)
    site.fragments["schema-reference"] = contributing.fragment(registry)
    site.fragments["api-endpoints"] = api.fragment(registry)
    site.fragments["glossary-statuses"] = home.glossary_statuses()
    site.fragments["family-example"] = contributing.family_example()


_FORKED: Registry | None = None
"""The registry a forked process draws from (inherited with the process, never pickled)."""


def _per_family_pages_forked() -> RenderedSite:
    assert _FORKED is not None
    site = RenderedSite()
    _per_family_pages(site, _FORKED)
    return site
