"""Matching a pasted log against the known issues (standard library only: it runs on `check`'s path and in the page).

What a user pastes has variable parts the sources do not: timestamps, pids, device and core ids, ranks, sizes, paths,
hex addresses. Both the log and every phrase go through the same `normalise` (case folded, hex addresses, PCI
addresses, paths and digit runs replaced by placeholders, whitespace, line breaks included, collapsed), so a phrase
matches across line breaks and whatever the numbers. Only the log's error lines are read (`log_lines`: the whole log
up to its cap, the last error lines first, with the lines around them).

Ranked matching, three tiers, best first:
1. an error code the entry names, as a whole token (`NCC_EOOM001`, or its bare `EOOM001`; only code-shaped tokens;
   a status code of GENERIC_CODES such as `NRT_TIMEOUT` only adds to a match made otherwise);
2. a distinctive phrase of the entry, found whole in the log;
3. word overlap: every content word of one of the entry's distinctive phrases in one block of the log, whatever the
   order or the words between (a message whose variable part is a name).
Inside a tier, the score is BM25-like: the rarer the matched words across the registry's phrases, the higher; a later
place in the log adds a little. A phrase is distinctive when its content words weigh at least DISTINCTIVE (a plain word
1, an identifier 1.5, an exception name or a dotted module path 0.5, stop words and generic log words nothing), and it
is not one of GENERIC_PHRASES: "Too many open files", "Failed to allocate" or a truncated
`AttributeError: module 'torch_xla.core.xla_model'` alone never make a match.

`stack` and `hardware` rank, they never hide: matches for them come first, the others follow, labelled. `release` says
whether that release is affected, and which release fixed the issue where a source says so.

The stacks' own refusals (vLLM's "Model architectures [...] are not supported on Neuron for now", Optimum Neuron's
"Model type ... is not supported for task ...") are recognised and name the architecture or model type
(`refusals`); the command answers them with that model's support answer.

Time is linear in the log: only fixed patterns of this module are compiled, never text of the registry."""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from neuron_compat.check.log_lines import MAX_LOG_CHARS, Block, error_blocks

MAX_TEXT = MAX_LOG_CHARS
"""The longest log read (characters); the rest is ignored, and the answer says so."""
SITE = "https://neuron-compat.github.io/neuron-compat/"
"""The published site (mkdocs.yml's site_url): each known issue has its anchor on its Known issues page."""
DISTINCTIVE = 2.5
"""The least weight of content words a phrase needs to make a match on its own."""
OVERLAP = 4.0
"""The least weight of content words a phrase needs to match by word overlap (tier 3)."""
TIER_SCORE = {"code": 300.0, "phrase": 200.0, "words": 100.0}
GENERIC_CODES = frozenset({"NRT_FAILURE", "NRT_TIMEOUT", "NRT_STATUS", "NRT_INVALID", "NRT_SUCCESS",
                           "NRT_EXEC_COMPLETED_WITH_ERR", "NRT_UNINITIALIZED", "NRT_CLOSED"})
"""The runtime's status codes for a class of failures (a timeout, "failed"): many errors end in them, so they add to a
match made otherwise and never make one."""
_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_WORD = re.compile(r"[a-z_#][a-z0-9_#]*(?:\.[a-z_#][a-z0-9_#]*)*")
_CODE_SHAPE = re.compile(r"^(?:NCC_[A-Z]{3,6}[0-9]{3}|[A-Z][A-Z0-9]{1,15}(?:_[A-Z0-9]{2,24}){1,6}|[A-Z]{2,8}[0-9]{2,6})$")
_HEX = re.compile(r"0x[0-9a-f]+")
_PCI = re.compile(r"\b[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]\b")  # a device's PCI address
_PATH = re.compile(r"(?:[a-z]:)?(?:~|\.{1,2})?(?:/[\w.+@-]+){2,}/?")
_DIGITS = re.compile(r"[0-9]+")
_MONTH = re.compile(r"#-(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-#")
_SPACE = re.compile(r"\s+")
_ANGLES = str.maketrans({"<": " ", ">": " ", "\u2039": " ", "\u203a": " "})  # `<module ...>` as the registry writes it
_DEVICE = re.compile(r"(?<![a-z_])(?:nc|nd|neuron_?core|rank|device|dev|worker|core|gpu|node)[ :=_]?#")  # device ids
_UNIT = re.compile(r"#[ ]?(?:[kmgtp]i?b|bytes?)(?![a-z])")  # sizes
_JOINED = re.compile(r"#(?:[.,:x/-]#)+")  # versions, times, decimals, ranges, shapes
STOP_WORDS = frozenset(
    "a an the to of in on for is are was were be been being and or not no nor with without this that these those it "
    "its by at as from into onto than then there their them they we you your our can could cannot will would should "
    "may might must shall do does did has have had having if else when while which who whom what where why how all "
    "any some many much more most too very also only just such other another each every one two per via use using "
    "used please see see: etc e.g i.e error errors failed fail fails failing failure exception warning warn info debug "
    "fatal critical message module attribute file files open line status code value type object run running runs "
    "got get set".split())
"""Words that say nothing about which error it is: English stop words and words every log has."""
GENERIC_PHRASES = frozenset({
    "too many open files", "failed to allocate", "no such file or directory", "permission denied",
    "connection refused", "segmentation fault", "segmentation fault (core dumped)", "killed by signal",
    "errors were encountered while processing", "application fails to start", "out of memory",
    "cannot allocate memory", "address already in use", "broken pipe", "operation not permitted",
    "description", "resource temporarily unavailable", "core dumped"})
"""Messages any program prints or section titles: never a match of their own, whatever their length."""
_VLLM_REFUSAL = re.compile(r"Model architectures? \[([^\]\n]{1,400})\] (?:are|is) not supported on Neuron")
_OPTIMUM_REFUSAL = re.compile(r"Model type ['\"`]?([A-Za-z0-9_.-]{1,80})['\"`]? is not supported for task "
                              r"['\"`]?([A-Za-z0-9_-]{1,80})")
_NAME = re.compile(r"['\"]?([A-Za-z][A-Za-z0-9_]{0,99})['\"]?")
# vLLM's Neuron worker: "Model architectures ['X'] are not supported on Neuron for now. Supported architectures: [...]"
# (vllm-project/vllm issues 11070 and others); optimum-neuron 0.4.5 optimum/neuron/models/auto_model.py: "Model type X is
# not supported for task T in neuron in inference mode. Supported types are: [...]".


def normalise(text: str) -> str:
    """Case folded, angle brackets dropped, hex and PCI addresses, paths, numbers (with device and core ids, sizes,
versions, times, ranges) replaced, whitespace collapsed: what phrases are matched in."""
    text = text.casefold().translate(_ANGLES)
    text = _PCI.sub("pci#", _HEX.sub("0x#", text))
    text = _PATH.sub(" /path ", text)
    text = _MONTH.sub("#", _DIGITS.sub("#", text))
    text = _DEVICE.sub("#", text)
    text = _JOINED.sub("#", _UNIT.sub("#", text))
    return _SPACE.sub(" ", text).strip()


def _weight(word: str) -> float:
    """How much one word of a normalised phrase says about which error it is."""
    bare = word.strip("#._")
    if len(bare) < 3 or bare in STOP_WORDS or not any(c.isalpha() for c in bare):
        return 0.0
    if "." in bare or bare.endswith(("error", "exception", "warning")):
        return 0.5
    if "_" in bare:
        return 1.5
    return 1.0


def content_words(normal: str) -> list[str]:
    """The words of a normalised text that carry weight, in order, each once."""
    return list(dict.fromkeys(word for word in _WORD.findall(normal) if _weight(word) > 0))


_QUOTED = re.compile(r"'([^'\n]{3,80})'|\"([^\"\n]{3,80})\"|`([^`\n]{3,80})`")
_ENGLISH = frozenset("a an the to of in on for is are was be and or not no with this that it its by at as from".split())


def _quoted_words(normal: str) -> set[str]:
    """The words a phrase quotes (`'asscalar'`, `"Allocation Failure"`): a program's own names and messages."""
    return {word for found in _QUOTED.findall(normal) for word in _WORD.findall(" ".join(found))
            if len(word.strip("#._")) >= 3 and word not in _ENGLISH and "." not in word}


def phrase_weight(phrase: str) -> float:
    """The weight of a phrase's content words (0 for a generic phrase): DISTINCTIVE or more makes a match alone.
    A quoted word (`'asscalar'`, `message="Allocation Failure"`) weighs as an identifier; a dotted module path stays
    light, quoted or not."""
    normal = normalise(phrase)
    if normal.strip(" .:!") in GENERIC_PHRASES:
        return 0.0
    quoted = _quoted_words(normal)
    words = list(dict.fromkeys(word for word in _WORD.findall(normal) if _weight(word) > 0 or word in quoted))
    return sum(max(_weight(word), 1.5 if word in quoted else 0.0) for word in words)


def distinctive(phrase: str) -> bool:
    """Whether a phrase may make a match on its own (see the module's docstring)."""
    return phrase_weight(phrase) >= DISTINCTIVE


@dataclass(frozen=True)
class Refusal:
    """A stack refusing a model: which stack's message, and the architectures or model type it names."""

    stack: str
    architectures: list[str] = field(default_factory=list)
    model_type: str | None = None
    task: str | None = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"stack": self.stack, "architectures": self.architectures, "model_type": self.model_type,
                "task": self.task, "message": self.message}


def refusals(text: str) -> list[Refusal]:
    """The stacks' refusals of a model found in `text`."""
    found: list[Refusal] = []
    for match in _VLLM_REFUSAL.finditer(text):
        names = [m.group(1) for m in _NAME.finditer(match.group(1))]
        found.append(Refusal("vllm-neuron", architectures=names[:20], message=match.group(0)))
    for match in _OPTIMUM_REFUSAL.finditer(text):
        found.append(Refusal("optimum-neuron", model_type=match.group(1), task=match.group(2), message=match.group(0)))
    return found[:10]


def site_url(issue_id: str) -> str:
    """The entry's anchor on the site's Known issues page."""
    return f"{SITE}known-issues/#issue-{issue_id}"


@dataclass(frozen=True)
class Evidence:
    """One thing of an entry found in the log: a code, a phrase or a phrase's words, and the log line(s) it is on."""

    kind: str  # code | phrase | words
    pattern: str
    line: int  # 1-based, in the log
    text: str  # the log's line(s), at most 300 characters

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "pattern": self.pattern, "line": self.line, "text": self.text}


@dataclass(frozen=True)
class IssueMatch:
    issue: dict[str, Any]
    codes: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    phrase_length: int = 0  # the longest matched phrase, normalised
    stack_match: bool | None = None  # None: no --stack given
    hardware_match: bool | None = None
    release: dict[str, Any] | None = None
    tier: str = "phrase"  # code | phrase | words
    score: float = 0.0
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def why(self) -> list[str]:
        reasons = [f"error code {code} as a token" for code in self.codes]
        reasons += [f'phrase "{phrase}"' for phrase in self.phrases]
        reasons += [f'the words of "{e.pattern}"' for e in self.evidence if e.kind == "words"]
        return reasons

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.issue.get("id"), "title": self.issue.get("title"), "kind": self.issue.get("kind"),
                "component": self.issue.get("component"), "tier": self.tier, "score": round(self.score, 2),
                "why": self.why, "matched_codes": self.codes, "matched_phrases": self.phrases,
                "matched": [e.to_dict() for e in self.evidence], "site_url": site_url(str(self.issue.get("id"))),
                "sources": [s.get("url") for s in self.issue.get("sources") or [] if isinstance(s, dict)],
                "stack_match": self.stack_match, "hardware_match": self.hardware_match, "release": self.release,
                "issue": self.issue}


def _code_forms(code: str) -> set[str]:
    upper = code.upper()
    forms = {upper}
    bare = upper.removeprefix("NCC_")
    if bare != upper and _CODE_SHAPE.match(bare):
        forms.add(bare)
    return forms


def _version(text: Any) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in str(text).split("."))
    except ValueError:
        return ()


def listing_words(issue: dict[str, Any]) -> str | None:
    """What the release notes say of when an issue stopped being listed, when no note says it was fixed."""
    listed = issue.get("listed_in") if isinstance(issue.get("listed_in"), dict) else None
    if listed and listed.get("not_listed_from"):
        return f"not listed in the notes from {listed['not_listed_from']} on"
    return None


def release_answer(issue: dict[str, Any], release: str) -> dict[str, Any]:
    """Whether `release` is affected, and which release fixed the issue, as far as the sources say."""
    at = _version(release)
    listed = issue.get("listed_in") if isinstance(issue.get("listed_in"), dict) else None
    fixed = issue.get("fixed_in") if isinstance(issue.get("fixed_in"), dict) else None
    fixed_release = fixed.get("release") if fixed and not fixed.get("derived") else None
    gone = listed.get("not_listed_from") if listed else None
    answer: dict[str, Any] = {"release": release, "affected": None, "fixed_in": fixed_release, "not_listed_from": gone}
    if fixed_release and at >= _version(fixed_release):
        answer["affected"] = False
        answer["says"] = f"not affected: fixed in {fixed_release}"
    elif issue.get("kind") == "bug-fix" and fixed_release:
        answer["affected"] = True
        answer["says"] = f"affected: fixed in {fixed_release}, after {release}"
    elif listed and _version(listed.get("first")) <= at <= _version(listed.get("last")):
        answer["affected"] = True
        answer["says"] = f"affected: the {release} notes list it (listed {listed.get('first')} to {listed.get('last')})"
    elif listed and at < _version(listed.get("first")):
        answer["says"] = f"not listed before {listed.get('first')}; no source says whether {release} is affected"
    elif listed:
        answer["says"] = (f"last listed in {listed.get('last')}"
                          + (f", not listed in the notes from {gone} on" if gone else "")
                          + f"; no note says it was fixed, nor whether {release} is affected")
    else:
        answer["says"] = "no source says which releases it affects" + (f"; fixed in {fixed_release}" if fixed_release
                                                                          else "")
    return answer


@dataclass
class _Log:
    """The blocks of a log read, with what matching looks up in them."""

    blocks: list[Block]
    normal: str  # the blocks' normalised texts joined by a line break (never inside a normalised text)
    starts: list[int]  # where each block's normalised text starts in `normal`
    tokens: dict[str, int]  # upper-case token -> the last block that has it
    words: dict[str, set[int]]  # content word -> the blocks that have it

    @classmethod
    def read(cls, text: str) -> _Log:
        blocks, _ = error_blocks(text)
        normals = [normalise(block.text) for block in blocks]
        starts, position = [], 0
        for normal in normals:
            starts.append(position)
            position += len(normal) + 1
        tokens: dict[str, int] = {}
        words: dict[str, set[int]] = {}
        for index, block in enumerate(blocks):
            for token in _TOKEN.findall(block.text):
                tokens[token.upper()] = index
            for word in _WORD.findall(normals[index]):
                words.setdefault(word, set()).add(index)
        return cls(blocks, "\n".join(normals), starts, tokens, words)

    def line_of(self, block: int, needle: str) -> tuple[int, str]:
        """The log line (1-based) and its text where a normalised needle is (or the block's first line)."""
        found = self.blocks[block]
        lines = found.text.split("\n")
        for offset, line in enumerate(lines):
            if needle and needle in normalise(line):
                return found.first + offset, line.strip()[:300]
        words = content_words(needle)
        for offset, line in enumerate(lines):  # across line breaks: from the line with its first word
            if words and words[0] in _WORD.findall(normalise(line)):
                return found.first + offset, " ".join(part.strip() for part in lines[offset:offset + 3])[:300]
        return found.first, " ".join(part.strip() for part in lines)[:300]

    def line_of_token(self, block: int, forms: set[str]) -> tuple[int, str]:
        """The last log line of a block with one of the tokens (upper case), and its text."""
        found = self.blocks[block]
        lines = found.text.split("\n")
        for offset in range(len(lines) - 1, -1, -1):
            if forms & {token.upper() for token in _TOKEN.findall(lines[offset])}:
                return found.first + offset, lines[offset].strip()[:300]
        return found.first, lines[0].strip()[:300]

    def recency(self, block: int) -> float:
        return (block + 1) / len(self.blocks) if self.blocks else 0.0


def _idf(issues: list[dict[str, Any]]) -> dict[str, float]:
    """Each content word's inverse document frequency over the entries' phrases (BM25's form)."""
    frequency: dict[str, int] = {}
    count = 0
    for issue in issues:
        rule = issue.get("match") if isinstance(issue, dict) else None
        if not isinstance(rule, dict):
            continue
        count += 1
        words = {w for p in rule.get("phrases") or [] if isinstance(p, str) for w in content_words(normalise(p))}
        for word in words:
            frequency[word] = frequency.get(word, 0) + 1
    return {word: math.log(1 + (count - df + 0.5) / (df + 0.5)) for word, df in frequency.items()}


def _phrase_score(words: list[str], idf: dict[str, float]) -> float:
    return min(90.0, sum(_weight(word) * idf.get(word, 1.0) for word in words))


@dataclass
class _Found:
    """What of one entry the log has, gathered tier by tier."""

    codes: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    best: float = 0.0  # the best matched phrase's score
    longest: int = 0  # the longest matched phrase, normalised
    last_block: int = -1
    overlap: tuple[float, str, int] | None = None  # (score, phrase, block) of the best word-overlap hit
    generic: list[str] = field(default_factory=list)  # status codes of GENERIC_CODES found: they only add to a match

    def phrase(self, log: _Log, phrase: str, needle: str, block: int, score: float) -> None:
        self.phrases.append(phrase)
        self.best, self.longest = max(self.best, score), max(self.longest, len(needle))
        self.last_block = max(self.last_block, block)
        line, text = log.line_of(block, needle)
        self.evidence.append(Evidence("phrase", phrase, line, text))


def _find_codes(rule: dict[str, Any], log: _Log, found: _Found) -> None:
    for code in rule.get("codes") or []:
        if not isinstance(code, str) or not _CODE_SHAPE.match(code.upper()):
            continue
        hits = [log.tokens[form] for form in _code_forms(code) if form in log.tokens]
        if hits and code.upper() in GENERIC_CODES:
            found.generic.append(code)
        elif hits:
            found.codes.append(code)
            found.last_block = max(found.last_block, *hits)
            line, text = log.line_of_token(max(hits), _code_forms(code))
            found.evidence.append(Evidence("code", code, line, text))


def _overlap_block(words: list[str], log: _Log) -> int | None:
    """The last block of the log that has every one of the words, or None."""
    shared: set[int] | None = None
    for word in words:
        shared = set(log.words.get(word, ())) if shared is None else shared & log.words.get(word, set())
        if not shared:
            return None
    return max(shared) if shared else None


def _find_phrases(rule: dict[str, Any], log: _Log, idf: dict[str, float], found: _Found) -> None:
    partial: list[tuple[str, str, int, float]] = []  # fragments: (phrase, needle, block, score)
    for phrase in rule.get("phrases") or []:
        if not isinstance(phrase, str):
            continue
        weight = phrase_weight(phrase)
        needle = normalise(phrase)
        words = content_words(needle)
        position = log.normal.rfind(needle) if weight > 0 else -1
        if position >= 0:
            block = bisect_right(log.starts, position) - 1
            if weight < DISTINCTIVE:  # a fragment: counts only with the entry's other fragments
                partial.append((phrase, needle, block, _phrase_score(words, idf) / 2))
            else:
                found.phrase(log, phrase, needle, block, _phrase_score(words, idf))
            continue
        shared = _overlap_block(words, log) if weight >= OVERLAP else None
        if shared is not None:
            score = _phrase_score(words, idf)
            if found.overlap is None or score > found.overlap[0]:
                found.overlap = (score, phrase, shared)
    weights = sum(phrase_weight(phrase) for phrase, *_ in partial)
    if not found.phrases and len(partial) >= 2 and weights >= DISTINCTIVE and len({p[2] for p in partial}) == 1:
        for phrase, needle, block, score in partial:  # fragments of one quoted message, in one block of the log
            found.phrase(log, phrase, needle, block, score)
        found.best = sum(p[3] for p in partial)


def _match_one(issue: dict[str, Any], log: _Log, idf: dict[str, float]) -> tuple[str, float, _Found] | None:
    """(tier, score, what was found) of an entry in the log, or None when the log has nothing of it."""
    found_rule = issue.get("match")
    rule: dict[str, Any] = found_rule if isinstance(found_rule, dict) else {}
    found = _Found()
    _find_codes(rule, log, found)
    _find_phrases(rule, log, idf, found)
    if found.codes:
        tier, score = "code", TIER_SCORE["code"] + 10 * len(found.codes) + found.best / 2
    elif found.phrases:
        tier, score = "phrase", TIER_SCORE["phrase"] + found.best + 2 * (len(found.phrases) - 1)
    elif found.overlap is not None:
        overlap, phrase, found.last_block = found.overlap
        tier, score = "words", TIER_SCORE["words"] + overlap
        line, text = log.line_of(found.last_block, content_words(normalise(phrase))[0])
        found.evidence.append(Evidence("words", phrase, line, text))
    else:
        return None
    return tier, score + 2 * len(found.generic) + log.recency(found.last_block), found


def match_issues(text: str, issues: list[dict[str, Any]], stack: str | None = None, hardware: str | None = None,
                 release: str | None = None) -> list[IssueMatch]:
    """The issues whose codes or phrases occur in `text`'s error lines, best first (see the module's docstring)."""
    log = _Log.read(text[:MAX_TEXT])
    entries = [issue for issue in issues if isinstance(issue, dict)]
    idf = _idf(entries)
    found: list[IssueMatch] = []
    for issue in entries:
        matched = _match_one(issue, log, idf)
        if matched is None:
            continue
        tier, score, what = matched
        stacks = {s.get("stack") for s in issue.get("stacks") or [] if isinstance(s, dict)}
        issue_hardware = set(issue.get("hardware") or [])
        found.append(IssueMatch(
            issue, what.codes, what.phrases, what.longest,
            stack_match=None if stack is None else (not stacks or stack in stacks),
            hardware_match=None if hardware is None else (not issue_hardware or hardware in issue_hardware),
            release=release_answer(issue, release) if release else None, tier=tier, score=score,
            evidence=sorted(what.evidence, key=lambda e: e.line)))
    found.sort(key=lambda m: (m.stack_match is False, m.hardware_match is False, -m.score, str(m.issue.get("id"))))
    return found


def recipe_fixes(text: str, configuration_files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The documented flags (a configuration's recipe) whose source says they avoid an error code the text names:
    one entry per flag, with the checkpoint, instance and stack it was documented for and the source."""
    tokens = set(re.findall(r"[A-Z][A-Z0-9_]{3,}", text))
    found: list[dict[str, Any]] = []
    for file in configuration_files:
        for c in file.get("configurations") or []:
            recipe = c.get("recipe") if isinstance(c, dict) else None
            for flag in (recipe or {}).get("flags") or []:
                avoids = flag.get("avoids") if isinstance(flag, dict) else None
                if isinstance(avoids, str) and avoids in tokens:
                    found.append({"code": avoids, "flag": flag.get("flag"), "why": flag.get("why"),
                                  "checkpoint": c.get("checkpoint"), "instance": c.get("instance"),
                                  "stack": c.get("stack"), "configuration": c.get("id"),
                                  "source": flag.get("source_line") or (c.get("source") or {}).get("url")})
    return found


def issues_for_family(issues: list[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    return [issue for issue in issues if family in (issue.get("families") or [])]


_NULLABLE_TEXT = {"type": ["string", "null"]}
FAMILY_ISSUES_SCHEMA: dict[str, Any] = {
    "title": "Known Issues", "type": "array",
    "description": "The known issues of the model's family (registry/known-issues/), the newest listed first; "
                   "pin_release: a release the release notes recommend staying on.",
    "items": {"type": "object", "additionalProperties": False,
              "required": ["id", "title", "kind", "component", "stacks", "listed_in", "fixed_in", "pin_release"],
              "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "kind": {"type": "string"},
                             "component": _NULLABLE_TEXT, "stacks": {"type": "array", "items": {"type": "string"}},
                             "listed_in": {"type": ["object", "null"]}, "fixed_in": {"type": ["object", "null"]},
                             "pin_release": _NULLABLE_TEXT}},
}
"""The JSON Schema of `check --json`'s known_issues (family_issues)."""


def family_issues(issues: list[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    """The family's known issues for `check`: id, title, kind, component, stacks, listed_in, fixed_in and the release
    a source recommends staying on (pin_release), the newest listed first."""
    found: list[dict[str, Any]] = [{"id": issue.get("id"), "title": issue.get("title"), "kind": issue.get("kind") or "curated",
              "component": issue.get("component"),
              "stacks": [s.get("stack") for s in issue.get("stacks") or [] if isinstance(s, dict)],
              "listed_in": issue.get("listed_in"), "fixed_in": issue.get("fixed_in"),
              "pin_release": issue.get("pin_release")} for issue in issues_for_family(issues, family)]
    found.sort(key=lambda i: (_version(dict(i["listed_in"] or {}).get("last")), str(i["id"])), reverse=True)
    return found


def pin_lines(items: list[dict[str, Any]]) -> list[str]:
    """Advice under the recommendation: a release the release notes recommend staying on, and why."""
    return [f"  ! the release notes recommend Neuron {i['pin_release']} for: {i['title']} ({i['id']})"
            for i in items if i.get("pin_release")]


def family_issue_lines(items: list[dict[str, Any]]) -> list[str]:
    """`check`'s lines for the family's known issues."""
    lines: list[str] = []
    if items:
        lines.append(f"Known issues of this family ({len(items)}; details: the site's Known issues page):")
    for item in items:
        listed = item.get("listed_in") or {}
        fixed = item.get("fixed_in") or {}
        facts = [", ".join(item["stacks"]) or str(item.get("component"))]
        if listed:
            facts.append(f"listed {listed.get('first')}" + (f" to {listed.get('last')}" if listed.get("last") !=
                                                             listed.get("first") else ""))
        if listed.get("not_listed_from"):
            facts.append(f"not listed in the notes from {listed['not_listed_from']} on")
        if fixed and not fixed.get("derived"):
            facts.append(f"fixed in {fixed.get('release')}")
        lines.append(f"  {item['title']} ({'; '.join(facts)})")
    return lines
