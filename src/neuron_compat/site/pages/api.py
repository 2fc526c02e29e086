"""Machine-readable output: the registry, one JSON per family, the JSON Schemas and badge endpoints.

`api/registry.json` is exactly `export.registry_to_json` (the check page reads it). Family files wrap the
same family object with fields computed at the newest release, named apart under "computed".
"""

from __future__ import annotations

import json
from typing import Any

from neuron_compat.contract.json_schema import ALL_SCHEMA_MODELS, schema_text
from neuron_compat.contract.vocabulary import is_supported
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.publishing.registry_document import dumps, family_to_json, registry_to_json
from neuron_compat.site import urls
from neuron_compat.site.pages.configurations import CONFIGURATIONS_JSON
from neuron_compat.site.pages.instances import INSTANCES_JSON
from neuron_compat.site.pages.matrix import MATRIX_JSON
from neuron_compat.site.presentation import status_style
from neuron_compat.site.search_identifiers import SEARCH_IDENTIFIERS_JSON, identifier_index
from neuron_compat.site.support import ReleaseView, best_status, combinations, current_release
from neuron_compat.site.templating import html_block
from neuron_compat.site.templating import render as render_template
from neuron_compat.views.answer import answer_json, best, family_answers
from neuron_compat.views.at_release import ENDED, NO_STATEMENT, NOT_YET
from neuron_compat.views.recommendation import Recommendation

REGISTRY_JSON = "api/registry.json"


def badge(registry: Registry, family_id: str, stack_id: str, workload: str,
          view: ReleaseView | None = None, found: list[Recommendation] | None = None) -> dict[str, Any]:
    """A shields.io endpoint document for one family x stack x workload today: the family's answer
    (views.answer) where it picks this stack, else the stack read at its current release (support.current_release:
    the newest release, or the one a separately released stack's newest version targets)."""
    family = registry.family_by_id[family_id]
    stack = registry.stack_by_id[stack_id]
    found = found if found is not None else family_answers(registry, family)  # today's, shared (only `workload`'s are read)
    picked = [a for a in found if a.workload == workload and a.stack == stack_id and a.release is not None]
    if picked:
        chosen = best(picked)
        assert chosen is not None
        where = ", ".join(a.hardware for a in picked if a.status == chosen.status)
        version = f" {chosen.stack_version}" if chosen.stack_version else ""
        message = f"{status_style(chosen.status).label.lower()}{version} on Neuron {chosen.release} ({where})"
        return {"schemaVersion": 1, "label": f"{stack.id} {workload}", "message": message,
                "color": status_style(chosen.status).badge_color}
    at = current_release(registry, stack)
    if view is None or view.release != at:
        view = ReleaseView(registry, at)
    state = view.cell(family, stack_id, workload)
    current = state.held
    status = best_status(current)
    message = status_style(status).label.lower()
    sinces = sorted({h.statement.since for h in current if h.statement.since and h.status == status})
    if is_supported(status) and sinces:
        message += f" since {sinces[0]}"
    if state.kind == ENDED:
        message = f"ended at {state.release}"
    return {
        "schemaVersion": 1,
        "label": f"{stack.id} {workload}",
        "message": message,
        "color": status_style(status).badge_color,
    }


def family_document(registry: Registry, family_id: str, view: ReleaseView | None = None,
                    found: list[Recommendation] | None = None) -> dict[str, Any]:
    family = registry.family_by_id[family_id]
    found = found if found is not None else family_answers(registry, family)
    release = registry.newest_release
    view = view or ReleaseView(registry, release)
    computed = []
    for stack, workload in combinations(registry):
        state = view.cell(family, stack.id, workload)
        current = state.held
        if state.kind == NO_STATEMENT:
            continue
        computed.append({
            "stack": stack.id,
            "workload": workload,
            "statuses": sorted({h.status for h in current}) or ["none"],
            "reasons": sorted({h.reason for h in current if h.reason}),
            "hardware": sorted({hw for h in current for hw in h.hardware}),
            "state": state.kind,
            "ended_at": state.release if state.kind == ENDED else None,
            "held_through": state.held_through,
            "starts_at": state.release if state.kind == NOT_YET else None,
            "anchor": f"{stack.id}-{workload}",
            "badge": urls.badge_json(family.id, stack.id, workload),
        })
    return {
        "format": 1,
        "data_version": registry.meta.data_version if registry.meta else None,
        "newest_release": release,
        "family": family_to_json(family, registry),
        "computed": {"page": urls.family_url(family.id), "at_newest_release": computed,
                     "answers": [{**answer_json(a), "why": a.why} for a in found]},
    }


def render(registry: Registry) -> dict[str, str]:
    files = {REGISTRY_JSON: dumps(registry_to_json(registry))}
    # compact: the header search fetches it on first use
    files[SEARCH_IDENTIFIERS_JSON] = json.dumps(identifier_index(registry.families, registry), ensure_ascii=False,
                                                separators=(",", ":"), allow_nan=False) + "\n"
    view = ReleaseView(registry, registry.newest_release)
    views = current_views(registry)
    for kind in ALL_SCHEMA_MODELS:
        files[urls.schema_json(kind)] = schema_text(kind)
    for family in registry.families:
        found = family_answers(registry, family)
        files[urls.family_json(family.id)] = dumps(family_document(registry, family.id, view, found))
        for stack, workload in combinations(registry):
            document = badge(registry, family.id, stack.id, workload, views.get(current_release(registry, stack)), found)
            files[urls.badge_json(family.id, stack.id, workload)] = (
                json.dumps(document, ensure_ascii=False, allow_nan=False) + "\n"
            )
    return files


def current_views(registry: Registry) -> dict[str | None, ReleaseView]:
    """A ReleaseView at each stack's current release (support.current_release), for the badges."""
    return {release: ReleaseView(registry, release) for release in {current_release(registry, s) for s in registry.stacks}}


def informative_example(registry: Registry) -> tuple[object, dict[str, str] | None]:
    """The family and badge the API page shows: a claim a reader recognises (a stack in use before an ended one,
    supported before partial, then the family with the most statements), not whatever sorts first (an
    "afmoe: no statement")."""
    from neuron_compat.site.presentation import STACK_STATUS_RANK

    colours = {"brightgreen": 0, "green": 0, "yellow": 1}
    ranked = sorted(registry.families, key=lambda f: (-len(f.support), f.id))
    best: tuple[tuple[int, int, int], object, dict[str, str]] | None = None
    views = current_views(registry)
    for stack, workload in combinations(registry):
        in_use = min(STACK_STATUS_RANK.get(str(stack.status), 4), 2)  # active/beta 0-1, then the rest
        for position, family in enumerate(ranked):
            document = badge(registry, family.id, stack.id, workload, views.get(current_release(registry, stack)))
            colour = colours.get(str(document.get("color")))
            if colour is None:
                continue
            key = (min(in_use, 1) if in_use < 2 else 2, colour, position)
            if best is None or key < best[0]:
                best = (key, family, {"path": urls.badge_json(family.id, stack.id, workload),
                                      "json": json.dumps(document, ensure_ascii=False, allow_nan=False)})
            break  # later families of this stack rank lower
    if best is not None:
        return best[1], best[2]
    return (ranked[0], None) if ranked else (None, None)


def fragment(registry: Registry) -> str:
    """The endpoint table of the API page, with real examples from this registry."""
    example, example_badge = informative_example(registry)
    def href(path: str) -> str:
        return urls.relative_url(path, "api/")

    html = render_template(
        "api_endpoints.html.j2",
        href=href,
        example=example,
        example_badge=example_badge,
        schemas=[urls.schema_json(kind) for kind in ALL_SCHEMA_MODELS],
        registry_json=REGISTRY_JSON,
        matrix_json=MATRIX_JSON,
        instances_json=INSTANCES_JSON,
        configurations_json=CONFIGURATIONS_JSON,
        release_feed=urls.RELEASE_FEED,
        family_feed=urls.family_feed,
        family_count=len(registry.families),
        data_version=registry.meta.data_version if registry.meta else None,
    )
    return html_block(html)
