"""The rows of tested configurations the site shows (family pages and the configurations page), with each
measurement's value in one unit per metric for sorting, and the known issues of a family."""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import Any

from neuron_compat.contract.known_issues import KnownIssue
from neuron_compat.contract.tested_configurations import (
    METRIC_LABELS,
    METRIC_UNITS,
    TIME_METRICS,
    TestedConfiguration,
)
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls

_TO_FIRST_UNIT: dict[str, float] = {"s": 1.0, "min": 60.0, "GiB": 1.0, "GB": 1e9 / 2**30, "MiB": 1 / 1024}
_TIME_IN_MS = {"ms": 1.0, "s": 1000.0}
METRIC_COLUMNS = tuple(METRIC_UNITS)
"""The measured columns, in the order the pages show them."""


def sort_value(metric: str, value: float, unit: str) -> float:
    """The value in the metric's first unit (METRIC_UNITS), so rows sort across units."""
    if metric in TIME_METRICS:
        return value * _TIME_IN_MS.get(unit, 1.0)
    if metric == "throughput":
        return value
    return value * _TO_FIRST_UNIT.get(unit, 1.0)


def _measured(configuration: TestedConfiguration) -> dict[str, list[dict[str, Any]]]:
    cells: dict[str, list[dict[str, Any]]] = {}
    for m in configuration.measurements:
        shown = f"{'~' if m.approximate else ''}{m.value:g} {m.unit}"
        if m.percentile is not None:
            shown = f"P{m.percentile:g} {shown}"
        if m.phase:
            shown += f" ({m.phase})"
        if m.name:
            shown = f"{m.name}: {shown}"
        cells.setdefault(str(m.metric), []).append(
            {"value": m.value, "unit": str(m.unit), "phase": m.phase, "percentile": m.percentile, "name": m.name, "text": shown,
             "sort": sort_value(str(m.metric), m.value, str(m.unit))})
    return cells


def configuration_rows(registry: Registry, family_id: str | None = None) -> list[dict[str, Any]]:
    """One row per configuration (of one family, or all), sorted by family, checkpoint and id."""
    rows: list[dict[str, Any]] = []
    for file in registry.configuration_files:
        for c in file.configurations:
            if family_id is not None and c.family != family_id:
                continue
            family = registry.family_by_id.get(c.family)
            p = c.parallelism
            rows.append({
                "id": c.id, "family": c.family, "family_name": family.name if family else c.family,
                "family_url": urls.family_url(c.family), "checkpoint": c.checkpoint, "hub_id": c.hub_id,
                "checkpoint_url": urls.checkpoint_url(c.hub_id) if c.hub_id and family else None,
                "stack": c.stack, "stack_version": c.stack_version, "release": c.release,
                "release_stated": c.release_stated, "instance": c.instance, "tp": p.tensor, "pp": p.pipeline,
                "ep": p.expert, "dp": p.data, "lnc": p.logical_neuron_cores, "batch_size": c.batch_size,
                "sequence_length": c.sequence_length, "dtype": c.dtype, "quantization": c.quantization,
                "outcome": c.outcome, "outcome_qualifier": c.outcome_qualifier,
                "derived_release": derived_release(registry, c.validated) if c.release is None else None,
                "validated": c.validated.isoformat() if c.validated else None,
                "source_url": c.source.url, "source_title": c.source.title, "evidence": c.evidence,
                "source_file": file.source, "measured": _measured(c), "notes": list(c.notes),
                "recipe": c.recipe.model_dump(mode="json") if c.recipe else None,
                "command_text": shlex.join(c.recipe.command) if c.recipe and c.recipe.command else None,
            })
    rows.sort(key=lambda r: (r["family"], r["checkpoint"].casefold(), r["id"]))
    return rows


def renamed(registry: Registry) -> dict[str, str]:
    """Old Hub name (casefolded) -> the name the checkpoint has now (registry/checkpoint-aliases.yaml)."""
    aliases = registry.checkpoint_aliases
    return {} if aliases is None else {alias.old.casefold(): alias.current for alias in aliases.aliases}


def names_of(registry: Registry, hub_id: str) -> set[str]:
    """Every name of the checkpoint `hub_id` (its current name and its old ones), casefolded."""
    old_to_current = renamed(registry)
    current = old_to_current.get(hub_id.casefold(), hub_id)
    return {current.casefold(), *(old for old, new in old_to_current.items() if new.casefold() == current.casefold())}


def checkpoint_pages(registry: Registry) -> dict[str, str]:
    """Hub id -> family id, for every checkpoint with a page (pages/checkpoints.py): each family example and each
    Hub id a tested configuration of a known family names (the first family wins when two name it). Ids that differ
    only in case are one checkpoint, as `check` matches them: the first spelling names the page (validate refuses the
    second spelling, rules/checkpoint_page_paths.py, so a valid registry has one). An old name of a renamed
    checkpoint (registry/checkpoint-aliases.yaml) counts as its current name: one page, under the current name."""
    return dict(_page_index(registry)[0])


def _page_index(registry: Registry) -> tuple[dict[str, str], dict[str, str]]:
    """`checkpoint_pages`, and its ids casefolded (the first spelling of each), worked out once per registry: every
    family page and checkpoint page links through them."""
    memo: dict[Any, Any] = getattr(registry, "memo", {})  # a stand-in registry without one: worked out each time
    key = ("checkpoint_pages",)
    if key not in memo:
        pages = _checkpoint_pages(registry)
        folded: dict[str, str] = {}
        for hub_id in pages:
            folded.setdefault(hub_id.casefold(), hub_id)
        memo[key] = (pages, folded)
    index: tuple[dict[str, str], dict[str, str]] = memo[key]
    return index


def _checkpoint_pages(registry: Registry) -> dict[str, str]:
    found: dict[str, str] = {}
    spelled: dict[str, str] = {}
    old_to_current = renamed(registry)
    named = [(example, family.id) for family in registry.families for example in family.examples]
    named += [(c.hub_id, c.family) for file in registry.configuration_files for c in file.configurations
              if c.hub_id and c.family in registry.family_by_id]
    named = [(old_to_current.get(hub_id.casefold(), hub_id), family_id) for hub_id, family_id in named]
    for hub_id, family_id in named:
        first = spelled.setdefault(hub_id.casefold(), hub_id)
        found.setdefault(first, family_id)
    return found


def checkpoint_links(registry: Registry, hub_ids: Iterable[str], from_url: str) -> dict[str, str]:
    """Hub id -> the relative URL (from the page at `from_url`) of its checkpoint page, for those of `hub_ids` that
    have one (the same id, or failing that one that differs only in case, as `check` matches them); an id without a
    page is left out, so a page shows it as plain text."""
    pages, folded = _page_index(registry)
    old_to_current = renamed(registry)
    links: dict[str, str] = {}
    for hub_id in hub_ids:
        named = old_to_current.get(hub_id.casefold(), hub_id)  # an old name links to the page of its current name
        page = named if named in pages else folded.get(named.casefold())
        if page is not None:
            links[hub_id] = urls.relative_url(urls.checkpoint_url(page), from_url)
    return links


def derived_release(registry: Registry, day: Any) -> str | None:
    """The release current on `day` (the newest released on or before it), when `day` falls in one release's
    lifetime: shown labelled as derived, never as the release it was measured on."""
    if day is None:
        return None
    current = [r for r in registry.releases if r.date <= day]
    return max(current, key=lambda r: r.date).version if current else None


def metric_columns() -> list[dict[str, str]]:
    return [{"id": metric, "label": METRIC_LABELS[metric], "unit": METRIC_UNITS[metric][0]}
            for metric in METRIC_COLUMNS]


def family_issues(registry: Registry, family_id: str) -> list[KnownIssue]:
    if registry.known_issues is None:
        return []
    return [issue for issue in registry.known_issues.issues if family_id in issue.families]


def compile_time_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per instance: median compile time (s) with n and the runs it is of, over the rows that measured one (the same
    summary `check` prints)."""
    from neuron_compat.check.tested_lookup import compile_time_summary as summarise

    return summarise([{"instance": r["instance"], "id": r["id"], "checkpoint": r["checkpoint"],
                       "parallelism": {"tensor": r["tp"]}, "measurements": [
        {"metric": "compile-time", "value": c["value"], "unit": c["unit"]} for c in r["measured"].get("compile-time", [])]}
        for r in rows])
