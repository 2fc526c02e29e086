"""The component release notes (`release-notes/components/*.rst`): each release's Known Issues and Bug Fixes items.

A known issue is repeated in each release's notes until it is resolved, so one entry gathers the identical item
(same component, same text after whitespace is collapsed) over every release that lists it: `listed_in` is its first
and last. `fixed_in` is a release only where a note says so: a bug-fix item is fixed in its own release. A known issue
whose component's notes of the next release have a known-issues section without it is `listed_in.not_listed_from`
that release: not a fix, since no note says so. Items that are not issues (a table's header row such as "Area - Fix",
"None reported for this release", a pointer to another page) are not recorded; the same text under two components
is one entry. A release the registry lacks (newer than its oldest, not in releases.yaml) is not recorded."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harvesters.harvest_script import HarvestError

from known_issue_harvesters.common import (
    ALL_NEURONX_STACKS,
    Harvested,
    bullet_items,
    codes_in,
    docs_url,
    file_url,
    files_at,
    hardware_in,
    headings,
    literal_messages,
    page_at,
    rst_inline,
    slug,
    title_of,
)

DIRECTORY = "release-notes/components"
PREVIOUS = "release-notes/prev"
PREVIOUS_COMPONENTS = {"nx-pytorch": "pytorch", "nx-jax": "jax", "dlami": "dlamis", "tools": "dev-tools",
                       "compiler": "compiler", "runtime": "runtime", "containers": "containers", "nki": "nki",
                       "nki-lib": "nki-lib", "nxd-core": "nxd-core", "nxd-inference": "nxd-inference",
                       "nxd-training": "nxd-training"}
"""release-notes/prev/<release>/<file>.rst: the component each file is (the others: index, docs and samples)."""
_RELEASE = re.compile(r"\(Neuron (\d+\.\d+\.\d+)(?: Release)?\)|Neuron (\d+\.\d+\.\d+) Release")
_KNOWN = re.compile(r"(?i)^known issues?( and limitations)?$")
_FIXED = re.compile(r"(?i)^(bug fixes|resolved issues|fixed issues|bug fix)$")
MAX_MARKDOWN = 1900

COMPONENT_STACKS: dict[str, tuple[str, ...]] = {
    "compiler": ALL_NEURONX_STACKS, "runtime": ALL_NEURONX_STACKS, "dev-tools": ALL_NEURONX_STACKS,
    "containers": ALL_NEURONX_STACKS, "dlamis": ALL_NEURONX_STACKS, "nki": ALL_NEURONX_STACKS,
    "nki-lib": ALL_NEURONX_STACKS, "agentic-development": (), "jax": (),
    "nxd-core": ("nxd-inference", "nxd-training"), "nxd-inference": ("nxd-inference",),
    "nxd-training": ("nxd-training",), "vllm-neuron": ("vllm-neuron",), "pytorch": ("torch-neuronx",),
}


def stacks_for(component: str, library: str) -> tuple[str, ...]:
    """The stacks of a component's notes; a library sub-heading (vLLM in the NxD Inference notes,
    transformers-neuronx or TorchNeuron in the PyTorch notes) narrows it."""
    lowered = library.lower()
    if "vllm" in lowered:
        return ("vllm-neuron",)
    if "transformers-neuronx" in lowered or "transformers neuronx" in lowered:
        return ("transformers-neuronx",)
    if "torchneuron" in lowered.replace(" ", ""):
        return ("torchneuron",)
    return COMPONENT_STACKS.get(component, ())


@dataclass
class Listing:
    component: str
    kind: str  # known-issue | bug-fix
    library: str
    text: str
    releases: list[str] = field(default_factory=list)
    anchors: dict[str, tuple[str, int]] = field(default_factory=dict)  # release -> (anchor, line)
    path: str = ""  # the page it was first read from
    paths: dict[str, str] = field(default_factory=dict)  # release -> page
    also: list[str] = field(default_factory=list)  # other components whose notes have the same text


_NAMED_FIX = re.compile(r"(?i)\bfixed in\b[^()\n]{0,80}?\(Neuron(?: SDK)? (\d+\.\d+\.\d+)\)"
                        r"|\bfixed in (?:Neuron(?: SDK)?|release) (\d+\.\d+\.\d+)")
"""A known issue's own note naming the release with its fix ("This is fixed in the compiler version 2.10.0.35 (Neuron SDK
2.14.1)"): the one case a known issue carries `fixed_in`."""


def _known_release(release: str, releases: set[str]) -> bool:
    """A release the registry has, or one older than its oldest (the notes go back to 2.0)."""
    if not releases or release in releases:
        return True
    return _key(release) < min(_key(r) for r in releases)


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def read_component(path: str, text: str, fixed_release: str | None = None,
                   ) -> tuple[list[tuple[str, str, str, str, int, str]], dict[str, bool]]:
    """(kind, release, library, item text, line, anchor) per item; and release -> has a known-issues section.
    `fixed_release`: a page of one release's notes (release-notes/prev/<release>/<component>.rst)."""
    lines = text.splitlines()
    found = headings(lines)
    items: list[tuple[str, str, str, str, int, str]] = []
    has_known: dict[str, bool] = {fixed_release: False} if fixed_release else {}
    release: str | None = fixed_release
    release_level = -1
    library = ""
    anchor = ""
    for position, heading in enumerate(found):
        end = found[position + 1].line if position + 1 < len(found) else len(lines)
        match = None if fixed_release else _RELEASE.search(heading.title)
        if match:
            release = match.group(1) or match.group(2)
            release_level = heading.level
            library = ""
            has_known.setdefault(release, False)
            before = "\n".join(lines[max(0, heading.line - 4):heading.line])
            label = re.findall(r"\.\. _([A-Za-z0-9_-]+):", before)
            anchor = label[-1] if label else ""
            continue
        if release is None or (heading.level <= release_level and not match):
            if heading.level <= release_level:
                release = None
            continue
        kind = "known-issue" if _KNOWN.match(heading.title) else "bug-fix" if _FIXED.match(heading.title) else None
        if kind is None:
            if not re.match(r"(?i)^(improvements|new features|updates|breaking changes|announcement|"
                            r"compatibility|behavioral changes|deprecat|what'?s new|other)", heading.title):
                library = heading.title
            continue
        if kind == "known-issue":
            has_known[release] = True
        for item in bullet_items(lines, heading.line + 2, end):
            items.append((kind, release, library, item.text, item.line, anchor))
    return items, has_known


def _cap(text: str) -> str:
    if len(text) <= MAX_MARKDOWN:
        return text
    cut = text[:MAX_MARKDOWN]
    return (cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0]) + " ..."


_MARKED = re.compile(r"(?i)(?:\*\*)?(?:workarounds?|solution|mitigation)(?:\*\*)?\s*:(?:\*\*)?\s*(.+?)"
                     r"(?=\s\*\*[A-Z][A-Za-z ]{2,30}\*\*\s*:|$)", re.S)
_ADVICE = re.compile(r"^(?:as a workaround|to work around|to avoid|to fix|to resolve|workaround|please|use|set|pin|"
                     r"install|upgrade|downgrade|avoid|disable|enable|run|add|remove|call|pass|specify|ensure|make sure|"
                     r"increase|reduce|decrease|lower|raise|switch|replace|change|stay on|we recommend|it is recommended|"
                     r"customers (?:should|can|must)|users (?:should|can|must)|you (?:should|can|must)|"
                     r"this can be (?:avoided|worked around|resolved))\b", re.I)
PLACEHOLDER = re.compile(r"(?i)^[-*\s]*(?:area\s*-\s*(?:error code\s*-\s*)?(?:fix|issue|description)|none(?: reported)?"
                         r"(?: for this release)?|n/?a|no known issues?(?: for this release)?|known issues are listed at "
                         r"[\w-]+|other minor fixes and improvements|description)\.?$")
"""Items that are not issues: a list-table's header row, a placeholder, a pointer to another page."""


def _workaround(text: str) -> str | None:
    """The workaround as the note gives it, word for word: the text after a "Workaround:" mark (to the next bold
    mark), or from the first sentence that gives advice to the end of the item."""
    marked = _MARKED.search(text)
    if marked and marked.group(1).strip():
        return _cap(marked.group(1).strip())
    sentences = re.split(r"(?<=[.!])\s+(?=[A-Z`])", text)
    for index, sentence in enumerate(sentences):
        if index and _ADVICE.match(sentence.lstrip("*_ ")):
            return _cap(" ".join(sentences[index:]))
    return None


def _pin(text: str) -> str | None:
    found = re.search(r"(?i)\b(?:use|pin(?:ned)? to|stay on) release (\d+\.\d+)(?:\.(\d+))?\b", text)
    if not found:
        return None
    return f"{found.group(1)}.{found.group(2) or 0}"


def harvest(mirror: Path, revision: str, result: Harvested, verified: dt.date, releases: set[str],
            family_names: dict[str, str]) -> None:
    paths = sorted(p for p in files_at(mirror, revision, DIRECTORY) if p.endswith(".rst") and not p.endswith("index.rst"))
    pages: list[tuple[str, str, str | None]] = [(path, Path(path).stem, None) for path in paths]
    for path in sorted(files_at(mirror, revision, PREVIOUS)):
        parts = path.split("/")
        if len(parts) == 4 and re.fullmatch(r"\d+\.\d+\.\d+", parts[2]) and Path(parts[3]).stem in PREVIOUS_COMPONENTS:
            pages.append((path, PREVIOUS_COMPONENTS[Path(parts[3]).stem], parts[2]))
    listings: dict[tuple[str, str, str, str], Listing] = {}
    component_known: dict[str, dict[str, bool]] = {}
    skipped: dict[str, str] = {}
    for path, component, fixed_release in pages:
        try:
            items, has_known = read_component(path, page_at(mirror, revision, path), fixed_release)
        except HarvestError as error:
            result.not_recorded.append({"path": path, "reason": str(error)})
            continue
        known = component_known.setdefault(component, {})
        for release, present in has_known.items():
            known[release] = known.get(release, False) or present
        if not items and fixed_release is None:
            result.not_recorded.append({"path": path, "reason": "no Known Issues or Bug Fixes item under a release"})
        for kind, release, library, text, line, anchor in items:
            normal = " ".join(text.split()).casefold()
            if PLACEHOLDER.match(normal):
                skipped.setdefault(normal, f"{path}:{line}")
                continue
            if not _known_release(release, releases):
                result.not_recorded.append({"path": f"{path}:{line}", "reason": f"release {release} is not in "
                                            "releases.yaml (newer than its oldest release): not recorded"})
                continue
            key = (component, kind, "" if fixed_release else library.casefold(), normal)
            key = next((k for k in listings if k[1] == kind and k[3] == normal), key)  # any component: one entry
            listing = listings.setdefault(key, Listing(component, kind, library, text, path=path))
            if component != listing.component and component not in listing.also:
                listing.also.append(component)
            if release not in listing.releases:
                listing.releases.append(release)
                listing.anchors[release] = (anchor, line)
                listing.paths[release] = path
    archived = [p for p in files_at(mirror, revision, "release-notes/archive") if p.endswith(".rst")
                and not p.endswith("index.rst")]
    for path in sorted(archived):
        result.not_recorded.append({"path": path, "reason": "archived per-library notes (Inf1-era libraries) name the "
                                    "library's own versions, not Neuron releases: not read"})
    for text, where in skipped.items():
        result.not_recorded.append({"path": where, "reason": f"not an issue (a table header, a placeholder or a "
                                    f"pointer): {text[:80]!r}"})
    for listing in listings.values():
        result.add(_entry(listing, revision, verified, component_known.get(listing.component, {}), releases,
                          family_names), listing.path)


def _entry(listing: Listing, revision: str, verified: dt.date, has_known: dict[str, bool], releases: set[str],
           family_names: dict[str, str]) -> dict[str, Any]:
    ordered = sorted(listing.releases, key=_key)
    first, last = ordered[0], ordered[-1]
    markdown = _cap(rst_inline(listing.text))
    fixed: dict[str, Any] | None = None
    listed: dict[str, Any] = {"first": first, "last": last}
    if listing.kind == "bug-fix":
        fixed = {"release": first}
    else:
        named = _NAMED_FIX.search(listing.text)
        if named:  # the note itself names the release with the fix
            fixed = {"release": named.group(1) or named.group(2)}
        later = sorted((r for r in has_known if _key(r) > _key(last)), key=_key)
        if later and has_known[later[0]]:
            listed["not_listed_from"] = later[0]  # not a fix: no note says so
    path = listing.paths.get(last) or listing.path or f"{DIRECTORY}/{listing.component}.rst"
    anchor, line = listing.anchors[last]
    sources = [{"url": docs_url(revision, path, anchor), "title": f"{listing.component} release notes, Neuron {last} "
                f"({'bug fixes' if listing.kind == 'bug-fix' else 'known issues'})", "kind": "release-notes",
                "verified": verified},
               {"url": file_url(revision, path, line), "title": f"{path} at {revision}", "kind": "release-notes",
                "verified": verified}]
    stacks = list(stacks_for(listing.component, listing.library))
    for other in listing.also:
        stacks += [stack for stack in stacks_for(other, listing.library) if stack not in stacks]
    families = families_named(listing.text, family_names)
    pin = _pin(listing.text)
    prefix = "fixed" if listing.kind == "bug-fix" else "known"
    match = {"codes": codes_in(listing.text), "phrases": literal_messages(listing.text)[:4]}
    return {
        "id": slug(listing.component, prefix, title_of(rst_inline(listing.text), 40)) + "-" + _short(listing),
        "title": title_of(rst_inline(listing.text)),
        "kind": listing.kind,
        "component": listing.component,
        "match": match,
        "browse_only": None if match["codes"] or match["phrases"] else "the release note quotes no error text",
        "stacks": [{"stack": stack} for stack in stacks],
        "hardware": hardware_in(listing.text),
        "families": families,
        "description": markdown,
        "workaround": _workaround(markdown) if listing.kind == "known-issue" else None,
        "listed_in": listed,
        "fixed_in": fixed,
        "pin_release": pin if pin in releases else None,
        "sources": sources,
    }


def _spaced(text: str) -> str:
    return " ".join(re.sub(r"[-_\s]+", " ", text.lower()).split())


def families_named(text: str, family_names: dict[str, str]) -> list[str]:
    """Families whose name or alias the text names (hyphens, underscores and spaces alike); a name inside a longer
    matched name ("Qwen3" inside "Qwen3 MoE") does not count."""
    spaced = _spaced(text)
    spans: list[tuple[int, int, str]] = []
    for name, family in family_names.items():
        for match in re.finditer(rf"(?<![a-z0-9]){re.escape(_spaced(name))}(?![a-z0-9])", spaced):
            spans.append((match.start(), match.end(), family))
    kept = {family for start, end, family in spans
            if not any(s <= start and end <= e and (e - s) > (end - start) and f != family for s, e, f in spans)}
    return sorted(kept)


def _short(listing: Listing) -> str:
    import hashlib

    return hashlib.sha256(" ".join(listing.text.split()).casefold().encode()).hexdigest()[:6]
