"""Troubleshooting pages: each section (a heading with its own text) is one entry; the log lines of its literal
blocks (after the timestamp, pid, level and function columns) and an error-like heading are its phrases; its
Solution / Workaround subsection or **Solution** paragraph is the workaround."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from harvesters.harvest_script import HarvestError, OutputTooLarge

from known_issue_harvesters.common import (
    ALL_NEURONX_STACKS,
    Harvested,
    codes_in,
    docs_url,
    file_url,
    hardware_in,
    headings,
    page_at,
    phrase_of,
    phrase_parts,
    plain,
    rst_inline,
    slug,
    title_of,
)

PAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("neuron-runtime/nrt-troubleshoot.rst", "runtime", ALL_NEURONX_STACKS),
    ("neuron-runtime/nrtpy/nrtpy-troubleshooting.rst", "runtime", ()),
    ("libraries/nxd-inference/misc/nxdi-troubleshooting.rst", "nxd-inference", ("nxd-inference", "vllm-neuron")),
    ("archive/nxd-training/training-troubleshooting.rst", "nxd-training", ("nxd-training",)),
    ("archive/nxd-training/known_issues.rst", "nxd-training", ("nxd-training",)),
    ("setup/setup-troubleshooting.rst", "setup", ALL_NEURONX_STACKS),
    ("setup/troubleshooting.rst", "setup", ALL_NEURONX_STACKS),
    ("about-neuron/troubleshooting.rst", "setup", ALL_NEURONX_STACKS),
    ("deploy/troubleshooting.rst", "containers", ALL_NEURONX_STACKS),
    ("tools/neuron-explorer/troubleshooting.rst", "dev-tools", ALL_NEURONX_STACKS),
    ("frameworks/jax/setup/jax-neuronx-known-issues.rst", "jax", ()),
    ("archive/torch-neuron/troubleshooting-guide.rst", "pytorch", ("torch-neuron",)),
)
"""(page, component, stacks): the pages read when the tag has them; a missing one is named in not_recorded."""
_SOLUTION = re.compile(r"(?i)^(solutions?|workarounds?|resolution|fix|how to fix|possible solutions?)$")
_ERRORISH = re.compile(r"(?i)(error|fail|unable|cannot|can't|not (available|compatible|supported|found)|exceed|"
                       r"timeout|timed out|mismatch|invalid|insufficient|overflow|out[- ]of|abort|denied|killed|"
                       r"unsupported|no such|refused)")
_LOG_PREFIX = re.compile(
    r"^\s*(?:\$\s+)?(?:\[?\d{4}-[A-Za-z0-9]{2,3}-\d{1,2}[ T][\d:.,]+\]?\s*)?(?:\d+:\d+\s+)?"
    r"(?:(?:ERROR|WARN(?:ING)?|INFO|FATAL|CRITICAL)\s*:?\s+)?(?:[A-Z]{2,6}:[A-Za-z_0-9.]+\s+)?")
MAX_MARKDOWN = 1800


def _cap(text: str) -> str:
    if len(text) <= MAX_MARKDOWN:
        return text
    cut = text[:MAX_MARKDOWN]
    return (cut[: cut.rfind(". ") + 1] if ". " in cut else cut.rsplit(" ", 1)[0]) + " ..."


def split_blocks(lines: list[str]) -> tuple[list[str], list[str]]:
    """(prose paragraphs, literal lines) of a section."""
    prose: list[str] = []
    literal: list[str] = []
    paragraph: list[str] = []
    in_block = False
    block_indent = 0
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if in_block:
            if not stripped:
                continue
            if indent > block_indent:
                literal.append(stripped)
                continue
            in_block = False
        if not stripped:
            if paragraph:
                prose.append(" ".join(paragraph))
                paragraph = []
            continue
        if stripped.startswith(".. "):
            if paragraph:
                prose.append(" ".join(paragraph))
                paragraph = []
            in_block = stripped.endswith("::") and re.match(r"\.\.\s+(code|code-block|sourcecode)::", stripped) is not None
            block_indent = indent
            continue
        if stripped.endswith("::"):
            paragraph.append(stripped[:-2].rstrip() + ("" if stripped == "::" else ":"))
            prose.append(" ".join(paragraph))
            paragraph = []
            in_block, block_indent = True, indent
            continue
        paragraph.append(stripped)
    if paragraph:
        prose.append(" ".join(paragraph))
    return [p for p in prose if p.strip(": ")], literal


def log_phrases(literal: list[str]) -> list[str]:
    """The message part of error-like log lines."""
    found: list[str] = []
    for line in literal:
        if not _ERRORISH.search(line) or line.startswith(("$", "#", "sudo ", "pip ", "import ", "from ")):
            continue
        message = _LOG_PREFIX.sub("", line).strip()
        phrase = phrase_of(message)
        if phrase and phrase not in found:
            found.append(phrase)
    return found


def read_page(path: str, text: str) -> list[dict[str, Any]]:
    lines = text.splitlines()
    found = headings(lines)
    sections: list[dict[str, Any]] = []
    for position, heading in enumerate(found):
        if heading.level == 0 or _SOLUTION.match(heading.title) or heading.title.lower().startswith("table of contents"):
            continue
        end = len(lines)
        solution_lines: list[str] = []
        for later in found[position + 1:]:
            if _SOLUTION.match(later.title) and later.level > heading.level:
                stop = next((h.line for h in found if h.line > later.line), len(lines))
                solution_lines.extend(lines[later.line + 2:stop])
                continue
            end = later.line
            break
        own_end = next((h.line for h in found[position + 1:]), len(lines))
        prose, literal = split_blocks(lines[heading.line + 2: own_end])
        solution_prose, solution_literal = split_blocks(solution_lines)
        if not prose and not literal:
            continue
        issue, workaround = [], list(solution_prose)
        for paragraph in prose:
            marked = re.match(r"\*\*(Solution|Workaround|Fix|Resolution)\*\*\s*:?\s*(.*)", paragraph)
            if marked:
                workaround.append(marked.group(2))
            else:
                issue.append(re.sub(r"^\*\*(Issue|Explanation|Problem|Cause|Symptom)\*\*\s*:?\s*", "", paragraph))
        del end
        sections.append({"title": heading.title, "line": heading.line + 1, "issue": issue, "workaround": workaround,
                         "literal": literal + solution_literal[:0], "anchor": slug(heading.title)})
    return sections


NO_PAGE = {"frameworks/torch/pytorch-native-overview.rst": "TorchNeuron: its overview has FAQs but no troubleshooting "
           "section with error text, so nothing is recorded for the torchneuron stack from it"}


def harvest(mirror: Path, revision: str, result: Harvested, verified: dt.date, available: set[str]) -> None:
    for path, reason in NO_PAGE.items():
        result.not_recorded.append({"path": path, "reason": reason})
    for path, component, stacks in PAGES:
        if path not in available:
            result.not_recorded.append({"path": path, "reason": f"not in the docs at {revision}"})
            continue
        try:
            sections = read_page(path, page_at(mirror, revision, path))
        except (OutputTooLarge, HarvestError) as error:
            result.not_recorded.append({"path": path, "reason": str(error)})
            continue
        for section in sections:
            title = plain(rst_inline(section["title"]))
            phrases = log_phrases(section["literal"])
            heading_phrase = phrase_of(title)
            quoted = [part for q in re.findall(r'["\u201c]([^"\u201c\u201d]{12,400})["\u201d]', title) + re.findall(
                r"(?<![A-Za-z])'([^']{12,400})'(?![A-Za-z])", title) for part in phrase_parts(q)]
            if quoted:
                phrases[:0] = quoted
            elif heading_phrase and _ERRORISH.search(title) and len(title) >= 25:
                phrases.insert(0, heading_phrase)
            body = " ".join(rst_inline(p) for p in section["issue"]) or title
            all_text = " ".join([section["title"], *section["issue"], *section["literal"]])
            entry = {
                "id": slug(component, "ts", title) + "-" + str(section["line"]),
                "title": title_of(title),
                "kind": "troubleshooting",
                "component": component,
                "match": {"codes": codes_in(all_text), "phrases": phrases[:6]},
                "stacks": [{"stack": stack} for stack in stacks],
                "hardware": hardware_in(all_text) if "Inf1, Inf2 and Trn1" not in section["title"] else [],
                "description": _cap(body),
                "workaround": _cap(" ".join(rst_inline(p) for p in section["workaround"])) or None,
                "sources": [{"url": docs_url(revision, path, section["anchor"]), "title": f"{title_of(title, 80)} "
                             f"({revision} docs)", "kind": "vendor-docs", "verified": verified},
                            {"url": file_url(revision, path, section["line"]), "title": f"{path} at {revision}",
                             "kind": "vendor-docs", "verified": verified}],
            }
            result.add(entry, f"{path}:{section['line']}")
