"""The home page's generated part: what the site answers in numbers, a search box and the check box."""

from __future__ import annotations

from ...registry import Registry
from ...views import release_changes
from .. import urls
from ..support import CurrentView
from ..templating import html_block, render


def fragment(registry: Registry) -> str:
    release = registry.newest_release
    statements = sum(len(f.support) for f in registry.families)
    view = CurrentView(registry)
    supported = sum(
        1 for family in registry.families
        if any(h.status in ("supported", "supported-with-requirements", "partial") for h in view.held(family))
    )
    changes = release_changes(registry, release) if release else []
    html = render(
        "home.html.j2",
        release=release,
        release_url=urls.release_url(release) if release else None,
        families=len(registry.families),
        statements=statements,
        stacks=len(registry.stacks),
        releases=len(registry.releases),
        supported=supported,
        changes=len(changes),
    )
    return html_block(html)
