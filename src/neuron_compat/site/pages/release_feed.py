"""Atom feeds of the data's changes by Neuron release: the release pages' feed (one entry per release, newest
first, listing what changed at it: the same folded changes as its page, `releases.fold`, read at each stack's paired
release, and the same pairing lines, `views.pairing_lines`) and one feed per family (an entry per release that
changed one of its lines; its subtitle says the family's answer today, `views.answer`, as its page does).

Subscribing is how a team hears that a model became supported (or stopped being) without watching the site.
Built with ElementTree and text constructs only, so every registry string is escaped XML text, never markup.
Links are relative to the feed's own address (Atom resolves them against it), because the generator does not
know the site's URL; ids are URNs, stable wherever the site is published.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.releases import KIND_ORDER, ChangeLine, fold
from neuron_compat.views.answer import family_answers
from neuron_compat.views.at_release import Change, pairing_lines

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("", ATOM)  # feeds are written with Atom as the default namespace, not ns0:
FEED_TITLE = "Model support by Neuron release (neuron-compat)"

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold even escaped (validation already refuses controls; U+FFFE/U+FFFF pass it)."""


def _updated(registry: Registry, version: str, changes: list[Change]) -> str:
    """When an entry last changed: the release's date, or the newest `verified` date of a source of a statement
    that starts or ends at the release behind one of its changes, when later (data curated after the release
    updates its entry, so feed readers show it again). From the data alone: two builds give the same feed."""
    dates = [registry.release_by_version[version].date]
    for change in changes:
        key = change.key
        for statement in registry.family_by_id[key.family].support:
            if statement.stack == key.stack and str(statement.workload) == key.workload \
                    and key.hardware in statement.hardware and version in (statement.since, statement.until):
                dates += [source.verified for source in statement.sources]
    return f"{max(dates).isoformat()}T00:00:00Z"


def _line(line: ChangeLine) -> str:
    where = f"{line.family_name}: {line.stack_name} {line.workload} ({', '.join(line.hardware)})"
    return f"{line.kind}: {where}: {line.before} -> {line.after}"


def _add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        element.text = _NOT_XML.sub("\ufffd", text)
    return element


@dataclass(frozen=True)
class Feed:
    """What one feed covers: every family (the release pages' feed), or one family's lines only."""

    path: str
    id: str
    title: str
    subtitle: str
    page: str  # the root-relative URL of the HTML page the feed follows
    family_id: str | None = None


def releases_feed() -> Feed:
    return Feed(urls.RELEASE_FEED, "urn:neuron-compat:releases", FEED_TITLE,
                "What changed in the registry's support statements at each Neuron SDK release.", "releases/")


def answer_text(registry: Registry, family_id: str) -> str:
    """The family's answer today (views.answer), one clause per workload x hardware: 'inference on inf2: supported
    with Optimum Neuron 0.4.5 on Neuron 2.26.1'."""
    clauses = []
    for item in family_answers(registry, registry.family_by_id[family_id]):
        where = f"{item.workload} on {item.hardware}: {item.status}"
        if item.stack and item.release:
            version = f" {item.stack_version}" if item.stack_version else ""
            where += f" with {item.stack_name}{version} on Neuron {item.release}"
        elif item.stack:
            where += f" ({item.stack_name})"
        clauses.append(where)
    return "; ".join(clauses) if clauses else "no statement yet"


def family_feed(registry: Registry, family_id: str) -> Feed:
    name = registry.family_by_id[family_id].name
    return Feed(urls.family_feed(family_id), f"urn:neuron-compat:family:{family_id}",
                f"{name} on Neuron: support changes by release (neuron-compat)",
                f"The Neuron releases at which a support statement of {name} starts, changes or ends. "
                f"Answer today: {answer_text(registry, family_id)}.",
                urls.family_url(family_id), family_id)


def feed_xml(registry: Registry, all_changes: dict[str, list[Change]], feed: Feed | None = None) -> str:
    """The feed document (releases.all_release_changes gives `all_changes`, by release): for the release pages,
    one entry per catalogued release; for a family (`all_changes` holding its changes only), one per release that
    changed a line of it."""
    feed = feed or releases_feed()
    folder, _, name = feed.path.rpartition("/")
    base = folder + "/"
    versions = list(reversed(registry.release_versions))
    entries: list[tuple[str, str, dict[str, list[ChangeLine]]]] = []
    for version in versions:
        changes = all_changes.get(version, [])
        if changes or feed.family_id is None:
            entries.append((version, _updated(registry, version, changes), fold(registry, changes, base)))
    root = ET.Element(f"{{{ATOM}}}feed")
    _add(root, "title", feed.title)
    _add(root, "subtitle", feed.subtitle)
    _add(root, "id", feed.id)
    _add(root, "link", rel="self", href=name)
    _add(root, "link", rel="alternate", href=urls.relative_url(feed.page, base))
    _add(root, "updated", max(updated for _, updated, _ in entries) if entries else "1970-01-01T00:00:00Z")
    _add(_add(root, "author"), "name", "neuron-compat contributors")
    for version, updated, folded in entries:
        release = registry.release_by_version[version]
        counts = ", ".join(f"{len(folded[kind])} {kind}" for kind in KIND_ORDER)
        entry = _add(root, "entry")
        _add(entry, "title", f"Neuron {version}: {counts}")
        _add(entry, "id", f"{feed.id}:{version}")
        _add(entry, "updated", updated)
        lines_in_order = [line for kind in KIND_ORDER for line in folded[kind]]
        # a family's entry opens its page at the first line that changed; the release pages' at the release
        target = lines_in_order[0].url if feed.family_id and lines_in_order else \
            urls.relative_url(urls.release_url(version), base)
        _add(entry, "link", rel="alternate", href=target)
        if release.summary:
            _add(entry, "summary", release.summary, type="text")
        lines = [_line(line) for line in lines_in_order]
        # the release page's pairing lines: a stack no version targets at this release yet is read at its pairing
        said = pairing_lines(registry, version) if feed.family_id is None else []
        text = "\n".join(lines) if lines else "No support statement changed at this release."
        _add(entry, "content", "\n".join([*said, text]), type="text")
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def render(registry: Registry, all_changes: dict[str, list[Change]]) -> dict[str, str]:
    """The release pages' feed and one feed per family."""
    files = {urls.RELEASE_FEED: feed_xml(registry, all_changes)}
    by_family: dict[str, dict[str, list[Change]]] = defaultdict(lambda: defaultdict(list))
    for version, changes in all_changes.items():
        for change in changes:
            by_family[change.key.family][version].append(change)
    for family in registry.families:
        feed = family_feed(registry, family.id)
        files[feed.path] = feed_xml(registry, by_family.get(family.id, {}), feed)
    return files
