"""The Atom feed of the release pages (releases/feed.xml): one entry per release with its changes, linked from
every page's head, and registry text in it is XML text, never markup."""

from __future__ import annotations

import dataclasses
import posixpath
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from site_helpers import BASE_REGISTRY

from neuron_compat.loading.loader import load_registry
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages import release_feed, releases
from neuron_compat.site.pages.release_feed import feed_xml
from neuron_compat.site.pages.releases import all_release_changes
from neuron_compat.views.answer import family_answers
from neuron_compat.views.at_release import pairing_lines

ATOM = "{http://www.w3.org/2005/Atom}"


def _feed(site: Path) -> ET.Element:
    return ET.fromstring((site / "releases" / "feed.xml").read_bytes())


def _release_page_counts(site: Path, version: str) -> list[int]:
    html = (site / "releases" / version / "index.html").read_text(encoding="utf-8")
    return [int(re.search(rf">{kind} \((\d+)\)", html).group(1)) for kind in ("Added", "Changed", "Removed")]


def test_one_entry_per_release_newest_first_linking_its_page(built_site: Path) -> None:
    feed = _feed(built_site)
    assert feed.tag == f"{ATOM}feed"
    assert feed.find(f"{ATOM}id").text and feed.find(f"{ATOM}updated").text
    versions = sorted((p.name for p in (built_site / "releases").iterdir() if (p / "index.html").exists()),
                      key=lambda v: [int(x) for x in v.split(".")], reverse=True)
    entries = feed.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text.split(":")[0] for e in entries] == [f"Neuron {v}" for v in versions]
    assert len({e.find(f"{ATOM}id").text for e in entries}) == len(entries)
    assert feed.find(f"{ATOM}updated").text == max(e.find(f"{ATOM}updated").text for e in entries)
    for entry, version in zip(entries, versions, strict=True):
        href = entry.find(f"{ATOM}link").get("href")
        assert (built_site / posixpath.normpath(posixpath.join("releases", href)) / "index.html").exists()
        added, changed, removed = _release_page_counts(built_site, version)
        assert entry.find(f"{ATOM}title").text == f"Neuron {version}: {added} added, {changed} changed, {removed} removed"
        # after the release page's pairing lines (a stack no version targets there yet), its changes
        lines = [line for line in entry.find(f"{ATOM}content").text.splitlines() if not line.startswith("No ")]
        if added + changed + removed:
            assert len(lines) == added + changed + removed
            assert all(re.fullmatch(r"(added|changed|removed): .+: .+ \(.+\): .+ -> .+", line) for line in lines), lines


def test_every_page_names_the_feed_in_its_head(built_site: Path) -> None:
    for page in ("index.html", "families/index.html", "releases/index.html", "check/index.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        head = html[:html.index("</head>")]
        link = re.search(r'<link rel="alternate feed" type="application/atom\+xml"[^>]* href="([^"]+)"', head)
        assert link, page
        assert (built_site / posixpath.normpath(posixpath.join(posixpath.dirname(page), link.group(1)))).is_file()
    index = (built_site / "releases" / "index.html").read_text(encoding="utf-8")
    assert 'href="feed.xml"' in index


def test_markup_in_registry_text_stays_text_in_the_feed() -> None:
    # validation already refuses angle brackets in names and raw HTML in Markdown; the feed escapes on its own
    registry = validate_registry(BASE_REGISTRY).registry
    hostile = "<script>window.__pwned=1</script> ]]> &amp; & \ufffe"
    releases = [r.model_copy(update={"summary": hostile}) for r in registry.releases]
    families = [f.model_copy(update={"name": "Evil <img src=x onerror=alert(1)>"}) for f in registry.families]
    changed = dataclasses.replace(registry, releases=releases, families=families)
    raw = feed_xml(changed, all_release_changes(changed))
    assert "<script" not in raw and "<img" not in raw
    feed = ET.fromstring(raw.encode("utf-8"))
    summaries = [e.text for e in feed.iter(f"{ATOM}summary")]
    assert summaries and set(summaries) == {"<script>window.__pwned=1</script> ]]> &amp; & \ufffd"}
    content = " ".join(e.text for e in feed.iter(f"{ATOM}content"))
    assert "Evil <img src=x onerror=alert(1)>:" in content


def test_a_family_feed_has_its_own_changes_and_its_page_links_it(built_site: Path) -> None:
    page = (built_site / "families" / "qwen3" / "index.html").read_text(encoding="utf-8")
    head = page[:page.index("</head>")]
    link = re.search(r'<link rel="alternate feed" type="application/atom\+xml" title="This family[^"]*" href="([^"]+)"', head)
    assert link and link.group(1) == "../../api/feeds/qwen3.xml"
    assert 'href="../../api/feeds/qwen3.xml"' in page[page.index("</head>"):]  # the Feed button
    feed = ET.fromstring((built_site / "api" / "feeds" / "qwen3.xml").read_bytes())
    entries = feed.findall(f"{ATOM}entry")
    assert entries
    everything = {e.find(f"{ATOM}id").text.rsplit(":", 1)[1]: e.find(f"{ATOM}content").text
                  for e in _feed(built_site).findall(f"{ATOM}entry")}
    for entry in entries:
        version = entry.find(f"{ATOM}id").text.rsplit(":", 1)[1]
        lines = entry.find(f"{ATOM}content").text.splitlines()
        assert lines and all(line.split(": ")[1] == "Qwen3" for line in lines)
        assert set(lines) == {line for line in everything[version].splitlines() if line.split(": ")[1] == "Qwen3"}
        href = entry.find(f"{ATOM}link").get("href")
        assert href.startswith("../../families/qwen3/#")
    changed = [v for v, text in everything.items() if any(line.split(": ")[1] == "Qwen3" for line in text.splitlines())]
    assert [e.find(f"{ATOM}id").text.rsplit(":", 1)[1] for e in entries] == changed


def _entry_dates(registry) -> dict[str, str]:
    feed = ET.fromstring(feed_xml(registry, all_release_changes(registry)).encode("utf-8"))
    return {e.find(f"{ATOM}id").text.rsplit(":", 1)[1]: e.find(f"{ATOM}updated").text for e in feed.iter(f"{ATOM}entry")}


def test_an_entry_is_dated_by_the_newest_check_of_what_changed_at_its_release() -> None:
    import datetime as dt

    registry = validate_registry(BASE_REGISTRY).registry
    before = _entry_dates(registry)
    family = next(f for f in registry.families if any(s.since and s.until is None for s in f.support))
    index, statement = next((i, s) for i, s in enumerate(family.support) if s.since and s.until is None)
    assert before[statement.since] < "2030-01-01"
    later = [src.model_copy(update={"verified": dt.date(2030, 1, 1)}) for src in statement.sources]
    support = list(family.support)
    support[index] = statement.model_copy(update={"sources": later})
    families = [f.model_copy(update={"support": support}) if f.id == family.id else f for f in registry.families]
    after = _entry_dates(dataclasses.replace(registry, families=families))
    assert after[statement.since] == "2030-01-01T00:00:00Z"  # curated again: readers see the entry anew
    assert {v: d for v, d in after.items() if v != statement.since} == \
        {v: d for v, d in before.items() if v != statement.since}
    release_dates = {r.version: f"{r.date.isoformat()}T00:00:00Z" for r in registry.releases}
    assert all(before[v] >= release_dates[v] for v in before)


REAL_REGISTRY = Path(__file__).resolve().parents[2] / "registry"


def test_the_feeds_say_what_the_paired_release_pages_and_the_answer_say() -> None:
    """The real registry: each release's entry has its page's counts and pairing lines (2.27.0: its real changes and
    one line that no Optimum Neuron version targets it, not a row per family), and a family's feed says its answer."""
    registry = load_registry(REAL_REGISTRY).registry
    changes = all_release_changes(registry)
    files = release_feed.render(registry, changes)
    pages = releases.render(registry, changes)
    feed = ET.fromstring(files["releases/feed.xml"].encode("utf-8"))
    entries = {e.find(f"{ATOM}id").text.rsplit(":", 1)[1]: e for e in feed.findall(f"{ATOM}entry")}
    assert list(entries) == list(reversed(registry.release_versions))
    for version, entry in entries.items():
        page = pages[f"releases/{version}.md"]
        counts = [int(re.search(rf"## {kind} \\\((\d+)\\\)", page).group(1)) for kind in ("Added", "Changed", "Removed")]
        assert entry.find(f"{ATOM}title").text == \
            f"Neuron {version}: {counts[0]} added, {counts[1]} changed, {counts[2]} removed"
        said = pairing_lines(registry, version)
        assert entry.find(f"{ATOM}content").text.splitlines()[:len(said)] == said, version
    pairing = entries["2.27.0"].find(f"{ATOM}content").text.splitlines()
    assert pairing[0].startswith("No Optimum Neuron version targets Neuron 2.27.0")
    assert 0 < len(pairing) - 1 < 20 and not any("Optimum Neuron" in line for line in pairing[1:])
    for family_id in ("bert", "whisper", "mixtral", "llama", "qwen3"):
        subtitle = ET.fromstring(files[f"api/feeds/{family_id}.xml"].encode("utf-8")).find(f"{ATOM}subtitle").text
        for item in family_answers(registry, registry.family_by_id[family_id]):
            clause = f"{item.workload} on {item.hardware}: {item.status}"
            if item.stack and item.release:
                clause += f" with {item.stack_name}" + (f" {item.stack_version}" if item.stack_version else "") + \
                    f" on Neuron {item.release}"
            assert clause in subtitle, (family_id, clause, subtitle)
    bert = ET.fromstring(files["api/feeds/bert.xml"].encode("utf-8")).find(f"{ATOM}subtitle").text
    assert "inference on inf2: supported with Optimum Neuron 0.4.5 on Neuron 2.26.1" in bert
