"""Matching error text against the known issues: codes as whole tokens, phrases as substrings; no regex of data.

The time taken is linear in the text (capped at MAX_TEXT characters) times the number of phrases: no pattern of
the registry is compiled, so no error text can make matching slow."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_TEXT = 200_000
"""The longest error text read; the rest is ignored (and the answer says so)."""
_TOKEN = re.compile(r"[A-Za-z0-9_]+")  # a fixed pattern of the package, linear in the text


@dataclass(frozen=True)
class IssueMatch:
    issue: dict[str, Any]
    codes: list[str] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.issue.get("id"), "matched_codes": self.codes, "matched_phrases": self.phrases,
                "issue": self.issue}


def _code_forms(code: str) -> set[str]:
    upper = code.upper()
    return {upper, upper.removeprefix("NCC_")}


def match_issues(text: str, issues: list[dict[str, Any]], stack: str | None = None) -> list[IssueMatch]:
    """The issues whose codes or phrases occur in `text`, those matched by a code first."""
    text = text[:MAX_TEXT]
    tokens = {token.upper() for token in _TOKEN.findall(text)}
    collapsed = " ".join(text.split()).casefold()
    found: list[IssueMatch] = []
    for issue in issues:
        if stack and stack not in {s.get("stack") for s in issue.get("stacks") or [] if isinstance(s, dict)}:
            continue
        found_rule = issue.get("match")
        rule: dict[str, Any] = found_rule if isinstance(found_rule, dict) else {}
        codes = [c for c in rule.get("codes") or [] if isinstance(c, str) and _code_forms(c) & tokens]
        phrases = [p for p in rule.get("phrases") or [] if isinstance(p, str) and p.casefold() in collapsed]
        if codes or phrases:
            found.append(IssueMatch(issue, codes, phrases))
    found.sort(key=lambda m: (not m.codes, -len(m.codes) - len(m.phrases), str(m.issue.get("id"))))
    return found


def issues_for_family(issues: list[dict[str, Any]], family: str) -> list[dict[str, Any]]:
    return [issue for issue in issues if family in (issue.get("families") or [])]
