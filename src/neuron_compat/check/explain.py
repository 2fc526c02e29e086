"""Matching a pasted log against the known issues (standard library only: it runs on `check`'s path and in the page).

What a user pastes has variable parts the sources do not: timestamps, pids, device and core ids, sizes, paths, hex
addresses. Both the log and every phrase go through the same `normalise` (case folded, hex addresses, paths and digit
runs replaced by placeholders, whitespace, line breaks included, collapsed), so a phrase matches across line breaks and
whatever the numbers. Codes match as whole tokens (`NCC_EOOM001`, or its bare `EOOM001`), and only codes with a code's
shape (an underscore or digits), so no code matches an ordinary word.

Ranking, best first: a code beats any phrase, a longer phrase beats a shorter one (its normalised length). `stack` and
`hardware` rank, they never hide: matches for them come first, the others follow, labelled. `release` says whether
that release is affected and which release fixed it (from `listed_in` / `fixed_in`; derived fixes say so).

The stacks' own refusals (vLLM's "Model architectures [...] are not supported on Neuron for now", Optimum Neuron's
"Model type ... is not supported for task ...") are recognised and name the architecture or model type
(`refusals`); the command answers them with that model's support answer.

Time is linear in the text (capped at MAX_TEXT characters) times the phrases: only fixed patterns of this module
are compiled, never text of the registry."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_TEXT = 200_000
"""The longest error text read; the rest is ignored (and the answer says so)."""
MIN_PHRASE_LETTERS = 10
"""A phrase whose normalised form has fewer letters is too generic to match on."""
_TOKEN = re.compile(r"[A-Za-z0-9_]+")
_CODE_SHAPE = re.compile(r"^(?:NCC_[A-Z]{3,6}[0-9]{3}|[A-Z][A-Z0-9]{1,15}(?:_[A-Z0-9]{2,24}){1,4}|[A-Z]{2,8}[0-9]{2,6})$")
_HEX = re.compile(r"0x[0-9a-f]+")
_PCI = re.compile(r"\b[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-9a-f]\b")  # a device's PCI address
_PATH = re.compile(r"(?:[a-z]:)?(?:~|\.{1,2})?(?:/[\w.+@-]+){2,}/?")
_DIGITS = re.compile(r"[0-9]+")
_MONTH = re.compile(r"#-(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-#")
_SPACE = re.compile(r"\s+")
# vLLM's Neuron worker: "Model architectures ['X'] are not supported on Neuron for now. Supported architectures: [...]"
# (vllm-project/vllm issues 11070 and others); optimum-neuron 0.4.5 optimum/neuron/models/auto_model.py: "Model type X is
# not supported for task T in neuron in inference mode. Supported types are: [...]".
_VLLM_REFUSAL = re.compile(r"Model architectures? \[([^\]\n]{1,400})\] (?:are|is) not supported on Neuron")
_OPTIMUM_REFUSAL = re.compile(r"Model type ['\"`]?([A-Za-z0-9_.-]{1,80})['\"`]? is not supported for task "
                              r"['\"`]?([A-Za-z0-9_-]{1,80})")
_NAME = re.compile(r"['\"]?([A-Za-z][A-Za-z0-9_]{0,99})['\"]?")


def normalise(text: str) -> str:
    """Case folded, hex addresses, paths and numbers replaced, whitespace collapsed: what phrases are matched in."""
    text = text.casefold()
    text = _PCI.sub("pci#", _HEX.sub("0x#", text))
    text = _PATH.sub(" /path ", text)
    text = _MONTH.sub("#-mon-#", _DIGITS.sub("#", text))
    return _SPACE.sub(" ", text).strip()


def _letters(text: str) -> int:
    return sum(1 for character in text if character.isalpha())


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
    text = text[:MAX_TEXT]
    found: list[Refusal] = []
    for match in _VLLM_REFUSAL.finditer(text):
        names = [m.group(1) for m in _NAME.finditer(match.group(1))]
        found.append(Refusal("vllm-neuron", architectures=names[:20], message=match.group(0)))
    for match in _OPTIMUM_REFUSAL.finditer(text):
        found.append(Refusal("optimum-neuron", model_type=match.group(1), task=match.group(2), message=match.group(0)))
    return found[:10]


@dataclass(frozen=True)
class IssueMatch:
    issue: dict[str, Any]
    codes: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    phrase_length: int = 0  # the longest matched phrase, normalised
    stack_match: bool | None = None  # None: no --stack given
    hardware_match: bool | None = None
    release: dict[str, Any] | None = None

    @property
    def why(self) -> list[str]:
        reasons = [f"error code {code} as a token" for code in self.codes]
        reasons += [f'phrase "{phrase}"' for phrase in self.phrases]
        return reasons

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.issue.get("id"), "title": self.issue.get("title"), "kind": self.issue.get("kind"),
                "component": self.issue.get("component"), "why": self.why, "matched_codes": self.codes,
                "matched_phrases": self.phrases, "stack_match": self.stack_match,
                "hardware_match": self.hardware_match, "release": self.release, "issue": self.issue}


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


def release_answer(issue: dict[str, Any], release: str) -> dict[str, Any]:
    """Whether `release` is affected, and which release fixed the issue, as far as the sources say."""
    at = _version(release)
    listed = issue.get("listed_in") if isinstance(issue.get("listed_in"), dict) else None
    fixed = issue.get("fixed_in") if isinstance(issue.get("fixed_in"), dict) else None
    fixed_release = fixed.get("release") if fixed else None
    derived = bool(fixed.get("derived")) if fixed else False
    answer: dict[str, Any] = {"release": release, "affected": None, "fixed_in": fixed_release, "derived": derived}
    if fixed_release and at >= _version(fixed_release):
        answer["affected"] = False
        answer["says"] = (f"not affected: not listed from {fixed_release} on (derived from the release notes)" if derived
                          else f"not affected: fixed in {fixed_release}")
    elif issue.get("kind") == "bug-fix" and fixed_release:
        answer["affected"] = True
        answer["says"] = f"affected: fixed in {fixed_release}, after {release}"
    elif listed and _version(listed.get("first")) <= at <= _version(listed.get("last")):
        answer["affected"] = True
        answer["says"] = f"affected: the {release} notes list it (listed {listed.get('first')} to {listed.get('last')})"
    elif listed and at < _version(listed.get("first")):
        answer["says"] = f"not listed before {listed.get('first')}; no source says whether {release} is affected"
    elif listed:
        answer["says"] = (f"last listed in {listed.get('last')}; no source says whether {release} is affected"
                          + (f"; fixed in {fixed_release}" if fixed_release else ""))
    else:
        answer["says"] = "no source says which releases it affects" + (f"; fixed in {fixed_release}" if fixed_release
                                                                          else "")
    return answer


def match_issues(text: str, issues: list[dict[str, Any]], stack: str | None = None, hardware: str | None = None,
                 release: str | None = None) -> list[IssueMatch]:
    """The issues whose codes or phrases occur in `text`, best first (see the module's docstring)."""
    text = text[:MAX_TEXT]
    tokens = {token.upper() for token in _TOKEN.findall(text)}
    normal = normalise(text)
    found: list[IssueMatch] = []
    for issue in issues:
        if not isinstance(issue, dict):
            continue
        found_rule = issue.get("match")
        rule: dict[str, Any] = found_rule if isinstance(found_rule, dict) else {}
        codes = [c for c in rule.get("codes") or [] if isinstance(c, str) and _CODE_SHAPE.match(c.upper())
                 and _code_forms(c) & tokens]
        phrases: list[str] = []
        longest = 0
        for phrase in rule.get("phrases") or []:
            if not isinstance(phrase, str):
                continue
            needle = normalise(phrase)
            if _letters(needle) >= MIN_PHRASE_LETTERS and needle in normal:
                phrases.append(phrase)
                longest = max(longest, len(needle))
        if not (codes or phrases):
            continue
        stacks = {s.get("stack") for s in issue.get("stacks") or [] if isinstance(s, dict)}
        issue_hardware = set(issue.get("hardware") or [])
        found.append(IssueMatch(
            issue, codes, phrases, longest,
            stack_match=None if stack is None else (not stacks or stack in stacks),
            hardware_match=None if hardware is None else (not issue_hardware or hardware in issue_hardware),
            release=release_answer(issue, release) if release else None))
    found.sort(key=lambda m: (m.stack_match is False, m.hardware_match is False, not m.codes, -len(m.codes),
                              -m.phrase_length, -len(m.phrases), str(m.issue.get("id"))))
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
        if fixed:
            facts.append(f"not listed from {fixed.get('release')} (derived)" if fixed.get("derived")
                         else f"fixed in {fixed.get('release')}")
        lines.append(f"  {item['title']} ({'; '.join(facts)})")
    return lines
