"""The matrix: every family x stack x workload at the newest release, filterable in the page.

The table is drawn at the newest release so it reads without JavaScript. Each row carries its filter
values as data attributes; `matrix.js` reads them once into an index and only toggles `hidden` when a
filter changes. Other releases are drawn in the browser from `api/matrix.json` (statements with their
ranges), so the page stays one file whatever the number of releases.
"""

from __future__ import annotations

import json
from typing import Any

from ...registry import Registry
from ...views import display_status, stack_horizon
from ...vocabulary import Attention, Dtype, Hardware, Workload
from .. import urls
from ..freshness import Freshness
from ..presentation import STATUS_ORDER, STATUS_STYLES
from ..support import ReleaseView, combinations, matrix_rows, search_terms
from .common import block, front_matter, heading, page

MATRIX_JSON = "api/matrix.json"


def _row_context(registry: Registry, freshness: Freshness) -> list[dict[str, Any]]:
    rows = []
    page_url = "matrix/"
    for row in matrix_rows(registry, ReleaseView(registry, registry.newest_release)):
        statuses = row.statuses
        rows.append({
            "family": row.family,
            "stack": row.stack,
            "workload": row.workload,
            "statuses": statuses,
            "status": statuses[0],
            "hardware": row.values("hardware"),
            "dtypes": row.values("dtypes"),
            "attention": row.values("attention"),
            "since": sorted({h.statement.since for h in row.held if h.statement.since}),
            "stale": any(freshness.is_stale(h.statement) for h in row.held),
            "text": " ".join(search_terms(row.family)).lower(),
            "url": urls.relative_url(urls.family_url(row.family.id, row.anchor), page_url),
        })
    return rows


def matrix_data(registry: Registry) -> dict[str, Any]:
    """The one JSON the release selector draws every release from."""
    freshness = Freshness.of(registry)
    rows = matrix_rows(registry, ReleaseView(registry, None))
    index = {(r.family.id, r.stack.id, r.workload): i for i, r in enumerate(rows)}
    statements = []
    for family in registry.families:
        for statement in family.support:
            key = (family.id, statement.stack, str(statement.workload))
            if key not in index:
                continue
            statements.append({
                "row": index[key],
                "stack": statement.stack,
                "since": statement.since,
                "until": statement.until,
                "status": display_status(statement),
                "hardware": [str(h) for h in statement.hardware],
                "dtypes": [str(d) for d in statement.dtypes],
                "attention": [str(a) for a in statement.attention],
                "stale": freshness.is_stale(statement),
            })
    return {
        "format": 1,
        "data_version": freshness.data_version,
        "stale_before": freshness.cutoff.isoformat() if freshness.cutoff else None,
        "newest_release": registry.newest_release,
        "releases": registry.release_versions,
        "statuses": {name: style.label for name, style in STATUS_STYLES.items()},
        "stacks": {
            stack.id: {"since": stack.since, "end_of_support": stack.end_of_support, "horizon": stack_horizon(stack)}
            for stack in registry.stacks
        },
        "rows": [[r.family.id, r.stack.id, r.workload] for r in rows],
        "statements": statements,
    }


def render(registry: Registry) -> dict[str, str]:
    stacks = [s for s, _ in combinations(registry)]
    unique_stacks = list({s.id: s for s in stacks}.values())
    freshness = Freshness.of(registry)
    context = {
        "rows": _row_context(registry, freshness),
        "freshness": freshness,
        "release": registry.newest_release,
        "releases": list(reversed(registry.release_versions)),
        "stacks": unique_stacks,
        "workloads": [w.value for w in Workload],
        "hardware": [h.value for h in Hardware],
        "statuses": STATUS_ORDER,
        "dtypes": [d.value for d in Dtype],
        "attention": [a.value for a in Attention],
        "data_url": "../" + MATRIX_JSON,
    }
    markdown = page(
        front_matter(title="Support matrix", hide=["navigation", "toc"], search={"exclude": True}),
        heading(1, "Support matrix"),
        block("matrix.html.j2", **context),
    )
    data = json.dumps(matrix_data(registry), ensure_ascii=False, separators=(",", ":")) + "\n"
    return {"matrix.md": markdown, MATRIX_JSON: data}
