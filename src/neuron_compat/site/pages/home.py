"""The home page's generated part: what the site answers in numbers, a search box and the check box."""

from __future__ import annotations

from neuron_compat.contract.vocabulary import is_claim
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.freshness import Freshness
from neuron_compat.site.support import CurrentView
from neuron_compat.site.templating import html_block, render
from neuron_compat.views.at_release import release_changes


def share(part: int, whole: int) -> str:
    """'12%' (rounded to a whole percent; '<1%' rather than a misleading 0% for a few), '–' for nothing."""
    if whole == 0:
        return "–"
    percent = round(100 * part / whole)
    if part and percent == 0:
        return "<1%"
    return f"{percent}%"


def fragment(registry: Registry) -> str:
    release = registry.newest_release
    statements = sum(len(f.support) for f in registry.families)
    view = CurrentView(registry)
    supported = sum(
        1 for family in registry.families
        if any(is_claim(h.status) for h in view.held(family))
    )
    changes = release_changes(registry, release) if release else []
    freshness = Freshness.of(registry)
    all_statements = [s for f in registry.families for s in f.support]
    unknown = sum(1 for s in all_statements if str(s.status) == "unknown")
    stale = sum(1 for s in all_statements if freshness.is_stale(s))
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
        unknown=unknown,
        unknown_share=share(unknown, statements),
        stale=stale,
        stale_share=share(stale, statements),
        freshness=freshness,
    )
    return html_block(html)


def glossary_statuses() -> str:
    """The glossary's statuses, from the labels and descriptions every page draws them with (presentation.py)."""
    from html import escape

    from neuron_compat.site.presentation import CELL_STYLES, STATUS_STYLES

    lines = []
    for name, style in (STATUS_STYLES | CELL_STYLES).items():
        lines.append(f'<dt id="status-{escape(name, quote=True)}">{escape(style.label)}</dt>'
                     f"<dd>{escape(style.description)}</dd>")
    return "\n".join(lines)
