"""The site generator: registry in, {path: content} out. Pure: no I/O, no clock, no environment.

`render_site` returns the generated Markdown pages and data files keyed by their path in the docs
folder, plus the fragments that fill the generation markers of hand-written pages.
"""

from __future__ import annotations

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


def render_site(registry: Registry, hub_snapshots: list[HubSnapshot] | None = None) -> RenderedSite:
    """Every generated file and fragment for `registry` (and the optional Hub popularity snapshots)."""
    site = RenderedSite()
    site.add(families.render(registry))
    site.add(matrix.render(registry))
    site.add(configurations.render(registry))
    site.add(known_issues.render(registry))
    site.add(checkpoints.render(registry))
    all_changes = releases.all_release_changes(registry)  # drawn once for the release pages and their feed
    site.add(releases.render(registry, all_changes))
    site.add(release_feed.render(registry, all_changes))
    site.add(coverage.render(registry, hub_snapshots))
    site.add(stacks.render(registry))
    site.add(instances.render(registry))
    site.add(api.render(registry))
    site.fragments["home"] = home.fragment(registry)
    site.fragments["schema-reference"] = contributing.fragment(registry)
    site.fragments["api-endpoints"] = api.fragment(registry)
    site.fragments["glossary-statuses"] = home.glossary_statuses()
    site.fragments["family-example"] = contributing.family_example()
    return site

