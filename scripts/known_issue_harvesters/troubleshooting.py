"""Troubleshooting pages: each section (a heading with its own text) is one entry; the log lines of its literal
blocks (after the timestamp, pid, level and function columns) and an error-like heading are its phrases; its
Solution / Workaround subsection, or its text from a **Solution** mark or a "To work around this" paragraph on, is
the workaround, word for word with its commands. A "Description" subsection belongs to its parent's issue; index,
help and FAQ sections are not issues."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from harvesters.harvest_script import HarvestError, OutputTooLarge

from known_issue_harvesters.common import (
    ALL_NEURONX_STACKS,
    Harvested,
    Heading,
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
    ("archive/appnotes/torch-neuronx/introducing-pytorch-2-9.rst", "pytorch", ("torch-neuronx",)),
    ("archive/appnotes/torch-neuronx/introducing-pytorch-2-8.rst", "pytorch", ("torch-neuronx",)),
    ("archive/appnotes/torch-neuronx/introducing-pytorch-2-7.rst", "pytorch", ("torch-neuronx",)),
    ("archive/appnotes/torch-neuronx/introducing-pytorch-2-6.rst", "pytorch", ("torch-neuronx",)),
    ("archive/appnotes/torch-neuronx/introducing-pytorch-2-x.rst", "pytorch", ("torch-neuronx",)),
)
ONLY_UNDER = {path: "Troubleshooting and Known Issues" for path, _, _ in PAGES if "/introducing-pytorch-" in path}
"""Pages of which only one section's issues are read (the PyTorch NeuronX app notes: their migration text and FAQ
are not issues). The same issue in several app notes is one entry, from the newest."""
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


def split_parts(lines: list[str]) -> list[tuple[str, str]]:
    """A section's paragraphs and literal lines in page order: ("prose", paragraph) or ("literal", line). A literal
    block is a `::` paragraph's indented block or a code directive (`.. code:: bash`, `.. code-block::`)."""
    parts: list[tuple[str, str]] = []
    paragraph: list[str] = []
    in_block = False
    block_indent = block_lines = 0

    def flush() -> None:
        if paragraph:
            parts.append(("prose", " ".join(paragraph)))
            paragraph.clear()

    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if in_block:
            if not stripped or (re.match(r"^:[\w-]+:", stripped) and not block_lines):  # a directive's options
                continue
            if indent > block_indent:
                parts.append(("literal", stripped))
                block_lines += 1
                continue
            in_block = False
        if not stripped:
            flush()
            continue
        if stripped.startswith(".. "):
            flush()
            in_block = re.match(r"\.\.\s+(code|code-block|sourcecode|parsed-literal)::", stripped) is not None
            block_indent, block_lines = indent, 0
            continue
        if stripped.endswith("::"):
            paragraph.append(stripped[:-2].rstrip() + ("" if stripped == "::" else ":"))
            flush()
            in_block, block_indent, block_lines = True, indent, 0
            continue
        paragraph.append(stripped)
    flush()
    return [(kind, text) for kind, text in parts if kind == "literal" or text.strip(": ")]


def split_blocks(lines: list[str]) -> tuple[list[str], list[str]]:
    """(prose paragraphs, literal lines) of a section."""
    parts = split_parts(lines)
    return [text for kind, text in parts if kind == "prose"], [text for kind, text in parts if kind == "literal"]


_ADVICE = re.compile(r"(?i)^(?:\*\*(?:solutions?|workarounds?|fix|resolution)\*\*|solutions?:|workarounds?:|"
                     r"to work[- ]?around|as a work[- ]?around|to (?:fix|resolve|avoid) (?:this|it|the)|"
                     r"to (?:fix|resolve|avoid) this)")


def advice_at(text: str) -> int | None:
    """Where a paragraph starts giving advice: its start, or a sentence in it ("... >= 2.32. To work-around this, ...")."""
    if _ADVICE.match(text):
        return 0
    for found in re.finditer(r"(?<=[.!:])\s+(?=[A-Z*])", text):
        if _ADVICE.match(text[found.end():]):
            return found.end()
    return None


def workaround_text(parts: list[tuple[str, str]]) -> tuple[list[str], str]:
    """(the issue's paragraphs, the workaround as the page gives it): from the first paragraph or sentence that gives
    advice on, its paragraphs and its commands (as `code`), word for word."""
    for index, (kind, text) in enumerate(parts):
        at = advice_at(text) if kind == "prose" else None
        if at is not None:
            issue = [t for k, t in parts[:index] if k == "prose"] + ([text[:at].strip()] if at else [])
            return issue, _render([("prose", text[at:]), *parts[index + 1:]])
    return [t for k, t in parts if k == "prose"], ""


def _render(parts: list[tuple[str, str]]) -> str:
    out: list[str] = []
    code: list[str] = []
    for kind, text in parts:
        if kind == "literal":
            code.append(text)
            continue
        if code:
            out.append("`" + "; ".join(code).replace("`", "'") + "`")
            code = []
        out.append(rst_inline(re.sub(r"^\*\*(Solutions?|Workarounds?|Fix|Resolution)\*\*\s*:?\s*", "", text)))
    if code:
        out.append("`" + "; ".join(code).replace("`", "'") + "`")
    return " ".join(part for part in out if part).replace("<", "\u2039")


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


_SUBTITLE = re.compile(r"(?i)^(description|symptoms?|problem|issue|cause|explanation|error|details)$")
_NOT_AN_ISSUE = re.compile(r"(?i)^(getting help|diagnostic information|general troubleshooting|.*\btroubleshooting|"
                           r"table of contents|overview|introduction|compatibility|capture and setup|"
                           r"viewing and analysis|performance impact|memory usage considerations)$")


def _inside(found: list[Heading], title: str | None) -> set[int]:
    """The positions of the headings under the heading named `title` (all of them when `title` is None)."""
    if title is None:
        return set(range(len(found)))
    inside: set[int] = set()
    for position, heading in enumerate(found):
        if heading.title.strip().casefold() != title.casefold():
            continue
        for later in range(position + 1, len(found)):
            if found[later].level <= heading.level:
                break
            inside.add(later)
    return inside


def read_page(path: str, text: str, only_under: str | None = None) -> list[dict[str, Any]]:
    lines = text.splitlines()
    found = headings(lines)
    sections: list[dict[str, Any]] = []
    inside = _inside(found, only_under)
    for position, heading in enumerate(found):
        if (heading.level == 0 or position not in inside or _SOLUTION.match(heading.title)
                or _NOT_AN_ISSUE.match(heading.title)):
            continue
        title = heading.title
        if _SUBTITLE.match(title):  # "Description" under the issue's own heading: the entry is the parent's
            parent = next((h for h in reversed(found[:position]) if h.level < heading.level), None)
            if parent is None:
                continue
            title = parent.title
        solution_lines: list[str] = []
        for later in found[position + 1:]:
            if _SOLUTION.match(later.title) and later.level > heading.level:
                stop = next((h.line for h in found if h.line > later.line), len(lines))
                solution_lines.extend(lines[later.line + 2:stop])
                continue
            break
        own_end = next((h.line for h in found[position + 1:]), len(lines))
        parts = split_parts(lines[heading.line + 2: own_end])
        if not parts:
            continue
        issue, workaround = workaround_text(parts)
        solution = _render(split_parts(solution_lines))
        issue = [re.sub(r"^\*\*(Issue|Explanation|Problem|Cause|Symptoms?|Description)\*\*\s*:?\s*", "", p)
                 for p in issue]
        literal = [text for kind, text in parts if kind == "literal"]
        advice = next((i for i, (k, t) in enumerate(parts) if k == "prose" and advice_at(t) is not None), len(parts))
        error_literal = [text for kind, text in parts[:advice] if kind == "literal"]
        sections.append({"title": title, "line": heading.line + 1, "issue": issue,
                         "workaround": " ".join(part for part in (workaround, solution) if part),
                         "literal": error_literal, "all_literal": literal, "anchor": slug(title)})
    return sections


_MESSAGE_TITLE = re.compile(r"^(?:[\w.]*(?:Error|Exception|Warning)\b|WARNING|ERROR|Error|Warning)[:\s]")


def title_messages(raw: str, title: str) -> list[str]:
    """The error messages a section title quotes: its ``literal`` parts, the title itself when it is a message
    (`AttributeError: ...`, `WARNING:...`), or its quoted parts; split at placeholders (`...`, `<N>`)."""
    literals = [rst_inline(part) for part in re.findall(r"``(.+?)``", raw)]
    if literals:
        return [phrase for literal in literals if len(literal) >= 12 for phrase in phrase_parts(literal)]
    if _MESSAGE_TITLE.match(title):
        return phrase_parts(title)
    return [part for q in re.findall(r'["\u201c]([^"\u201c\u201d]{12,400})["\u201d]', title) + re.findall(
        r"(?<![A-Za-z])'([^']{12,400})'(?![A-Za-z])", title) for part in phrase_parts(q)]


NO_PAGE = {"frameworks/torch/pytorch-native-overview.rst": "TorchNeuron: its overview has FAQs but no troubleshooting "
           "section with error text, so nothing is recorded for the torchneuron stack from it"}


def harvest(mirror: Path, revision: str, result: Harvested, verified: dt.date, available: set[str]) -> None:
    for path, reason in NO_PAGE.items():
        result.not_recorded.append({"path": path, "reason": reason})
    seen: dict[str, str] = {}  # an app note's issue title -> where it was first recorded
    for path, component, stacks in PAGES:
        if path not in available:
            result.not_recorded.append({"path": path, "reason": f"not in the docs at {revision}"})
            continue
        try:
            sections = read_page(path, page_at(mirror, revision, path), ONLY_UNDER.get(path))
        except (OutputTooLarge, HarvestError) as error:
            result.not_recorded.append({"path": path, "reason": str(error)})
            continue
        for section in sections:
            title = plain(rst_inline(section["title"]))
            if path in ONLY_UNDER:
                key = " ".join(title.casefold().split())
                if key in seen:
                    result.not_recorded.append({"path": f"{path}:{section['line']}", "reason": "the same issue as "
                                                f"{seen[key]} (a newer app note): one entry"})
                    continue
                seen[key] = f"{path}:{section['line']}"
            phrases = log_phrases(section["literal"])
            heading_phrase = phrase_of(title)
            quoted = title_messages(section["title"], title)
            if quoted:
                phrases[:0] = quoted
            elif heading_phrase and _ERRORISH.search(title) and len(title) >= 25:
                phrases.insert(0, heading_phrase)
            body = " ".join(rst_inline(p) for p in section["issue"]) or title
            if not section["issue"] and section["literal"]:
                body = (f"{title}: `" + "; ".join(section["literal"][:6]).replace("`", "'") + "`").replace("<", "\u2039")
            all_text = " ".join([section["title"], *section["issue"], *section["literal"]])
            entry = {
                "id": slug(component, "ts", title) + "-" + str(section["line"]),
                "title": title_of(title),
                "kind": "troubleshooting",
                "component": component,
                "match": {"codes": codes_in(all_text), "phrases": list(dict.fromkeys(phrases))[:6]},
                "stacks": [{"stack": stack} for stack in stacks],
                "hardware": hardware_in(all_text) if "Inf1, Inf2 and Trn1" not in section["title"] else [],
                "description": _cap(body),
                "workaround": _cap(section["workaround"]) or None,
                "sources": [{"url": docs_url(revision, path, section["anchor"]), "title": f"{title_of(title, 80)} "
                             f"({revision} docs)", "kind": "vendor-docs", "verified": verified},
                            {"url": file_url(revision, path, section["line"]), "title": f"{path} at {revision}",
                             "kind": "vendor-docs", "verified": verified}],
            }
            result.add(entry, f"{path}:{section['line']}")
