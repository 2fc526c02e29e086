"""Family pages (one per family, stable anchors per stack x workload), the families index, and
redirect pages for renamed family ids."""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from neuron_compat.contract.models import Family
from neuron_compat.contract.tested_configurations import METRIC_LABELS
from neuron_compat.contract.vocabulary import is_claim
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.freshness import Freshness
from neuron_compat.site.pages.common import block, fold, front_matter, heading, page
from neuron_compat.site.performance_charts import all_series, series_blocks
from neuron_compat.site.presentation import NO_STATEMENT
from neuron_compat.site.probe_section import probe_context
from neuron_compat.site.summary import family_advice
from neuron_compat.site.support import (
    CurrentView,
    ReleaseView,
    StatementGroup,
    best_status,
    search_terms,
    statement_groups,
)
from neuron_compat.site.tested_data import (
    checkpoint_links,
    compile_time_summary,
    configuration_rows,
    family_issues,
)
from neuron_compat.views.answer import family_answers, headline
from neuron_compat.views.recommendation import Recommendation


@dataclass(frozen=True)
class OverviewRow:
    stack: object
    workload: str
    anchor: str
    status: str
    hardware: list[str]
    history: str
    reason: str


Span = tuple[str, str | None, str | None, tuple[str, ...]]
"""(status, since, until, hardware) of a statement's range, as a family's history line says it."""


def history_spans(statements: list[Any]) -> list[Span]:
    """(status, since, until, hardware) per statement, in their order, with adjacent equal ones merged: a statement
    whose range starts where another of the same status and hardware ends reads as one range ("supported
    2.21.0-2.24.0" and "supported 2.24.0+" on the same hardware is "supported 2.21.0+"). The statements stay apart
    in the data (their sources, dtypes or notes differ); the history line says only status, range and hardware."""
    spans = [(str(s.status), s.since, s.until, tuple(str(h) for h in s.hardware)) for s in statements]
    while True:  # a merge can make two others adjacent: until nothing merges
        merged = _merge_adjacent(spans)
        if len(merged) == len(spans):
            return merged
        spans = merged


def _merge_adjacent(given: list[Span]) -> list[Span]:
    spans: list[Span] = []
    for span in given:
        for n, (status, since, until, hardware) in enumerate(spans):
            if (status, hardware) != (span[0], span[3]):
                continue
            if until is not None and until == span[1]:  # it ends where this one starts
                spans[n] = (status, since, span[2], hardware)
                break
            if span[2] is not None and span[2] == since:  # this one ends where it starts
                spans[n] = (status, span[1], until, hardware)
                break
        else:
            spans.append(span)
    return spans


def _history(group: StatementGroup) -> str:
    parts = []
    for status, since, until, hardware in history_spans([item.statement for item in group.statements]):
        span = (since or "all releases") + (f"–{until}" if until else ("+" if since else ""))
        parts.append(f"{status} {span} ({', '.join(hardware)})")
    return "; ".join(parts)


def family_links(registry: Registry, family: Family, from_url: str) -> dict[str, str]:
    release = registry.newest_release or ""
    repo_path = f"registry/families/{family.id}.yaml"
    title = f"Result: {family.name} on Neuron {release}".strip()
    return {
        "edit": urls.edit_url(repo_path),
        "source": urls.source_url(repo_path),
        "json": urls.relative_url(urls.family_json(family.id), from_url),
        "feed": urls.relative_url(urls.family_feed(family.id), from_url),
        "report": urls.new_issue_url("report-result.yml", title, family=family.id, release=release),
        "release": urls.relative_url(urls.release_url(release), from_url) if release else "",
        "release_base": urls.relative_url("releases/", from_url),
        "glossary": urls.relative_url("glossary/", from_url),
    }


def support_overview(registry: Registry, family: Family, today: CurrentView | None = None) -> list[OverviewRow]:
    """The answer per stack, workload and hardware today (each stack at its current release, views.answer's pairing):
    the family page's support overview and each checkpoint page's (one place, so both say the same)."""
    release = registry.newest_release
    today = today or CurrentView(registry)
    rows = []
    for group in statement_groups(registry, family):
        at = today.release_of[group.stack.id]
        current = [h for h in today.held(family) if h.statement.stack == group.stack.id
                   and str(h.statement.workload) == group.workload]
        reasons = sorted({h.reason for h in current if h.reason})
        if at is not None and at != release:
            reasons.append(f"read at Neuron {at}, the newest release a {group.stack.name} version targets")
        rows.append(OverviewRow(
            group.stack, group.workload, group.anchor, best_status(current),
            sorted({str(hw) for h in current for hw in h.hardware}), _history(group), "; ".join(reasons),
        ))
    return rows


def _checkpoints_named(family: Family, tested: list[dict[str, Any]]) -> list[str]:
    """The Hub ids a family page names: its examples, the checkpoints its constraints and notes are scoped to, and
    those of its tested configurations."""
    named = list(family.examples)
    for statement in family.support:
        scopes = [c.applies_to for c in statement.constraints] + [n.applies_to for n in statement.notes]
        named.extend(checkpoint for scope in scopes if scope is not None for checkpoint in scope.checkpoints)
    named.extend(r["hub_id"] for r in tested if r["hub_id"])
    return list(dict.fromkeys(named))


def family_page(registry: Registry, family: Family, view: ReleaseView, freshness: Freshness | None = None,
                today: CurrentView | None = None, found: list[Recommendation] | None = None) -> str:
    url = urls.family_url(family.id)
    links = family_links(registry, family, url)
    release = registry.newest_release
    freshness = freshness or Freshness.of(registry)
    groups = statement_groups(registry, family)
    today = today or CurrentView(registry)
    found = found if found is not None else family_answers(registry, family)
    rows = support_overview(registry, family, today)
    tested = configuration_rows(registry, family.id)
    checkpoint_urls = checkpoint_links(registry, _checkpoints_named(family, tested), url)
    # The answer first (what to pick and install, then the per-stack overview), then who makes the family and
    # its names; the evidence behind the answer (statements, tested configurations, issues, probe) is folded.
    parts = [
        # the <title> as the heading shows it: the theme writes meta titles unescaped, and a title taken
        # from the heading would have `&amp;` in a name decoded
        front_matter(title=escape(family.name), search={"boost": 3}, feed=urls.family_feed(family.id)),
        heading(1, family.name),
        heading(2, "Which stack to pick", "summary"),
        block("family_summary.html.j2", advice=family_advice(registry, family, view, freshness, found), links=links),
    ]
    if groups:
        parts.append(heading(2, "Support overview", "overview"))
        parts.append(block("family_overview.html.j2", rows=rows, release=release, answers=found))
    else:
        parts.append(heading(2, "Support", "overview"))
        parts.append(block("empty.html.j2", message="No support statements yet: every stack is unknown for this family."))
    if family.tracked:
        parts.append(heading(2, "Tracked by maintainers", "tracked"))
        parts.append(block("family_tracked.html.j2", tracked=family.tracked,
                           stack_names={stack.id: stack.name for stack in registry.stacks}))
    parts += [
        heading(2, "About this family", "about"),
        block("family_head.html.j2", family=family, links=links, freshness=freshness,
              stale_count=sum(1 for s in family.support if freshness.is_stale(s))),
        heading(2, "Names and identifiers", "identifiers"),
        block("family_identifiers.html.j2", family=family, search_terms=search_terms(family),
              checkpoint_urls=checkpoint_urls),
    ]
    for group in groups:
        stack_links = {
            **links,
            "stack": urls.relative_url(f"stacks/#{group.stack.id}", url),
            "badge": urls.relative_url(urls.badge_json(family.id, group.stack.id, group.workload), url),
            "report_here": urls.new_issue_url(
                "report-result.yml",
                f"Result: {family.name} on {group.stack.id} {group.workload}, Neuron {registry.newest_release or ''}".strip(),
                family=family.id, release=registry.newest_release or "", stack=group.stack.id, workload=group.workload,
            ),
        }
        count = len(group.statements)
        parts.append(fold(
            f"{group.stack.name} · {group.workload}: {count} statement{'s' if count != 1 else ''} with sources, "
            "constraints and notes",
            heading(2, f"{group.stack.name} · {group.workload}", group.anchor),
            block("statement_group.html.j2", group=group, links=stack_links, freshness=freshness,
                  checkpoint_urls=checkpoint_urls),
            name=group.anchor,
        ))
    parts.append(fold(
        f"Tested configurations ({len(tested)})",
        heading(2, "Tested configurations", "tested"),
        block("family_tested.html.j2", rows=tested, labels=METRIC_LABELS,
              all_url=urls.relative_url("configurations/", url),
              compile_times=compile_time_summary(tested),
              checkpoint_urls=checkpoint_urls, whose="family"),
        name="tested",
    ))
    series = series_blocks(all_series(registry), family=family.id)
    if series:
        parts.append(fold(f"Performance over releases ({len(series)} series)",
                          heading(2, "Performance over releases", "performance-series"),
                          block("family_series.html.j2", series=series), name="performance-series"))
    issues = family_issues(registry, family.id)
    if issues:
        parts.append(fold(f"Known issues ({len(issues)})", heading(2, "Known issues", "known-issues"),
                          block("family_issues.html.j2", issues=issues), name="known-issues"))
    probe = probe_context(registry, family)
    if probe is not None:
        parts.append(heading(2, "Portability probe", "probe"))  # one plain sentence; its details are folded
        parts.append(block("family_probe.html.j2", **probe))
    return page(*parts)


def answer_label(item: Recommendation) -> str:
    """'optimum-neuron 0.4.5 on Neuron 2.26.1' for an answer that names what to install."""
    version = f" {item.stack_version}" if item.stack_version else ""
    return f"{item.stack}{version} on Neuron {item.release}"


def index_entry(registry: Registry, family: Family, found: list[Recommendation]) -> dict[str, Any]:
    """A families index row: the headline answer's status (views.answer.headline: the best inference answer, as
    `check` without --workload, else the best of all) and what each claim answer installs."""
    chosen = headline(found, None)
    stacks = list(dict.fromkeys(
        f"{answer_label(a)} ({a.workload}: {a.hardware})" for a in found if is_claim(a.status) and a.stack))
    return {"family": family, "status": chosen.status if chosen else NO_STATEMENT, "answer": chosen,
            "stacks": stacks}


def families_index(registry: Registry, answers_of: dict[str, list[Recommendation]] | None = None) -> str:
    url = "families/"
    release = registry.newest_release
    entries = []
    for family in registry.families:
        found = (answers_of or {}).get(family.id)
        entry = index_entry(registry, family, found if found is not None else family_answers(registry, family))
        entry["url"] = urls.relative_url(urls.family_url(family.id), url)
        entries.append(entry)
    return page(
        front_matter(title="Families"),
        heading(1, "Model families"),
        block("families_index.html.j2", entries=entries, release=release),
    )


def redirect_page(target_from_here: str) -> str:
    """A static page that forwards an old family id to its new page (keeping any #fragment)."""
    target = escape(target_from_here, quote=True)
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>Moved</title><link rel=\"canonical\" href=\"{target}\">"
        f"<meta http-equiv=\"refresh\" content=\"0; url={target}\">"
        f"<script>location.replace({escape_js(target_from_here)} + location.hash)</script>"
        f"</head><body><p>This family moved to <a href=\"{target}\">{target}</a>.</p></body></html>\n"
    )


def escape_js(text: str) -> str:
    """A JavaScript string literal that cannot close the <script> element it sits in."""
    return json.dumps(text, allow_nan=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render(registry: Registry) -> dict[str, str]:
    view = ReleaseView(registry, registry.newest_release)
    today = CurrentView(registry)
    freshness = Freshness.of(registry)
    answers_of = {family.id: family_answers(registry, family) for family in registry.families}
    files = {"families/index.md": families_index(registry, answers_of)}
    for family in registry.families:
        files[urls.family_page(family.id)] = family_page(registry, family, view, freshness, today,
                                                         answers_of[family.id])
        for old in family.previous_ids:
            if old in registry.family_by_id:
                continue
            files[f"families/{old}/index.html"] = redirect_page(f"../{family.id}/")
    return files
