"""What every known-issue harvester shares: the mirror read at a revision with bounded git output, the command
line (--mirror, --revision, --output, --check), reStructuredText headings and bullet items turned into plain
Markdown, error-code and phrase extraction, validation of each entry against the contract (an entry the contract
refuses goes to `not_recorded` with the reason), and writing (or checking) the harvested file.

Imports only the package's contract and safeio, and the bounded git reader of scripts/harvesters."""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from harvesters import harvest_script
from harvesters.harvest_script import HarvestError
from pydantic import ValidationError

from neuron_compat.contract.known_issues import ERROR_CODE_PATTERN, KnownIssue, KnownIssuesFile
from neuron_compat.safeio.atomic_write import write_atomically
from neuron_compat.safeio.safe_text import one_line

REPOSITORY = "https://github.com/aws-neuron/aws-neuron-sdk"
DOCS = "https://awsdocs-neuron.readthedocs-hosted.com/en"
MAX_GIT_OUTPUT = 4 * 1024 * 1024
"""The most bytes read from one git command (a page); more is a page that is not recorded."""
MAX_PAGE_CHARS = 2_000_000
ALL_NEURONX_STACKS = ("torch-neuronx", "torchneuron", "nxd-inference", "nxd-training", "optimum-neuron", "vllm-neuron")
"""Every stack of trn/inf2 runs the same compiler, runtime and tools."""
HARDWARE_WORDS = {"inf1": "inf1", "inf2": "inf2", "trn1": "trn1", "trn1n": "trn1", "trn2": "trn2", "trn3": "trn3"}


def git(mirror: Path, *args: str, limit: int = MAX_GIT_OUTPUT) -> str:
    """`git --git-dir=<mirror> <args>`'s output, at most `limit` bytes (more: OutputTooLarge), decoded leniently:
    the configuration harvesters' bounded reader."""
    return harvest_script.git(mirror, *args, cap=limit)


def files_at(mirror: Path, revision: str, *paths: str) -> list[str]:
    """The files under `paths` at the revision, NUL-separated by git (`-z`): a name with a space is one name."""
    return harvest_script.tree_paths(mirror, revision, *paths, recursive=True, cap=MAX_GIT_OUTPUT)


def page_at(mirror: Path, revision: str, path: str) -> str:
    return git(mirror, "show", f"{revision}:{path}")


def docs_url(revision: str, path: str, anchor: str = "") -> str:
    """The published page of a docs source file at the revision's version."""
    page = re.sub(r"\.(rst|md|ipynb)$", ".html", path)
    return f"{DOCS}/{revision}/{page}" + (f"#{anchor}" if anchor else "")


def file_url(revision: str, path: str, line: int | None = None) -> str:
    return f"{REPOSITORY}/blob/{revision}/{path}" + (f"#L{line}" if line else "")


# --- reStructuredText to Markdown-ish text -------------------------------------------------------------------------

_ROLE = re.compile(r":[a-z:]+:`([^`<]*?)\s*(?:<[^`>]*>)?`")
_LINK = re.compile(r"`([^`<]+?)\s*<(https://[^`>\s]+)>`_{1,2}")
_OTHER_LINK = re.compile(r"`([^`<]+?)\s*<[^`>]*>`_{1,2}")
_LITERAL = re.compile(r"``(.+?)``")
_MD_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def rst_inline(text: str) -> str:
    """Roles to their text, https links to Markdown links, ``literal`` to `literal`; angle brackets kept only inside
    code (the contract refuses raw HTML)."""
    text = _ROLE.sub(lambda m: m.group(1) or "", text)
    text = _LINK.sub(lambda m: f"[{m.group(1).strip()}]({m.group(2)})", text)
    text = _OTHER_LINK.sub(lambda m: m.group(1).strip(), text)
    text = _MD_LINK.sub(lambda m: f"[{m.group(1)}]({m.group(2)})" if m.group(2).startswith("https://") else m.group(1),
                        text)
    text = _LITERAL.sub(lambda m: "`" + m.group(1).replace("`", "'") + "`", text)
    text = text.replace("<=", "\u2264").replace(">=", "\u2265").replace("<", "\u2039")  # the contract refuses HTML
    text = text.replace("&", "and") if re.search(r"&#?[A-Za-z0-9]+;", text) else text
    return " ".join(text.split())


def plain(text: str) -> str:
    """One line without Markdown marks (a title)."""
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = text.replace(">=", "\u2265").replace("<=", "\u2264").replace("**", "").replace("`", "'")
    text = text.replace("<", "\u2039").replace(">", "\u203a")
    return " ".join(text.split())


def title_of(text: str, limit: int = 160) -> str:
    """The first sentence of `text`, at most `limit` characters, cut at a word."""
    text = plain(text).lstrip("-*\u2022 ")
    sentence = re.split(r"(?<=[a-z0-9)\]'])\.\s+(?=[A-Z])", text, maxsplit=1)[0].rstrip(".:")
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;: ") + " ..."


@dataclass
class Heading:
    title: str
    level: int
    line: int


_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+_.:])\1{2,}\s*$")


def headings(lines: list[str]) -> list[Heading]:
    """Section titles with their level (by the order underline characters first appear) and line (0-based)."""
    order: list[str] = []
    found: list[Heading] = []
    for index in range(1, len(lines)):
        match = _UNDERLINE.match(lines[index])
        title = lines[index - 1].strip()
        if not match or not title or _UNDERLINE.match(lines[index - 1]) or lines[index - 1].startswith(" "):
            continue
        if len(lines[index].strip()) < min(len(title), 4) - 0:
            continue
        over = index >= 2 and lines[index - 2].strip() == lines[index].strip()
        char = ("o" if over else "") + match.group(1)
        if char not in order:
            order.append(char)
        found.append(Heading(title, order.index(char), index - 1))
    return found


@dataclass
class Item:
    text: str  # the item's raw text (continuation lines joined)
    line: int  # 1-based first line


_BULLET = re.compile(r"^(\s*)([*\-+•]|\d+\.|#\.)\s+(.*)$")


def bullet_items(lines: list[str], start: int, end: int) -> Iterator[Item]:
    """The outermost bullet items (and `.. note::` blocks) between two line indexes, with their nested lines."""
    items: list[Item] = []
    current: list[str] | None = None
    base: int | None = None
    first = 0
    note_indent: int | None = None
    for index in range(start, end):
        line = lines[index]
        if not line.strip():
            if current is not None:
                current.append("")
            continue
        indent = len(line) - len(line.lstrip())
        bullet = _BULLET.match(line)
        directive = re.match(r"^\s*\.\.\s+(note|important|warning|caution)::\s*(.*)$", line)
        if bullet and (base is None or indent <= base) and note_indent is None:
            if current is not None:
                items.append(Item("\n".join(current), first))
            base, current, first = indent, [bullet.group(3)], index + 1
            continue
        if directive and (base is None or indent <= base):
            if current is not None:
                items.append(Item("\n".join(current), first))
            note_indent, current, first, base = indent, [directive.group(2)], index + 1, indent
            continue
        if current is not None and (indent > (base or 0) or (note_indent is None and not line.startswith(".."))):
            if note_indent is None and indent <= (base or 0) and items is not None and _ends_paragraph(current):
                items.append(Item("\n".join(current), first))
                current, base = None, None
                continue
            current.append(line.strip())
            continue
        if current is not None:
            items.append(Item("\n".join(current), first))
            current, base, note_indent = None, None, None
    if current is not None:
        items.append(Item("\n".join(current), first))
    for item in items:
        text = item.text.strip()
        if text and not text.startswith(".."):
            yield Item(text, item.line)


def _ends_paragraph(current: list[str]) -> bool:
    return bool(current) and current[-1] == ""


# --- what error text an entry is matched on --------------------------------------------------------------------------

_CODE_SHAPE = re.compile(ERROR_CODE_PATTERN)
_CODE_TOKEN = re.compile(r"\b(NCC_[A-Z]{3,6}[0-9]{3}|NRT_[A-Z_]{3,30}|NERR_[A-Z_]{3,30}|NEURON_RT_[A-Z_]+_ERROR)\b")
_MESSAGE_HINT = re.compile(r"(?i)(error|fail|failed|failure|exception|cannot|can't|could not|unable|not found|"
                           r"not supported|unsupported|invalid|timeout|timed out|mismatch|exceed|abort|denied|"
                           r"no such|out of memory|oom|unknown|refused|hang|killed|segmentation|assert|requires|"
                           r"too many|deprecat|warning|segfault|crash)")
_ERROR_BEFORE = re.compile(r"(?i)(?:error|message|fails? with|failed with|raised?|raises|reports?|prints?|shows?)\s*"
                           r"(?:the |an? |following )?(?:error|message|exception|warning)?\s*:?\s*$")


def codes_in(text: str) -> list[str]:
    found: list[str] = []
    for code in _CODE_TOKEN.findall(text):
        if _CODE_SHAPE.match(code) and not code.endswith(("_SUCCESS", "_OK")) and code not in found:
            found.append(code)
    return found


_EXCEPTION_MESSAGE = re.compile(r"\b((?:[A-Za-z_]+\.)*[A-Z][A-Za-z]+(?:Error|Exception|Warning)\s*:\s*[^`\n]{8,200})")


def literal_messages(rst: str) -> list[str]:
    """Literal strings (``...``), quoted strings and `SomeError: message` texts that read like error output: words, a
    space, an error word."""
    found: list[str] = []
    said = [m.group(1) for m in re.finditer(r"``(.+?)``", rst, flags=re.S)
            if _ERROR_BEFORE.search(rst[max(0, m.start() - 40):m.start()])]  # "fails with the error ``...``"
    sources = re.findall(r"``(.+?)``", rst, flags=re.S) + re.findall(r'"([^"\n]{12,200})"', rst)
    sources += [m.rstrip(".,;) ") for m in _EXCEPTION_MESSAGE.findall(rst.replace("``", ""))]
    for raw in sources:
        if not _MESSAGE_HINT.search(raw) and raw not in said:
            continue
        for phrase in phrase_parts(raw):  # a quoted message with "..." or <placeholders>: its parts
            if phrase not in found:
                found.append(phrase)
    return found


def phrase_parts(raw: str) -> list[str]:
    """The phrases of a text with placeholders (`<N>`, `path` in angle quotes, `X`, `...`): its parts between them
    that are phrases of their own, longest first (at most three)."""
    parts = [phrase_of(part) for part in re.split(r"\u2039[^\u203a]*\u203a|<[^>]*>|\bX\b|\.\.\.+|\u2026", raw)]
    return sorted(dict.fromkeys(part for part in parts if part), key=len, reverse=True)[:3]


def phrase_of(raw: str) -> str | None:
    """A phrase the contract accepts (8-200 characters, single spaces), or None."""
    phrase = " ".join(raw.replace("\\n", " ").split()).strip(" .:")
    if len(phrase) > 200:  # a long message: its first sentences that fit
        cut = phrase[:200]
        phrase = (cut[: cut.rfind(". ")] if ". " in cut else cut).strip(" .:")
    words = re.findall(r"[A-Za-z]{2,}", phrase)
    if len(phrase) < 16 or len(phrase) > 200 or len(words) < 3 or phrase.casefold() in GENERIC_PHRASES:
        return None
    return phrase


GENERIC_PHRASES = {"no such file or directory", "file: no such file or directory", "errors were encountered while "
                   "processing", "application fails to start", "segmentation fault (core dumped)",
                   "killed by signal", "permission denied", "connection refused"}
"""Messages any program prints: never a phrase of their own (they would match unrelated errors)."""


def hardware_in(text: str) -> list[str]:
    found = {HARDWARE_WORDS[word.lower()] for word in re.findall(r"(?i)\b(inf1|inf2|trn1n|trn1|trn2|trn3)\b", text)}
    return sorted(found)


def slug(*parts: str) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")[:40].strip("-")
    return base or "issue"


def digest(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).lower().encode()).hexdigest()[:8]


# --- the file -------------------------------------------------------------------------------------------------------

@dataclass
class Harvested:
    source: str
    description: str
    script: str
    revision: str
    issues: list[dict[str, Any]] = field(default_factory=list)
    not_recorded: list[dict[str, str]] = field(default_factory=list)

    def add(self, entry: dict[str, Any], where: str) -> bool:
        """Keep `entry` if the contract accepts it; else name it in not_recorded with the contract's reason."""
        entry = {key: value for key, value in entry.items() if value not in (None, [], "")}
        if "match" in entry and not (entry["match"].get("codes") or entry["match"].get("phrases")):
            del entry["match"]
        if "match" in entry:
            entry.pop("browse_only", None)
        else:
            entry.setdefault("browse_only", "the source quotes no error text")
        try:
            KnownIssue.model_validate(entry)
        except ValidationError as error:
            first = error.errors()[0]
            loc = ".".join(str(part) for part in first["loc"])
            self.not_recorded.append({"path": where, "reason": one_line(f"the contract refuses it: {loc}: {first['msg']}")[:190]})
            return False
        self.issues.append(entry)
        return True

    def body(self, today: dt.date) -> dict[str, Any]:
        ids: dict[str, int] = {}
        for entry in self.issues:  # unique ids, stable: a repeated id gets -2, -3 in source order
            count = ids.get(entry["id"], 0) + 1
            ids[entry["id"]] = count
            if count > 1:
                entry["id"] = f"{entry['id']}-{count}"
        body = {"source": self.source, "description": self.description,
                "harvest": {"script": self.script, "repository": REPOSITORY, "revision": self.revision, "taken": today},
                "issues": self.issues, "not_recorded": self.not_recorded}
        KnownIssuesFile.model_validate(body)
        return body


class _NoAliases(yaml.SafeDumper):
    """Values written out every time: the loader refuses files with many aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def header(script: str, what: str) -> str:
    return ("# yaml-language-server: $schema=../schemas/known-issues.schema.json\n"
            f"# Generated by {script} from {what}. Do not edit by hand.\n")


def validation_lines(error: ValidationError, limit: int = 20) -> list[str]:
    """A pydantic error as one readable line per problem (`issues.3.title: Field required`), at most `limit`."""
    lines = [one_line(f"{'.'.join(str(part) for part in item['loc']) or '(file)'}: {item['msg']}")[:300]
             for item in error.errors()[:limit]]
    if error.error_count() > limit:
        lines.append(f"... and {error.error_count() - limit} more")
    return lines


def _without_taken(text: str) -> str:
    return re.sub(r"(?m)^(\s*taken:).*$", r"\1", text)


def run(argv: list[str] | None, *, doc: str | None, output: Path, script: str, what: str,
        harvest: Callable[[Path, str], Harvested]) -> int:
    """--mirror, --revision, --output, --check: harvest, then write atomically or compare (exit 1 when stale)."""
    parser = argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0] if doc else None)
    parser.add_argument("--mirror", "--git-dir", dest="mirror", type=Path, required=True,
                        help="the git directory of an aws-neuron-sdk mirror or clone")
    parser.add_argument("--revision", required=True, help="the docs tag to read, e.g. v2.32.0")
    parser.add_argument("--output", type=Path, default=output, help=f"default: registry/known-issues/{output.name}")
    parser.add_argument("--check", action="store_true", help="fail if the output file is not up to date")
    args = parser.parse_args(argv)
    try:
        git(args.mirror, "rev-parse", "--verify", f"{args.revision}^{{commit}}")
        harvested = harvest(args.mirror, args.revision)
        body = harvested.body(dt.datetime.now(dt.UTC).date())
    except ValidationError as error:
        print(one_line(f"{args.mirror}: revision {args.revision}: the harvested file is refused by the contract "
                       f"({error.error_count()} problem(s)):"), file=sys.stderr)
        for line in validation_lines(error):
            print(f"  {line}", file=sys.stderr)
        return 1
    except (HarvestError, OSError) as error:
        print(one_line(f"{args.mirror}: revision {args.revision}: {error}"), file=sys.stderr)
        return 1
    text = header(script, what) + yaml.dump(body, Dumper=_NoAliases, sort_keys=False, width=120, allow_unicode=True)
    print(f"{len(body['issues'])} issues, {len(body['not_recorded'])} not recorded", file=sys.stderr)
    if args.check:
        try:
            current = args.output.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = ""
        if _without_taken(current) != _without_taken(text):
            print(f"{args.output} is out of date; rerun {script}", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date", file=sys.stderr)
        return 0
    try:
        write_atomically(args.output, text)
    except OSError as error:
        print(one_line(f"{args.output}: {error}"), file=sys.stderr)
        return 1
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _version_of(tag: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"[0-9]+", tag)[:3])


def tags_between(mirror: Path, first: str, last: str) -> list[str]:
    """The mirror's release tags vX.Y.Z from `first` to `last`, oldest first (other tags ignored)."""
    tags = [tag for tag in git(mirror, "tag", "--list", "v*").split() if re.fullmatch(r"v[0-9]+\.[0-9]+\.[0-9]+", tag)]
    low, high = _version_of(first), _version_of(last)
    return sorted((tag for tag in tags if low <= _version_of(tag) <= high), key=_version_of)


def commit_date(mirror: Path, revision: str, today: dt.date | None = None) -> dt.date:
    """The revision's commit date: the day the sources read were last known to say so (`verified`). A date after
    today (a clock or a mirror that lies) is refused: `verified` is never in the future."""
    text = git(mirror, "log", "-1", "--format=%cs", revision).strip()
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise HarvestError(f"the commit date of {revision} is not a date: {text[:40]!r}") from None
    latest = (today or dt.datetime.now(dt.UTC).date()) + dt.timedelta(days=1)
    if day > latest:
        raise HarvestError(f"the commit date of {revision} is {day.isoformat()}, after today: a source cannot be "
                           "verified in the future (check the mirror and the clock)")
    return day
