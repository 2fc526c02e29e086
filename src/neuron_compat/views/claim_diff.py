"""What changed in the published claims between two registries, in plain words.

One engine for the pull-request summary (`neuron-compat diff`) and the data changelog between tags
(`neuron-compat changelog`). Claims are compared cell by cell at every Neuron release
(views.cells_at / diff_cells), and runs of releases with the same change are folded into one line:
"llama / optimum-neuron / inference / inf2: partial -> supported (since 2.21.0)". Details that do not
change a cell's status (dtypes, attention, constraints, notes, sources, ...) are reported per
statement, and families, releases, stacks and the data version are compared as wholes.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neuron_compat.contract.models import Family, Source, Statement
from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.safeio.safe_text import one_line
from neuron_compat.views.at_release import CellKey, cells_at, diff_cells, statement_fields_changed

# Statement fields that a cell already shows (or that identify the statement): not repeated as details.
_CELL_FIELDS = {"stack", "workload", "hardware", "since", "until", "status"}
_FAMILY_FIELDS = ("name", "vendor", "model_types", "architectures", "pipelines", "tasks", "aliases", "examples",
                  "remote_code", "previous_ids")


@dataclass(frozen=True, order=True)
class ClaimChange:
    """One change of a family x stack x workload over a contiguous run of releases, on some hardware."""

    family: str
    stack: str
    workload: str
    hardware: tuple[str, ...]
    first: str
    end: str | None  # first release after the run (None: up to the newest)
    before: str | None
    after: str | None

    @property
    def span(self) -> str:
        if self.end is None:
            return f"since {self.first}"
        return f"{self.first} until {self.end}"

    def describe(self) -> str:
        where = f"{self.family} / {self.stack} / {self.workload} / {', '.join(self.hardware)}"
        return f"{where}: {self.before or 'no statement'} -> {self.after or 'no statement'} ({self.span})"


@dataclass(frozen=True)
class StatementChange:
    """Details of one statement (matched by stack, workload, hardware and since) that changed."""

    family: str
    label: str
    details: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.family} / {self.label}: " + "; ".join(self.details)


@dataclass
class RegistryDiff:
    data_version: tuple[str | None, str | None] = (None, None)
    releases_added: list[str] = field(default_factory=list)
    releases_removed: list[str] = field(default_factory=list)
    stacks_added: list[str] = field(default_factory=list)
    stacks_removed: list[str] = field(default_factory=list)
    families_added: list[Family] = field(default_factory=list)
    families_removed: list[str] = field(default_factory=list)
    family_changes: list[str] = field(default_factory=list)
    claims: list[ClaimChange] = field(default_factory=list)
    statements: list[StatementChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.releases_added or self.releases_removed or self.stacks_added or self.stacks_removed
                    or self.families_added or self.families_removed or self.family_changes or self.claims
                    or self.statements or self.data_version[0] != self.data_version[1])

    def sections(self) -> list[tuple[str, list[str]]]:
        """(heading, lines) in reading order; empty sections left out."""
        catalogue = [f"new Neuron release {v}" for v in self.releases_added]
        catalogue += [f"Neuron release {v} removed" for v in self.releases_removed]
        catalogue += [f"new stack {s}" for s in self.stacks_added] + [f"stack {s} removed" for s in self.stacks_removed]
        families = [f"new family {f.id} ({f.name}): model types {', '.join(f.model_types or f.pipelines)}"
                    for f in self.families_added]
        families += [f"family {f} removed" for f in self.families_removed] + self.family_changes
        sections = [
            ("Support (family / stack / workload / hardware)", [c.describe() for c in self.claims]),
            ("Statement details", [s.describe() for s in self.statements]),
            ("Families", families),
            ("Releases and stacks", catalogue),
        ]
        return [(heading, lines) for heading, lines in sections if lines]

    def version_line(self) -> str | None:
        old, new = self.data_version
        if old == new:
            return f"Data version {new}" if new else None
        return f"Data version {old or 'none'} -> {new or 'none'}"

    def render_text(self) -> str:
        lines: list[str] = []
        if (version := self.version_line()) is not None:
            lines.append(version)
        if self.empty:
            lines.append("No change to the published claims.")
        for heading, items in self.sections():
            lines.append(f"{heading}:")
            lines.extend(f"  {one_line(item)}" for item in items)
        return "\n".join(lines) + "\n"

    def render_markdown(self, title: str = "Changes to the published claims") -> str:
        lines = [f"### {title}", ""]
        if (version := self.version_line()) is not None:
            lines += [version, ""]
        if self.empty:
            lines += ["No change to the published claims.", ""]
        for heading, items in self.sections():
            lines += [f"**{heading}**", ""]
            lines += [f"- {_markdown_text(item)}" for item in items]
            lines.append("")
        return "\n".join(lines)


def _markdown_text(text: str) -> str:
    """Registry text inside a Markdown list item: one line, no raw HTML, no links or images, no @mentions."""
    text = one_line(text).replace(" -> ", " \u2192 ")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN_PUNCTUATION.sub(r"\\\g<0>", text)  # `![x](u)` and `[x](u)` stay literal text
    return text.replace("@", "@\u2060")


_MARKDOWN_PUNCTUATION = re.compile(r"[\\\[\]!*_`~]")


def empty_registry() -> Registry:
    """What a revision without a registry directory holds: nothing."""
    return Registry(root=Path("."))


# --- comparing ------------------------------------------------------------------------------------


def diff_registries(before: Registry, after: Registry) -> RegistryDiff:
    result = RegistryDiff()
    result.data_version = (before.meta.data_version if before.meta else None,
                           after.meta.data_version if after.meta else None)
    old_releases, new_releases = set(before.release_versions), set(after.release_versions)
    result.releases_added = sorted(new_releases - old_releases, key=version_key)
    result.releases_removed = sorted(old_releases - new_releases, key=version_key)
    result.stacks_added = sorted(after.stack_by_id.keys() - before.stack_by_id.keys())
    result.stacks_removed = sorted(before.stack_by_id.keys() - after.stack_by_id.keys())
    result.families_added = [after.family_by_id[i] for i in sorted(after.family_by_id.keys() - before.family_by_id.keys())]
    result.families_removed = sorted(before.family_by_id.keys() - after.family_by_id.keys())
    for family_id in sorted(before.family_by_id.keys() & after.family_by_id.keys()):
        old, new = before.family_by_id[family_id], after.family_by_id[family_id]
        result.family_changes += _family_changes(old, new)
        result.statements += _statement_changes(old, new)
    result.claims = claim_changes(before, after)
    return result


def claim_changes(before: Registry, after: Registry) -> list[ClaimChange]:
    """Cell changes at each release of either registry, folded into runs of consecutive releases."""
    releases = sorted(set(before.release_versions) | set(after.release_versions), key=version_key)
    runs: dict[tuple[CellKey, str | None, str | None], list[int]] = defaultdict(list)
    for position, release in enumerate(releases):
        for change in diff_cells(cells_at(before, release), cells_at(after, release)):
            runs[(change.key, change.before, change.after)].append(position)
    spans: dict[tuple[str, str, str, str, str | None, str | None, str | None], list[str]] = defaultdict(list)
    for (key, old, new), positions in runs.items():
        start = positions[0]
        for previous, current in zip(positions, [*positions[1:], None], strict=True):
            if current is not None and current == previous + 1:
                continue
            end = releases[previous + 1] if previous + 1 < len(releases) else None
            spans[(key.family, key.stack, key.workload, releases[start], end, old, new)].append(key.hardware)
            if current is not None:
                start = current
    changes = [ClaimChange(family, stack, workload, tuple(sorted(hardware)), first, end, old, new)
               for (family, stack, workload, first, end, old, new), hardware in spans.items()]
    return sorted(changes, key=lambda c: (c.family, c.stack, c.workload, version_key(c.first), c.hardware))


def _family_changes(old: Family, new: Family) -> list[str]:
    lines = []
    for name in _FAMILY_FIELDS:
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            lines.append(f"{new.id}: {name} {_value(a)} -> {_value(b)}")
    return lines


def _statement_key(statement: Statement) -> tuple[str, str, tuple[str, ...], str | None]:
    return (statement.stack, str(statement.workload), tuple(sorted(statement.hardware)), statement.since)


def _label(statement: Statement) -> str:
    since = f" since {statement.since}" if statement.since else ""
    return f"{statement.stack} / {statement.workload} / {', '.join(statement.hardware)}{since}"


def _statement_changes(old: Family, new: Family) -> list[StatementChange]:
    before = {_statement_key(s): s for s in old.support}
    changes: list[StatementChange] = []
    for statement in new.support:
        previous = before.get(_statement_key(statement))
        if previous is None:
            continue
        details: list[str] = []
        for name in statement_fields_changed(previous, statement):
            if name in _CELL_FIELDS:
                continue
            details += _field_details(name, getattr(previous, name), getattr(statement, name))
        if details:
            changes.append(StatementChange(new.id, _label(statement), tuple(details)))
    return changes


def _field_details(name: str, old: Any, new: Any) -> list[str]:
    if name == "sources":
        return _source_details(old, new)
    if name in ("constraints", "notes"):
        old_items = [_model_text(name, item) for item in old]
        new_items = [_model_text(name, item) for item in new]
        return ([f"+ {text}" for text in new_items if text not in old_items]
                + [f"- {text}" for text in old_items if text not in new_items])
    return [f"{name} {_value(old)} -> {_value(new)}"]


def _model_text(kind: str, item: Any) -> str:
    data = item.model_dump(mode="json", exclude_none=True)
    if kind == "notes":
        release = f" ({data['release']})" if "release" in data else ""
        return f"note{release}: {data['text']}"
    parts = [data["kind"]]
    if "name" in data:
        parts.append(data["name"])
    if "value" in data:
        parts.append(f"= {_value(data['value'])}")
    return "constraint " + " ".join(parts)


def _source_details(old: list[Source], new: list[Source]) -> list[str]:
    old_by_url = {s.url: s for s in old}
    new_by_url = {s.url: s for s in new}
    details = []
    for url, source in new_by_url.items():
        previous = old_by_url.get(url)
        if previous is None:
            details.append(f"+ source {source.kind} {url} ({_run_text(source)})")
        elif previous.verified != source.verified and previous.model_copy(update={"verified": source.verified}) == source:
            details.append(f"source {url} re-verified {previous.verified} -> {source.verified}")
        elif previous != source:
            changed = [k for k in type(source).model_fields if getattr(previous, k) != getattr(source, k)]
            details.append(f"source {url} changed: {', '.join(changed)}")
    details += [f"- source {url}" for url in old_by_url if url not in new_by_url]
    return details


def _run_text(source: Any) -> str:
    parts = [f"verified {source.verified}"]
    if source.by:
        parts.append(f"by {source.by}")
    if source.release:
        parts.append(f"Neuron {source.release}")
    if source.instance:
        parts.append(f"on {source.instance}")
    return ", ".join(parts)


def _value(value: Any) -> str:
    if value is None or value == [] or value == {}:
        return "none"
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if hasattr(value, "model_dump"):
        return _value(value.model_dump(mode="json", exclude_defaults=True))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)
