"""A problem found in the registry, with where it is and how to fix it, and its output formats."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from neuron_compat.safeio.safe_text import one_line


@dataclass(frozen=True, order=True)
class Problem:
    """One thing a contributor must fix. `line`/`column` are 1-based; 0 means 'whole file'."""

    file: str
    line: int
    column: int
    field: str
    message: str
    hint: str = ""
    rule: str = "schema"

    def format(self) -> str:
        """One line, whatever the registry text in it holds (controls and newlines are shown escaped)."""
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        field = f" {self.field}:" if self.field else ""
        hint = f" ({self.hint})" if self.hint else ""
        return one_line(f"{where}:{field} {self.message}{hint}")

    def format_github(self) -> str:
        """A GitHub Actions workflow command: shown as an annotation on the changed line."""
        text = f"{self.field}: {self.message}" if self.field else self.message
        if self.hint:
            text += f" ({self.hint})"
        text = one_line(text)
        props = f"file={_escape_property(one_line(self.file))}"
        if self.line:
            props += f",line={self.line},col={self.column}"
        props += f",title={_escape_property('neuron-compat ' + self.rule)}"
        return f"::error {props}::{_escape_data(text)}"

    def to_dict(self) -> dict[str, object]:
        return {key: one_line(value) if isinstance(value, str) else value for key, value in asdict(self).items()}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


FORMATS = ("text", "github", "json")


def render_problems(problems: list[Problem], output_format: str) -> str:
    ordered = sorted(problems)
    if output_format == "json":
        return json.dumps([p.to_dict() for p in ordered], indent=2, ensure_ascii=False)
    if output_format == "github":
        return "\n".join(p.format_github() for p in ordered)
    return "\n".join(p.format() for p in ordered)
