"""`pip freeze` and `pip list` lines (both its column and its freeze formats; conda's list reads the same way), the
`Name:` / `Version:` pairs of `pip show`, and the Neuron system packages of `apt list --installed` and `dpkg -l`.

One line gives one `PipLine` (a package and its version), or nothing (a header, a ruler, a comment, a blank, a tool's
warning), or is not recognised (`None` from `read_pip_line`, so the caller can try another format on it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?"
VERSION = r"[0-9][0-9A-Za-z.+!_-]{0,62}"
_FREEZE = re.compile(rf"(?P<name>{NAME})(?:\[[^\]]{{0,200}}\])?\s*===?\s*(?P<version>{VERSION})")
_DIRECT = re.compile(rf"(?P<name>{NAME})(?:\[[^\]]{{0,200}}\])?\s+@\s+(?P<url>\S{{1,2000}})")
_WHEEL = re.compile(rf"/(?P<name>{NAME})-(?P<version>{VERSION}?)-[^/]*\.whl$")
_EDITABLE = re.compile(rf"-e\s+\S*#egg=(?P<name>{NAME})")
_COLUMNS = re.compile(rf"(?P<name>{NAME})\s+(?P<version>{VERSION})(?:\s+\S.*)?")
_HEADER = re.compile(r"(?:Package|Name)\s+Version\b.*|[-\s]+|#.*|(?:WARNING|NOTE|DEPRECATION|Listing)\b.*|"
                     r"Desired=.*|\|.*|\+\+\+-.*", re.IGNORECASE)
_APT = re.compile(rf"(?P<name>aws-neuronx?-{NAME})/\S+\s+(?P<version>{VERSION})\s+\S+(?:\s+\[[^\]]*\])?")
_DPKG = re.compile(rf"[a-z]{{2,3}}\s+(?P<name>aws-neuronx?-{NAME})(?::\S+)?\s+(?P<version>{VERSION})\s+\S+(?:\s+.*)?")
_SHOW = re.compile(r"(Name|Version|Summary|Home-page|Author|Author-email|License|License-Expression|Location|"
                   r"Editable project location|Requires|Required-by)\s*:\s*(.*)")


@dataclass(frozen=True)
class PipLine:
    """One installed package: its name as written, its version (None: not stated, e.g. an editable checkout)."""

    name: str
    version: str | None
    line: int
    kind: str = "pip"
    """Where the line comes from: pip (freeze, list, show; conda's list) or apt (apt list, dpkg -l)."""


def read_pip_line(text: str, line: int) -> PipLine | bool | None:
    """The package on this line; True for a line that says nothing (header, ruler, comment, blank); None when
    the line is not pip's."""
    stripped = text.strip()
    if not stripped or _HEADER.fullmatch(stripped):
        return True
    for pattern in (_APT, _DPKG):
        match = pattern.fullmatch(stripped)
        if match:
            return PipLine(match["name"], match["version"], line, "apt")
    for pattern in (_FREEZE, _COLUMNS):
        match = pattern.fullmatch(stripped)
        if match:
            return PipLine(match["name"], match["version"], line)
    direct = _DIRECT.fullmatch(stripped)
    if direct:
        wheel = _WHEEL.search(direct["url"].split("#", 1)[0])
        return PipLine(direct["name"], wheel["version"] if wheel else None, line)
    editable = _EDITABLE.fullmatch(stripped)
    if editable:
        return PipLine(editable["name"], None, line)
    return None


class PipShow:
    """The `Name:` ... `Version:` pairs of `pip show NAME...` output, across lines."""

    def __init__(self) -> None:
        self.name: str | None = None

    def read(self, text: str, line: int) -> PipLine | bool | None:
        """The package a `Version:` line completes; True for pip show's other fields; None when not pip show's."""
        match = _SHOW.fullmatch(text.strip())
        if match is None:
            return None
        field, value = match.group(1), match.group(2).strip()
        if field == "Name":
            self.name = value if re.fullmatch(NAME, value) else None
            return True
        if field == "Version" and self.name and re.fullmatch(VERSION, value):
            found, self.name = PipLine(self.name, value, line), None
            return found
        return True
