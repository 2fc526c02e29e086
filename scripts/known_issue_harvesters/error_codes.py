"""The compiler's error-code pages (`compiler/error-codes/<CODE>.rst`, in the docs from 2.27) and their index table:
one entry per code, matched on the code (`NCC_EOOM001`, or bare `EOOM001`) and on the error message as the page and
the index write it."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from harvesters.harvest_script import HarvestError

from known_issue_harvesters.common import (
    ALL_NEURONX_STACKS,
    Harvested,
    docs_url,
    file_url,
    files_at,
    hardware_in,
    page_at,
    phrase_of,
    plain,
    rst_inline,
    title_of,
)

DIRECTORY = "compiler/error-codes"
_IMPERATIVE = re.compile(r"(?i)^(?:consider|use|set|remove|reduce|cast|increase|decrease|ensure|avoid|check|try|change|"
                         r"split|move|replace|upgrade|update|install|specify|add|make|either|rewrite|tile|shard|lower|"
                         r"pass|call|provide|convert|apply|restructure|limit|disable|enable|do not|don't|please|if possible)\b")
"""The index's Recommendation column is advice only when it says what to do; some rows explain the error instead."""
MAX_TEXT = 1800


def _index_rows(text: str) -> dict[str, tuple[str, str]]:
    """code -> (message, recommendation) from the index's list-table."""
    rows: dict[str, tuple[str, str]] = {}
    for block in re.split(r"\n\s*\* - ", text)[1:]:
        cells = [" ".join(cell.split()) for cell in re.split(r"\n\s+- ", block)]
        code = re.search(r"NCC_[A-Z]{3,6}[0-9]{3}", cells[0])
        if code and len(cells) >= 3:
            rows[code.group(0)] = (cells[1], cells[2])
    return rows


def _prose(lines: list[str]) -> tuple[list[str], list[str]]:
    """(explanation paragraphs, fix paragraphs) outside code blocks, directives and headings."""
    explanation: list[str] = []
    fixes: list[str] = []
    target = explanation
    in_code = False
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            target.append(" ".join(paragraph))
            paragraph.clear()

    for line in lines:
        stripped = line.strip()
        if in_code:
            if stripped and not line.startswith((" ", "\t")):
                in_code = False
            else:
                continue
        if stripped.startswith(".. "):
            flush()
            in_code = stripped.endswith("::") or "code-block" in stripped
            continue
        if not stripped or re.fullmatch(r"[=\-~^]{3,}", stripped):
            flush()
            continue
        if re.match(r"(?i)^(to fix|there are several ways|possible fix|how to fix|solution|fix)", stripped):
            flush()
            target = fixes
        paragraph.append(stripped[:-1] + "." if stripped.endswith("::") else stripped)
    flush()
    return explanation, fixes


def _cap(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0] + " ..."


def entry(path: str, text: str, revision: str, index: dict[str, tuple[str, str]], first: str | None,
          today_tag: dt.date) -> dict[str, Any]:
    lines = text.splitlines()
    code_match = re.search(r"^(NCC_[A-Z]{3,6}[0-9]{3})\s*$", text, flags=re.M)
    if not code_match:
        raise HarvestError("no NCC_ code title")
    code = code_match.group(1)
    message_match = re.search(r"\*\*Error message\*\*\s*:?\s*(.+?)(?:\n\s*\n)", text, flags=re.S)
    if not message_match:  # some pages give the message as a subtitle under the code
        message_match = re.search(r"^NCC_[A-Z0-9]+\s*\n=+\s*\n\s*\n(.+?)\s*\n-{3,}\s*\n", text, flags=re.M | re.S)
    if not message_match:
        raise HarvestError("no **Error message** line and no subtitle under the code")
    message = rst_inline(message_match.group(1))
    body_lines = lines[text[: message_match.end()].count("\n"):]
    explanation, fixes = _prose(body_lines)
    index_message, recommendation = index.get(code, ("", ""))
    phrases = []
    for raw in (plain(message), plain(rst_inline(index_message))):
        for sentence in [raw, *re.split(r"(?<=\.)\s+", raw)]:
            phrase = phrase_of(sentence)
            if phrase and phrase not in phrases and len(phrase) >= 20:
                phrases.append(phrase)
    description = _cap(" ".join([f"{code}: {message}", *(rst_inline(p) for p in explanation)]))
    advice = recommendation if _IMPERATIVE.match(plain(rst_inline(recommendation))) else ""  # an explanation is not
    workaround_parts = [rst_inline(p) for p in fixes] or ([rst_inline(advice)] if advice else [])
    workaround = _cap(" ".join(workaround_parts)) if workaround_parts else None
    page = f"{DIRECTORY}/{Path(path).name}"
    sources = [{"url": docs_url(revision, page), "title": f"{code} ({revision} docs)", "kind": "vendor-docs",
                "verified": today_tag},
               {"url": file_url(revision, page), "title": f"{page} at {revision}", "kind": "vendor-docs",
                "verified": today_tag}]
    return {
        "id": f"ncc-{code[4:].lower()}",
        "title": title_of(f"{code}: {plain(message)}"),
        "kind": "error-code",
        "component": "compiler",
        "match": {"codes": [code], "phrases": phrases[:4]},
        "stacks": [{"stack": stack} for stack in ALL_NEURONX_STACKS],
        "hardware": hardware_in(message + " ".join(explanation)),
        "description": description,
        "workaround": workaround,
        "sources": sources,
        "_first_docs": first,
    }


def harvest(mirror: Path, revision: str, result: Harvested, verified: dt.date, tags: list[str]) -> None:
    listing = [p for p in files_at(mirror, revision, DIRECTORY) if p.endswith(".rst")]
    index_path = f"{DIRECTORY}/index.rst"
    index = _index_rows(page_at(mirror, revision, index_path)) if index_path in listing else {}
    present: dict[str, str] = {}
    for tag in tags:  # the first docs tag that has each page
        for path in files_at(mirror, tag, DIRECTORY):
            present.setdefault(path, tag)
    for path in sorted(listing):
        if path == index_path:
            continue
        try:
            item = entry(path, page_at(mirror, revision, path), revision, index, present.get(path), verified)
        except HarvestError as error:
            result.not_recorded.append({"path": path, "reason": str(error)})
            continue
        first = item.pop("_first_docs")
        if first:
            item["description"] = _cap(item["description"] + f" (The page is in the docs from {first}.)")
        result.add(item, path)
    for code in sorted(set(index) - {re.sub(r"\.rst$", "", Path(p).name) for p in listing}):
        if f"{DIRECTORY}/{code[4:]}.rst" not in listing:
            result.not_recorded.append({"path": index_path, "reason": f"{code} is in the index but has no page"})
