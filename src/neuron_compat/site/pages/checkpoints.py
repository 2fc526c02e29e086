"""A page per checkpoint (checkpoints/<org>/<name>/): every Hub checkpoint named by a tested configuration or as a
family example, with the family's answer per stack and hardware, its tested configurations and measurements, the
constraints and known issues that apply to it, and a link to its family."""

from __future__ import annotations

from html import escape
from typing import Any

from neuron_compat.contract.models import Family
from neuron_compat.contract.tested_configurations import METRIC_LABELS
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.pages.families import redirect_page, support_overview
from neuron_compat.site.performance_charts import all_series, series_blocks
from neuron_compat.site.support import CurrentView
from neuron_compat.site.tested_data import checkpoint_pages, configuration_rows, family_issues, names_of
from neuron_compat.views.answer import family_answers


def checkpoint_page_path(hub_id: str) -> str:
    return urls.checkpoint_page(hub_id)


def checkpoints(registry: Registry) -> dict[str, str]:
    """Hub id -> family id, for every checkpoint with a page (first family wins when two name it)."""
    return checkpoint_pages(registry)


def scope(applies_to: Any, hub_id: str) -> str | None:
    """How a constraint or note with this `applies_to` concerns the checkpoint: 'the whole family', 'this
    checkpoint', 'only for task(s) ...' (the checkpoint's own task is not recorded), or None when it is scoped to
    other checkpoints only."""
    if applies_to is None:
        return "the whole family"
    if hub_id in applies_to.checkpoints:
        return "this checkpoint"
    if applies_to.tasks:
        return "only when served for " + ", ".join(str(task) for task in applies_to.tasks)
    return None


def scoped_items(family: Family, hub_id: str) -> list[dict[str, str]]:
    """The constraints and notes of the family's statements that concern the checkpoint, each with its scope."""
    found: list[dict[str, str]] = []
    for statement in family.support:
        where = f"{statement.stack} · {statement.workload}"
        for constraint in statement.constraints:
            said = scope(constraint.applies_to, hub_id)
            if said is not None:
                value = "" if constraint.value is None else str(constraint.value)
                found.append({"where": where, "scope": said, "kind": str(constraint.kind),
                              "name": constraint.name or "", "value": value, "text": constraint.note or ""})
        for note in statement.notes:
            said = scope(note.applies_to, hub_id)
            if said is not None and note.applies_to is not None:  # family-wide notes are on the family page
                found.append({"where": where, "scope": said, "kind": "note", "name": "", "value": "",
                              "text": note.text})
    return found


def _series_parts(registry: Registry, family: Family, names: set[str]) -> list[str]:
    """The checkpoint's performance series (site/performance_charts.py), when it has any."""
    series = series_blocks(all_series(registry), family=family.id, names=names)
    if not series:
        return []
    return [heading(2, "Performance over releases", "performance-series"),
            block("family_series.html.j2", series=series)]


def checkpoint_page(registry: Registry, hub_id: str, family: Family, today: CurrentView) -> str:
    url = urls.page_url(checkpoint_page_path(hub_id))
    names = names_of(registry, hub_id)  # its current name and any old one: runs under either are this checkpoint's
    rows = [r for r in configuration_rows(registry, family.id) if (r["hub_id"] or "").casefold() in names]
    also = sorted(alias.old for alias in (registry.checkpoint_aliases.aliases if registry.checkpoint_aliases else ())
                  if alias.current.casefold() == hub_id.casefold())
    return page(
        front_matter(title=escape(hub_id), search={"boost": 2}),
        heading(1, hub_id),
        block("checkpoint_head.html.j2", hub_id=hub_id, family=family,
              family_url=urls.relative_url(urls.family_url(family.id), url), also_named=also),
        heading(2, "Answer per stack and hardware", "answer"),
        block("family_overview.html.j2", rows=support_overview(registry, family, today),
              release=registry.newest_release, answers=family_answers(registry, family)),
        heading(2, "Tested configurations", "tested"),
        block("family_tested.html.j2", rows=rows, labels=METRIC_LABELS,
              all_url=urls.relative_url("configurations/", url),
              compile_times=[], checkpoint_urls={}, whose="checkpoint"),
        *_series_parts(registry, family, names),
        heading(2, "Constraints and known issues", "constraints"),
        block("checkpoint_issues.html.j2", constraints=scoped_items(family, hub_id),
              issues=family_issues(registry, family.id),
              issues_url=urls.relative_url(urls.family_url(family.id, "known-issues"), url)),
    )


def render(registry: Registry) -> dict[str, str]:
    today = CurrentView(registry)
    pages = {checkpoint_page_path(hub_id): checkpoint_page(registry, hub_id, registry.family_by_id[family_id], today)
             for hub_id, family_id in sorted(checkpoints(registry).items())}
    with_page = {hub_id.casefold(): hub_id for hub_id in checkpoints(registry)}
    for alias in registry.checkpoint_aliases.aliases if registry.checkpoint_aliases else ():
        current = with_page.get(alias.current.casefold())
        if current is not None and alias.old.casefold() not in with_page:  # the old name's page forwards
            folder = checkpoint_page_path(alias.old).rsplit("/", 1)[0]
            target = urls.relative_url(urls.checkpoint_url(current), urls.checkpoint_url(alias.old))
            pages.setdefault(f"{folder}/index.html", redirect_page(target))
    return pages
