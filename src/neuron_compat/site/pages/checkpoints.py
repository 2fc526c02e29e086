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
from neuron_compat.site.pages.families import support_overview
from neuron_compat.site.support import ReleaseView
from neuron_compat.site.tested_data import configuration_rows, family_issues


def checkpoint_page_path(hub_id: str) -> str:
    return f"checkpoints/{hub_id}.md"


def checkpoints(registry: Registry) -> dict[str, str]:
    """Hub id -> family id, for every checkpoint with a page (first family wins when two name it)."""
    found: dict[str, str] = {}
    for family in registry.families:
        for example in family.examples:
            found.setdefault(example, family.id)
    for file in registry.configuration_files:
        for c in file.configurations:
            if c.hub_id and c.family in registry.family_by_id:
                found.setdefault(c.hub_id, c.family)
    return found


def _applies(applies_to: Any, hub_id: str, family: Family) -> bool:
    if applies_to is None:
        return True
    return hub_id in applies_to.checkpoints or bool(set(applies_to.tasks) & set(getattr(family, "tasks", []) or []))


def _constraints(family: Family, hub_id: str) -> list[dict[str, str]]:
    found: list[dict[str, str]] = []
    for statement in family.support:
        for constraint in getattr(statement, "constraints", []) or []:
            if _applies(constraint.applies_to, hub_id, family):
                found.append({"where": f"{statement.stack} · {statement.workload}", "kind": str(constraint.kind),
                              "name": constraint.name or "", "value": "" if constraint.value is None
                              else str(constraint.value), "note": constraint.note or ""})
    return found


def checkpoint_page(registry: Registry, hub_id: str, family: Family, view: ReleaseView) -> str:
    url = urls.page_url(checkpoint_page_path(hub_id))
    rows = [r for r in configuration_rows(registry, family.id) if (r["hub_id"] or "").casefold() == hub_id.casefold()]
    return page(
        front_matter(title=escape(hub_id), search={"boost": 2}),
        heading(1, hub_id),
        block("checkpoint_head.html.j2", hub_id=hub_id, family=family,
              family_url=urls.relative_url(urls.family_url(family.id), url)),
        heading(2, "Answer per stack and hardware", "answer"),
        block("family_overview.html.j2", rows=support_overview(registry, family, view),
              release=registry.newest_release),
        heading(2, "Tested configurations", "tested"),
        block("family_tested.html.j2", rows=rows, labels=METRIC_LABELS,
              all_url=urls.relative_url("configurations/", url),
              compile_times=[], checkpoint_urls={}, whose="checkpoint"),
        heading(2, "Constraints and known issues", "constraints"),
        block("checkpoint_issues.html.j2", constraints=_constraints(family, hub_id),
              issues=family_issues(registry, family.id)),
    )


def render(registry: Registry) -> dict[str, str]:
    view = ReleaseView(registry, registry.newest_release)
    return {checkpoint_page_path(hub_id): checkpoint_page(registry, hub_id, registry.family_by_id[family_id], view)
            for hub_id, family_id in sorted(checkpoints(registry).items())}
