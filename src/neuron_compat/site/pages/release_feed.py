"""The Atom feed of the release pages: one entry per Neuron release, newest first, listing what changed in the
data at that release (the same folded changes as its page, `releases.fold`).

Subscribing is how a team hears that a model became supported (or stopped being) without watching the site.
Built with ElementTree and text constructs only, so every registry string is escaped XML text, never markup.
Links are relative to the feed's own address (Atom resolves them against it), because the generator does not
know the site's URL; ids are URNs, stable wherever the site is published.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ...registry_model import Registry
from ...views import Change
from .. import urls
from .releases import KIND_ORDER, ChangeLine, fold

ATOM = "http://www.w3.org/2005/Atom"
FEED_ID = "urn:neuron-compat:releases"
FEED_TITLE = "Model support by Neuron release (neuron-compat)"

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold even escaped (validation already refuses controls; U+FFFE/U+FFFF pass it)."""


def _timestamp(registry: Registry, version: str) -> str:
    return f"{registry.release_by_version[version].date.isoformat()}T00:00:00Z"


def _line(line: ChangeLine) -> str:
    where = f"{line.family_name}: {line.stack_name} {line.workload} ({', '.join(line.hardware)})"
    return f"{line.kind}: {where}: {line.before} -> {line.after}"


def _add(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        element.text = _NOT_XML.sub("\ufffd", text)
    return element


def feed_xml(registry: Registry, all_changes: dict[str, list[Change]]) -> str:
    """The feed document for every catalogued release (releases.all_release_changes gives `all_changes`)."""
    base = urls.RELEASE_FEED.rsplit("/", 1)[0] + "/"
    versions = list(reversed(registry.release_versions))
    root = ET.Element(f"{{{ATOM}}}feed")
    _add(root, "title", FEED_TITLE)
    _add(root, "subtitle", "What changed in the registry's support statements at each Neuron SDK release.")
    _add(root, "id", FEED_ID)
    _add(root, "link", rel="self", href=urls.RELEASE_FEED.rsplit("/", 1)[1])
    _add(root, "link", rel="alternate", href="./")
    _add(root, "updated", _timestamp(registry, versions[0]) if versions else "1970-01-01T00:00:00Z")
    _add(_add(root, "author"), "name", "neuron-compat contributors")
    for version in versions:
        release = registry.release_by_version[version]
        folded = fold(registry, all_changes.get(version, []), base)
        counts = ", ".join(f"{len(folded[kind])} {kind}" for kind in KIND_ORDER)
        entry = _add(root, "entry")
        _add(entry, "title", f"Neuron {version}: {counts}")
        _add(entry, "id", f"urn:neuron-compat:release:{version}")
        _add(entry, "updated", _timestamp(registry, version))
        _add(entry, "link", rel="alternate", href=urls.relative_url(urls.release_url(version), base))
        if release.summary:
            _add(entry, "summary", release.summary, type="text")
        lines = [_line(line) for kind in KIND_ORDER for line in folded[kind]]
        _add(entry, "content", "\n".join(lines) if lines else "No support statement changed at this release.",
             type="text")
    ET.register_namespace("", ATOM)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def render(registry: Registry, all_changes: dict[str, list[Change]]) -> dict[str, str]:
    return {urls.RELEASE_FEED: feed_xml(registry, all_changes)}
