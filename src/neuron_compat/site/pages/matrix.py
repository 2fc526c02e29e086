"""The matrix: today's answer per family x workload x hardware (views.answer, the default view), or every family x
stack x workload at a chosen release, filterable in the page.

The page holds only the filters and an empty table. The browser reads `api/matrix.json` (rows,
statements with their ranges, family names and search text) once, draws the rows of the chosen
release as arrays, filters those arrays and puts only the first page of matching rows in the DOM.
With thousands of families, a page holding every row cost seconds of style and layout per
keystroke; a page of 200 rows does not. Without JavaScript the page points to the families index.
"""

from __future__ import annotations

import json
from typing import Any

from neuron_compat.contract.vocabulary import Attention, Dtype, Hardware, Workload
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.publishing.registry_document import state_json
from neuron_compat.site import urls
from neuron_compat.site.freshness import Freshness
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.presentation import CELL_STYLES, STATUS_ORDER, STATUS_STYLES
from neuron_compat.site.support import ReleaseView, combinations, matrix_rows, search_terms
from neuron_compat.views.answer import family_answers
from neuron_compat.views.at_release import (
    HOLDS,
    CellState,
    display_status,
    held_at,
    release_spans,
    stack_horizon,
    stack_states,
)
from neuron_compat.views.inherited_capabilities import ORIGIN_LABELS, effective_for

MATRIX_JSON = "api/matrix.json"
TODAY = "today"
"""The release selector's default: today's answer (views.answer) per family x workload x hardware."""
CLAIMS = ("supported", "partial", "ended")
"""Answer statuses that come from a claim that the model runs (the others say no stack claims it)."""
CLAIMED = ("supported", "partial")
"""Statement statuses that claim the model runs: the statements a claimed answer's dtypes and attention come from."""
PAGE_SIZE = 200  # rows put in the DOM at a time; "Show more" adds as many again


def matrix_data(registry: Registry) -> dict[str, Any]:
    """The one JSON the release selector draws every release from."""
    freshness = Freshness.of(registry)
    rows = matrix_rows(registry, ReleaseView(registry, None))
    index = {(r.family.id, r.stack.id, r.workload): i for i, r in enumerate(rows)}
    statements: list[dict[str, Any]] = []
    cells: list[list[list[Any]]] = [[] for _ in rows]
    references: dict[str, dict[int, int]] = {}
    for family in registry.families:
        reference = references.setdefault(family.id, {})  # position in family.support -> position in `statements`
        for position, statement in enumerate(family.support):
            key = (family.id, statement.stack, str(statement.workload))
            if key not in index:
                continue
            effective = effective_for(registry, family, statement)
            reference[position] = len(statements)
            statements.append({
                "row": index[key],
                "stack": statement.stack,
                "since": statement.since,
                "until": statement.until,
                "status": display_status(statement),
                "hardware": [str(h) for h in statement.hardware],
                "dtypes": list(effective.dtypes.values),
                "attention": list(effective.attention.values),
                "dtypes_origin": effective.dtypes.origin,
                "attention_origin": effective.attention.origin,
                "stale": freshness.is_stale(statement),
                "note": statement.notes[0].text if statement.notes else None,
            })
        for stack, workload in dict.fromkeys((s.stack, str(s.workload)) for s in family.support):
            if (family.id, stack, workload) in index:
                cells[index[(family.id, stack, workload)]] = [
                    [span.first, span.last, _cell_json(span.state, reference)]
                    for span in release_spans(registry, family, stack, workload)]
    families = {
        family.id: {
            "name": family.name,
            "url": urls.family_url(family.id),
            "text": " ".join(search_terms(family)).lower(),
        }
        for family in registry.families
    }
    return {
        "format": 1,
        "data_version": freshness.data_version,
        "stale_before": freshness.cutoff.isoformat() if freshness.cutoff else None,
        "newest_release": registry.newest_release,
        "releases": registry.release_versions,
        "statuses": {name: style.label for name, style in (STATUS_STYLES | CELL_STYLES).items()},
        "status_css": {name: style.css for name, style in (STATUS_STYLES | CELL_STYLES).items()},  # class per status
        "origin_labels": dict(ORIGIN_LABELS),  # how a value's origin (stack / family) is said
        "stacks": {
            stack.id: {"name": stack.name, "since": stack.since, "end_of_support": stack.end_of_support, "horizon": stack_horizon(stack)}
            for stack in registry.stacks
        },
        "families": families,
        "rows": [[r.family.id, r.stack.id, r.workload] for r in rows],
        "statements": statements,
        "cells": cells,
        "today": today_rows(registry, freshness, references),
    }


def today_rows(registry: Registry, freshness: Freshness | None = None,
               references: dict[str, dict[int, int]] | None = None) -> list[list[Any]]:
    """Today's answer per family x workload x hardware, as views.answer gives it, then its alternatives: [family,
    stack (null: no stack says anything), workload, hardware, status, release, stack version, role, stale, backing]
    with role 'answer' or 'alternative', stale true when a statement of that stack, workload and hardware behind it
    was last verified before the freshness cutoff, and backing the statements (their positions in the matrix data's
    `statements`, through `references`: family id -> position in family.support -> that position) whose claim the
    row's status rests on, at the row's release on its hardware: the page reads the row's dtypes and attention from
    them. An answer that no claim backs (unknown, unsupported, not listed) has none, so the page never shows dtypes
    for it. The page draws these rows in its default view and never ranks anything itself."""
    freshness = freshness or Freshness.of(registry)
    rows: list[list[Any]] = []
    for family in registry.families:
        stale = {(s.stack, str(s.workload), str(h)) for s in family.support if freshness.is_stale(s) for h in s.hardware}
        reference = (references or {}).get(family.id, {})
        for item in family_answers(registry, family):
            rows.append([family.id, item.stack, item.workload, item.hardware, item.status, item.release,
                         item.stack_version, "answer", (item.stack, item.workload, item.hardware) in stale,
                         _backing(registry, family, reference, item, item)])
            for other in item.alternatives:
                rows.append([family.id, other.stack, item.workload, item.hardware, other.status, other.release,
                             other.stack_version, "alternative", (other.stack, item.workload, item.hardware) in stale,
                             _backing(registry, family, reference, other, item)])
    return rows


def _backing(registry: Registry, family: Any, reference: dict[int, int], choice: Any, answer: Any) -> list[int]:
    """The statements (positions in the matrix data's `statements`) whose claim `choice` (an answer or one of its
    alternatives) rests on: those of its stack that claim the model runs at its release, for the answer's workload
    on the answer's hardware. None for a status that no claim gives."""
    if choice.stack is None or choice.release is None or choice.status not in CLAIMS:
        return []
    held = held_at(family, choice.release, stack_states(registry, choice.release), choice.stack, answer.workload,
                   answer.hardware)
    return [reference[h.index] for h in held if h.claim_status in CLAIMED and h.index in reference]


def _cell_json(state: CellState, reference: dict[int, int]) -> dict[str, Any]:
    """A row's `views.cell_at` state as the page reads it: held statements by their index in `statements`, with
    the status drawn at the release (unknown past a stack's horizon) and the hardware they hold on."""
    data = state_json(state)
    if state.kind == HOLDS:
        data["held"] = [[reference[h.index], h.status, list(h.hardware)] for h in state.held]
    return data


def render(registry: Registry) -> dict[str, str]:
    stacks = [s for s, _ in combinations(registry)]
    unique_stacks = list({s.id: s for s in stacks}.values())
    freshness = Freshness.of(registry)
    context = {
        "has_families": bool(registry.families),
        "page_size": PAGE_SIZE,
        "site_root": urls.relative_url("", "matrix/"),
        "families_index": urls.relative_url(urls.page_url("families/index.md"), "matrix/"),
        "freshness": freshness,
        "release": TODAY,
        "newest": registry.newest_release,
        "releases": list(reversed(registry.release_versions)),
        "stacks": unique_stacks,
        "workloads": [w.value for w in Workload],
        "hardware": [h.value for h in Hardware],
        "statuses": [*STATUS_ORDER, *CELL_STYLES],
        "dtypes": [d.value for d in Dtype],
        "attention": [a.value for a in Attention],
        "data_url": "../" + MATRIX_JSON,
    }
    markdown = page(
        front_matter(title="Support matrix", hide=["navigation", "toc"], search={"exclude": True}),
        heading(1, "Support matrix"),
        block("matrix.html.j2", **context),
    )
    data = json.dumps(matrix_data(registry), ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    return {"matrix.md": markdown, MATRIX_JSON: data}
