"""The known-issues page: every entry of registry/known-issues/ with a permalink (`#issue-<id>`), its codes and
phrases in the page text (so the header search finds `NCC_EOOM001`), filterable by stack, component, hardware and
release in the page; and api/known-issues.json, the precomputed index a page-side "explain" box can match against.

Also what the release pages and family pages show: the issues known in, and fixed in, a release."""

from __future__ import annotations

import json
from typing import Any

from neuron_compat.contract.known_issues import KnownIssue
from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.common import block, front_matter, heading, page

PAGE = "known-issues.md"
PAGE_URL = "known-issues/"
INDEX_JSON = "api/known-issues.json"


def issues_of(registry: Registry) -> list[KnownIssue]:
    return list(registry.known_issues.issues) if registry.known_issues else []


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def known_at(registry: Registry, version: str) -> list[KnownIssue]:
    """Known issues whose release notes list them at `version` (first <= version <= last)."""
    at = _key(version)
    return [issue for issue in issues_of(registry) if issue.kind == "known-issue" and issue.listed_in
            and _key(issue.listed_in.first) <= at <= _key(issue.listed_in.last)]


def fixed_at(registry: Registry, version: str) -> list[KnownIssue]:
    """Issues fixed in `version` (a bug-fix note, or derived: a known issue not listed from it on)."""
    return [issue for issue in issues_of(registry) if issue.fixed_in and issue.fixed_in.release == version]


def issue_url(issue_id: str, from_url: str) -> str:
    return urls.relative_url(PAGE_URL, from_url) + f"#issue-{issue_id}"


def _row(issue: KnownIssue) -> dict[str, Any]:
    return {
        "id": issue.id, "title": issue.title, "kind": issue.kind, "component": issue.component or "",
        "stacks": [s.stack for s in issue.stacks], "hardware": list(issue.hardware), "families": list(issue.families),
        "codes": list(issue.match.codes) if issue.match else [],
        "phrases": list(issue.match.phrases) if issue.match else [],
        "first": issue.listed_in.first if issue.listed_in else None,
        "last": issue.listed_in.last if issue.listed_in else None,
        "fixed_in": issue.fixed_in.release if issue.fixed_in else None,
        "fixed_derived": bool(issue.fixed_in and issue.fixed_in.derived),
        "pin_release": issue.pin_release, "description": issue.description, "workaround": issue.workaround,
        "sources": [{"url": s.url, "title": s.title} for s in issue.sources],
    }


def index_data(registry: Registry) -> dict[str, Any]:
    """api/known-issues.json: what `explain` matches (the same plain JSON as the registry document's known_issues)."""
    return {"format": 1, "data_version": registry.meta.data_version if registry.meta else None,
            "issues": [issue.model_dump(mode="json", exclude_none=True) for issue in issues_of(registry)]}


NO_RELEASE = "not tied to a release"
"""The release group of an entry no release note lists (an error-code or troubleshooting page)."""
OTHER_COMPONENT = "other"


def release_of(row: dict[str, Any]) -> str | None:
    """The release an entry is grouped under: the first whose notes list it, else the one that fixed it."""
    release: str | None = row["first"] or row["fixed_in"]
    return release


def grouped(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The page's folds: one per component (alphabetical, entries without one last as 'other'), and inside it one
    per release (newest first, entries no release lists last), each entry in the registry's order."""
    by_component: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_component.setdefault(row["component"] or OTHER_COMPONENT, []).append(row)
    groups = []
    for component in sorted(by_component, key=lambda c: (c == OTHER_COMPONENT, c)):
        by_release: dict[str | None, list[dict[str, Any]]] = {}
        for row in by_component[component]:
            by_release.setdefault(release_of(row), []).append(row)
        ordered = sorted((r for r in by_release if r), key=version_key, reverse=True)
        releases = [{"label": f"Neuron {r}", "release": r, "rows": by_release[r]} for r in ordered]
        if None in by_release:
            releases.append({"label": NO_RELEASE, "release": "", "rows": by_release[None]})
        groups.append({"component": component, "count": len(by_component[component]), "releases": releases})
    return groups


def render(registry: Registry) -> dict[str, str]:
    rows = [_row(issue) for issue in issues_of(registry)]
    releases = sorted({v for r in rows for v in (r["first"], r["last"], r["fixed_in"]) if v}, key=version_key,
                      reverse=True)
    context = {
        "rows": rows,
        "groups": grouped(rows),
        "stacks": sorted({s for r in rows for s in r["stacks"]}),
        "components": sorted({r["component"] for r in rows if r["component"]}),
        "hardware": sorted({h for r in rows for h in r["hardware"]}),
        "releases": releases,
        "kinds": sorted({r["kind"] for r in rows}),
        "families_url": urls.relative_url("families/", PAGE_URL),
        "release_url": urls.relative_url("releases/", PAGE_URL),
    }
    markdown = page(
        front_matter(title="Known issues", hide=["navigation"]),
        heading(1, "Known issues"),
        block("known_issues.html.j2", **context),
    )
    text = json.dumps(index_data(registry), ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    return {PAGE: markdown, INDEX_JSON: text}
