"""One page per Neuron release (what changed in the data since the previous release) and the index.

The changes are `views.release_changes`: the difference of the per-release cells, never hand-written.
Cells that differ only by hardware are folded into one line so a release reads as a short list.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages import known_issues
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.performance_charts import all_series, moves_block
from neuron_compat.site.presentation import NO_STATEMENT
from neuron_compat.site.support import unique_anchor
from neuron_compat.views.at_release import (
    Cell,
    CellKey,
    Change,
    covers,
    diff_cells,
    paired_cells_at,
    pairing_lines,
    stack_shipped,
)
from neuron_compat.views.inherited_capabilities import FIELDS, effective_for, origin_label

KIND_ORDER = ("added", "changed", "removed")


@dataclass(frozen=True)
class ChangeLine:
    kind: str
    family_id: str
    family_name: str
    stack_name: str
    workload: str
    hardware: list[str]
    before: str
    after: str
    url: str
    values: str = ""  # effective attention / dtypes / quantization with their origin (views/inherited_capabilities.py)


def values_text(registry: Registry, family_id: str, stack_id: str, workload: str, hardware: str, release: str | None) -> str:
    """The effective values of the statement behind a cell at `release`, as the family page shows them."""
    if release is None:
        return ""
    family = registry.family_by_id[family_id]
    for statement in family.support:
        if statement.stack == stack_id and str(statement.workload) == workload and hardware in statement.hardware \
                and covers(statement, release):
            effective = effective_for(registry, family, statement)
            return "; ".join(f"{name}: {', '.join(effective.field(name).values)} ({origin_label(effective.field(name).origin)})"
                             for name in FIELDS if effective.field(name).values)
    return ""


def fold(registry: Registry, changes: list[Change], from_url: str, release: str | None = None,
         previous: str | None = None) -> dict[str, list[ChangeLine]]:
    """Changes folded by hardware; with `release` (and `previous`), each line carries its effective values
    (of the statement after the change, or before it for a removal)."""
    grouped: dict[tuple[str, str, str, str, str | None, str | None], list[str]] = defaultdict(list)
    for change in changes:
        key = (change.kind, change.key.family, change.key.stack, change.key.workload, change.before, change.after)
        grouped[key].append(change.key.hardware)
    folded: dict[str, list[ChangeLine]] = {kind: [] for kind in KIND_ORDER}
    for (kind, family_id, stack_id, workload, before, after), hardware in sorted(grouped.items(), key=lambda i: (i[0][1], i[0][2], i[0][3], i[0][0])):
        family = registry.family_by_id[family_id]
        stack = registry.stack_by_id[stack_id]
        folded[kind].append(ChangeLine(
            kind, family_id, family.name, stack.name, workload, sorted(hardware),
            before or NO_STATEMENT, after or NO_STATEMENT,
            urls.relative_url(urls.family_url(family_id, f"{stack_id}-{workload}"), from_url),
            values_text(registry, family_id, stack_id, workload, hardware[0], previous if kind == "removed" else release),
        ))
    return folded


def release_notes(registry: Registry, version: str, from_url: str) -> list[dict[str, object]]:
    """Statement notes tied to this release, so its page says what changed in words too."""
    found: list[dict[str, object]] = []
    for family in registry.families:
        for statement in family.support:
            for note in statement.notes:
                if note.release == version:
                    found.append({
                        "family": family.name,
                        "stack": registry.stack_by_id[statement.stack].name,
                        "workload": str(statement.workload),
                        "text": note.text,
                        "url": urls.relative_url(urls.family_url(family.id, unique_anchor(statement)), from_url),
                    })
    return found


def all_release_changes(registry: Registry) -> dict[str, list[Change]]:
    """`views.release_changes` for every release, drawing each release's cells once (not twice per page)."""
    changes: dict[str, list[Change]] = {}
    previous: dict[CellKey, Cell] = {}
    for version in registry.release_versions:
        current = paired_cells_at(registry, version)  # the version pairing is one line on the page, not a row per family
        changes[version] = diff_cells(previous, current)
        previous = current
    return changes


def release_page(registry: Registry, version: str, changes_at: list[Change]) -> str:
    url = urls.release_url(version)
    release = registry.release_by_version[version]
    versions = registry.release_versions
    position = versions.index(version)
    previous = versions[position - 1] if position > 0 else None
    following = versions[position + 1] if position + 1 < len(versions) else None
    changes = fold(registry, changes_at, url, version, previous)
    series = all_series(registry)
    context = {
        "release": release,
        "previous": previous,
        "previous_url": urls.relative_url(urls.release_url(previous), url) if previous else None,
        "next": following,
        "next_url": urls.relative_url(urls.release_url(following), url) if following else None,
        "changes": changes,
        "notes": release_notes(registry, version, url),
        "matrix_url": urls.relative_url("matrix/", url) + f"?release={version}",
        "stacks_shipped": [s for s in registry.stacks if stack_shipped(s, version)],
        "pairing": pairing_lines(registry, version),
    }
    return page(
        front_matter(title=f"Neuron {version}"),
        heading(1, f"Neuron {version}"),
        block("release_head.html.j2", **context),
        heading(2, f"Added ({len(changes['added'])})", "added"),
        block("release_changes.html.j2", lines=changes["added"], kind="added", previous=previous),
        heading(2, f"Changed ({len(changes['changed'])})", "changed"),
        block("release_changes.html.j2", lines=changes["changed"], kind="changed", previous=previous),
        heading(2, f"Removed ({len(changes['removed'])})", "removed"),
        block("release_changes.html.j2", lines=changes["removed"], kind="removed", previous=previous),
        heading(2, "Measurements that moved (10% or more)", "moved"),
        block("release_moves.html.j2", moves=moves_block(series, version),
              measured=any(version in s.labels for s in series)),
        heading(2, "Known issues and fixes", "known-issues"),
        block("release_known_issues.html.j2", known=known_issues.known_at(registry, version),
              fixed=known_issues.fixed_at(registry, version), page_url=urls.relative_url(known_issues.PAGE_URL, url)),
        heading(2, "Notes for this release", "notes"),
        block("release_notes.html.j2", notes=context["notes"]),
    )


def releases_index(registry: Registry, all_changes: dict[str, list[Change]]) -> str:
    url = "releases/"
    entries = []
    for version in reversed(registry.release_versions):
        folded = fold(registry, all_changes[version], url)
        counts = {kind: len(lines) for kind, lines in folded.items()}
        entries.append({
            "release": registry.release_by_version[version],
            "url": urls.relative_url(urls.release_url(version), url),
            "counts": counts,
        })
    return page(
        front_matter(title="Neuron releases"),
        heading(1, "Neuron releases"),
        block("releases_index.html.j2", entries=entries, feed_url=urls.relative_url(urls.RELEASE_FEED, url)),
    )


def render(registry: Registry, all_changes: dict[str, list[Change]]) -> dict[str, str]:
    """The release pages and their index, from `all_release_changes(registry)`."""
    files = {"releases/index.md": releases_index(registry, all_changes)}
    for version in registry.release_versions:
        files[urls.release_page(version)] = release_page(registry, version, all_changes[version])
    return files
